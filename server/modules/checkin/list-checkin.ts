// Check-in on one check-in list (docs/ticketing.md "Check-in lists"): whether the list admits the
// registration's ticket, each person's state on the list, and the conditional writes that keep
// "already checked in" per list (the unique entry row: two desks at once check a person in once).
import type { Db } from '../../db/database'
import { fromJson } from '../../db/types'
import { AppError } from '../../shared/errors'
import type { CheckinListRow } from './checkin.table'
import type { Person } from './model'
import type { OrderColumns } from './ticket-validity'

export const listCategoryIds = (r: Pick<CheckinListRow, 'category_ids'>): number[] => fromJson<number[]>(r.category_ids as unknown as string, [])

/**
 * Why the list does not admit this registration, or null when it does. A list without categories
 * admits everyone; otherwise the registration's latest order needs a line of one of its categories
 * (a guest without ticket order is not admitted).
 */
export async function listRefusal(db: Db, list: CheckinListRow, v: Partial<OrderColumns>): Promise<AppError | null> {
  const ids = listCategoryIds(list)
  if (!ids.length) return null
  if (!v.tko_id) return new AppError(409, 'CHECKIN_LIST_NO_TICKET', { params: { list: list.name } })
  const lines = await db
    .selectFrom('ticket_order_line as l')
    .leftJoin('ticket_category as c', 'c.id', 'l.category_id')
    .select(['l.category_id', 'l.display_name', 'c.display_name as category_name'])
    .where('l.order_id', '=', Number(v.tko_id))
    .where('l.category_id', 'is not', null)
    // a line whose tickets were all refunded admits no one (ticketing/orders/line-refund.ts)
    .whereRef('l.refunded_quantity', '<', 'l.amount')
    .orderBy('l.sort_order')
    .orderBy('l.id')
    .execute()
  if (lines.some((l) => l.category_id != null && ids.includes(l.category_id))) return null
  const names = [...new Set(lines.map((l) => l.category_name ?? l.display_name))]
  if (!names.length) return new AppError(409, 'CHECKIN_LIST_NO_TICKET', { params: { list: list.name } })
  return new AppError(409, 'CHECKIN_LIST_CATEGORY', { params: { category: names.join(', '), list: list.name } })
}

/** The persons as the list sees them: in, out again, or not yet on this list. */
export async function personsOnList(db: Db, listId: number, visitorId: number, persons: Person[]): Promise<Person[]> {
  const rows = await db.selectFrom('checkin_list_entry').selectAll().where('list_id', '=', listId).where('visitor_id', '=', visitorId).execute()
  const by = new Map(rows.map((r) => [r.person, r]))
  return persons.map((p) => {
    const r = by.get(p.person)
    if (!r) return { ...p, checkState: 'OPEN' as const, checkinDate: null, checkoutDate: null }
    return { ...p, checkState: r.checkout_at ? ('CHECKED_OUT' as const) : ('CHECKED_IN' as const), checkinDate: r.checkin_at, checkoutDate: r.checkout_at }
  })
}

const count = (r: { numAffectedRows?: bigint; numUpdatedRows?: bigint; numInsertedOrUpdatedRows?: bigint }) => Number(r.numAffectedRows ?? r.numUpdatedRows ?? r.numInsertedOrUpdatedRows ?? 0n)

/** Checks a person in on the list (first time or again after leaving): false when they are in already. */
export async function listCheckIn(trx: Db, p: { listId: number; visitorId: number; person: number; now: string; accountId: number | null }): Promise<boolean> {
  const ins = await trx
    .insertInto('checkin_list_entry')
    .values({ list_id: p.listId, visitor_id: p.visitorId, person: p.person, checkin_at: p.now, checkout_at: null, checkin_account_id: p.accountId })
    .onConflict((oc) => oc.columns(['list_id', 'visitor_id', 'person']).doNothing())
    .executeTakeFirst()
  if (count(ins) === 1) return true
  const again = await trx
    .updateTable('checkin_list_entry')
    .set({ checkin_at: p.now, checkout_at: null, checkin_account_id: p.accountId })
    .where('list_id', '=', p.listId)
    .where('visitor_id', '=', p.visitorId)
    .where('person', '=', p.person)
    .where('checkout_at', 'is not', null)
    .executeTakeFirst()
  return count(again) === 1
}

/** Checks a person out of the list: false when they are not in on it. */
export async function listCheckOut(trx: Db, p: { listId: number; visitorId: number; person: number; now: string }): Promise<boolean> {
  const r = await trx
    .updateTable('checkin_list_entry')
    .set({ checkout_at: p.now })
    .where('list_id', '=', p.listId)
    .where('visitor_id', '=', p.visitorId)
    .where('person', '=', p.person)
    .where('checkout_at', 'is', null)
    .executeTakeFirst()
  return count(r) === 1
}

const STATUSES: Array<'CONFIRMED' | 'APPEARED'> = ['CONFIRMED', 'APPEARED']

/**
 * A list's counts: `registered` the persons it admits (of CONFIRMED/APPEARED registrations: all of
 * them for a list without categories, else those whose latest order has a line of its categories),
 * `checkedIn` the persons in on it now, `checkedOut` those out again.
 */
export async function listCounts(db: Db, list: CheckinListRow) {
  const ids = listCategoryIds(list)
  let q = db.selectFrom('event_visitor as v').select((eb) => eb.fn.sum<number>('v.visitor_count').as('n')).where('v.event_id', '=', list.event_id).where('v.status', 'in', STATUSES)
  if (ids.length)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('ticket_order_line as l')
          .select('l.id')
          .where('l.category_id', 'in', ids)
          .where('l.order_id', '=', eb.selectFrom('ticket_order as o').select((e2) => e2.fn.max('o.id').as('m')).whereRef('o.visitor_id', '=', 'v.id')),
      ),
    )
  const registered = Number((await q.executeTakeFirst())?.n ?? 0)
  const entries = await db
    .selectFrom('checkin_list_entry as x')
    .innerJoin('event_visitor as v', 'v.id', 'x.visitor_id')
    .select((eb) => [eb.fn.countAll<number>().as('all'), eb.fn.count<number>('x.checkout_at').as('out')])
    .where('x.list_id', '=', list.id)
    .where('v.status', 'in', STATUSES)
    .executeTakeFirst()
  const out = Number(entries?.out ?? 0)
  return { registered, checkedIn: Number(entries?.all ?? 0) - out, checkedOut: out }
}
