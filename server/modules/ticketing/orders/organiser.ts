// The organiser's orders of an event (docs/ticketing.md, "Orders"): search with filters and paging
// (indexes on event+created, event+status, event+email), detail with history, mark as paid,
// cancel (gives everything back), resend the mail, revenue per category (the CSV export: orders/csv.ts).
import { termsAcceptanceDto } from '../terms'
import { SqliteAdapter, sql } from 'kysely'
import type { AppContext } from '../../../context'
import { audit } from '../../audit/service'
import type { Db } from '../../../db/database'
import { bool, fromJson, isoNow } from '../../../db/types'
import { AppError, fieldError, notFound } from '../../../shared/errors'
import type { EventRow } from '../../events/events.table'
import type { AccountActor } from '../../identity/auth'
import { unwantedAttempt } from '../../payments/unwanted'
import { eventPaymentMethods } from '../payment-methods'
import { formatPrice } from '../money'
import type { OrderSearch } from '../model'
import type { InvoiceAddress, TicketOrderRow } from '../ticketing.table'
import { currentInvoiceOf } from '../../invoices/service'
import { addHistory } from './create'
import { refundOffline } from './offline-refund'
import { orderDetailParts, refundedOfPaid, seatsByCategory } from './detail'
import { latestRequests, requestDto } from './cancel-request-rows'
import { rescheduleAfterUndo } from './deadline'
import { cancelOrderInvoice, issueLocationInvoice } from './invoicing'
import { currencyPrefixOf } from '../seller-settings'
import { enqueueOrderMail } from './mails'
import { releaseOrder } from './release'
import { onOrderSettled } from './settle'
import { STEP } from './steps'

const OPEN_STATES = ['OPEN', 'CONFIRMED'] as const
const isSqliteDb = (db: Db) => db.getExecutor().adapter instanceof SqliteAdapter

/** The orders the organiser's filters select (the list and the CSV export, orders/csv.ts). */
export function filtered(db: Db, eventId: number, s: Partial<OrderSearch>, now: string) {
  let q = db.selectFrom('ticket_order').where('event_id', '=', eventId)
  if (s.status) q = q.where('status', '=', s.status)
  if (s.paymentMethod) q = q.where('payment_method', '=', s.paymentMethod)
  if (s.payment === 'PAID') q = q.where('paid_at', 'is not', null)
  if (s.payment === 'OPEN') q = q.where('paid_at', 'is', null).where('status', 'in', OPEN_STATES)
  if (s.payment === 'OVERDUE') q = q.where('paid_at', 'is', null).where('status', 'in', OPEN_STATES).where('payment_due_at', '<', now)
  if (s.cancellationRequest === 'OPEN') q = q.where((eb) => eb.exists(eb.selectFrom('order_cancellation_request as r').select('r.id').whereRef('r.order_id', '=', 'ticket_order.id').where('r.status', '=', 'OPEN')))
  const term = s.search?.trim()
  if (term) {
    // prefix search; LIKE wildcards in the term are dropped (escaping differs between dialects)
    const like = `${term.replace(/[\\%_]/g, '')}%`
    // an invoice or credit note number finds its order (the accountant's question "which order is RE-00042?")
    const invoiceOrders = db.selectFrom('invoice').select('order_ref').where('event_id', '=', eventId).where('number', 'in', [...new Set([term, term.toUpperCase()])])
    q = q.where((eb) =>
      eb.or([eb('number', '=', term.toUpperCase()), eb('email', 'like', like.toLowerCase()), eb('full_name', 'like', like), eb(sql<string>`cast(${sql.ref('ticket_order.id')} as text)`, 'in', invoiceOrders)]),
    )
  }
  return q
}

