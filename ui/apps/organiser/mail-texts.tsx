// Mail texts (docs/mail.md, "Mail texts"), AGENCY.MANAGE: choose a mail and a language, word its subject
// and body with the kind's placeholders (a click inserts one at the cursor), preview it with sample
// values, save it or go back to the default. A broken placeholder is refused by the server with a
// German message naming it.
import { useEffect, useRef, useState } from 'preact/hooks'
import { del, errorText, post, put } from '../../api/client'
import { Field } from '../../components/form'
import { useResource } from '../../components/hooks'
import { Alert, Badge, Button, Card, PageHeader, Spinner } from '../../components/ui'
import { t } from '../../i18n'

interface MailTextItem {
  kind: string
  placeholders: string[]
  defaultText: { subject: string; body: string }
  override: { subject: string; body: string } | null
}
interface Rendered {
  subject: string
  html: string
  text: string
}

const LANGS = [
  { code: 'de', label: 'Deutsch (Sie)' },
  { code: 'de-du', label: 'Deutsch (du)' },
  { code: 'en', label: 'English' },
]

export function MailTextsPage() {
  const [language, setLanguage] = useState('de')
  const [kind, setKind] = useState('INVITATION')
  const { data, error, reload } = useResource<{ items: MailTextItem[] }>(`/proxy/api/agency/mailTexts?language=${encodeURIComponent(language)}`)
  const item = data?.items.find((i) => i.kind === kind)
  const [subject, setSubject] = useState('')
  const [body, setBody] = useState('')
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null)
  const [preview, setPreview] = useState<Rendered | null>(null)
  const [busy, setBusy] = useState(false)
  const focused = useRef<'subject' | 'body'>('body')
  const subjectRef = useRef<HTMLInputElement>(null)
  const bodyRef = useRef<HTMLTextAreaElement>(null)
  useEffect(() => {
    if (!item) return
    const text = item.override ?? item.defaultText
    setSubject(text.subject)
    setBody(text.body)
    setPreview(null)
  }, [item?.kind, language, data])
  if (error) return <Alert tone="error">{error.errorTranslation ?? error.errorMessage}</Alert>
  if (!data || !item) return <Spinner />
  const path = `/proxy/api/agency/mailTexts/${kind}/${encodeURIComponent(language)}`

  function insert(p: string) {
    const el = focused.current === 'subject' ? subjectRef.current : bodyRef.current
    const value = focused.current === 'subject' ? subject : body
    const start = el?.selectionStart ?? value.length
    const end = el?.selectionEnd ?? value.length
    const next = `${value.slice(0, start)}{${p}}${value.slice(end)}`
    if (focused.current === 'subject') setSubject(next)
    else setBody(next)
    requestAnimationFrame(() => {
      el?.focus()
      el?.setSelectionRange(start + p.length + 2, start + p.length + 2)
    })
  }
  async function run(action: () => Promise<void>) {
    setBusy(true)
    setMessage(null)
    try {
      await action()
    } catch (e) {
      setMessage({ tone: 'error', text: errorText(e) })
    } finally {
      setBusy(false)
    }
  }
  const save = () =>
    run(async () => {
      await put(path, { subject, body })
      setMessage({ tone: 'ok', text: t('mail.texts.saved') })
      await reload()
    })
  const reset = () =>
    run(async () => {
      await del(path)
      setMessage({ tone: 'ok', text: t('mail.texts.resetDone') })
      await reload()
    })
  const showPreview = () =>
    run(async () => {
      setPreview(await post<Rendered>(`${path}/preview`, { subject, body }))
    })

  return (
    <>
      <PageHeader title={t('mail.texts.title')} />
      <Card class="mail-texts">
        <p class="muted">{t('mail.texts.intro')}</p>
        <div class="form-grid">
          <Field label={t('mail.texts.kind')} name="kind" errors={{}} size="half">
            {(a) => (
              <select {...a} value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value)}>
                {data.items.map((i) => (
                  <option key={i.kind} value={i.kind}>
                    {t(`mail.texts.kind.${i.kind}`)}
                    {i.override ? ` (${t('mail.texts.own')})` : ''}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('mail.texts.language')} name="language" errors={{}} size="half">
            {(a) => (
              <select {...a} value={language} onChange={(e) => setLanguage((e.target as HTMLSelectElement).value)}>
                {LANGS.map((l) => (
                  <option key={l.code} value={l.code}>
                    {l.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <p>
          <Badge tone={item.override ? 'info' : 'neutral'} data-testid="mail-text-state">
            {item.override ? t('mail.texts.own') : t('mail.texts.default')}
          </Badge>
        </p>
        {message && <Alert tone={message.tone}>{message.text}</Alert>}
        <div class="form-grid">
          <Field label={t('mail.texts.subject')} name="subject" errors={{}}>
            {(a) => <input {...a} ref={subjectRef} value={subject} maxLength={200} onFocus={() => (focused.current = 'subject')} onInput={(e) => setSubject((e.target as HTMLInputElement).value)} />}
          </Field>
          <Field label={t('mail.texts.body')} name="body" errors={{}} hint={t('mail.texts.bodyHint')}>
            {(a) => <textarea {...a} ref={bodyRef} rows={8} value={body} maxLength={10000} onFocus={() => (focused.current = 'body')} onInput={(e) => setBody((e.target as HTMLTextAreaElement).value)} />}
          </Field>
        </div>
        <div>
          <p class="field-label">{t('mail.texts.placeholders')}</p>
          <p class="placeholder-list">
            {item.placeholders.map((p) => (
              <Button key={p} variant="secondary" onClick={() => insert(p)} title={t(`mail.texts.placeholder.${p}`)}>
                {`{${p}}`} – {t(`mail.texts.placeholder.${p}`)}
              </Button>
            ))}
          </p>
        </div>
        <div class="form-actions">
          <Button variant="secondary" onClick={showPreview} busy={busy}>
            {t('mail.texts.preview')}
          </Button>
          {item.override && (
            <Button variant="secondary" onClick={reset} busy={busy}>
              {t('mail.texts.reset')}
            </Button>
          )}
          <Button onClick={save} busy={busy}>
            {t('mail.texts.save')}
          </Button>
        </div>
      </Card>
      {preview && (
        <Card class="mail-preview" aria-label={t('mail.texts.previewTitle')}>
          <h2>{t('mail.texts.previewTitle')}</h2>
          <p>
            <strong>{t('mail.texts.subject')}:</strong> <span data-testid="preview-subject">{preview.subject}</span>
          </p>
          <iframe title={t('mail.texts.previewTitle')} sandbox="" srcdoc={preview.html} style="width:100%;height:480px;border:1px solid #ddd" />
        </Card>
      )}
    </>
  )
}
