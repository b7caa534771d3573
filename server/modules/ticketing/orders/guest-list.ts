// The guest list deletes or declines a registration that has a ticket order (docs/ticketing.md,
// "Guest list and orders"): the order is cancelled through the organiser's cancel service (the one
// the order screen uses: tickets, coupon use and the cancellation invoice of a settled order; a
// paid online order is refunded by it), and the registration's action runs inside the cancel's
// transaction, so the order is never cancelled without the registration changing, nor the other
// way round. Running it twice changes nothing twice: the second finds no order left to cancel.
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { AppError } from '../../../shared/errors'
import type { EventRow } from '../../events/events.table'
import type { AccountActor } from '../../identity/auth'
import type { OrderStatus } from '../ticketing.table'
import { releaseFieldPlaces } from '../../reservations/service'
import { releaseVisitorChairs } from '../../seating/holds'
import { cancelOrder } from './organiser'

/** Order statuses the organiser's cancel accepts: the order still holds or owes something. */
export const CANCELLABLE: readonly OrderStatus[] = ['OPEN', 'CONFIRMED', 'PAID', 'WAITING_LIST', 'REQUIRE_APPROVAL']

export async function activeOrderOfVisitor(db: Db, visitorId: number) {
  return db.selectFrom('ticket_order').select(['id', 'status']).where('visitor_id', '=', visitorId).where('status', 'in', CANCELLABLE).orderBy('id', 'desc').executeTakeFirst()
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
  // gave back the places and marked the registration DELETED): the registration's action follows
  // from the status it had, and its form choices and chairs, which that release keeps, go back.
  return ctx.db.transaction().execute(async (trx) => {
    const back = await trx.updateTable('event_visitor').set({ status: before.status }).where('id', '=', visitorId).where('status', '=', 'DELETED').where('seats_held', '=', 0).executeTakeFirst()
    if (Number(back.numUpdatedRows) === 1) {
      await releaseFieldPlaces(trx, visitorId)
      await releaseVisitorChairs(trx, visitorId)
    }
    return apply(trx)
  })
}
