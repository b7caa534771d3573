// The one place where an order becomes PAID or CONFIRMED (docs/ticketing.md, "Hook"). The guest's
// registration is confirmed here; invoices and tickets of later issues register a hook and run in
// the same transaction (so an order is never paid without its invoice, nor invoiced twice).
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { isoNow } from '../../../db/types'
import type { TicketOrderRow } from '../ticketing.table'

export type OrderSettledHook = (ctx: AppContext, trx: Db, order: TicketOrderRow) => Promise<void>
export const orderSettledHooks: OrderSettledHook[] = []

/** Called in the transaction in which the order became PAID or CONFIRMED (once per transition). */
export async function onOrderSettled(ctx: AppContext, trx: Db, order: TicketOrderRow): Promise<void> {
  if (order.visitor_id != null) {
    await trx
      .updateTable('event_visitor')
      .set({ status: 'CONFIRMED', updated_at: isoNow(ctx.clock.now()) })
      .where('id', '=', order.visitor_id)
      .where('status', '=', 'PENDING')
      .execute()
  }
  for (const hook of orderSettledHooks) await hook(ctx, trx, order)
}
