// The event's Tickets tab (docs/ticketing.md, "Organiser side"): ticket categories, coupons, the
// payment methods enabled for the event, revenue per category, and the orders with filters,
// search, paging, mark as paid and cancel.
import { useEffect, useState } from 'preact/hooks'
import { Link } from 'wouter'
import { formatDateTime, formatMoney, utcToZonedInput, zonedToUtc } from '../../../../server/i18n/format'
import { errorText, post, put } from '../../../api/client'
import { useResource } from '../../../components/hooks'
import { toast } from '../../../components/overlay'
import { Alert, Badge, Button, Card, EmptyState, Spinner } from '../../../components/ui'
import { t } from '../../../i18n'
import { EditableList, Err } from './editable-list'
import { money, parseCents, useMoneyFormat } from './money'
import { type Category, type CategoryList, Categories, CategoryScope, draftInput, idsOf } from './categories'
import { TermsSettings } from './terms-settings'
import { RefundDialog } from './refund-dialog'
import { InvoiceTickets } from './invoice-tickets'
import { ExtendDeadlineDialog, PaymentDeadlineSettings } from './payment-deadline'
import { CancellationRequestDialog } from './cancellation-request-dialog'
import { SeatingLinkWarning } from './seating-warning'
import { CouponBulk, validityText } from './coupon-bulk'
import { MarkPaidDialog, UndoPaidDialog } from './mark-paid-dialog'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { usePermission } from '../common'
import type { EventFull } from '../event-model'

interface Coupon {
  id: number
  code: string
  valueType: 'PERCENT' | 'FIXED'
  reduction: number
  categoryId: number | null
  categoryIds: number[]
  maxUses: number | null
  used: number
  validFrom: string | null
  validUntil: string | null
}
interface Method {
  id: number
  method: string
  currency: string
  iban: string | null
}
const ONLINE = ['STRIPE', 'PAYPAL', 'MOLLIE']

interface OrderRow {
  id: number
  number: string
  status: string
  email: string | null
  fullName: string | null
  grossPrice: number
  currency: string
  paymentMethod: string | null
  paidAt: string | null
  paidAmount: number | null
  /** a payment the organiser recorded today: may be undone (a counter-entry) */
  canUndoPaid: boolean
  overdue: boolean
  /** unpaid transfers and invoices: pay by then (orders/deadline.ts) */
  paymentDueAt: string | null
  /** the guest's latest cancellation request (orders/cancel-requests.ts) */
  cancellationRequest: { status: string; reason: string; createdAt: string } | null
  /** cents an online refund that failed at the provider still owes (docs/payments.md) */
  refundOwed: number
  /** PAID with part of it given back (online or by hand), and what is left */
  partlyRefunded: boolean
  amountLeft: number
  createdAt: string
}

export function TicketsTab({ event }: { event: EventFull }) {
  const canEdit = usePermission('EVENT.EDIT')
  const canGuests = usePermission('EVENT.GUEST.VIEW')
  const cats = useResource<CategoryList>(`/proxy/api/events/${event.id}/ticketCategories`)
  const enabled = useResource<Method[]>(`/proxy/api/events/${event.id}/paymentMethods`)
  // selling tickets without a payment method: guests could not pay, and the event cannot go online (issue 20)
  const noMethods = !!cats.data?.items.some((c) => c.grossPrice > 0) && enabled.data?.length === 0
  // amounts follow the agency's money format (issue 20 item 16): the tab renders again once it is read
  useMoneyFormat()
  return (
    <div class="tickets-tab">
      {canEdit && <SeatingLinkWarning eventId={event.id} />}
      {noMethods && (
        <Alert tone="warn">
          {t('payments.admin.noMethods')}
        </Alert>
      )}
      <Categories event={event} res={cats} canEdit={canEdit} />
      {cats.data && cats.data.items.length > 0 && (
        <>
          <Coupons event={event} categories={cats.data.items} canEdit={canEdit} />
          <PaymentMethods event={event} canEdit={canEdit} enabled={enabled} />
          <InvoiceTickets eventId={event.id} canEdit={canEdit} />
          <PaymentDeadlineSettings eventId={event.id} canEdit={canEdit} />
          <TermsSettings eventId={event.id} canEdit={canEdit} />
          {canGuests && <Orders event={event} />}
        </>
      )}
    </div>
  )
}

