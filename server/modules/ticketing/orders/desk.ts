// The check-in desk records a payment (issue 20 B, docs/ticketing.md "Valid tickets"): a guest whose
// ticket is not valid yet (a transfer waiting for its money, an invoice the event wants paid first)
// or who pays at the door pays at the desk, and the desk person records it. A thin call to the
// organiser's mark-paid service (the full amount, now): the same transaction, history, invoice and
// mail as "Als bezahlt markieren".
import type { AppContext } from '../../../context'
import { isoNow } from '../../../db/types'
import { AppError, notFound } from '../../../shared/errors'
import type { EventRow } from '../../events/events.table'
import type { AccountActor } from '../../identity/auth'
import { deskMayRecord, isOnlineMethod } from '../../checkin/ticket-validity'
import { markPaid } from './organiser'

export async function takeDeskPayment(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number) {
  const o = await ctx.db.selectFrom('ticket_order').selectAll().where('id', '=', orderId).where('event_id', '=', event.id).executeTakeFirst()
  if (!o) throw notFound()
  // a payment under way at a provider settles there; recording it here too would take the money twice
  if (isOnlineMethod(o.payment_method)) throw new AppError(409, 'DESK_PAYMENT_ONLINE')
  // bought and not paid: a transfer waiting for its money (OPEN, finished checkout), an invoice or a
  // payment at the location (CONFIRMED); an order still in its checkout is the guest's to finish
  if (!deskMayRecord(o)) throw new AppError(409, 'ORDER_NOT_OPEN')
  return markPaid(ctx, actor, event, o.id, { amount: o.gross_price, paidAt: isoNow(ctx.clock.now()) })
}