export function orderListDto(o: TicketOrderRow, now: string, prefix = false) {
  return {
    id: o.id,
    number: o.number,
    status: o.status,
    step: o.step,
    email: o.email,
    fullName: o.full_name,
    grossPrice: o.gross_price,
    grossPriceText: formatPrice(o.gross_price, o.currency, prefix),
    currency: o.currency,
    paymentMethod: o.payment_method,
    paidAmount: o.paid_amount,
    paidAt: o.paid_at,
    paymentDueAt: o.payment_due_at,
    overdue: !o.paid_at && (OPEN_STATES as readonly string[]).includes(o.status) && !!o.payment_due_at && o.payment_due_at < now,
    visitorId: o.visitor_id,
    createdAt: o.created_at,
  }
}

/**
 * What online refunds that failed at the provider still owe, by order, read from payments' tables (the
 * list shows it, payments keeps it; docs/payments.md "Refunds that fail later"): what a failed refund
 * had credited (failed_refund_credit), and all that is left of a payment that arrived late or twice
 * (it had to go back whole; its automatic refund failed).
 */
async function refundsOwed(db: Db, orderIds: number[]): Promise<Map<number, number>> {
  if (!orderIds.length) return new Map()
  // only attempts that owe something are read: a failed credited refund, or an unwanted payment with money left
  const rows = await db
    .selectFrom('payment_attempt')
    .select(['order_id', 'failed_refund_credit', 'amount', 'refunded_amount'])
    .select((eb) => eb.and([eb('status', '=', 'PAID'), unwantedAttempt(eb)]).as('unwanted'))
    .where('order_id', 'in', orderIds)
    .where((eb) => eb.or([eb('failed_refund_credit', '>', 0), eb.and([eb('status', '=', 'PAID'), eb('refunded_amount', '<', eb.ref('amount')), unwantedAttempt(eb)])]))
    .execute()
  const owed = new Map<number, number>()
  for (const r of rows) {
    const n = Number(r.failed_refund_credit) + (bool(r.unwanted) ? Number(r.amount) - Number(r.refunded_amount) : 0)
    if (n > 0) owed.set(r.order_id, (owed.get(r.order_id) ?? 0) + n)
  }
  return owed
}

