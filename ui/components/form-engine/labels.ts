// The label a person saw for a field key the server names (firstName, fields.12,
// escortPersons.0.lastName): messages shown to people never contain field keys
// ("• lastName: Die Eingabe ist zu lang." read like a program's output).
import { type FieldDef, labelOf } from '../../../server/modules/forms/definitions'
import { germanText, t } from '../../i18n'

/**
 * The label of a field in the page's language: the organiser's translation, else for a standard
 * field still named as the default form names it (in German) the catalogue's text in that language
 * (the English page showed "Vorname"), else the organiser's name.
 */
export function shownLabel(f: Pick<FieldDef, 'displayName' | 'translations' | 'defaultField'>, language: string): string {
  if (language === 'de') return f.displayName
  const own = labelOf(f, language)
  if (own !== f.displayName) return own
  if (f.defaultField && f.displayName === germanText(`defaultField.${f.defaultField}`)) return t(`defaultField.${f.defaultField}`)
  return f.displayName
}

const BASIC: Record<string, string> = { SALUTATION: 'salutation', TITLE: 'title', FIRST_NAME: 'firstName', LAST_NAME: 'lastName', EMAIL: 'email' }
const BASIC_TEXT: Record<string, string> = {
  salutation: 'registration.salutation',
  title: 'registration.title.field',
  firstName: 'registration.firstName',
  lastName: 'registration.lastName',
  email: 'registration.email',
}
const ESCORT_TEXT: Record<string, string> = {
  ...BASIC_TEXT,
  company: 'form.company',
  position: 'form.position',
  phoneNumber: 'form.phone',
  web: 'form.web',
  info: 'form.info',
  birthday: 'form.birthday',
  covidState: 'fieldType.COVID_STATE',
  address: 'fieldType.ADDRESS',
}

/** The label of a field key in this form, or null when the key names nothing the form shows. */
export function fieldLabel(key: string, defs: readonly FieldDef[], language: string): string | null {
  const custom = /^fields\.(\d+)/.exec(key)
  if (custom) {
    const f = defs.find((d) => String(d.id) === custom[1])
    return f ? shownLabel(f, language) : null
  }
  const escort = /^escortPersons\.(\d+)\.([A-Za-z]+)/.exec(key)
  if (escort) {
    const part = ESCORT_TEXT[escort[2]]
    return `${t('registration.escortNumber', { n: Number(escort[1]) + 1 })}${part ? `: ${t(part)}` : ''}`
  }
  const basic = defs.find((d) => d.defaultField && BASIC[d.defaultField] === key)
  if (basic) return shownLabel(basic, language)
  return BASIC_TEXT[key] ? t(BASIC_TEXT[key]) : null
}
