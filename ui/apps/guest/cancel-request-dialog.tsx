// The guest asks to cancel a paid order (docs/ticketing.md "Cancellation requests"): a reason, sent
// to the organiser, who answers by e-mail. Loaded when opened (guest pages' script budget).
import { useEffect, useRef, useState } from 'preact/hooks'
import { errorText, post } from '../../api/client'
import { Dialog } from '../../components/dialog'
import { Alert, Button } from '../../components/ui'
import { fieldMessage, t } from '../../i18n'

export function CancelRequestDialog({ visitorId, onCancel, onDone }: { visitorId: number; onCancel(): void; onDone(): void }) {
  const [reason, setReason] = useState('')
  const [fieldErr, setFieldErr] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const ref = useRef<HTMLTextAreaElement>(null)
  useEffect(() => ref.current?.focus(), [])
  const submit = async (e?: Event) => {
    e?.preventDefault()
    if (!reason.trim()) return setFieldErr('REQUIRED')
    setBusy(true)
    setError(null)
    try {
      await post(`/proxy/api/guest/events/visitors/${visitorId}/cancellationRequest`, { reason: reason.trim() })
      onDone()
    } catch (err) {
      const fields = (err as { errorFields?: Array<{ errorType: string }> }).errorFields
      if (fields?.length) setFieldErr(fields[0].errorType)
      else setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      title={t('guestPortal.cancelRequest.title')}
      onClose={onCancel}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button busy={busy} onClick={() => void submit()}>
            {t('guestPortal.cancelRequest.submit')}
          </Button>
        </>
      }
    >
      <form class="form-grid" noValidate onSubmit={submit}>
        <p class="field-full">{t('guestPortal.cancelRequest.intro')}</p>
        <div class={`field field-full ${fieldErr ? 'has-error' : ''}`}>
          <label for="cancel-request-reason">{t('guestPortal.cancelRequest.reason')}</label>
          <textarea id="cancel-request-reason" ref={ref} name="reason" rows={4} maxLength={1000} value={reason} aria-invalid={!!fieldErr} onInput={(e) => (setReason((e.target as HTMLTextAreaElement).value), setFieldErr(null))} />
          {fieldErr && (
            <small class="field-error" role="alert">
              {fieldMessage(fieldErr)}
            </small>
          )}
        </div>
      </form>
      {error && (
        <Alert tone="error" role="alert">
          {error}
        </Alert>
      )}
    </Dialog>
  )
}