export async function searchOrders(ctx: AppContext, event: EventRow, s: OrderSearch) {
  const now = isoNow(ctx.clock.now())
  const [rows, total] = await Promise.all([
    filtered(ctx.db, event.id, s, now).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(s.perPage).offset(s.page * s.perPage).execute(),
    filtered(ctx.db, event.id, s, now).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  const owed = await refundsOwed(ctx.db, rows.map((o) => o.id))
  // the payment entries of the page's paid orders: may today's "mark paid" still be undone
  const paidIds = rows.filter((o) => o.status === 'PAID').map((o) => o.id)
  const entries = paidIds.length
    ? await ctx.db.selectFrom('ticket_order_history').select(['order_id', 'kind', 'at', 'data']).where('order_id', 'in', paidIds).where('kind', 'in', PAYMENT_ENTRIES).orderBy('id').execute()
    : []
  const refunded = await refundedOfPaid(ctx.db, paidIds)
  const clockNow = ctx.clock.now()
  const undoable = (o: TicketOrderRow) => o.status === 'PAID' && !!undoablePayment(o, entries.filter((e) => e.order_id === o.id), event, clockNow)
  const prefix = await currencyPrefixOf(ctx.db, event.agency_id)
  // the guests' cancellation requests (orders/cancel-requests.ts): the list marks the open ones
  const requests = await latestRequests(ctx.db, rows.map((o) => o.id))
  const request = (o: TicketOrderRow) => (requests.has(o.id) ? requestDto(requests.get(o.id)!) : null)
  const left = (o: TicketOrderRow) => Math.max(0, Number(o.paid_amount ?? 0) - (refunded.get(o.id) ?? 0))
  return {
    items: rows.map((o) => ({ ...orderListDto(o, now, prefix), refundOwed: owed.get(o.id) ?? 0, canUndoPaid: undoable(o), cancellationRequest: request(o), partlyRefunded: (refunded.get(o.id) ?? 0) > 0 && left(o) > 0, amountLeft: o.paid_at ? left(o) : 0 })), total: Number(total.n), page: s.page, perPage: s.perPage, currencyPrefix: prefix }
}

async function orderOfEvent(db: Db, event: EventRow, orderId: number) {
  const o = await db.selectFrom('ticket_order').selectAll().where('id', '=', orderId).where('event_id', '=', event.id).executeTakeFirst()
  if (!o) throw notFound()
  return o
}

export async function orderDetail(ctx: AppContext, event: EventRow, orderId: number) {
  const o = await orderOfEvent(ctx.db, event, orderId)
  const [lines, history, coupon, owed] = await Promise.all([
    ctx.db.selectFrom('ticket_order_line').selectAll().where('order_id', '=', o.id).orderBy('sort_order').execute(),
    ctx.db.selectFrom('ticket_order_history').selectAll().where('order_id', '=', o.id).orderBy('id').execute(),
    o.coupon_id ? ctx.db.selectFrom('coupon').select('code').where('id', '=', o.coupon_id).executeTakeFirst() : undefined,
    refundsOwed(ctx.db, [o.id]),
  ])
  const historyRows = history.map((h) => ({ kind: h.kind, at: h.at, account_id: h.account_id, data: fromJson<Record<string, unknown>>(h.data, {}) }))
  const parts = await orderDetailParts(ctx.db, o, historyRows)
  const { authors, ...rest } = parts
  const lineSeats = await seatsByCategory(ctx.db, o.id)
  const requests = await ctx.db.selectFrom('order_cancellation_request').selectAll().where('order_id', '=', o.id).orderBy('id').execute()
  return {
    ...orderListDto(o, isoNow(ctx.clock.now()), await currencyPrefixOf(ctx.db, event.agency_id)),
    ...rest,
    eventId: event.id,
    refundOwed: owed.get(o.id) ?? 0,
    canUndoPaid: !!undoablePayment(o, history, event, ctx.clock.now()),
    publicId: o.public_id,
    payUrl: `${ctx.config.baseUrl}/pay/${o.public_id}`,
    tax: o.tax_price,
    discount: o.discount,
    coupon: coupon?.code ?? null,
    invoiceAddress: fromJson<InvoiceAddress | null>(o.invoice_address, null),
    referenceNumber: o.reference_number,
    /** the buyer's acceptance of the terms (time, version, text as accepted); null without terms */
    termsAccepted: termsAcceptanceDto(o),
    lines: lines.map((l) => ({ id: l.id, refundedQuantity: Number(l.refunded_quantity), categoryId: l.category_id, amount: l.amount, displayName: l.display_name, unitPrice: l.unit_price, discount: l.discount, grossPrice: l.gross_price, taxCode: l.tax_code, taxRate: l.tax_rate / 100, taxPrice: l.tax_price, seats: l.category_id != null ? (lineSeats.get(l.category_id) ?? []) : [] })),
    history: historyRows.map((h) => ({ at: h.at, kind: h.kind, accountId: h.account_id, by: h.account_id != null ? (authors.get(h.account_id) ?? null) : null, data: h.data })),
    /** the guest's cancellation requests, oldest first (orders/cancel-requests.ts) */
    cancellationRequests: requests.map(requestDto),
  }
}

/**
 * Records the payment the organiser received (amount and date as entered, who in the history); a
 * transfer, invoice or location order becomes PAID (and settles if it was not yet). The history entry
 * keeps the status and step the order had, so an undo the same day can put them back (undoPaid).
 */
export async function markPaid(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number, input: { amount: number; paidAt: string }) {
  const at = isoNow(ctx.clock.now())
  // money that has not come in yet is not recorded (a day's grace for the zones east of the server)
  if (input.amount <= 0 || Date.parse(input.paidAt) > ctx.clock.now().getTime() + 86400_000) {
    throw fieldError([...(input.amount <= 0 ? [{ field: 'amount', errorType: 'INVALID' }] : []), ...(input.amount > 0 ? [{ field: 'paidAt', errorType: 'INVALID' }] : [])])
  }
  await ctx.db.transaction().execute(async (trx) => {
    const o = await orderOfEvent(trx, event, orderId)
    const wasSettled = o.status === 'CONFIRMED'
    const row = await trx
      .updateTable('ticket_order')
      .set({ status: 'PAID', step: STEP.FINISHED, paid_amount: input.amount, paid_at: input.paidAt, hold_until: null, updated_at: at })
      .where('id', '=', o.id)
      .where('status', 'in', OPEN_STATES)
      .where('tickets_held', '=', 1)
      .returningAll()
      .executeTakeFirst()
    if (!row) throw new AppError(409, 'ORDER_NOT_OPEN')
    await addHistory(trx, o.id, at, 'MARKED_PAID', actor.account.id, { amount: input.amount, paidAt: input.paidAt, from: o.status, fromStep: o.step })
    await audit(ctx, trx, { agencyId: event.agency_id, actor, action: 'order.markPaid', entityType: 'order', entityId: o.number, eventId: event.id, changes: { status: [o.status, 'PAID'] }, detail: { amount: input.amount, paidAt: input.paidAt } })
    if (!wasSettled) await onOrderSettled(ctx, trx, row)
    else await issueLocationInvoice(ctx, trx, row)
    await enqueueOrderMail(ctx, trx, row, 'paid')
  })
  ctx.notifyMail()
  return orderDetail(ctx, event, orderId)
}

type HistoryRow = { kind: string; at: string; data: string | null }
const PAYMENT_ENTRIES = ['MARKED_PAID', 'MARKED_PAID_UNDONE', 'PAID_ONLINE']
/**
 * The organiser's "mark paid" that may still be undone: the order is PAID by it (the last payment
 * entry is a MARKED_PAID, not undone) and it was recorded today in the event's time zone. Later the
 * books of the day are closed: a refund or cancel is the way then.
 */
function undoablePayment(o: TicketOrderRow, history: HistoryRow[], event: EventRow, now: Date) {
  if (o.status !== 'PAID' || !o.paid_at) return null
  const last = [...history].reverse().find((h) => PAYMENT_ENTRIES.includes(h.kind))
  if (last?.kind !== 'MARKED_PAID') return null
  const day = dayIn(event.timezone || 'Europe/Berlin')
  if (day.format(new Date(last.at)) !== day.format(now)) return null
  return fromJson<{ amount?: number; paidAt?: string; from?: string; fromStep?: number }>(last.data, {})
}

/**
 * Undoes today's "mark paid" by a counter-entry (MARKED_PAID_UNDONE with the negative amount; both
 * stay in the history, nothing is deleted): the order is open again as it was before (OPEN awaiting
 * its transfer, CONFIRMED to pay later or at the door). The invoice issued when it settled stays (it
 * is issued once per order; paying again does not issue another). Otherwise 409 MARK_PAID_UNDO_NOT_ALLOWED.
 */
export async function undoPaid(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number) {
  const now = ctx.clock.now()
  const at = isoNow(now)
  await ctx.db.transaction().execute(async (trx) => {
    const o = await orderOfEvent(trx, event, orderId)
    const history = await trx.selectFrom('ticket_order_history').select(['kind', 'at', 'data']).where('order_id', '=', o.id).orderBy('id').execute()
    const paid = undoablePayment(o, history, event, now)
    if (!paid) throw new AppError(409, 'MARK_PAID_UNDO_NOT_ALLOWED')
    const to = paid.from === 'CONFIRMED' ? 'CONFIRMED' : 'OPEN'
    // an order still in checkout when it was marked paid goes back to its step, held again for its 30 minutes
    const inCheckout = to === 'OPEN' && paid.fromStep != null && paid.fromStep < STEP.FINISHED
    const row = await trx
      .updateTable('ticket_order')
      .set({ status: to, step: inCheckout ? paid.fromStep! : STEP.FINISHED, paid_amount: null, paid_at: null, hold_until: inCheckout ? isoNow(new Date(now.getTime() + 30 * 60_000)) : null, updated_at: at })
      .where('id', '=', o.id)
      .where('status', '=', 'PAID')
      .where('paid_at', '=', o.paid_at)
      .returningAll()
      .executeTakeFirst()
    if (!row) throw new AppError(409, 'MARK_PAID_UNDO_NOT_ALLOWED')
    await addHistory(trx, o.id, at, 'MARKED_PAID_UNDONE', actor.account.id, { amount: -(o.paid_amount ?? 0), paidAt: o.paid_at, to })
    // its payment deadline counts again (a passed one a day later: orders/deadline.ts)
    await rescheduleAfterUndo(ctx, trx, row)
    await audit(ctx, trx, { agencyId: event.agency_id, actor, action: 'order.undoPaid', entityType: 'order', entityId: o.number, eventId: event.id, changes: { status: ['PAID', to] }, detail: { amount: -(o.paid_amount ?? 0) } })
  })
  return orderDetail(ctx, event, orderId)
}

/** How a PAID order paid online is cancelled: its money goes back through the provider first (payments/cancel.ts). */
export type PaidOnlineCancel = (ctx: AppContext, actor: AccountActor | null, event: EventRow, order: TicketOrderRow) => Promise<boolean>
let paidOnlineCancel: PaidOnlineCancel | null = null
export const setPaidOnlineCancel = (f: PaidOnlineCancel) => void (paidOnlineCancel = f)

export interface CancelOptions {
  /**
   * Runs in the cancel's transaction after the order is cancelled: the guest list's delete or
   * decline changes the registration there (orders/guest-list.ts), so both happen or neither.
   * The order then leaves the registration's status and places to it. Not called when a paid
   * online order was refunded instead (its own transaction after the provider's answer).
   */
  inTransaction?: (trx: Db) => Promise<void>
  /** written into the CANCELED history entry (what caused the cancel) */
  history?: Record<string, unknown>
  /**
   * The guest's own withdraw: only an order with nothing paid or owed (waiting, approval, open before
   * its payment started, or free); never refunds. Anything else answers ORDER_NOT_OPEN.
   */
  unpaidOnly?: boolean
}

/**
 * The one way to cancel an order (the organiser's "Stornieren", deleting or declining a guest):
 * open, confirmed or paid; tickets, places and coupon use go back. A PAID online order is refunded
 * through its provider and ends REFUNDED (902); `actor` null is the system.
 */
export async function cancelOrder(ctx: AppContext, actor: AccountActor | null, event: EventRow, orderId: number, opts: CancelOptions = {}) {
  if (!opts.unpaidOnly && paidOnlineCancel && (await paidOnlineCancel(ctx, actor, event, await orderOfEvent(ctx.db, event, orderId)))) return orderDetail(ctx, event, orderId)
  const at = isoNow(ctx.clock.now())
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('ticket_order')
      .set({ status: 'CANCELED', step: STEP.CANCELED, hold_until: null, updated_at: at })
      .where('id', '=', orderId)
      .where('event_id', '=', event.id)
      .where('status', 'in', ['OPEN', 'CONFIRMED', 'PAID', 'WAITING_LIST', 'REQUIRE_APPROVAL'])
      // paid online meanwhile (after the check above): never cancelled without its refund
      .where((eb) => eb.or([eb('status', '!=', 'PAID'), eb('payment_method', 'is', null), eb('payment_method', 'not in', ['STRIPE', 'PAYPAL', 'MOLLIE'])]))
      // the same rule as guestMayCancel (orders/guest-list.ts), here as the conditional update's condition
      .$if(!!opts.unpaidOnly, (qb) =>
        qb.where((eb) =>
          eb.or([eb('status', 'in', ['WAITING_LIST', 'REQUIRE_APPROVAL']), eb.and([eb('status', '=', 'OPEN'), eb('step', '<', STEP.EXTERNAL_SITE)]), eb('gross_price', '=', 0)]),
        ),
      )
      .returningAll()
      .executeTakeFirst()
    if (!row) {
      await orderOfEvent(trx, event, orderId)
      throw new AppError(409, 'ORDER_NOT_OPEN')
    }
    await releaseOrder(trx, row, at, opts.inTransaction ? null : 'DELETED')
    const creditNote = await cancelOrderInvoice(ctx, trx, row)
    // a paid order cancelled offline: what was paid is recorded as given back (with the cancellation invoice)
    await addHistory(trx, row.id, at, 'CANCELED', actor?.account.id ?? null, { ...(row.paid_at ? { refundAmount: row.paid_amount } : {}), ...opts.history })
    if (actor) await audit(ctx, trx, { agencyId: event.agency_id, actor, action: 'order.cancel', entityType: 'order', entityId: row.number, eventId: event.id, detail: { ...(row.paid_at ? { refundAmount: row.paid_amount } : {}), ...opts.history } })
    await enqueueOrderMail(ctx, trx, row, 'canceled', null, creditNote)
    if (opts.inTransaction) await opts.inTransaction(trx)
  })
  ctx.notifyMail()
  return orderDetail(ctx, event, orderId)
}

