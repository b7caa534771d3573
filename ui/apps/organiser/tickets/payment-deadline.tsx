// The payment deadline of unpaid transfers and invoices (docs/ticketing.md "Payment deadline"):
// the event's setting on the Tickets tab (days after the order, empty = the sales settings' payment
// terms; whether an unpaid transfer is cancelled at it) and the organiser's extension of one order's
// deadline from the orders list (a day and time in the event's time zone).
import { useEffect, useRef, useState } from 'preact/hooks'
import { formatDateTime, utcToZonedInput, zonedToUtc } from '../../../../server/i18n/format'
import { errorText, post, put } from '../../../api/client'
import { Dialog } from '../../../components/dialog'
import { useResource } from '../../../components/hooks'
import { toast } from '../../../components/overlay'
import { Alert, Button, Card, Spinner } from '../../../components/ui'
import { fieldMessage, t } from '../../../i18n'

interface Settings {
  paymentDeadlineDays: number | null
  agencyPaymentTermsDays: number
  cancelOverdue: boolean
}

export function PaymentDeadlineSettings({ eventId, canEdit }: { eventId: number; canEdit: boolean }) {
  const res = useResource<Settings>(`/proxy/api/events/${eventId}/ticketSettings`)
  const [days, setDays] = useState<string | null>(null)
  const [cancel, setCancel] = useState<boolean | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  if (!res.data) return <Spinner />
  const shownDays = days ?? (res.data.paymentDeadlineDays == null ? '' : String(res.data.paymentDeadlineDays))
  const shownCancel = cancel ?? res.data.cancelOverdue
  const save = async (e: Event) => {
    e.preventDefault()
    const trimmed = shownDays.trim()
    const n = trimmed ? Number(trimmed) : null
    if (n !== null && (!Number.isInteger(n) || n < 1 || n > 365)) return setError('INVALID')
    setBusy(true)
    setError(null)
    try {
      await put(`/proxy/api/events/${eventId}/ticketSettings`, { paymentDeadlineDays: n, cancelOverdue: shownCancel })
      await res.reload()
      setDays(null)
      setCancel(null)
      toast(t('orderDeadline.settings.saved'))
    } catch (err) {
      const fields = (err as { errorFields?: Array<{ errorType: string }> }).errorFields
      if (fields?.length) setError(fields[0].errorType)
      else toast(errorText(err), 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card>
      <form class="tickets-deadline" noValidate onSubmit={save}>
        <h2>{t('orderDeadline.settings.title')}</h2>
        <p class="muted">{t('orderDeadline.settings.hint')}</p>
        <div class={`field ${error ? 'has-error' : ''}`}>
          <label for="payment-deadline-days">{t('orderDeadline.settings.days')}</label>
          <input
            id="payment-deadline-days"
            name="paymentDeadlineDays"
            inputMode="numeric"
            autocomplete="off"
            disabled={!canEdit}
            placeholder={t('orderDeadline.settings.daysPlaceholder', { days: res.data.agencyPaymentTermsDays })}
            value={shownDays}
            aria-invalid={!!error}
            onInput={(e) => (setDays((e.target as HTMLInputElement).value), setError(null))}
          />
          {error && (
            <small class="field-error" role="alert">
              {fieldMessage(error)}
            </small>
          )}
        </div>
        <label class="tickets-check">
          <input type="checkbox" name="cancelOverdue" checked={shownCancel} disabled={!canEdit} onChange={(e) => setCancel((e.target as HTMLInputElement).checked)} /> {t('orderDeadline.settings.cancelOverdue')}
        </label>
        <p class="muted">{t('orderDeadline.settings.cancelOverdueHint')}</p>
        {canEdit && (
          <div>
            <Button type="submit" variant="secondary" busy={busy}>
              {t('orderDeadline.settings.save')}
            </Button>
          </div>
        )}
      </form>
    </Card>
  )
}

export interface DeadlineOrder {
  id: number
  number: string
  paymentDueAt: string | null
}

/**
 * A day and time, proposed a week after the current deadline (or from now, if that is later), but
 * not after the event's start while it is ahead (the rule of the automatic deadline), nor after its end.
 */
export function ExtendDeadlineDialog({ eventId, event, order, onClose, onDone }: { eventId: number; event: { timezone: string; startDate: string; endDate: string }; order: DeadlineOrder; onClose(): void; onDone(): void }) {
  const tz = event.timezone || 'Europe/Berlin'
  const now = Date.now()
  const base = Math.max(now, order.paymentDueAt ? Date.parse(order.paymentDueAt) : 0)
  const start = Date.parse(event.startDate)
  const latest = start > now ? start : Date.parse(event.endDate)
  const proposal = utcToZonedInput(new Date(Math.min(base + 7 * 86400_000, latest)), tz)
  const [day, setDay] = useState(proposal.slice(0, 10))
  const [time, setTime] = useState(proposal.slice(11, 16))
  const [fieldErr, setFieldErr] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const dayRef = useRef<HTMLInputElement>(null)
  useEffect(() => dayRef.current?.focus(), [])
  const submit = async (e?: Event) => {
    e?.preventDefault()
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !/^\d{2}:\d{2}$/.test(time)) return setFieldErr('INVALID')
    setBusy(true)
    setError(null)
    try {
      await post(`/proxy/api/events/${eventId}/orders/${order.id}/extendDeadline`, { paymentDueAt: zonedToUtc(`${day}T${time}`, tz).toISOString() })
      toast(t('orderDeadline.extend.done'))
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
      title={t('orderDeadline.extend.title', { number: order.number })}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button busy={busy} onClick={() => void submit()}>
            {t('orderDeadline.extend.submit')}
          </Button>
        </>
      }
    >
      <form class="form-grid" noValidate onSubmit={submit}>
        {order.paymentDueAt && <p class="field-full">{t('orderDeadline.extend.current', { due: formatDateTime(order.paymentDueAt, tz) })}</p>}
        <div class={`field field-half ${fieldErr ? 'has-error' : ''}`}>
          <label for="deadline-day">{t('orderDeadline.extend.date')}</label>
          <input id="deadline-day" ref={dayRef} name="day" type="date" value={day} aria-invalid={!!fieldErr} onInput={(e) => (setDay((e.target as HTMLInputElement).value), setFieldErr(null))} />
          {fieldErr && (
            <small class="field-error" role="alert">
              {fieldMessage(fieldErr)}
            </small>
          )}
        </div>
        <div class="field field-half">
          <label for="deadline-time">{t('orderDeadline.extend.time')}</label>
          <input id="deadline-time" name="time" type="time" value={time} onInput={(e) => (setTime((e.target as HTMLInputElement).value), setFieldErr(null))} />
        </div>
        <p class="field-full muted">{t('orderDeadline.extend.hint')}</p>
      </form>
      {error && (
        <Alert tone="error" role="alert">
          {error}
        </Alert>
      )}
    </Dialog>
  )
}
