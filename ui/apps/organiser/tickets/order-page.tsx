// The organiser's order page (docs/ticketing.md, "Order detail"), opened from every order number
// (the orders list, the guest detail, the search by order, invoice or credit note number or e-mail):
// lines, payments and refunds, invoice and credit notes with their files, the invoice address, the
// persons with their check-in, the history with who did what; and the order's actions (resend the
// mail, mark paid / undo, refund offline or through the provider, cancel), the same calls and dialogs
// as the orders list.
import { useState } from 'preact/hooks'
import { Link } from 'wouter'
import { formatDate, formatDateTime } from '../../../../server/i18n/format'
import { errorText, post } from '../../../api/client'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { useResource } from '../../../components/hooks'
import { toast } from '../../../components/overlay'
import { Alert, Badge, Button, Card, EmptyState, PageHeader, Spinner } from '../../../components/ui'
import { t } from '../../../i18n'
import { usePermission } from '../common'
import type { EventFull } from '../event-model'
import { InvoiceAddressDialog } from './invoice-address-dialog'
import { MarkPaidDialog, UndoPaidDialog } from './mark-paid-dialog'
import { money, useMoneyFormat } from './money'
import { RefundDialog } from './refund-dialog'
import { RefundLinesDialog } from './refund-lines-dialog'

const ONLINE = ['STRIPE', 'PAYPAL', 'MOLLIE']

interface Money {
  amount: number
  at: string
  accountId: number | null
}
export interface OrderDetail {
  id: number
  eventId: number
  number: string
  status: string
  step: number
  email: string | null
  fullName: string | null
  grossPrice: number
  currency: string
  paymentMethod: string | null
  paidAmount: number | null
  paidAt: string | null
  overdue: boolean
  canUndoPaid: boolean
  refundOwed: number
  refundedAmount: number
  amountLeft: number
  partlyRefunded: boolean
  createdAt: string
  tax: number
  discount: number
  coupon: string | null
  referenceNumber: string | null
  invoiceAddress: { receiver: string; addition?: string | null; street: string; streetNumber: string; postCode: string; city: string; country: string } | null
  lines: Array<{ id: number; refundedQuantity: number; categoryId: number | null; amount: number; displayName: string; unitPrice: number; discount: number; grossPrice: number; taxCode: string; taxRate: number; taxPrice: number; seats: string[] }>
  seats: string[]
  payments: Array<Money & { kind: 'ONLINE' | 'OFFLINE'; provider: string | null; reference: string | null; refundedAmount: number; paidAt: string | null }>
  refunds: Array<Money & { kind: 'ONLINE' | 'OFFLINE'; provider: string | null; reference: string | null; reason: string; status: string }>
  invoices: Array<{ id: number; number: string; kind: 'INVOICE' | 'CANCELLATION'; grossCents: number; issuedAt: string; cancelsNumber: string | null; pdfUrl: string; xmlUrl: string; ublUrl: string; zugferdUrl: string }>
  persons: Array<{ kind: 'GUEST' | 'ESCORT'; visitorId: number; escortId: number | null; name: string; email: string | null; checkedIn: boolean; checkedOut: boolean; checkinAt: string | null }>
  history: Array<{ at: string; kind: string; accountId: number | null; by: string | null; data: Record<string, unknown> }>
  /** the buyer's acceptance of the organiser's terms: when, which version, the text as accepted */
  termsAccepted: { acceptedAt: string; version: string | null; text: string | null } | null
}

const statusTone = (o: OrderDetail) => (o.status === 'PAID' ? (o.partlyRefunded ? 'warn' : 'ok') : o.status === 'CANCELED' || o.status === 'REFUNDED' ? 'error' : o.overdue ? 'warn' : 'info')

export function OrderPage({ eventId, orderId }: { eventId: number; orderId: number }) {
  useMoneyFormat()
  const event = useResource<EventFull>(`/proxy/api/events/${eventId}`)
  const res = useResource<OrderDetail>(`/proxy/api/events/${eventId}/orders/${orderId}`)
  if (res.error) return <Alert tone="error">{errorText(res.error)}</Alert>
  if (!res.data || !event.data) return <Spinner />
  return <OrderView event={event.data} order={res.data} reload={() => void res.reload()} />
}

