// The label a person saw for a field key the server names (firstName, fields.12,
// escortPersons.0.lastName): messages shown to people never contain field keys
// ("• lastName: Die Eingabe ist zu lang." read like a program's output).
import { type FieldDef, labelOf } from '../../../server/modules/forms/definitions'
import { t } from '../../i18n'

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
    return f ? labelOf(f, language) : null
  }
  const escort = /^escortPersons\.(\d+)\.([A-Za-z]+)/.exec(key)
  if (escort) {
    const part = ESCORT_TEXT[escort[2]]
    return `${t('registration.escortNumber', { n: Number(escort[1]) + 1 })}${part ? `: ${t(part)}` : ''}`
  }
  const basic = defs.find((d) => d.defaultField && BASIC[d.defaultField] === key)
  if (basic) return labelOf(basic, language)
  return BASIC_TEXT[key] ? t(BASIC_TEXT[key]) : null
}
