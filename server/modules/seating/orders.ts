// A paid event where the seat decides the price (issue 14): a chair's price category names the
// ticket category (price, tax, quota) its places are sold as. The guest's chair holds become the
// order's tickets of those categories; the registration's transaction fixes the holds (a gone or
// changed hold refuses it, nothing written) and records the chairs on the order (`ticket_order_chair`),
// which the order shows as `chairInfo`, gives back when it is released and takes again on reset.
import type { Db } from '../../db/database'
import { generationCache } from '../../db/generation-cache'
import { prepared } from '../../db/prepared'
import { isoNow } from '../../db/types'
import { AppError, fieldError } from '../../shared/errors'
import type { FieldError } from '../../shared/validation'
import { fixChairHolds, releaseChair, releaseVisitorChairs, take } from './holds'

export interface SeatTickets {
  /** ticket categories some price category of the plan names: sold only with a chair */
  bound: Set<number>
  /** the visit's holds named by the registration, each with the ticket category it is priced by */
  chairs: Array<{ token: string; chairId: number; label: string; amount: number; categoryId: number | null }>
}

const expired = () => new AppError(409, 'REGISTRATION_VALID_UNTIL_EXPIRED', { fields: [{ field: 'chairs', errorType: 'REGISTRATION_VALID_UNTIL_EXPIRED' }] })

// read by every ticket purchase: compiled once (db/prepared.ts). Each price category of the plan
// with the ticket category it names (null: none of this event) and whether a chair uses it.
const boundCategoriesQuery = prepared((db, p: { eventId: number }) =>
  db
    .selectFrom('seating_price_category as p')
    .leftJoin('ticket_category as t', (j) => j.onRef('t.id', '=', 'p.ticket_category_id').on('t.event_id', '=', p.eventId))
    .select(['p.id', 't.id as ticket_category_id'])
    .select((eb) => eb.exists(eb.selectFrom('seating_chair as c').select('c.id').whereRef('c.price_category_id', '=', 'p.id')).as('used'))
    .where('p.event_id', '=', p.eventId),
)

type PlanCategory = { id: number; ticket_category_id: number | null; used: unknown }
/** cached per process while the 'setup' counter stands still (db/generation-cache.ts; saving a plan writes its price categories) */
const boundCache = generationCache<PlanCategory[]>('setup', { inTransaction: 'bypass' })

/**
 * A price category some chair uses that names no ticket category: the plan does not say what its
 * chairs are sold as, so the event sells no ticket until the organiser links it (issue 20 C).
 */
export const unlinkedCategories = <T extends PlanCategory>(cats: T[]) => cats.filter((c) => c.ticket_category_id == null && Boolean(Number(c.used)))

/** Reads (before the transaction) which ticket categories are seat-bound and what the named holds are priced by. */
export async function seatTickets(db: Db, eventId: number, identification: string | undefined, tokens: string[], now: Date): Promise<SeatTickets> {
  const all = await boundCache.get(db, String(eventId), async () => (await boundCategoriesQuery(db, { eventId })).rows as PlanCategory[])
  if (unlinkedCategories(all).length) throw new AppError(409, 'SEATING_NOT_LINKED')
  const cats = all.filter((c) => c.ticket_category_id != null)
  const bound = new Set(cats.map((c) => c.ticket_category_id!))
  const ticketOf = new Map(cats.map((c) => [c.id, c.ticket_category_id!]))
  if (!tokens.length) return { bound, chairs: [] }
  if (!identification) throw expired()
  const rows = await db
    .selectFrom('chair_reservation as r')
    .innerJoin('seating_chair as c', 'c.id', 'r.chair_id')
    .select(['r.token', 'r.chair_id', 'r.amount', 'c.label', 'c.price_category_id'])
    .where('r.token', 'in', tokens)
    .where('r.event_id', '=', eventId)
    .where('r.identification', '=', identification)
    .where('r.fixed', '=', false as never)
    .where('r.expires_at', '>', isoNow(now))
    .execute()
  if (rows.length !== tokens.length) throw expired()
  return {
    bound,
    chairs: rows.map((r) => ({ token: r.token, chairId: r.chair_id, label: r.label, amount: r.amount, categoryId: r.price_category_id != null ? (ticketOf.get(r.price_category_id) ?? null) : null })),
  }
}

/**
 * The order's ticket picks: the guest's picks of unbound categories plus, per seat-bound category,
 * the places of the chairs held. A seat-bound category named with another amount than its chairs
 * give is refused (`SEATS_REQUIRED`): such a ticket is sold only with a chair, so never oversold.
 */
export function withSeatTickets(picks: Array<{ categoryId: number; amount: number }> | undefined, seats: SeatTickets) {
  const bySeat = new Map<number, number>()
  for (const c of seats.chairs) if (c.categoryId != null) bySeat.set(c.categoryId, (bySeat.get(c.categoryId) ?? 0) + c.amount)
  const problems: FieldError[] = []
  const out: Array<{ categoryId: number; amount: number }> = []
  ;(picks ?? []).forEach((p, i) => {
    if (!seats.bound.has(p.categoryId)) return out.push(p)
    if (p.amount !== 0 && p.amount !== (bySeat.get(p.categoryId) ?? 0)) problems.push({ field: `tickets.${i}.amount`, errorType: 'SEATS_REQUIRED' })
  })
  if (problems.length) throw fieldError(problems)
  for (const [categoryId, amount] of bySeat) out.push({ categoryId, amount })
  return out
}

