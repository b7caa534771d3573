// "Als bezahlt markieren" asks first (issue 20): the amount received (default: the open amount) and
// the day it came in (default: today), recorded as the payment with who entered it (the order's
// history). A wrong entry can be undone the same day (UndoPaidDialog: a counter-entry, never a delete).
import { useEffect, useRef, useState } from 'preact/hooks'
import { formatMoney } from '../../../../server/i18n/format'
import { errorText, post } from '../../../api/client'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { Dialog } from '../../../components/dialog'
import { toast } from '../../../components/overlay'
import { Alert, Button } from '../../../components/ui'
import { fieldMessage, t } from '../../../i18n'
import { money, parseCents } from './money'

export interface PayableOrder {
  id: number
  number: string
  grossPrice: number
  currency: string
  paidAmount?: number | null
}

/** today as YYYY-MM-DD in the browser's time zone (what the organiser means by "today") */
const today = () => {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

export function MarkPaidDialog({ eventId, order, onClose, onDone }: { eventId: number; order: PayableOrder; onClose(): void; onDone(): void }) {
  const [amount, setAmount] = useState(formatMoney(order.grossPrice))
  const [day, setDay] = useState(today())
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const amountRef = useRef<HTMLInputElement>(null)
  useEffect(() => amountRef.current?.focus(), [])
  const submit = async (e?: Event) => {
    e?.preventDefault()
    const cents = parseCents(amount)
    const problems: Record<string, string> = {}
    if (cents == null || cents <= 0) problems.amount = 'INVALID'
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) problems.paidAt = 'INVALID'
    else if (day > today()) problems.paidAt = 'INVALID'
    setErrors(problems)
    if (Object.keys(problems).length) return
    setBusy(true)
    setError(null)
    try {
      // noon of that day in the browser's zone: the same calendar day in every European zone
      await post(`/proxy/api/events/${eventId}/orders/${order.id}/markPaid`, { amount: cents, paidAt: new Date(`${day}T12:00:00`).toISOString() })
      toast(t('payments.admin.markPaidDone'))
      onDone()
    } catch (err) {
      const fields = (err as { errorFields?: Array<{ field: string; errorType: string }> }).errorFields ?? []
      if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [f.field, f.errorType])))
      else setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  const cur = order.currency === 'CHF' ? 'CHF' : '€'
  return (
    <Dialog
      title={t('payments.admin.markPaidTitle', { number: order.number })}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button busy={busy} onClick={() => void submit()}>
            {t('payments.admin.markPaidSubmit')}
          </Button>
        </>
      }
    >
      <form class="form-grid" noValidate onSubmit={submit}>
        <p class="field-full">{t('payments.admin.markPaidIntro', { amount: money(order.grossPrice, order.currency) })}</p>
        <div class={`field field-half ${errors.amount ? 'has-error' : ''}`}>
          <label for="mark-paid-amount">{t('payments.admin.markPaidAmount', { currency: cur })}</label>
          <input id="mark-paid-amount" ref={amountRef} name="amount" inputMode="decimal" autocomplete="off" value={amount} aria-invalid={!!errors.amount} onInput={(e) => (setAmount((e.target as HTMLInputElement).value), setErrors(({ amount: _, ...rest }) => rest))} />
          {errors.amount && <small class="field-error" role="alert">{fieldMessage(errors.amount)}</small>}
        </div>
        <div class={`field field-half ${errors.paidAt ? 'has-error' : ''}`}>
          <label for="mark-paid-date">{t('payments.admin.markPaidDate')}</label>
          <input id="mark-paid-date" name="paidAt" type="date" max={today()} value={day} aria-invalid={!!errors.paidAt} onInput={(e) => (setDay((e.target as HTMLInputElement).value), setErrors(({ paidAt: _, ...rest }) => rest))} />
          {errors.paidAt && <small class="field-error" role="alert">{fieldMessage(errors.paidAt)}</small>}
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

export function UndoPaidDialog({ eventId, order, onClose, onDone }: { eventId: number; order: PayableOrder; onClose(): void; onDone(): void }) {
  return (
    <ConfirmDialog
      title={t('payments.admin.undoPaidTitle', { number: order.number })}
      confirmLabel={t('payments.admin.undoPaidSubmit')}
      cancelLabel={t('payments.admin.undoPaidKeep')}
      danger
      onConfirm={async () => {
        await post(`/proxy/api/events/${eventId}/orders/${order.id}/undoPaid`)
        toast(t('payments.admin.undoPaidDone'))
        onDone()
      }}
      onClose={onClose}
    >
      <p>{t('payments.admin.undoPaidConfirm', { amount: money(order.paidAmount ?? order.grossPrice, order.currency) })}</p>
    </ConfirmDialog>
  )
}

