// A paid event's registration creates the ticket order in the registration's transaction
// (docs/ticketing.md, "Quota and capacity"). planOrder checks and prices before the transaction;
// holdOrder takes each category's quota and the coupon use with conditional updates (the event's
// places are taken by the registration itself, one per ticket) and writes the order with its lines.
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { prepared, preparedRows } from '../../../db/prepared'
import { isoNow, toJson } from '../../../db/types'
import { AppError, fieldError } from '../../../shared/errors'
import type { FieldError } from '../../../shared/validation'
import type { EventRow } from '../../events/events.table'
import { randomString } from '../../identity/tokens'
import { enqueueTaskQuick } from '../../tasks/runner'
import { couponCategoryIds, redeemableCoupon } from '../coupons'
import { type PricedOrder, priceOrder } from '../money'
import type { CouponRow, OrderStatus, TicketCategoryRow, TicketOrderRow } from '../ticketing.table'
import { STEP, nextStep } from './steps'

/** How long an order's tickets are held while the guest is on the pay page (docs/ticketing.md). */
export const HOLD_MINUTES = 30
export const EXPIRE_TASK = 'ticketing.expire'

// The order's statements are on the hot path (every ticket purchase): compiled once (db/prepared.ts).
const Q = {
  categories: prepared((db, p: { eventId: number }) => db.selectFrom('ticket_category').selectAll().where('event_id', '=', p.eventId)),
  takeQuota: prepared((db, p: { id: number; n: number }) =>
    db
      .updateTable('ticket_category')
      .set((eb) => ({ sold: eb('sold', '+', p.n) }))
      .where('id', '=', p.id)
      .where((eb) => eb.or([eb('quota', 'is', null), eb(eb('sold', '+', p.n), '<=', eb.ref('quota'))])),
  ),
  // the order's columns as holdOrder writes them
  insertOrder: prepared((db, p: Record<string, any>) =>
    db
      .insertInto('ticket_order')
      .values({
        public_id: p.public_id,
        number: p.number,
        agency_id: p.agency_id,
        event_id: p.event_id,
        visitor_id: p.visitor_id,
        email: p.email,
        full_name: p.full_name,
        language: p.language,
        status: p.status,
        step: p.step,
        currency: p.currency,
        gross_price: p.gross_price,
        tax_price: p.tax_price,
        discount: p.discount,
        coupon_id: p.coupon_id,
        coupon_held: p.coupon_held,
        seats_held: p.seats_held,
        tickets_held: p.tickets_held,
        invoice_address_disabled: p.invoice_address_disabled,
        payment_method: p.payment_method,
        hold_until: p.hold_until,
        created_at: p.created_at,
        updated_at: p.updated_at,
      } as never)
      .returningAll(),
  ),
  insertLines: preparedRows((db, rows: Array<{ order_id: number; category_id: number; amount: number; display_name: string; unit_price: number; gross_price: number; discount: number; tax_code: string; tax_rate: number; tax_price: number; sort_order: number }>) =>
    db.insertInto('ticket_order_line').values(
      rows.map((r) => ({
        order_id: r.order_id,
        category_id: r.category_id,
        amount: r.amount,
        display_name: r.display_name,
        unit_price: r.unit_price,
        gross_price: r.gross_price,
        discount: r.discount,
        tax_code: r.tax_code,
        tax_rate: r.tax_rate,
        tax_price: r.tax_price,
        sort_order: r.sort_order,
      })),
    ),
  ),
  history: prepared((db, p: { orderId: number; at: string; kind: string; accountId: number | null; data: string }) =>
    db.insertInto('ticket_order_history').values({ order_id: p.orderId, at: p.at, kind: p.kind, account_id: p.accountId, data: p.data }),
  ),
}

export interface OrderPlan {
  priced: PricedOrder
  coupon: CouponRow | null
  /** tickets in the order = persons of the registration */
  tickets: number
}

const ORDER_CODE = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
/** 8 characters without 0/O and 1/I (like pretix's order codes); 40 bits, unique index behind it. */
export function orderNumber(): string {
  const b = new Uint8Array(8)
  crypto.getRandomValues(b)
  return [...b].map((x) => ORDER_CODE[x & 31]).join('')
}