/** Inside the registration's transaction: fixes the holds (each as read before, else nothing is written) and records them on the order. */
export async function fixOrderChairs(trx: Db, now: Date, orderId: number, visitorId: number, eventId: number, identification: string, seats: SeatTickets) {
  const fixed = await fixChairHolds(trx, now, visitorId, eventId, identification, seats.chairs.map((c) => c.token))
  // a hold given back in part between reading and fixing would price places the order does not hold
  const planned = new Map(seats.chairs.map((c) => [c.chairId, c.amount]))
  if (fixed.some((f) => planned.get(f.chairId) !== f.amount)) throw expired()
  if (seats.chairs.length) await trx.insertInto('ticket_order_chair').values(seats.chairs.map((c) => ({ order_id: orderId, chair_id: c.chairId, category_id: c.categoryId, label: c.label, amount: c.amount }))).execute()
}

/** `chairInfo` per ticket category of an order: the labels of its chairs ("A 1, A 2", a table with its places "Tisch 3 (4)"). */
export async function orderChairInfo(db: Db, orderId: number): Promise<Map<number | null, string>> {
  const rows = await db.selectFrom('ticket_order_chair').select(['category_id', 'label', 'amount']).where('order_id', '=', orderId).orderBy('id').execute()
  const out = new Map<number | null, string[]>()
  for (const r of rows) out.set(r.category_id, [...(out.get(r.category_id) ?? []), r.amount > 1 ? `${r.label} (${r.amount})` : r.label])
  return new Map([...out].map(([k, v]) => [k, v.join(', ')]))
}

/** The order is released (expired, cancelled, refunded): its registration's chairs are free again. */
export async function releaseOrderChairs(trx: Db, visitorId: number | null) {
  if (visitorId != null) await releaseVisitorChairs(trx, visitorId)
}

/**
 * Tickets of one category refunded while the order stays (ticketing/orders/line-refund.ts): that many
 * places of the order's chairs of the category go back, the last recorded first — off the order's
 * record (so a reset takes only the rest again) and off the registration's fixed holds. Answers the
 * labels given back.
 */
export async function releaseOrderChairsOfCategory(trx: Db, order: { id: number; visitor_id: number | null }, categoryId: number, amount: number): Promise<string[]> {
  const rows = await trx.selectFrom('ticket_order_chair').select(['id', 'chair_id', 'label', 'amount']).where('order_id', '=', order.id).where('category_id', '=', categoryId).orderBy('id', 'desc').execute()
  const labels: string[] = []
  let left = amount
  for (const r of rows) {
    if (left <= 0) break
    const n = Math.min(left, r.amount)
    left -= n
    labels.push(r.label)
    if (n === r.amount) await trx.deleteFrom('ticket_order_chair').where('id', '=', r.id).execute()
    else await trx.updateTable('ticket_order_chair').set({ amount: r.amount - n }).where('id', '=', r.id).execute()
    if (order.visitor_id == null) continue
    const hold = await trx.selectFrom('chair_reservation').select(['id', 'amount']).where('visitor_id', '=', order.visitor_id).where('chair_id', '=', r.chair_id).orderBy('id', 'desc').executeTakeFirst()
    if (!hold) continue
    const gone = hold.amount <= n ? await trx.deleteFrom('chair_reservation').where('id', '=', hold.id).executeTakeFirst() : await trx.updateTable('chair_reservation').set({ amount: hold.amount - n }).where('id', '=', hold.id).where('amount', '=', hold.amount).executeTakeFirst()
    const done = Number((gone as { numDeletedRows?: bigint; numUpdatedRows?: bigint }).numDeletedRows ?? (gone as { numUpdatedRows?: bigint }).numUpdatedRows ?? 0n)
    if (done === 1) await releaseChair(trx, r.chair_id, Math.min(n, hold.amount))
  }
  return labels
}

/** Reset of a released order: the same chairs again, each with its conditional update, or 409 SEAT_NOT_AVAILABLE. */
export async function reholdOrderChairs(trx: Db, order: { id: number; event_id: number; visitor_id: number | null }, now: Date) {
  const rows = await trx.selectFrom('ticket_order_chair').select(['chair_id', 'amount']).where('order_id', '=', order.id).execute()
  if (!rows.length || order.visitor_id == null) return
  for (const r of rows) {
    if (!(await take(trx, r.chair_id, r.amount))) throw new AppError(409, 'SEAT_NOT_AVAILABLE', { extra: { chairId: r.chair_id } })
    await trx
      .insertInto('chair_reservation')
      .values({ token: crypto.randomUUID().replaceAll('-', ''), chair_id: r.chair_id, event_id: order.event_id, identification: `order-${order.id}`, amount: r.amount, fixed: true, visitor_id: order.visitor_id, expires_at: null, created_at: isoNow(now) })
      .execute()
  }
}
