// The organiser's orders of an event (docs/ticketing.md, "Orders"): search with filters and paging
// (indexes on event+created, event+status, event+email), detail with history, mark as paid,
// cancel (gives everything back), resend the mail, CSV export, revenue per category.
import { stringify } from 'csv-stringify/sync'
import { SqliteAdapter, sql } from 'kysely'
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { bool, fromJson, isoNow } from '../../../db/types'
import { AppError, notFound } from '../../../shared/errors'
import type { EventRow } from '../../events/events.table'
import type { AccountActor } from '../../identity/auth'
import { unwantedAttempt } from '../../payments/unwanted'
import { eventPaymentMethods } from '../payment-methods'
import { formatPrice } from '../money'
import type { OrderSearch } from '../model'
import type { InvoiceAddress, TicketOrderRow } from '../ticketing.table'
import { addHistory } from './create'
import { cancelOrderInvoice, issueLocationInvoice } from './invoicing'
import { currencyPrefixOf } from '../seller-settings'
import { enqueueOrderMail } from './mails'
import { releaseOrder } from './release'
import { onOrderSettled } from './settle'
import { STEP } from './steps'

const OPEN_STATES = ['OPEN', 'CONFIRMED'] as const
const isSqliteDb = (db: Db) => db.getExecutor().adapter instanceof SqliteAdapter

function filtered(db: Db, eventId: number, s: Partial<OrderSearch>, now: string) {
  let q = db.selectFrom('ticket_order').where('event_id', '=', eventId)
  if (s.status) q = q.where('status', '=', s.status)
  if (s.paymentMethod) q = q.where('payment_method', '=', s.paymentMethod)
  if (s.payment === 'PAID') q = q.where('paid_at', 'is not', null)
  if (s.payment === 'OPEN') q = q.where('paid_at', 'is', null).where('status', 'in', OPEN_STATES)
  if (s.payment === 'OVERDUE') q = q.where('paid_at', 'is', null).where('status', 'in', OPEN_STATES).where('payment_due_at', '<', now)
  const term = s.search?.trim()
  if (term) {
    // prefix search; LIKE wildcards in the term are dropped (escaping differs between dialects)
    const like = `${term.replace(/[\\%_]/g, '')}%`
    q = q.where((eb) => eb.or([eb('number', '=', term.toUpperCase()), eb('email', 'like', like.toLowerCase()), eb('full_name', 'like', like)]))
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
  const prefix = await currencyPrefixOf(ctx.db, event.agency_id)
  return { items: rows.map((o) => ({ ...orderListDto(o, now, prefix), refundOwed: owed.get(o.id) ?? 0 })), total: Number(total.n), page: s.page, perPage: s.perPage, currencyPrefix: prefix }
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
  return {
    ...orderListDto(o, isoNow(ctx.clock.now()), await currencyPrefixOf(ctx.db, event.agency_id)),
    refundOwed: owed.get(o.id) ?? 0,
    publicId: o.public_id,
    payUrl: `${ctx.config.baseUrl}/pay/${o.public_id}`,
    tax: o.tax_price,
    discount: o.discount,
    coupon: coupon?.code ?? null,
    invoiceAddress: fromJson<InvoiceAddress | null>(o.invoice_address, null),
    referenceNumber: o.reference_number,
    lines: lines.map((l) => ({ categoryId: l.category_id, amount: l.amount, displayName: l.display_name, unitPrice: l.unit_price, discount: l.discount, grossPrice: l.gross_price, taxCode: l.tax_code, taxPrice: l.tax_price })),
    history: history.map((h) => ({ at: h.at, kind: h.kind, accountId: h.account_id, data: fromJson<Record<string, unknown>>(h.data, {}) })),
  }
}

/** Records the payment; a transfer, invoice or location order becomes PAID (and settles if it was not yet). */
export async function markPaid(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number, input: { amount: number; paidAt: string }) {
  const at = isoNow(ctx.clock.now())
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
    await addHistory(trx, o.id, at, 'MARKED_PAID', actor.account.id, { amount: input.amount, paidAt: input.paidAt })
    if (!wasSettled) await onOrderSettled(ctx, trx, row)
    else await issueLocationInvoice(ctx, trx, row)
    await enqueueOrderMail(ctx, trx, row, 'paid')
  })
  ctx.notifyMail()
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
    await cancelOrderInvoice(ctx, trx, row)
    // a paid order cancelled offline: what was paid is recorded as given back (with the cancellation invoice)
    await addHistory(trx, row.id, at, 'CANCELED', actor?.account.id ?? null, { ...(row.paid_at ? { refundAmount: row.paid_amount } : {}), ...opts.history })
    await enqueueOrderMail(ctx, trx, row, 'canceled')
    if (opts.inTransaction) await opts.inTransaction(trx)
  })
  ctx.notifyMail()
  return orderDetail(ctx, event, orderId)
}