function Coupons({ event, categories, canEdit }: { event: EventFull; categories: Category[]; canEdit: boolean }) {
  const res = useResource<Coupon[]>(`/proxy/api/events/${event.id}/coupons`)
  if (!res.data) return <Spinner />
  const value = (c: Coupon) => (c.valueType === 'PERCENT' ? `${c.reduction} %` : money(c.reduction, event.currency))
  const tz = event.timezone
  const local = (iso: string | null) => (iso ? utcToZonedInput(iso, tz) : '')
  const instant = (v: string) => (v ? zonedToUtc(v, tz).toISOString() : null)
  return (
    <>
    <EditableList<Coupon>
      title={t('ticketing.admin.coupons')}
      url={`/proxy/api/events/${event.id}/coupons`}
      items={res.data}
      head={
        <>
          <th>{t('ticketing.admin.code')}</th>
          <th class="num">{t('ticketing.admin.reduction')}</th>
          <th>{t('ticketing.admin.appliesTo')}</th>
          <th>{t('ticketing.admin.validity')}</th>
          <th class="num">{t('ticketing.admin.usedHead')}</th>
        </>
      }
      row={(c) => (
        <>
          <td>
            <strong>{c.code}</strong>
          </td>
          <td class="num">{value(c)}</td>
          <td>{c.categoryIds.length ? c.categoryIds.map((id) => categories.find((x) => x.id === id)?.displayName ?? '').join(', ') : t('ticketing.admin.wholeOrder')}</td>
          <td>{validityText(c.validFrom, c.validUntil, tz)}</td>
          <td class="num">{t('ticketing.admin.used', { n: c.used, max: c.maxUses ?? '∞' })}</td>
        </>
      )}
      name={(c) => c.code}
      canEdit={canEdit}
      canDelete={() => true}
      blank={{ code: '', valueType: 'PERCENT', reduction: '', categoryIds: '', maxUses: '', validFrom: '', validUntil: '' }}
      draftOf={(c) => ({
        code: c.code,
        valueType: c.valueType,
        reduction: c.valueType === 'PERCENT' ? String(c.reduction) : formatMoney(c.reduction),
        categoryIds: c.categoryIds.join(','),
        maxUses: c.maxUses == null ? '' : String(c.maxUses),
        validFrom: local(c.validFrom),
        validUntil: local(c.validUntil),
      })}
      bodyOf={(d) => {
        const reduction = d.valueType === 'PERCENT' ? Number(d.reduction) : parseCents(d.reduction)
        if (!reduction) return { errors: { reduction: 'INVALID' } }
        return { validFrom: instant(d.validFrom), validUntil: instant(d.validUntil), code: d.code, valueType: d.valueType, reduction, categoryIds: idsOf(d.categoryIds), maxUses: d.maxUses.trim() ? Number(d.maxUses) : null }
      }}
      fields={(d, set, errors) => (
        <>
          <label>
            {t('ticketing.admin.code')}
            {draftInput(d, set, 'code')}
            <Err code={errors.code} />
          </label>
          <label>
            {t('ticketing.admin.valueType')}
            <select name="valueType" value={d.valueType} onChange={(e) => set('valueType', (e.target as HTMLSelectElement).value)}>
              <option value="PERCENT">{t('ticketing.admin.percent')}</option>
              <option value="FIXED">{t('ticketing.admin.fixed')}</option>
            </select>
          </label>
          <label>
            {t('ticketing.admin.reduction')}
            {draftInput(d, set, 'reduction', { inputMode: 'decimal' })}
            <Err code={errors.reduction} />
          </label>
          <CategoryScope categories={categories} value={d.categoryIds} onChange={(v) => set('categoryIds', v)} error={errors.categoryIds ?? errors.categoryId} />
          <label>
            {t('ticketing.admin.maxUses')}
            {draftInput(d, set, 'maxUses', { inputMode: 'numeric', placeholder: t('ticketing.admin.unlimited') })}
            <Err code={errors.maxUses} />
          </label>
          <label>
            {t('ticketing.admin.validFrom')}
            <input type="datetime-local" name="validFrom" value={d.validFrom} onInput={(e) => set('validFrom', (e.target as HTMLInputElement).value)} />
            <Err code={errors.validFrom} />
          </label>
          <label>
            {t('ticketing.admin.validUntil')}
            <input type="datetime-local" name="validUntil" value={d.validUntil} onInput={(e) => set('validUntil', (e.target as HTMLInputElement).value)} />
            <Err code={errors.validUntil} />
          </label>
        </>
      )}
      addLabel={t('ticketing.admin.addCoupon')}
      savedText={t('ticketing.admin.couponSaved')}
      onChanged={() => res.reload()}
    />
    {canEdit && <CouponBulk event={event} categories={categories} onChanged={() => res.reload()} />}
    </>
  )
}

