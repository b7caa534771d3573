// The check-in desk's view of a registration's ticket order (issue 20 B, docs/ticketing.md "Valid
// tickets"), from the lookup's `payment`: a ticket that is not valid yet (a transfer waiting for its
// money, an invoice the event wants paid first) shows the amount due and is not admitted until the
// desk person records the payment ("Zahlung erfassen", after a question); a payment at the location
// is admitted with the amount to collect; a cancelled or refunded order says so.
import { useState } from 'preact/hooks'
import { formatMoney } from '../../../../server/i18n/format'
import { post } from '../../../api/client'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { toast } from '../../../components/overlay'
import { Alert, Button } from '../../../components/ui'
import { t } from '../../../i18n'

export interface DeskPaymentInfo {
  orderId: number
  number: string | null
  status: string
  method: string | null
  grossPrice: number
  currency: string | null
  amountDue: number
  /** UNPAID, PAYMENT_PENDING, CANCELED, REFUNDED, or null for a valid ticket */
  ticketBlocked: string | null
  /** whether the desk can record its payment (bought and not paid, not online) */
  canRecord: boolean
}

const money = (cents: number, currency: string | null) => `${formatMoney(cents)} ${currency === 'CHF' ? 'CHF' : '€'}`

export function DeskPayment({ eventId, payment, onPaid }: { eventId: number; payment: DeskPaymentInfo | null | undefined; onPaid(): Promise<void> | void }) {
  const [asking, setAsking] = useState(false)
  if (!payment) return null
  const p = payment
  const amount = money(p.amountDue, p.currency)
  const params = { amount, number: p.number ?? '' }
  // what the desk can take: the amount due of an order bought and not paid (never an online payment under way)
  const canRecord = p.canRecord && p.amountDue > 0 && (p.ticketBlocked === 'UNPAID' || (p.ticketBlocked === null && p.method === 'LOCATION'))
  const text =
    p.ticketBlocked === 'UNPAID'
      ? t('checkin.payment.unpaid', params)
      : p.ticketBlocked
        ? t(`checkin.payment.${p.ticketBlocked}`, params)
        : p.amountDue > 0
          ? p.method === 'LOCATION'
            ? t('checkin.payment.location', params)
            : t('checkin.payment.due', params)
          : null
  if (!text) return null
  return (
    <div class="tickets-desk-payment">
      <Alert tone={p.ticketBlocked ? 'error' : 'warn'}>
        <span>{text}</span>{' '}
        {canRecord && <Button onClick={() => setAsking(true)}>{t('checkin.payment.record')}</Button>}
      </Alert>
      {asking && (
        <ConfirmDialog
          title={t('checkin.payment.confirmTitle', params)}
          confirmLabel={t('checkin.payment.recorded')}
          onClose={() => setAsking(false)}
          onConfirm={async () => {
            await post(`/proxy/api/events/${eventId}/orders/${p.orderId}/deskPayment`)
            toast(t('checkin.payment.done', params))
            await onPaid()
          }}
        >
          <p>{t('checkin.payment.confirmText', params)}</p>
        </ConfirmDialog>
      )}
    </div>
  )
}