/** Records an offline refund of a paid order: REFUNDED (step 902), tickets back, cancellation invoice. */
export async function refundOrder(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number) {
  const at = isoNow(ctx.clock.now())
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('ticket_order')
      .set({ status: 'REFUNDED', step: STEP.REFUNDED, updated_at: at })
      .where('id', '=', orderId)
      .where('event_id', '=', event.id)
      .where('status', '=', 'PAID')
      .returningAll()
      .executeTakeFirst()
    if (!row) {
      await orderOfEvent(trx, event, orderId)
      throw new AppError(409, 'ORDER_NOT_PAID')
    }
    await releaseOrder(trx, row, at)
    await cancelOrderInvoice(ctx, trx, row)
    await addHistory(trx, row.id, at, 'REFUNDED', actor.account.id, { amount: row.paid_amount })
    await enqueueOrderMail(ctx, trx, row, 'refunded')
  })
  ctx.notifyMail()
  return orderDetail(ctx, event, orderId)
}

export async function resendOrderMail(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number) {
  const at = isoNow(ctx.clock.now())
  await ctx.db.transaction().execute(async (trx) => {
    const o = await orderOfEvent(trx, event, orderId)
    const kind = o.status === 'PAID' ? 'paid' : o.status === 'REFUNDED' ? 'refunded' : o.status === 'CANCELED' ? (o.step === STEP.EXPIRED ? 'expired' : 'canceled') : 'received'
    const method = (await eventPaymentMethods(trx, event)).find((m) => m.method === o.payment_method) ?? null
    await enqueueOrderMail(ctx, trx, o, kind, method)
    await addHistory(trx, o.id, at, 'MAIL_RESENT', actor.account.id, { kind })
  })
  ctx.notifyMail()
  return { sent: true }
}

/** OWASP CSV injection: a cell starting with = + - @ TAB or CR is prefixed with a quote. */
export const neutralise = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)

export const ORDER_CSV_COLUMNS = ['Bestellnummer', 'Status', 'Name', 'E-Mail', 'Betrag', 'Währung', 'Zahlungsart', 'Bezahlt am', 'Bezahlter Betrag', 'Fällig am', 'Erstellt am']
const cents = (n: number | null) => (n == null ? '' : (n / 100).toFixed(2).replace('.', ','))

export function exportOrdersCsv(ctx: AppContext, event: EventRow, s: Partial<OrderSearch>): ReadableStream<Uint8Array> {
  const enc = new TextEncoder()
  const now = isoNow(ctx.clock.now())
  let lastId = 0
  let started = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true
        controller.enqueue(enc.encode(`\uFEFF${stringify([ORDER_CSV_COLUMNS], { delimiter: ';' })}`))
        return
      }
      const rows = await filtered(ctx.db, event.id, s, now).selectAll().where('id', '>', lastId).orderBy('id').limit(1000).execute()
      if (!rows.length) return controller.close()
      lastId = rows[rows.length - 1].id
      const out = rows.map((o) =>
        [o.number, o.status, o.full_name ?? '', o.email ?? '', cents(o.gross_price), o.currency, o.payment_method ?? '', o.paid_at ?? '', cents(o.paid_amount), o.payment_due_at ?? '', o.created_at].map((v) => neutralise(String(v))),
      )
      controller.enqueue(enc.encode(stringify(out, { delimiter: ';' })))
    },
  })
}

/** Revenue per category: tickets and gross of open, confirmed and paid orders (cancelled ones left out). */
export async function revenueByCategory(ctx: AppContext, event: EventRow) {
  const rows = await ctx.db
    .selectFrom('ticket_order_line as l')
    .innerJoin('ticket_order as o', 'o.id', 'l.order_id')
    .select((eb) => ['l.category_id', 'l.display_name', 'o.status', eb.fn.sum<number>('l.amount').as('tickets'), eb.fn.sum<number>('l.gross_price').as('gross')])
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