function OrderView({ event, order: o, reload }: { event: EventFull; order: OrderDetail; reload(): void }) {
  const canManage = usePermission('EVENT.GUEST.MANAGE')
  const tz = event.timezone
  const when = (iso: string | null) => (iso ? formatDateTime(iso, tz) : '–')
  const [dialog, setDialog] = useState<'pay' | 'undo' | 'refund' | 'refundOnline' | 'refundOffline' | 'refundLines' | 'cancel' | 'address' | null>(null)
  const [busy, setBusy] = useState(false)
  const online = ONLINE.includes(o.paymentMethod ?? '')
  const close = () => setDialog(null)
  const done = () => (setDialog(null), reload())
  const resend = async () => {
    setBusy(true)
    try {
      await post(`/proxy/api/events/${event.id}/orders/${o.id}/resendMail`)
      toast(t('orderDetail.resent', { email: o.email ?? '' }))
      reload()
    } catch (e) {
      toast(errorText(e), 'error', 5000)
    } finally {
      setBusy(false)
    }
  }
  const confirmed = async (action: 'cancel' | 'refund') => {
    await post(`/proxy/api/events/${event.id}/orders/${o.id}/${action}`)
    toast(t(action === 'refund' ? 'ticketing.admin.refunded' : 'ticketing.admin.canceled'))
    done()
  }
  const settled = o.status === 'PAID' || (o.status === 'CONFIRMED' && o.grossPrice === 0)
  return (
    <div class="order-page">
      <p>
        <Link href={`/events/${event.id}/tickets`}>‹ {t('orderDetail.back', { event: event.displayName })}</Link>
      </p>
      <PageHeader
        title={t('orderDetail.title', { number: o.number })}
        subtitle={`${o.fullName ?? ''}${o.email ? ` · ${o.email}` : ''} · ${t('orderDetail.createdAt', { at: when(o.createdAt) })}`}
        actions={
          <>
            <Badge tone={statusTone(o)}>{o.partlyRefunded ? t('orderDetail.partlyRefunded') : t(`ticketing.status.${o.status}`)}</Badge>
            {o.overdue && <Badge tone="warn">{t('ticketing.admin.payment.OVERDUE')}</Badge>}
          </>
        }
      />
      {o.refundOwed > 0 && <Alert tone="error">{t('payments.admin.refundFailed', { amount: money(o.refundOwed, o.currency) })}</Alert>}

      <Card class="order-summary">
        <dl class="order-facts">
          <div>
            <dt>{t('orderDetail.total')}</dt>
            <dd>{money(o.grossPrice, o.currency)}</dd>
          </div>
          <div>
            <dt>{t('orderDetail.method')}</dt>
            <dd>{o.paymentMethod ? t(`ticketing.method.${o.paymentMethod}`) : '–'}</dd>
          </div>
          <div>
            <dt>{t('orderDetail.paid')}</dt>
            <dd>{o.paidAt ? t('orderDetail.paidOn', { amount: money(o.paidAmount ?? 0, o.currency), at: formatDate(o.paidAt, tz) }) : t('ticketing.admin.payment.OPEN')}</dd>
          </div>
          {o.refundedAmount > 0 && (
            <div>
              <dt>{t('orderDetail.refunded')}</dt>
              <dd>{money(o.refundedAmount, o.currency)}</dd>
            </div>
          )}
          {o.paidAt && (
            <div>
              <dt>{t('orderDetail.left')}</dt>
              <dd data-testid="amount-left">{money(o.amountLeft, o.currency)}</dd>
            </div>
          )}
          <div class="order-terms" data-testid="terms-accepted">
            <dt>{t('orderDetail.terms')}</dt>
            <dd>
              {o.termsAccepted ? (
                <>
                  {when(o.termsAccepted.acceptedAt)}
                  {o.termsAccepted.version && (
                    <>
                      <br />
                      <small class="muted">{t('orderDetail.termsVersion', { version: o.termsAccepted.version })}</small>
                    </>
                  )}
                  {o.termsAccepted.text && (
                    <details>
                      <summary>{t('orderDetail.termsText')}</summary>
                      <p class="order-terms-text">{o.termsAccepted.text}</p>
                    </details>
                  )}
                </>
              ) : (
                t('orderDetail.termsNone')
              )}
            </dd>
          </div>
        </dl>
        {canManage && (
          <div class="button-row order-actions">
            {o.email && (
              <Button variant="secondary" busy={busy} onClick={() => void resend()}>
                {settled ? t('orderDetail.resendTickets') : t('orderDetail.resendMail')}
              </Button>
            )}
            {!o.paidAt && ['OPEN', 'CONFIRMED'].includes(o.status) && o.grossPrice > 0 && !online && (
              <Button variant="secondary" onClick={() => setDialog('pay')}>
                {t('ticketing.admin.markPaid')}
              </Button>
            )}
            {o.canUndoPaid && (
              <Button variant="ghost" onClick={() => setDialog('undo')}>
                {t('payments.admin.undoPaid')}
              </Button>
            )}
            {o.status === 'PAID' && !online && (
              <Button variant="ghost" onClick={() => setDialog('refundOffline')}>
                {t('orderDetail.refundOffline')}
              </Button>
            )}
            {(o.status === 'PAID' || o.refundOwed > 0) && online && (
              <Button variant="ghost" onClick={() => setDialog('refundOnline')}>
                {t('payments.admin.refund')}
              </Button>
            )}
            {o.status === 'PAID' && o.lines.reduce((s, l) => s + l.amount - l.refundedQuantity, 0) > 1 && (
              <Button variant="ghost" onClick={() => setDialog('refundLines')}>
                {t('orderDetail.refundLines')}
              </Button>
            )}
            {['OPEN', 'CONFIRMED', 'PAID'].includes(o.status) && (
              <Button variant="ghost" onClick={() => setDialog('cancel')}>
                {t('ticketing.admin.cancel')}
              </Button>
            )}
          </div>
        )}
      </Card>

      <Card>
        <h2>{t('orderDetail.lines')}</h2>
        <div class="table-wrap">
          <table class="tickets-table order-lines">
            <thead>
              <tr>
                <th>{t('orderDetail.category')}</th>
                <th class="num">{t('orderDetail.quantity')}</th>
                <th class="num">{t('orderDetail.unitPrice')}</th>
                <th class="num">{t('orderDetail.tax')}</th>
                <th class="num">{t('orderDetail.lineTotal')}</th>
                <th>{t('orderDetail.seats')}</th>
              </tr>
            </thead>
            <tbody>
              {o.lines.map((l, i) => (
                <tr key={i}>
                  <td>{l.displayName}</td>
                  <td class="num">
                    {l.amount}
                    {l.refundedQuantity > 0 && (
                      <>
                        <br />
                        <small class="muted">{t('orderDetail.lineRefunded', { count: l.refundedQuantity })}</small>
                      </>
                    )}
                  </td>
                  <td class="num">{money(l.unitPrice, o.currency)}</td>
                  <td class="num">
                    {t(`ticketing.tax.${l.taxCode}`)}
                    <br />
                    <small class="muted">{money(l.taxPrice, o.currency)}</small>
                  </td>
                  <td class="num">
                    {money(l.grossPrice, o.currency)}
                    {l.discount > 0 && (
                      <>
                        <br />
                        <small class="muted">{t('orderDetail.lineDiscount', { amount: money(l.discount, o.currency) })}</small>
                      </>
                    )}
                  </td>
                  <td>{l.seats.join(', ') || '–'}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              {o.coupon && (
                <tr>
                  <td colSpan={4}>{t('orderDetail.coupon', { code: o.coupon })}</td>
                  <td class="num">−{money(o.discount, o.currency)}</td>
                  <td />
                </tr>
              )}
              <tr>
                <th colSpan={4}>{t('orderDetail.total')}</th>
                <th class="num">{money(o.grossPrice, o.currency)}</th>
                <td>
                  <small class="muted">{t('orderDetail.taxIncluded', { amount: money(o.tax, o.currency) })}</small>
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
        {o.seats.length > 0 && <p class="muted">{t('orderDetail.allSeats', { seats: o.seats.join(', ') })}</p>}
      </Card>

      <Card>
        <h2>{t('orderDetail.payments')}</h2>
        {o.payments.length === 0 && o.refunds.length === 0 ? (
          <EmptyState>{t('orderDetail.noPayments')}</EmptyState>
        ) : (
          <div class="table-wrap">
            <table class="tickets-table order-payments">
              <thead>
                <tr>
                  <th>{t('orderDetail.what')}</th>
                  <th>{t('orderDetail.provider')}</th>
                  <th>{t('orderDetail.reference')}</th>
                  <th class="num">{t('ticketing.admin.amount')}</th>
                  <th>{t('orderDetail.time')}</th>
                </tr>
              </thead>
              <tbody>
                {o.payments.map((p, i) => (
                  <tr key={`p${i}`}>
                    <td>{p.amount < 0 ? t('orderDetail.paymentUndone') : t('orderDetail.payment')}</td>
                    <td>{p.provider ?? t('orderDetail.offline')}</td>
                    <td>
                      <code>{p.reference ?? '–'}</code>
                    </td>
                    <td class="num">{money(p.amount, o.currency)}</td>
                    <td>{p.kind === 'OFFLINE' && p.paidAt ? t('orderDetail.receivedOn', { day: formatDate(p.paidAt, tz), at: when(p.at) }) : when(p.at)}</td>
                  </tr>
                ))}
                {o.refunds.map((r, i) => (
                  <tr key={`r${i}`} class="order-refund">
                    <td>
                      {t('orderDetail.refund')}
                      {r.status !== 'DONE' && <Badge tone={r.status === 'FAILED' ? 'error' : 'warn'}>{t(`orderDetail.refundStatus.${r.status}`)}</Badge>}
                    </td>
                    <td>{r.provider ?? t('orderDetail.offline')}</td>
                    <td>
                      <code>{r.reference ?? '–'}</code>
                    </td>
                    <td class="num">−{money(r.amount, o.currency)}</td>
                    <td>{when(r.at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      <Card>
        <h2>{t('orderDetail.invoices')}</h2>
        {o.invoices.length === 0 ? (
          <EmptyState>{t('orderDetail.noInvoices')}</EmptyState>
        ) : (
          <div class="table-wrap">
            <table class="tickets-table order-invoices">
              <thead>
                <tr>
                  <th>{t('orderDetail.invoiceNumber')}</th>
                  <th>{t('orderDetail.what')}</th>
                  <th class="num">{t('ticketing.admin.amount')}</th>
                  <th>{t('orderDetail.issued')}</th>
                  <th>{t('orderDetail.files')}</th>
                </tr>
              </thead>
              <tbody>
                {o.invoices.map((inv) => (
                  <tr key={inv.id}>
                    <td>
                      <strong>{inv.number}</strong>
                    </td>
                    <td>{inv.kind === 'INVOICE' ? t('orderDetail.invoice') : t('orderDetail.creditNote', { number: inv.cancelsNumber ?? '' })}</td>
                    <td class="num">{money(inv.grossCents, o.currency)}</td>
                    <td>{when(inv.issuedAt)}</td>
                    <td class="order-files">
                      <a href={inv.pdfUrl} download>
                        PDF
                      </a>
                      <a href={inv.xmlUrl} download>
                        XRechnung
                      </a>
                      <a href={inv.zugferdUrl} download>
                        ZUGFeRD
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <h3>{t('orderDetail.invoiceAddress')}</h3>
        {o.invoiceAddress ? (
          <address class="order-address">
            {o.invoiceAddress.receiver}
            {o.invoiceAddress.addition && (
              <>
                <br />
                {o.invoiceAddress.addition}
              </>
            )}
            <br />
            {o.invoiceAddress.street} {o.invoiceAddress.streetNumber}
            <br />
            {o.invoiceAddress.postCode} {o.invoiceAddress.city}
            {o.invoiceAddress.country && o.invoiceAddress.country !== 'DEU' && (
              <>
                <br />
                {o.invoiceAddress.country}
              </>
            )}
            {o.referenceNumber && (
              <>
                <br />
                {t('orderDetail.referenceNumber', { ref: o.referenceNumber })}
              </>
            )}
          </address>
        ) : (
          <p class="muted">{t('orderDetail.noAddress')}</p>
        )}
        {canManage && (
          <Button variant="secondary" onClick={() => setDialog('address')}>
            {t('orderDetail.changeAddress')}
          </Button>
        )}
      </Card>

      <Card>
        <h2>{t('orderDetail.persons')}</h2>
        {o.persons.length === 0 ? (
          <EmptyState>{t('orderDetail.noPersons')}</EmptyState>
        ) : (
          <ul class="order-persons">
            {o.persons.map((p) => (
              <li key={`${p.kind}${p.escortId ?? ''}`}>
                <span>{p.name || p.email}</span>
                {p.kind === 'ESCORT' && <small class="muted"> · {t('orderDetail.escort')}</small>}{' '}
                {p.checkedIn ? <Badge tone="ok">{t('orderDetail.checkedIn', { at: when(p.checkinAt) })}</Badge> : p.checkedOut ? <Badge tone="info">{t('orderDetail.checkedOut')}</Badge> : <Badge>{t('orderDetail.notCheckedIn')}</Badge>}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card>
        <h2>{t('orderDetail.history')}</h2>
        <ol class="order-history">
          {o.history.map((h, i) => (
            <li key={i}>
              <time>{when(h.at)}</time> <span>{historyText(h, o.currency)}</span> <small class="muted">{h.by ? t('orderDetail.by', { name: h.by }) : h.accountId == null ? t('orderDetail.bySystem') : ''}</small>
            </li>
          ))}
        </ol>
      </Card>

      {dialog === 'address' && <InvoiceAddressDialog eventId={event.id} order={o} onClose={close} onDone={done} />}
      {dialog === 'pay' && <MarkPaidDialog eventId={event.id} order={o} onClose={close} onDone={done} />}
      {dialog === 'undo' && <UndoPaidDialog eventId={event.id} order={o} onClose={close} onDone={done} />}
      {dialog === 'refundOnline' && <RefundDialog eventId={event.id} order={o} onClose={close} onDone={done} />}
      {dialog === 'refundLines' && <RefundLinesDialog eventId={event.id} order={o} onClose={close} onDone={done} />}
      {dialog === 'refundOffline' && <RefundDialog eventId={event.id} order={o} offline onClose={close} onDone={done} />}
      {(dialog === 'refund' || dialog === 'cancel') && (
        <ConfirmDialog
          title={t(dialog === 'refund' ? 'ticketing.admin.refundConfirmTitle' : 'ticketing.admin.cancelConfirmTitle', { number: o.number })}
          confirmLabel={t(dialog === 'refund' ? 'ticketing.admin.refundConfirmSubmit' : 'ticketing.admin.cancel')}
          cancelLabel={dialog === 'cancel' ? t('ticketing.admin.cancelConfirmKeep') : undefined}
          danger={dialog === 'cancel'}
          onConfirm={() => confirmed(dialog)}
          onClose={close}
        >
          <p>{t(dialog === 'refund' ? 'ticketing.admin.refundConfirm' : 'ticketing.admin.cancelConfirm', { number: o.number })}</p>
        </ConfirmDialog>
      )}
    </div>
  )
}

/** A history entry in words: the kind's text, with the amount where the entry names one. */
function historyText(h: OrderDetail['history'][number], currency: string) {
  const amount = h.data.amount ?? h.data.refundAmount
  // the guest's "pay" step names its method (PAY_STRIPE, PAY_TRANSFER …)
  const pay = /^PAY_([A-Z]+)$/.exec(h.kind)
  const key = pay ? 'orderDetail.history.PAY' : `orderDetail.history.${h.kind}`
  const text = t(key, pay ? { method: t(`ticketing.method.${pay[1]}`) } : undefined)
  const label = text === key ? h.kind : text
  return typeof amount === 'number' ? `${label} (${money(amount, currency)})` : label
}
