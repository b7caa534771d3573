// The seats an order is for, as guests read them (issue 20 item 23): "Saal · A 12" (area and the
// chair's label, which names row and number), a table with its places "Tisch 3 (4)". From the
// chairs recorded on the order (`ticket_order_chair`: seat-bound categories and plain seated
// tickets alike), else from the registration's fixed chairs. Shown on the pay page and in the
// order mails.
import type { Db } from '../../../db/database'

export async function orderSeatLabels(db: Db, order: { id: number; visitor_id: number | null }): Promise<string[]> {
  let rows = await db
    .selectFrom('ticket_order_chair as o')
    .innerJoin('seating_chair as c', 'c.id', 'o.chair_id')
    .innerJoin('seating_area as a', 'a.id', 'c.area_id')
    .select(['o.label', 'o.amount', 'a.display_name as area'])
    .where('o.order_id', '=', order.id)
    .orderBy('o.id')
    .execute()
  if (!rows.length && order.visitor_id != null) {
    rows = await db
      .selectFrom('chair_reservation as r')
      .innerJoin('seating_chair as c', 'c.id', 'r.chair_id')
      .innerJoin('seating_area as a', 'a.id', 'c.area_id')
      .select(['c.label', 'r.amount', 'a.display_name as area'])
      .where('r.visitor_id', '=', order.visitor_id)
      .where('r.fixed', '=', true as never)
      .orderBy('r.id')
      .execute()
  }
  return rows.map((r) => `${r.area} · ${r.label}${r.amount > 1 ? ` (${r.amount})` : ''}`)
}
