// Reading the guests' cancellation requests (orders/cancel-requests.ts) for the orders list and the
// guest's card, apart from the service so the list does not import the refund paths.
import type { Selectable } from 'kysely'
import type { Db } from '../../../db/database'
import type { OrderCancellationRequestTable } from '../ticketing.table'

export type RequestRow = Selectable<OrderCancellationRequestTable>

export const requestDto = (r: RequestRow) => ({ id: r.id, status: r.status, reason: r.reason, declineReason: r.decline_reason, createdAt: r.created_at, decidedAt: r.decided_at })

/** The latest request of each order. */
export async function latestRequests(db: Db, orderIds: number[]): Promise<Map<number, RequestRow>> {
  const out = new Map<number, RequestRow>()
  if (!orderIds.length) return out
  const rows = await db.selectFrom('order_cancellation_request').selectAll().where('order_id', 'in', orderIds).orderBy('id').execute()
  for (const r of rows) out.set(r.order_id, r)
  return out
}
