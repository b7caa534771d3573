// One ticket is one person (docs/ticketing.md, "Escort persons and tickets"): the tickets a
// registration's order holds, read by every escort edit (guest portal, organiser, pay page).
// A leaf: the visitors and guest modules import it without pulling in the order services.
import type { Db } from '../../../db/database'

/** Order statuses whose tickets belong to the registration (the order is under way or settled). */
const HOLDING: readonly string[] = ['OPEN', 'CONFIRMED', 'PAID', 'WAITING_LIST', 'REQUIRE_APPROVAL']

/** The registration's order under way (newest) and the number of tickets on it (refunded ones left out); null without one. */
export async function ticketsOfVisitor(db: Db, visitorId: number): Promise<{ orderId: number; tickets: number } | null> {
  const order = await db.selectFrom('ticket_order').select('id').where('visitor_id', '=', visitorId).where('status', 'in', HOLDING as any).orderBy('id', 'desc').executeTakeFirst()
  if (!order) return null
  const r = await db.selectFrom('ticket_order_line').select((eb) => eb.fn.sum<number>(eb('amount', '-', eb.ref('refunded_quantity'))).as('n')).where('order_id', '=', order.id).executeTakeFirst()
  return { orderId: order.id, tickets: Number(r?.n ?? 0) }
}