const soldOut = (categoryId: number) => new AppError(409, 'TICKETS_SOLD_OUT', { fields: [{ field: `tickets.${categoryId}`, errorType: 'SOLD_OUT' }], extra: { categoryId } })

/** Checks the guest's picks against the categories (before the transaction) and prices them. */
export async function planOrder(
  db: Db,
  event: EventRow,
  picks: Array<{ categoryId: number; amount: number }> | undefined,
  couponCode: string | null | undefined,
  now: Date,
  /** ticketCode: the code that reveals hidden categories (docs/ticketing.md, "Selling rules") */
  opts: { refuseSoldOut?: boolean; ticketCode?: string | null } = {},
): Promise<OrderPlan> {
  const cats = (await Q.categories(db, { eventId: event.id })).rows as TicketCategoryRow[]
  const byId = new Map(cats.map((c) => [c.id, c]))
  const problems: FieldError[] = []
  const amounts = new Map<number, number>()
  const code = opts.ticketCode?.trim().toUpperCase() || null
  ;(picks ?? []).forEach((p, i) => {
    const c = byId.get(p.categoryId)
    // a hidden category without its code is answered like an unknown one (its existence is not told)
    if (!c || (p.amount > 0 && c.access_code != null && c.access_code !== code)) return problems.push({ field: `tickets.${i}.categoryId`, errorType: 'INVALID' })
    amounts.set(c.id, (amounts.get(c.id) ?? 0) + p.amount)
  })
  const t = now.toISOString()
  const index = (id: number) => (picks ?? []).findIndex((p) => p.categoryId === id)
  for (const [id, amount] of amounts) {
    const c = byId.get(id)!
    if (amount === 0) continue
    const field = `tickets.${index(id)}.amount`
    if ((c.sale_from && c.sale_from > t) || (c.sale_until && c.sale_until < t)) problems.push({ field, errorType: 'NOT_ON_SALE' })
    else if (amount < c.min_per_order) problems.push({ field, errorType: 'BELOW_MIN_PER_ORDER' })
    else if (amount > c.max_per_order) problems.push({ field, errorType: 'ABOVE_MAX_PER_ORDER' })
    // a category sold only with another one in the same order (a child ticket with an adult one)
    else if (c.requires_category_id != null && !((amounts.get(c.requires_category_id) ?? 0) > 0)) problems.push({ field, errorType: 'REQUIRES_CATEGORY' })
  }
  // sold out as read now: refused before the transaction, so a sell-out's thousands of refusals cost
  // a read each (the conditional update in holdOrder still decides every ticket that is sold); only
  // for orders that will hold their tickets (an approval's order takes them when approved)
  if (!problems.length && opts.refuseSoldOut) {
    for (const [id, amount] of amounts) {
      const c = byId.get(id)!
      if (amount > 0 && c.quota != null && c.sold + amount > c.quota) throw soldOut(id)
    }
  }
  const tickets = [...amounts.values()].reduce((s, n) => s + n, 0)
  if (!problems.length && tickets === 0) problems.push({ field: 'tickets', errorType: 'TICKETS_REQUIRED' })
  if (!problems.length && event.max_visitor_per_subscription > 0 && tickets > event.max_visitor_per_subscription) problems.push({ field: 'tickets', errorType: 'TOO_BIG' })
  let coupon: CouponRow | null = null
  if (couponCode && couponCode.trim()) {
    coupon = await redeemableCoupon(db, event.id, couponCode, now)
    if (!coupon) problems.push({ field: 'couponCode', errorType: 'COUPON_INVALID' })
  }
  if (problems.length) throw fieldError(problems)
  const priced = priceOrder(
    [...amounts].map(([id, amount]) => {
      const c = byId.get(id)!
      return { category: { id, displayName: c.display_name, grossPrice: c.gross_price, taxCode: c.tax_code, sortOrder: c.sort_order }, amount }
    }),
    coupon && { code: coupon.code, valueType: coupon.value_type, reduction: coupon.reduction, categoryId: coupon.category_id, categoryIds: couponCategoryIds(coupon) },
    event.start_date,
    event.currency,
  )
  if (coupon && !priced.couponApplies) throw fieldError([{ field: 'couponCode', errorType: 'COUPON_NO_TICKETS' }])
  return { priced, coupon, tickets }
}

