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
 * One ticket is one person (docs/ticketing.md "Escort persons and tickets"): the order's lines in their
 * order, each repeated by its amount, give the ticket of each person position, main guest first and
 * the escorts by number (the way the ticket PDFs hand out seats). Persons beyond the tickets (free of
 * charge) have none.
 */
export async function ticketsByPosition(db: Db, orderId: number | null | undefined): Promise<Array<{ categoryId: number | null; name: string }>> {
  if (!orderId) return []
  const lines = await db
    .selectFrom('ticket_order_line as l')
    .leftJoin('ticket_category as c', 'c.id', 'l.category_id')
    .select(['l.category_id', 'l.amount', 'l.refunded_quantity', 'l.display_name', 'c.display_name as category_name'])
    .where('l.order_id', '=', Number(orderId))
    .orderBy('l.sort_order')
    .orderBy('l.id')
    .execute()
  // tickets refunded per line (ticketing/orders/line-refund.ts) admit no one: their persons left the registration
  return lines.flatMap((l) => Array.from({ length: Math.max(0, Number(l.amount) - Number(l.refunded_quantity ?? 0)) }, () => ({ categoryId: l.category_id, name: l.category_name ?? l.display_name })))
}

/**
 * Why the list does not admit each person of the registration (person number → error; empty when it
 * admits them all). A list without categories admits everyone; otherwise a person is admitted by the
 * category of their own ticket (ticketsByPosition), not by another ticket of the same order.
 * `persons`: all persons of the registration in their order (main guest first).
 */
export async function personRefusals(db: Db, list: CheckinListRow, v: Partial<OrderColumns>, persons: Array<Pick<Person, 'person'>>): Promise<Map<number, AppError>> {
  const out = new Map<number, AppError>()
  const ids = listCategoryIds(list)
  if (!ids.length) return out
  const tickets = await ticketsByPosition(db, v.tko_id ? Number(v.tko_id) : null)
  persons.forEach((p, i) => {
    const ticket = tickets[i]
    if (!ticket) out.set(p.person, new AppError(409, 'CHECKIN_LIST_NO_TICKET', { params: { list: list.name } }))
    else if (ticket.categoryId == null || !ids.includes(ticket.categoryId)) out.set(p.person, new AppError(409, 'CHECKIN_LIST_CATEGORY', { params: { category: ticket.name, list: list.name } }))
  })
  return out
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
 * them for a list without categories, else those whose own ticket — ticketsByPosition: the latest
 * order's lines in order, one ticket per person — is of its categories), `checkedIn` the persons in on
 * it now, `checkedOut` those out again.
 */
export async function listCounts(db: Db, list: CheckinListRow) {
  const ids = listCategoryIds(list)
  let registered: number
  if (!ids.length) {
    const r = await db.selectFrom('event_visitor as v').select((eb) => eb.fn.sum<number>('v.visitor_count').as('n')).where('v.event_id', '=', list.event_id).where('v.status', 'in', STATUSES).executeTakeFirst()
    registered = Number(r?.n ?? 0)
  } else {
    // each line covers the person positions [upto - amount, upto) of its registration; the persons
    // admitted are those positions below the registration's person count on lines of the list's categories
    const lines = db
      .selectFrom('event_visitor as v')
      .innerJoin('ticket_order_line as l', (j) => j.on('l.order_id', '=', (eb) => eb.selectFrom('ticket_order as o').select((e2) => e2.fn.max('o.id').as('m')).whereRef('o.visitor_id', '=', 'v.id')))
      .select((eb) => ['v.visitor_count as n', 'l.category_id as c', 'l.amount as a', eb.fn.sum<number>('l.amount').over((ob) => ob.partitionBy('l.order_id').orderBy('l.sort_order').orderBy('l.id')).as('upto')])
      .where('v.event_id', '=', list.event_id)
      .where('v.status', 'in', STATUSES)
    const r = await db
      .selectFrom(lines.as('t'))
      .select((eb) =>
        eb.fn
          .sum<number>(
            eb
              .case()
              .when('t.upto', '<=', eb.ref('t.n'))
              .then(eb.ref('t.a'))
              .when(eb('t.upto', '-', eb.ref('t.a')), '>=', eb.ref('t.n'))
              .then(eb.lit(0))
              .else(eb('t.n', '-', eb('t.upto', '-', eb.ref('t.a'))))
              .end(),
          )
          .as('n'),
      )
      .where('t.c', 'in', ids)
      .executeTakeFirst()
    registered = Number(r?.n ?? 0)
  }
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