function PaymentMethods({ event, canEdit, enabled }: { event: EventFull; canEdit: boolean; enabled: ReturnType<typeof useResource<Method[]>> }) {
  const agency = useResource<Method[]>(usePermission('AGENCY.MANAGE') ? '/proxy/api/agency/paymentMethods' : null)
  // the box shows the click at once (the saved state follows the answer; an error puts it back)
  const [saving, setSaving] = useState<Set<number> | null>(null)
  if (!enabled.data) return <Spinner />
  const on = saving ?? new Set(enabled.data.map((m) => m.id))
  const all = (agency.data ?? enabled.data).filter((m) => m.currency === event.currency)
  const toggle = async (id: number) => {
    const ids = on.has(id) ? [...on].filter((x) => x !== id) : [...on, id]
    setSaving(new Set(ids))
    try {
      await put(`/proxy/api/events/${event.id}/paymentMethods`, { ids })
      await enabled.reload()
    } catch (err) {
      toast(errorText(err), 'error')
    } finally {
      setSaving(null)
    }
  }
  return (
    <Card>
      <h2>{t('ticketing.admin.methods')}</h2>
      {all.length === 0 && <EmptyState>{t('ticketing.admin.noMethods')}</EmptyState>}
      <div class="tickets-methods">
        {all.map((m) => (
          <label key={m.id}>
            <input type="checkbox" checked={on.has(m.id)} disabled={!canEdit || saving !== null} onChange={() => void toggle(m.id)} /> {t(`ticketing.method.${m.method}`)}
            {m.iban && <span class="muted"> · {m.iban}</span>}
          </label>
        ))}
      </div>
    </Card>
  )
}