/**
 * Records an offline refund of a paid order not paid online (orders/offline-refund.ts): `amount`
 * cents of it (the order stays PAID, a credit note for that amount), or all that is left (null):
 * REFUNDED (step 902), tickets back, the credit note for the rest. An order paid online is refused
 * (REFUND_ONLINE_PAYMENT): its money goes back only through its provider (refundPayment).
 */
export async function refundOrder(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number, amount: number | null = null) {
  await refundOffline(ctx, actor, event, orderId, amount)
  return orderDetail(ctx, event, orderId)
}

async function latestCreditNote(trx: Db, o: TicketOrderRow) {
  const original = await currentInvoiceOf(trx, o.agency_id, o.id)
  if (!original) return null
  return (await trx.selectFrom('invoice').select('id').where('agency_id', '=', o.agency_id).where('cancels_invoice_id', '=', original.id).orderBy('id', 'desc').limit(1).executeTakeFirst()) ?? null
}

export async function resendOrderMail(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number) {
  const at = isoNow(ctx.clock.now())
  await ctx.db.transaction().execute(async (trx) => {
    const o = await orderOfEvent(trx, event, orderId)
    const kind = o.status === 'PAID' ? 'paid' : o.status === 'REFUNDED' ? 'refunded' : o.status === 'CANCELED' ? (o.step === STEP.EXPIRED ? 'expired' : 'canceled') : 'received'
    const method = (await eventPaymentMethods(trx, event)).find((m) => m.method === o.payment_method) ?? null
    // a cancelled or refunded order's mail again with its latest cancellation invoice (the one that ended it)
    const creditNote = kind === 'canceled' || kind === 'refunded' ? await latestCreditNote(trx, o) : null
    await enqueueOrderMail(ctx, trx, o, kind, method, creditNote)
    await addHistory(trx, o.id, at, 'MAIL_RESENT', actor.account.id, { kind })
  })
  ctx.notifyMail()
  return { sent: true }
}

