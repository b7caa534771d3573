// A guest's open cancellation request, from the orders list (docs/ticketing.md "Cancellation
// requests"): the guest's reason; grant (the refund path: provider or offline, credit note, mail) or
// decline with a reason the guest is mailed.
import { useState } from 'preact/hooks'
import { formatDateTime } from '../../../../server/i18n/format'
import { errorText, post } from '../../../api/client'
import { Dialog } from '../../../components/dialog'
import { toast } from '../../../components/overlay'
import { Alert, Button } from '../../../components/ui'
import { fieldMessage, t } from '../../../i18n'

export interface RequestOrder {
  id: number
  number: string
  cancellationRequest: { status: string; reason: string; createdAt: string } | null
}

export function CancellationRequestDialog({ eventId, timezone, order, onClose, onDone }: { eventId: number; timezone: string; order: RequestOrder; onClose(): void; onDone(): void }) {
  const [reason, setReason] = useState('')
  const [fieldErr, setFieldErr] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState<'grant' | 'decline' | null>(null)
  const act = async (what: 'grant' | 'decline') => {
    if (what === 'decline' && !reason.trim()) return setFieldErr('REQUIRED')
    setBusy(what)
    setError(null)
    try {
      await post(`/proxy/api/events/${eventId}/orders/${order.id}/cancellationRequest/${what}`, what === 'decline' ? { reason: reason.trim() } : undefined)
      toast(t(what === 'grant' ? 'orderRequest.granted' : 'orderRequest.declined'))
      onDone()
    } catch (err) {
      const fields = (err as { errorFields?: Array<{ errorType: string }> }).errorFields
      if (fields?.length) setFieldErr(fields[0].errorType)
      else setError(errorText(err))
    } finally {
      setBusy(null)
    }
  }
  const r = order.cancellationRequest
  return (
    <Dialog
      title={t('orderRequest.title', { number: order.number })}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button variant="secondary" busy={busy === 'decline'} disabled={busy !== null} onClick={() => void act('decline')}>
            {t('orderRequest.decline')}
          </Button>
          <Button busy={busy === 'grant'} disabled={busy !== null} onClick={() => void act('grant')}>
            {t('orderRequest.grant')}
          </Button>
        </>
      }
    >
      {r && (
        <>
          <p>{t('orderRequest.asked', { at: formatDateTime(r.createdAt, timezone) })}</p>
          <blockquote class="tickets-request-reason">{r.reason}</blockquote>
        </>
      )}
      <p class="muted">{t('orderRequest.grantHint')}</p>
      <div class={`field ${fieldErr ? 'has-error' : ''}`}>
        <label for="decline-reason">{t('orderRequest.declineReason')}</label>
        <textarea id="decline-reason" name="reason" rows={3} maxLength={1000} value={reason} aria-invalid={!!fieldErr} onInput={(e) => (setReason((e.target as HTMLTextAreaElement).value), setFieldErr(null))} />
        {fieldErr && (
          <small class="field-error" role="alert">
            {fieldMessage(fieldErr)}
          </small>
        )}
      </div>
      {error && (
        <Alert tone="error" role="alert">
          {error}
        </Alert>
      )}
    </Dialog>
  )
}