/**
 * Inside the registration's transaction: takes each line's quota and the coupon use (conditional
 * updates; any refusal rolls the whole registration back) and writes the order. A waiting-list or
 * approval registration gets its order without holding anything.
 */
export async function holdOrder(
  ctx: AppContext,
  trx: Db,
  event: EventRow,
  plan: OrderPlan,
  visitor: { id: number; email: string | null; fullName: string; language: string; status: string; persons: number; escorts: number },
  /** the methods enabled for the event: a single one is preselected (§4) */
  methods: string[],
  now: Date,
): Promise<TicketOrderRow> {
  const holding = visitor.status === 'PENDING'
  if (holding) {
    for (const l of plan.priced.lines) {
      if (!(await takeQuota(trx, l.categoryId, l.amount))) throw soldOut(l.categoryId)
    }
    if (plan.coupon && !(await takeCoupon(trx, plan.coupon.id))) throw fieldError([{ field: 'couponCode', errorType: 'COUPON_INVALID' }])
  }
  const at = isoNow(now)
  const status: OrderStatus = holding ? 'OPEN' : visitor.status === 'WAITING_LIST' ? 'WAITING_LIST' : 'REQUIRE_APPROVAL'
  const free = plan.priced.grossPrice === 0
  const preselected = free ? 'COUPON' : methods.length === 1 ? methods[0] : null
  const step = holding
    ? nextStep({ grossPrice: plan.priced.grossPrice, invoiceAddressDisabled: free, hasInvoiceAddress: false, requiredActions: visitor.escorts < visitor.persons - 1 ? ['REQUIRE_ESCORT_PERSONS'] : [], paymentMethod: preselected, methodCount: methods.length, additionalApplies: visitor.persons > 1 })
    : STEP.INVOICE_ADDRESS
  const order = (await Q.insertOrder.first(trx, {
    public_id: randomString(15),
    number: orderNumber(),
    agency_id: event.agency_id,
    event_id: event.id,
    visitor_id: visitor.id,
    email: visitor.email,
    full_name: visitor.fullName || null,
    language: visitor.language,
    status,
    step,
    currency: event.currency,
    gross_price: plan.priced.grossPrice,
    tax_price: plan.priced.taxPrice,
    discount: plan.priced.discount,
    coupon_id: plan.coupon?.id ?? null,
    coupon_held: holding && plan.coupon ? 1 : 0,
    seats_held: 0,
    tickets_held: holding ? 1 : 0,
    invoice_address_disabled: free,
    payment_method: preselected,
    hold_until: holding ? isoNow(new Date(now.getTime() + HOLD_MINUTES * 60_000)) : null,
    created_at: at,
    updated_at: at,
  })) as TicketOrderRow
  await Q.insertLines(
    trx,
    plan.priced.lines.map((l, i) => ({
      order_id: order.id,
      category_id: l.categoryId,
      amount: l.amount,
      display_name: l.displayName,
      unit_price: l.unitPrice,
      gross_price: l.grossPrice,
      discount: l.discount,
      tax_code: l.taxCode,
      tax_rate: l.taxRate,
      tax_price: l.taxPrice,
      sort_order: i,
    })),
  )
  await addHistory(trx, order.id, at, 'CREATED', null, { grossPrice: order.gross_price, coupon: plan.coupon?.code ?? null })
  if (holding) await enqueueTaskQuick(ctx.clock, trx, { kind: EXPIRE_TASK, agencyId: event.agency_id, payload: { orderId: order.id }, runAfter: new Date(order.hold_until!) })
  return order
}

export async function takeQuota(trx: Db, categoryId: number, n: number): Promise<boolean> {
  const r = await Q.takeQuota(trx, { id: categoryId, n })
  return Number(r.numAffectedRows) === 1
}

export async function takeCoupon(trx: Db, couponId: number): Promise<boolean> {
  const r = await trx
    .updateTable('coupon')
    .set((eb) => ({ used: eb('used', '+', 1) }))
    .where('id', '=', couponId)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb(eb('used', '+', 1), '<=', eb.ref('max_uses'))]))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function addHistory(trx: Db, orderId: number, at: string, kind: string, accountId: number | null, data: Record<string, unknown> = {}) {
  await Q.history(trx, { orderId, at, kind, accountId, data: toJson(data) as string })
}