/** Revenue per category: tickets and gross of open, confirmed and paid orders (cancelled ones left out). */
export async function revenueByCategory(ctx: AppContext, event: EventRow) {
  const rows = await ctx.db
    .selectFrom('ticket_order_line as l')
    .innerJoin('ticket_order as o', 'o.id', 'l.order_id')
    // tickets refunded per line (line-refund.ts) are neither sold nor revenue: the line's gross by the share still held
    .select((eb) => [
      'l.category_id',
      'l.display_name',
      'o.status',
      eb.fn.sum<number>(sql<number>`l.amount - l.refunded_quantity`).as('tickets'),
      eb.fn.sum<number>(sql<number>`case when l.refunded_quantity = 0 or l.amount = 0 then l.gross_price else l.gross_price * (l.amount - l.refunded_quantity) / l.amount end`).as('gross'),
    ])
    .where('o.event_id', '=', event.id)
    .where('o.status', 'in', ['OPEN', 'CONFIRMED', 'PAID'])
    .groupBy(['l.category_id', 'l.display_name', 'o.status'])
    .execute()
  const byCat = new Map<string, { categoryId: number | null; displayName: string; tickets: number; gross: number; paid: number }>()
  for (const r of rows) {
    const key = `${r.category_id}`
    const c = byCat.get(key) ?? { categoryId: r.category_id, displayName: r.display_name, tickets: 0, gross: 0, paid: 0 }
    c.tickets += Number(r.tickets)
    c.gross += Number(r.gross)
    if (r.status === 'PAID') c.paid += Number(r.gross)
    byCat.set(key, c)
  }
  const items = [...byCat.values()]
  return { currency: event.currency, items, total: items.reduce((s, c) => s + c.gross, 0), paid: items.reduce((s, c) => s + c.paid, 0), days: await revenueByDay(ctx, event) }
}

