// The guest list deletes or declines a registration that has a ticket order (docs/ticketing.md,
// "Guest list and orders"): the order is cancelled through the organiser's cancel service (the one
// the order screen uses: tickets, coupon use and the cancellation invoice of a settled order; a
// paid online order is refunded by it), and the registration's action runs inside the cancel's
// transaction, so the order is never cancelled without the registration changing, nor the other
// way round. Running it twice changes nothing twice: the second finds no order left to cancel.
// Approving a waiting-list or approval registration moves its order on to payment (startWaitingOrder).
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { AppError } from '../../../shared/errors'
import type { EventRow } from '../../events/events.table'
import type { AccountActor } from '../../identity/auth'
import { isoNow } from '../../../db/types'
import { enqueueTask } from '../../tasks/runner'
import { reholdOrderChairs } from '../../seating/orders'
import { eventPaymentMethods } from '../payment-methods'
import type { OrderStatus, TicketOrderRow } from '../ticketing.table'
import { EXPIRE_TASK, addHistory, takeCoupon, takeQuota } from './create'
import { stepState } from './guest'
import { enqueueOrderMail } from './mails'
import { cancelOrder } from './organiser'
import { latestRequests, requestDto } from './cancel-request-rows'
import { isSwitchable } from './switch-method'
import { STEP, nextStep } from './steps'

/** Order statuses the organiser's cancel accepts: the order still holds or owes something. */
export const CANCELLABLE: readonly OrderStatus[] = ['OPEN', 'CONFIRMED', 'PAID', 'WAITING_LIST', 'REQUIRE_APPROVAL']

/** The registration's order still under way (the newest of its cancellable ones), or undefined. */
export async function activeOrderOfVisitor(db: Db, visitorId: number) {
  return db.selectFrom('ticket_order').select(['id', 'number', 'status']).where('visitor_id', '=', visitorId).where('status', 'in', CANCELLABLE).orderBy('id', 'desc').executeTakeFirst()
}

/**
 * Cancels the registration's open order together with `apply` (the registration's delete or
 * decline, given the transaction). Null when the registration has no order to cancel: the caller
 * changes the registration alone.
 */
export async function cancelOrderWithRegistration<T>(ctx: AppContext, actor: AccountActor, event: EventRow, visitorId: number, action: string, apply: (trx: Db) => Promise<T>): Promise<T | null> {
  const order = await activeOrderOfVisitor(ctx.db, visitorId)
  if (!order) return null
  const before = await ctx.db.selectFrom('event_visitor').select('status').where('id', '=', visitorId).executeTakeFirstOrThrow()
  let applied = false
  let result: T | undefined
  try {
    await cancelOrder(ctx, actor, event, order.id, {
      history: { via: 'GUEST_LIST', action },
      inTransaction: async (trx) => {
        result = await apply(trx)
        applied = true
      },
    })
  } catch (e) {
    // cancelled meanwhile (expiry, another organiser): the registration alone is left to change
    if (e instanceof AppError && e.errorType === 'ORDER_NOT_OPEN') return null
    throw e
  }
  if (applied) return result as T
  // A paid online order was refunded instead (the provider first, then its own transaction, which
  // gave back the places, form choices and chairs and marked the registration DELETED): the
  // registration's action follows from the status it had, with nothing left to give back.
  return ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('event_visitor').set({ status: before.status }).where('id', '=', visitorId).where('status', '=', 'DELETED').where('seats_held', '=', 0).execute()
    return apply(trx)
  })
}

/** Whether the guest's own withdraw may cancel the order (cancelOrder's `unpaidOnly`, the same rule). */
export const guestMayCancel = (o: { status: string; step: number; gross_price: number }) =>
  o.status === 'WAITING_LIST' || o.status === 'REQUIRE_APPROVAL' || (o.status === 'OPEN' && o.step < STEP.EXTERNAL_SITE) || o.gross_price === 0

/** The guest dashboard's view of its registrations' active orders (one query for all). */
export async function guestOrders(db: Db, visitorIds: number[]) {
  const out = new Map<number, { id: string; status: OrderStatus; step: number; withdrawable: boolean; paymentMethodChangeable?: true; cancellationRequest?: ReturnType<typeof requestDto> }>()
  if (!visitorIds.length) return out
  const rows = await db.selectFrom('ticket_order').select(['id', 'visitor_id', 'public_id', 'status', 'step', 'gross_price', 'payment_method', 'paid_at']).where('visitor_id', 'in', visitorIds).where('status', 'in', CANCELLABLE).orderBy('id').execute()
  // a paid order's cancellation request (orders/cancel-requests.ts): the card shows it, or offers one
  const requests = await latestRequests(db, rows.map((o) => o.id))
  for (const o of rows) {
    const r = requests.get(o.id)
    out.set(o.visitor_id!, { id: o.public_id, status: o.status, step: o.step, withdrawable: guestMayCancel(o), ...(isSwitchable(o) ? { paymentMethodChangeable: true as const } : {}), ...(r ? { cancellationRequest: requestDto(r) } : {}) })
  }
  return out
}

