// The tickets tab's terms and cancellation policy (docs/ticketing.md, "Selling rules"): a text, a
// link or both; with any, buyers tick a checkbox before paying and the order keeps the acceptance.
import { useEffect, useState } from 'preact/hooks'
import { errorText, put } from '../../../api/client'
import { useResource } from '../../../components/hooks'
import { toast } from '../../../components/overlay'
import { Button, Card, Spinner } from '../../../components/ui'
import { t } from '../../../i18n'
import { Err, type Errors } from './editable-list'

interface Terms {
  termsText: string | null
  termsUrl: string | null
}

export function TermsSettings({ eventId, canEdit }: { eventId: number; canEdit: boolean }) {
  const res = useResource<Terms>(`/proxy/api/events/${eventId}/ticketTerms`)
  const [text, setText] = useState('')
  const [url, setUrl] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    if (res.data) {
      setText(res.data.termsText ?? '')
      setUrl(res.data.termsUrl ?? '')
    }
  }, [res.data])
  if (!res.data) return <Spinner />
  const submit = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    try {
      await put(`/proxy/api/events/${eventId}/ticketTerms`, { termsText: text, termsUrl: url })
      setErrors({})
      await res.reload()
      toast(t('ticketing.terms.saved'))
    } catch (err) {
      const fields = (err as { errorFields?: Array<{ field: string; errorType: string }> }).errorFields ?? []
      if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [f.field, f.errorType])))
      else toast(errorText(err), 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card>
      <h2>{t('ticketing.terms.title')}</h2>
      <p class="muted">{t('ticketing.terms.hint')}</p>
      <form class="tickets-form" onSubmit={submit} noValidate>
        <label class="tickets-form-wide">
          {t('ticketing.terms.text')}
          <textarea name="termsText" rows={5} maxLength={20000} value={text} disabled={!canEdit} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
          <Err code={errors.termsText} />
        </label>
        <label class="tickets-form-wide">
          {t('ticketing.terms.url')}
          <input name="termsUrl" type="url" placeholder="https://" value={url} disabled={!canEdit} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} />
          <Err code={errors.termsUrl} />
        </label>
        {canEdit && (
          <div class="tickets-form-actions">
            <Button type="submit" busy={busy}>
              {t('ticketing.terms.save')}
            </Button>
          </div>
        )}
      </form>
    </Card>
  )
}