const dayIn = (tz: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' })

/**
 * Revenue per day of ordering in the event's time zone (the statistics' plot): gross of open,
 * confirmed and paid orders and the paid part. One aggregate query by UTC hour (both dialects
 * give the same 'YYYY-MM-DDTHH' bucket), folded into local days here; days without orders between
 * the first and the last are listed with 0 so the plot's time axis is even.
 */
export async function revenueByDay(ctx: AppContext, event: EventRow) {
  const hour = isSqliteDb(ctx.db) ? sql<string>`substr(created_at, 1, 13)` : sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24')`
  const rows = await ctx.db
    .selectFrom('ticket_order')
    .select((eb) => [hour.as('bucket'), 'status', eb.fn.sum<number>('gross_price').as('gross')])
    .where('event_id', '=', event.id)
    .where('status', 'in', ['OPEN', 'CONFIRMED', 'PAID'])
    .groupBy([hour, 'status'])
    .execute()
  const fmt = dayIn(event.timezone)
  const byDay = new Map<string, { day: string; gross: number; paid: number }>()
  for (const r of rows) {
    const day = fmt.format(new Date(`${r.bucket}:00:00Z`))
    const d = byDay.get(day) ?? { day, gross: 0, paid: 0 }
    d.gross += Number(r.gross)
    if (r.status === 'PAID') d.paid += Number(r.gross)
    byDay.set(day, d)
  }
  const days = [...byDay.keys()].sort()
  if (!days.length) return []
  const out = []
  // noon UTC steps over every calendar day, also across a change of daylight saving time
  for (let t = Date.parse(`${days[0]}T12:00:00Z`), end = Date.parse(`${days.at(-1)}T12:00:00Z`); t <= end && out.length < 1000; t += 86400_000) {
    const day = new Date(t).toISOString().slice(0, 10)
    out.push(byDay.get(day) ?? { day, gross: 0, paid: 0 })
  }
  return out
}

/** The desk: LOCATION orders of a registration (or the event) still to be paid at the door. */
export async function openLocationPayments(ctx: AppContext, event: EventRow, visitorId: number | null) {
  let q = ctx.db.selectFrom('ticket_order').selectAll().where('event_id', '=', event.id).where('payment_method', '=', 'LOCATION').where('status', '=', 'CONFIRMED').where('paid_at', 'is', null)
  if (visitorId != null) q = q.where('visitor_id', '=', visitorId)
  const now = isoNow(ctx.clock.now())
  const prefix = await currencyPrefixOf(ctx.db, event.agency_id)
  return (await q.orderBy('id').limit(200).execute()).map((o) => orderListDto(o, now, prefix))
}

/** The desk takes a LOCATION payment: the full amount, now. */
export async function takeLocationPayment(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number) {
  const o = await orderOfEvent(ctx.db, event, orderId)
  if (o.payment_method !== 'LOCATION') throw new AppError(409, 'ORDER_NOT_OPEN')
  return markPaid(ctx, actor, event, orderId, { amount: o.gross_price, paidAt: isoNow(ctx.clock.now()) })
}