/**
 * The guest withdraws (rejects) a registration that has an order: the order is cancelled with
 * `apply` (the registration's own change) in one transaction, when nothing is paid or owed
 * (cancelOrder's `unpaidOnly`). Bought tickets answer ORDER_CANCEL_NOT_ALLOWED: only the organiser
 * cancels those (and refunds). Null when the registration has no order (left): the caller changes
 * the registration alone.
 */
export async function withdrawOrderWithRegistration<T>(ctx: AppContext, event: EventRow, visitorId: number, apply: (trx: Db) => Promise<T>): Promise<T | null> {
  const order = await activeOrderOfVisitor(ctx.db, visitorId)
  if (!order) return null
  let result: T | undefined
  try {
    await cancelOrder(ctx, null, event, order.id, {
      unpaidOnly: true,
      history: { via: 'GUEST', action: 'reject' },
      inTransaction: async (trx) => {
        result = await apply(trx)
      },
    })
  } catch (e) {
    if (!(e instanceof AppError && e.errorType === 'ORDER_NOT_OPEN')) throw e
    // refused by unpaidOnly, or the order ended meanwhile (expiry): which one, the order says
    if (await activeOrderOfVisitor(ctx.db, visitorId)) throw new AppError(409, 'ORDER_CANCEL_NOT_ALLOWED')
    return null
  }
  return result as T
}

/** How long an approved (or moved-up) order holds its tickets for the guest to pay (docs/ticketing.md). */
export const APPROVAL_HOLD_HOURS = 72

/** The order of a waiting-list or approval registration, still waiting with it. */
export async function waitingOrderOf(trx: Db, visitorId: number): Promise<TicketOrderRow | undefined> {
  return trx.selectFrom('ticket_order').selectAll().where('visitor_id', '=', visitorId).where('status', 'in', ['WAITING_LIST', 'REQUIRE_APPROVAL']).orderBy('id', 'desc').executeTakeFirst()
}

/**
 * In the approve's transaction (the organiser approves or moves the guest up): the waiting order
 * takes its tickets and coupon use with the conditional updates (never oversold: sold out refuses
 * the approval, APPROVAL_TICKETS_SOLD_OUT, and rolls it back), becomes OPEN on its first step with
 * its tickets held for APPROVAL_HOLD_HOURS, and the guest gets the mail with the /pay link.
 */
export async function startWaitingOrder(ctx: AppContext, trx: Db, order: TicketOrderRow, notify: boolean): Promise<TicketOrderRow> {
  const now = ctx.clock.now()
  const at = isoNow(now)
  const flip = await trx
    .updateTable('ticket_order')
    .set({ status: 'OPEN', tickets_held: 1, hold_until: isoNow(new Date(now.getTime() + APPROVAL_HOLD_HOURS * 3600_000)), updated_at: at })
    .where('id', '=', order.id)
    .where('status', '=', order.status)
    .where('tickets_held', '=', 0)
    .returningAll()
    .executeTakeFirst()
  if (!flip) throw new AppError(409, 'STATUS_CHANGED_MEANWHILE')
  const lines = await trx.selectFrom('ticket_order_line').select(['category_id', 'amount']).where('order_id', '=', order.id).execute()
  for (const l of lines) {
    if (l.category_id != null && !(await takeQuota(trx, l.category_id, l.amount))) throw new AppError(409, 'APPROVAL_TICKETS_SOLD_OUT', { extra: { categoryId: l.category_id } })
  }
  if (order.coupon_id != null) {
    if (!(await takeCoupon(trx, order.coupon_id))) throw new AppError(409, 'APPROVAL_COUPON_USED_UP')
    await trx.updateTable('ticket_order').set({ coupon_held: 1 }).where('id', '=', order.id).execute()
  }
  // the chairs the guest chose for seat-bound tickets: given back on the waiting list, taken again
  // here (an approval order kept them fixed); taken by someone else meanwhile refuses the move-up
  if (order.status === 'WAITING_LIST') {
    try {
      await reholdOrderChairs(trx, order, now)
    } catch (e) {
      if (e instanceof AppError && e.errorType === 'SEAT_NOT_AVAILABLE') throw new AppError(409, 'APPROVAL_SEAT_NOT_AVAILABLE', { extra: e.options.extra })
      throw e
    }
  }
  const methods = await eventPaymentMethods(trx, { id: order.event_id, agency_id: order.agency_id, currency: order.currency })
  const preselected = order.gross_price === 0 ? 'COUPON' : (order.payment_method ?? (methods.length === 1 ? methods[0].method : null))
  const step = nextStep(await stepState(trx, { ...flip, payment_method: preselected }, now, methods))
  const row = (await trx.updateTable('ticket_order').set({ step, payment_method: preselected }).where('id', '=', order.id).returningAll().executeTakeFirst())!
  await addHistory(trx, order.id, at, 'APPROVED', null, { from: order.status })
  await enqueueTask(ctx.clock, trx, { kind: EXPIRE_TASK, agencyId: row.agency_id, payload: { orderId: row.id }, runAfter: new Date(row.hold_until!) })
  if (notify) await enqueueOrderMail(ctx, trx, row, 'approved')
  return row
}
