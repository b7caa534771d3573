// Giving back what an order took (quota per line, the coupon use, the registration's places), and
// taking it again on reset. Exactly once: the flip of tickets_held 1 → 0 is a conditional update,
// so of two expiries or an expiry racing a cancellation only one releases (docs/ticketing.md).
import type { Db } from '../../../db/database'
import { AppError, fieldError } from '../../../shared/errors'
import { releaseFieldPlaces, takeFieldPlaces } from '../../reservations/service'
import { releaseOrderChairs, reholdOrderChairs } from '../../seating/orders'
import { releaseSeats, takeSeats } from '../../visitors/capacity'
import type { TicketOrderRow } from '../ticketing.table'
import { takeCoupon, takeQuota } from './create'

/**
 * Releases the order's tickets, coupon use and places; false when they were not held (any more).
 * visitorStatus null leaves the registration to the caller (the guest list's delete or decline
 * changes it itself, with its places, form choices and chairs).
 */
export async function releaseOrder(trx: Db, order: Pick<TicketOrderRow, 'id' | 'visitor_id' | 'coupon_id'>, at: string, visitorStatus: string | null = 'DELETED'): Promise<boolean> {
  const flip = await trx.updateTable('ticket_order').set({ tickets_held: 0, updated_at: at }).where('id', '=', order.id).where('tickets_held', '=', 1).executeTakeFirst()
  if (Number(flip.numUpdatedRows) !== 1) return false
  const lines = await trx.selectFrom('ticket_order_line').select(['category_id', 'amount', 'refunded_quantity']).where('order_id', '=', order.id).execute()
  for (const l of lines) {
    // tickets refunded one by one went back with their refund (line-refund.ts)
    const held = l.amount - Number(l.refunded_quantity)
    if (l.category_id != null && held > 0) await trx.updateTable('ticket_category').set((eb) => ({ sold: eb('sold', '-', held) })).where('id', '=', l.category_id).execute()
  }
  const c = await trx.updateTable('ticket_order').set({ coupon_held: 0 }).where('id', '=', order.id).where('coupon_held', '=', 1).executeTakeFirst()
  if (Number(c.numUpdatedRows) === 1 && order.coupon_id != null) await trx.updateTable('coupon').set((eb) => ({ used: eb('used', '-', 1) })).where('id', '=', order.coupon_id).execute()
  await releaseOrderChairs(trx, order.visitor_id)
  if (order.visitor_id != null && visitorStatus !== null) {
    const v = await trx.selectFrom('event_visitor').select(['event_id', 'seats_held']).where('id', '=', order.visitor_id).executeTakeFirst()
    if (v) {
      await trx.updateTable('event_visitor').set({ status: visitorStatus as any, seats_held: 0, updated_at: at }).where('id', '=', order.visitor_id).execute()
      await releaseSeats(trx, v.event_id, v.seats_held)
      // the form's choices (defined values, timeslots) hold exactly while the registration holds places
      if (v.seats_held > 0) await releaseFieldPlaces(trx, order.visitor_id)
    }
  }
  return true
}

/** Takes the tickets, coupon use and places again (reset of a cancelled/expired/failed order). */
export async function reholdOrder(trx: Db, order: TicketOrderRow, at: string): Promise<void> {
  const flip = await trx.updateTable('ticket_order').set({ tickets_held: 1, updated_at: at }).where('id', '=', order.id).where('tickets_held', '=', 0).executeTakeFirst()
  if (Number(flip.numUpdatedRows) !== 1) return
  const lines = await trx.selectFrom('ticket_order_line').select(['category_id', 'amount', 'refunded_quantity']).where('order_id', '=', order.id).execute()
  let persons = 0
  for (const l0 of lines) {
    const l = { category_id: l0.category_id, amount: l0.amount - Number(l0.refunded_quantity) }
    if (l.amount <= 0) continue
    persons += l.amount
    if (l.category_id != null && !(await takeQuota(trx, l.category_id, l.amount))) throw new AppError(409, 'TICKETS_SOLD_OUT', { extra: { categoryId: l.category_id } })
  }
  if (order.coupon_id != null) {
    if (!(await takeCoupon(trx, order.coupon_id))) throw fieldError([{ field: 'couponCode', errorType: 'COUPON_INVALID' }])
    await trx.updateTable('ticket_order').set({ coupon_held: 1 }).where('id', '=', order.id).execute()
  }
  // the registration's persons: its tickets, and what the organiser added free of charge (escort-write.ts)
  const v = order.visitor_id != null ? await trx.selectFrom('event_visitor').select(['seats_held', 'visitor_count']).where('id', '=', order.visitor_id).executeTakeFirst() : undefined
  if (v) persons = Math.max(persons, v.visitor_count)
  if (!(await takeSeats(trx, order.event_id, persons))) throw new AppError(409, 'TICKETS_SOLD_OUT')
  await reholdOrderChairs(trx, order, new Date(at))
  if (order.visitor_id != null) {
    await trx.updateTable('event_visitor').set({ status: 'PENDING', seats_held: persons, updated_at: at }).where('id', '=', order.visitor_id).execute()
    // the form's choices again, each with its conditional update (FIELD_ERROR when one went meanwhile)
    if (v && v.seats_held === 0) await takeFieldPlaces(trx, order.visitor_id, order.event_id, new Date(at))
  }
}
