// The event's "Übersetzungen" tab (issue 24, docs/languages.md "Organiser texts"): a language chooser
// and the event's name, subtitle, description and location name in that language, each beside its
// German text. Empty fields read German on the guest's side.
import { useEffect, useState } from 'preact/hooks'
import type { FieldErrors } from 'react-hook-form'
import { ApiError, errorText, put } from '../../api/client'
import { Field } from '../../components/form'
import { useResource } from '../../components/hooks'
import { Alert, Button, Card, Spinner } from '../../components/ui'
import { fieldMessage, t } from '../../i18n'
import { LANGUAGES } from '../../../server/i18n/languages'
import { RichText } from './rich-text'

type Texts = Record<string, string | null>
interface TranslationsAnswer {
  languages: string[]
  german: Texts
  translations: Record<string, Texts>
}
/** One translatable text: its key in the answer, its label key, its length limit (the German field's), rich text or a line. */
export interface TranslatedField {
  key: string
  label: string
  max: number
  rich?: boolean
}

const EVENT_FIELDS: TranslatedField[] = [
  { key: 'displayName', label: 'events.field.displayName', max: 200 },
  { key: 'subTitle', label: 'events.field.subTitle', max: 300 },
  { key: 'locationName', label: 'events.field.locationName', max: 200 },
  { key: 'description', label: 'events.field.description', max: 50000, rich: true },
]

/** The language's own name and its German name ("Français (Französisch)"). */
export const languageLabel = (code: string) => {
  const l = LANGUAGES.find((x) => x.code === code)
  return l ? (l.displayName === l.fullName ? l.displayName : `${l.displayName} (${l.fullName})`) : code
}

/** The language's own name ("Français"), for the translated fields' labels. */
const ownName = (code: string) => LANGUAGES.find((x) => x.code === code)?.displayName ?? code

export function EventTranslationsTab({ event }: { event: { id: number } }) {
  return (
    <Card class="event-translations">
      <h2>{t('events.translations.title')}</h2>
      <p class="muted">{t('events.translations.intro')}</p>
      <TranslationsEditor path={`/proxy/api/events/${event.id}/translations`} fields={EVENT_FIELDS} />
    </Card>
  )
}

/** A language chooser and each field's translation beside its German text (events, agreements). */
export function TranslationsEditor({ path, fields }: { path: string; fields: TranslatedField[] }) {
  const { data, error, reload } = useResource<TranslationsAnswer>(path)
  const [language, setLanguage] = useState<string | null>(null)
  const [values, setValues] = useState<Record<string, string>>({})
  const [errors, setErrors] = useState<Record<string, { message: string }>>({})
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const lang = language ?? data?.languages[0] ?? null
  useEffect(() => {
    if (!data || !lang) return
    const tr = data.translations[lang]
    setValues(Object.fromEntries(fields.map((f) => [f.key, tr?.[f.key] ?? ''])))
    setErrors({})
  }, [data, lang])
  if (error) return <Alert tone="error">{errorText(error)}</Alert>
  if (!data) return <Spinner />
  if (!lang) return <Alert tone="info">{t('events.translations.none')}</Alert>
  const set = (k: string) => (v: string) => setValues((o) => ({ ...o, [k]: v }))
  async function save() {
    setBusy(true)
    setMessage(null)
    setErrors({})
    try {
      await put(`${path}/${encodeURIComponent(lang!)}`, values)
      setMessage({ tone: 'ok', text: t('events.translations.saved') })
      await reload()
    } catch (e) {
      if (e instanceof ApiError && e.errorFields.length) setErrors(Object.fromEntries(e.errorFields.map((f) => [f.field, { message: fieldMessage(f.errorType) }])))
      setMessage({ tone: 'error', text: errorText(e) })
    } finally {
      setBusy(false)
    }
  }
  const german = data.german
  return (
    <div class="translations-editor">
      <div class="form-grid">
        <Field label={t('events.translations.language')} name="language" errors={{}} size="half">
          {(a) => (
            <select {...a} value={lang} onChange={(e) => (setLanguage((e.target as HTMLSelectElement).value), setMessage(null))}>
              {data.languages.map((code) => (
                <option key={code} value={code}>
                  {languageLabel(code)}
                  {data.translations[code] ? ' ✓' : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {fields.map((f) => (
        <div class="translation-row" key={f.key}>
          <div class="translation-german">
            <p class="field-label">
              {t(f.label)} – {t('events.translations.german')}
            </p>
            {f.rich ? (
              german[f.key] ? <div class="rich-text muted" dangerouslySetInnerHTML={{ __html: german[f.key]! }} /> : <p class="muted">–</p>
            ) : (
              <p class="muted">{german[f.key] || '–'}</p>
            )}
          </div>
          <div class="translation-own" lang={lang}>
            {f.rich ? (
              <RichText key={lang} id={`tr-${f.key}`} label={`${t(f.label)} – ${ownName(lang)}`} value={values[f.key] ?? ''} onChange={set(f.key)} />
            ) : (
              <Field label={`${t(f.label)} – ${ownName(lang)}`} name={f.key} errors={errors as FieldErrors} maxLength={f.max}>
                {(a) => <input {...a} value={values[f.key] ?? ''} maxLength={f.max} placeholder={german[f.key] ?? ''} onInput={(e) => set(f.key)((e.target as HTMLInputElement).value)} />}
              </Field>
            )}
          </div>
        </div>
      ))}
      <div class="form-actions">
        <Button onClick={save} busy={busy}>
          {t('events.translations.save')}
        </Button>
      </div>
    </div>
  )
}
