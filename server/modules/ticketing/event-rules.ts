// Rules ticketing sets on an event's own settings (issue 20), checked in the event update's
// transaction (events/hooks.ts onEventUpdating):
// - an event with ticket categories keeps its currency (409 CURRENCY_HAS_CATEGORIES): the categories'
//   prices and tax codes, its coupons and the enabled payment methods belong to that currency;
// - an event that sells tickets (a category with a price) goes online only with at least one payment
//   method enabled (409 EVENT_NO_PAYMENT_METHOD): otherwise a guest fills the whole form and is then
//   told no payment method is available. The public categories of such an event say "not on sale".
import type { Db } from '../../db/database'
import { AppError } from '../../shared/errors'
import { onEventUpdating } from '../events/hooks'
import type { EventRow } from '../events/events.table'
import { eventPaymentMethods } from './payment-methods'

/** The event has a category with a price (a free category needs no payment method: COUPON). */
export async function sellsTickets(db: Db, eventId: number) {
  return !!(await db.selectFrom('ticket_category').select('id').where('event_id', '=', eventId).where('gross_price', '>', 0).limit(1).executeTakeFirst())
}

/** Sells tickets and has no payment method of its currency enabled: guests could not pay. */
export async function sellsWithoutMethod(db: Db, event: Pick<EventRow, 'id' | 'agency_id' | 'currency'>) {
  return (await sellsTickets(db, event.id)) && (await eventPaymentMethods(db, event)).length === 0
}

export const noPaymentMethod = () => new AppError(409, 'EVENT_NO_PAYMENT_METHOD', { fields: [{ field: 'visibility', errorType: 'EVENT_NO_PAYMENT_METHOD' }] })

onEventUpdating.push(async (_ctx, trx, current, next) => {
  if (next.currency !== current.currency) {
    const any = await trx.selectFrom('ticket_category').select('id').where('event_id', '=', current.id).limit(1).executeTakeFirst()
    if (any) throw new AppError(409, 'CURRENCY_HAS_CATEGORIES', { fields: [{ field: 'currency', errorType: 'CURRENCY_HAS_CATEGORIES' }] })
  }
  const goesOnline = current.status === 'OK' && current.visibility === 'OFFLINE' && next.visibility !== 'OFFLINE'
  if (goesOnline && (await sellsWithoutMethod(trx, current))) throw noPaymentMethod()
})
