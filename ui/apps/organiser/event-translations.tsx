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

interface Texts {
  displayName: string | null
  subTitle: string | null
  description: string | null
  locationName: string | null
}
interface TranslationsAnswer {
  languages: string[]
  german: Texts
  translations: Record<string, Texts>
}

const EMPTY: Record<keyof Texts, string> = { displayName: '', subTitle: '', description: '', locationName: '' }
const LIMITS: Record<keyof Texts, number> = { displayName: 200, subTitle: 300, description: 50000, locationName: 200 }
const LABELS: Record<keyof Texts, string> = { displayName: 'events.field.displayName', subTitle: 'events.field.subTitle', description: 'events.field.description', locationName: 'events.field.locationName' }

/** The language's own name and its German name ("Français (Französisch)"). */
export const languageLabel = (code: string) => {
  const l = LANGUAGES.find((x) => x.code === code)
  return l ? (l.displayName === l.fullName ? l.displayName : `${l.displayName} (${l.fullName})`) : code
}

/** The language's own name ("Français"), for the translated fields' labels. */
const ownName = (code: string) => LANGUAGES.find((x) => x.code === code)?.displayName ?? code

export function EventTranslationsTab({ event }: { event: { id: number } }) {
  const { data, error, reload } = useResource<TranslationsAnswer>(`/proxy/api/events/${event.id}/translations`)
  const [language, setLanguage] = useState<string | null>(null)
  const [values, setValues] = useState(EMPTY)
  const [errors, setErrors] = useState<Record<string, { message: string }>>({})
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const lang = language ?? data?.languages[0] ?? null
  useEffect(() => {
    if (!data || !lang) return
    const tr = data.translations[lang]
    setValues({ displayName: tr?.displayName ?? '', subTitle: tr?.subTitle ?? '', description: tr?.description ?? '', locationName: tr?.locationName ?? '' })
    setErrors({})
  }, [data, lang])
  if (error) return <Alert tone="error">{errorText(error)}</Alert>
  if (!data) return <Spinner />
  if (!lang) return <Alert tone="info">{t('events.translations.none')}</Alert>
  const set = (k: keyof Texts) => (v: string) => setValues((o) => ({ ...o, [k]: v }))
  async function save() {
    setBusy(true)
    setMessage(null)
    setErrors({})
    try {
      await put(`/proxy/api/events/${event.id}/translations/${encodeURIComponent(lang!)}`, values)
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
    <Card class="event-translations">
      <h2>{t('events.translations.title')}</h2>
      <p class="muted">{t('events.translations.intro')}</p>
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
      {(['displayName', 'subTitle', 'locationName', 'description'] as const).map((k) => (
        <div class="translation-row" key={k}>
          <div class="translation-german">
            <p class="field-label">
              {t(LABELS[k])} – {t('events.translations.german')}
            </p>
            {k === 'description' ? (
              german.description ? <div class="rich-text muted" dangerouslySetInnerHTML={{ __html: german.description }} /> : <p class="muted">–</p>
            ) : (
              <p class="muted">{german[k] || '–'}</p>
            )}
          </div>
          <div class="translation-own" lang={lang}>
            {k === 'description' ? (
              <RichText key={lang} id={`tr-${k}`} label={`${t(LABELS[k])} – ${ownName(lang)}`} value={values.description} onChange={set('description')} />
            ) : (
              <Field label={`${t(LABELS[k])} – ${ownName(lang)}`} name={k} errors={errors as FieldErrors} maxLength={LIMITS[k]}>
                {(a) => <input {...a} value={values[k]} maxLength={LIMITS[k]} placeholder={german[k] ?? ''} onInput={(e) => set(k)((e.target as HTMLInputElement).value)} />}
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
    </Card>
  )
}