function Orders({ event }: { event: EventFull }) {
  const canManage = usePermission('EVENT.GUEST.MANAGE')
  const [filter, setFilter] = useState({ status: '', payment: '', search: '', page: 0 })
  // "Stornierungsanfrage offen" sits in the payment select; the server has its own parameter
  const requests = filter.payment === 'REQUESTS'
  const [data, setData] = useState<{ items: OrderRow[]; total: number; page: number; perPage: number } | null>(null)
  const [generation, setGeneration] = useState(0)
  useEffect(() => {
    let live = true
    const body = { status: filter.status || null, payment: (!requests && filter.payment) || null, cancellationRequest: requests ? 'OPEN' : null, search: filter.search || null, page: filter.page, perPage: 25 }
    void post<typeof data>(`/proxy/api/events/${event.id}/orders/search`, body).then((d) => live && setData(d))
    return () => {
      live = false
    }
  }, [filter, generation])
  const reload = () => setGeneration((g) => g + 1)
  // "mark paid" asks for amount and date first; today's entry may be undone (mark-paid-dialog.tsx)
  const [paying, setPaying] = useState<{ order: OrderRow; undo: boolean } | null>(null)
  // recording an offline refund and cancelling ask first, in a dialog that also shows the server's error
  const [confirming, setConfirming] = useState<{ order: OrderRow; action: 'cancel' | 'refund' } | null>(null)
  const confirmed = async ({ order, action }: { order: OrderRow; action: 'cancel' | 'refund' }) => {
    await post(`/proxy/api/events/${event.id}/orders/${order.id}/${action}`)
    toast(t(action === 'refund' ? 'ticketing.admin.refunded' : 'ticketing.admin.canceled'))
    reload()
  }
  // online payments go back through their provider, whole or in part (docs/payments.md)
  const [refunding, setRefunding] = useState<OrderRow | null>(null)
  // an unpaid transfer's or invoice's deadline moved on (payment-deadline.tsx)
  const [extending, setExtending] = useState<OrderRow | null>(null)
  // a guest's open cancellation request, granted or declined in a dialog
  const [reviewing, setReviewing] = useState<OrderRow | null>(null)
  const hasDeadline = (o: OrderRow) => !o.paidAt && ['OPEN', 'CONFIRMED'].includes(o.status) && !!o.paymentDueAt && ['TRANSFER', 'INVOICE'].includes(o.paymentMethod ?? '')
  return (
    <Card>
      <h2>{t('ticketing.admin.orders')}</h2>
      <div class="tickets-filter">
        <input type="search" aria-label={t('ticketing.admin.search')} placeholder={t('ticketing.admin.search')} value={filter.search} onInput={(e) => setFilter({ ...filter, search: (e.target as HTMLInputElement).value, page: 0 })} />
        <select aria-label={t('ticketing.admin.payment')} value={filter.payment} onChange={(e) => setFilter({ ...filter, payment: (e.target as HTMLSelectElement).value, page: 0 })}>
          <option value="">{t('ticketing.admin.allPayments')}</option>
          {['OPEN', 'PAID', 'OVERDUE'].map((p) => (
            <option key={p} value={p}>
              {t(`ticketing.admin.payment.${p}`)}
            </option>
          ))}
          <option value="REQUESTS">{t('orderRequest.filter')}</option>
        </select>
        <a class="btn btn-secondary" href={`/proxy/api/events/${event.id}/orders/export`} download>
          {t('ticketing.admin.export')}
        </a>
      </div>
      {!data ? (
        <Spinner />
      ) : data.items.length === 0 ? (
        <EmptyState>{t('ticketing.admin.noOrders')}</EmptyState>
      ) : (
        <div class="table-wrap">
          <table class="tickets-table">
            <thead>
              <tr>
                <th>{t('ticketing.admin.number')}</th>
                <th>{t('ticketing.admin.buyer')}</th>
                <th class="num">{t('ticketing.admin.amount')}</th>
                <th>{t('ticketing.admin.status')}</th>
                {canManage && <th />}
              </tr>
            </thead>
            <tbody>
              {data.items.map((o) => (
                <tr key={o.id}>
                  <td>
                    <Link href={`/events/${event.id}/orders/${o.id}`} class="order-link">
                      <strong>{o.number}</strong>
                    </Link>
                    <br />
                    <small class="muted">{formatDateTime(o.createdAt, event.timezone)}</small>
                  </td>
                  <td>
                    {o.fullName}
                    <br />
                    <small class="muted">{o.email}</small>
                  </td>
                  <td class="num">
                    {money(o.grossPrice, o.currency)}
                    <br />
                    <small class="muted">{o.paymentMethod ? t(`ticketing.method.${o.paymentMethod}`) : '–'}</small>
                  </td>
                  <td>
                    {o.partlyRefunded ? (
                      <>
                        <Badge tone="warn">{t('orderDetail.partlyRefunded')}</Badge>
                        <br />
                        <small class="muted">{t('orderDetail.leftInList', { amount: money(o.amountLeft, o.currency) })}</small>
                      </>
                    ) : (
                      <Badge tone={o.status === 'PAID' ? 'ok' : o.status === 'CANCELED' ? 'error' : o.overdue ? 'warn' : 'info'}>{t(`ticketing.status.${o.status}`)}</Badge>
                    )}
                    {o.overdue && <Badge tone="warn">{t('ticketing.admin.payment.OVERDUE')}</Badge>}
                    {o.refundOwed > 0 && <Badge tone="error">{t('payments.admin.refundFailed', { amount: money(o.refundOwed, o.currency) })}</Badge>}
                    {o.cancellationRequest?.status === 'OPEN' && <Badge tone="warn">{t('orderRequest.badge')}</Badge>}
                    {hasDeadline(o) && (
                      <>
                        <br />
                        <small class={o.overdue ? 'tickets-due-over' : 'muted'}>{t('orderDeadline.due', { due: formatDateTime(o.paymentDueAt!, event.timezone) })}</small>
                      </>
                    )}
                  </td>
                  {canManage && (
                    <td class="tickets-actions">
                      {!o.paidAt && ['OPEN', 'CONFIRMED'].includes(o.status) && (
                        <Button variant="secondary" onClick={() => setPaying({ order: o, undo: false })}>
                          {t('ticketing.admin.markPaid')}
                        </Button>
                      )}
                      {o.cancellationRequest?.status === 'OPEN' && (
                        <Button variant="secondary" onClick={() => setReviewing(o)}>
                          {t('orderRequest.open')}
                        </Button>
                      )}
                      {hasDeadline(o) && (
                        <Button variant="ghost" onClick={() => setExtending(o)}>
                          {t('orderDeadline.extend.button')}
                        </Button>
                      )}
                      {o.canUndoPaid && (
                        <Button variant="ghost" onClick={() => setPaying({ order: o, undo: true })}>
                          {t('payments.admin.undoPaid')}
                        </Button>
                      )}
                      {o.status === 'PAID' && !ONLINE.includes(o.paymentMethod ?? '') && (
                        <Button variant="ghost" onClick={() => setConfirming({ order: o, action: 'refund' })}>
                          {t('ticketing.admin.refund')}
                        </Button>
                      )}
                      {(o.status === 'PAID' || o.refundOwed > 0) && ONLINE.includes(o.paymentMethod ?? '') && (
                        <Button variant="ghost" onClick={() => setRefunding(o)}>
                          {t('payments.admin.refund')}
                        </Button>
                      )}
                      {['OPEN', 'CONFIRMED', 'PAID'].includes(o.status) && (
                        <Button variant="ghost" onClick={() => setConfirming({ order: o, action: 'cancel' })}>
                          {t('ticketing.admin.cancel')}
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && data.total > data.perPage && (
        <div class="tickets-paging">
          <Button variant="ghost" disabled={filter.page === 0} onClick={() => setFilter({ ...filter, page: filter.page - 1 })}>
            ‹
          </Button>
          <span>{t('ticketing.admin.page', { page: filter.page + 1, pages: Math.ceil(data.total / data.perPage), total: data.total })}</span>
          <Button variant="ghost" disabled={(filter.page + 1) * data.perPage >= data.total} onClick={() => setFilter({ ...filter, page: filter.page + 1 })}>
            ›
          </Button>
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          title={t(confirming.action === 'refund' ? 'ticketing.admin.refundConfirmTitle' : 'ticketing.admin.cancelConfirmTitle', { number: confirming.order.number })}
          confirmLabel={t(confirming.action === 'refund' ? 'ticketing.admin.refundConfirmSubmit' : 'ticketing.admin.cancel')}
          cancelLabel={confirming.action === 'cancel' ? t('ticketing.admin.cancelConfirmKeep') : undefined}
          danger={confirming.action === 'cancel'}
          onConfirm={() => confirmed(confirming)}
          onClose={() => setConfirming(null)}
        >
          <p>{t(confirming.action === 'refund' ? 'ticketing.admin.refundConfirm' : 'ticketing.admin.cancelConfirm', { number: confirming.order.number })}</p>
        </ConfirmDialog>
      )}
      {paying && !paying.undo && <MarkPaidDialog eventId={event.id} order={paying.order} onClose={() => setPaying(null)} onDone={() => (setPaying(null), reload())} />}
      {paying?.undo && <UndoPaidDialog eventId={event.id} order={paying.order} onClose={() => setPaying(null)} onDone={reload} />}
      {reviewing && <CancellationRequestDialog eventId={event.id} timezone={event.timezone} order={reviewing} onClose={() => setReviewing(null)} onDone={() => (setReviewing(null), reload())} />}
      {extending && <ExtendDeadlineDialog eventId={event.id} event={event} order={extending} onClose={() => setExtending(null)} onDone={() => (setExtending(null), reload())} />}
      {refunding && <RefundDialog eventId={event.id} order={refunding} onClose={() => setRefunding(null)} onDone={() => (setRefunding(null), reload())} />}
    </Card>
  )
}
