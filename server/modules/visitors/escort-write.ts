// Changing a registration's escort persons after it was made, one way for the guest portal, the
// organiser's guest dialog and the pay page's step 5 (issue 20; docs/ticketing.md, "Escort persons
// and tickets"; docs/forms.md, "Places of choices"):
// - the list is written in place: listed ids are updated (only the columns given, so what the
//   registration form stored and this caller does not ask for stays), missing ones removed, new ones
//   numbered on; never deleted and inserted again;
// - of two edits at once exactly one wins: each first moves escort_rev on from the value it read
//   (a conditional update), the other answers 409 ESCORTS_CHANGED_MEANWHILE and changes nothing;
// - one ticket is one person: on a paid registration the persons stay within its tickets (plus what
//   the organiser added free of charge, recorded), and never drop below its tickets;
// - the event places and the places of the form's choices follow the person count.
import type { Db } from '../../db/database'
import { isUniqueViolation } from '../../db/database'
import { bool, fromJson, toJson } from '../../db/types'
import { AppError } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import { recountFieldPlaces } from '../reservations/service'
import { ticketsOfVisitor } from '../ticketing/orders/persons'
import { holdsSeats, releaseSeats, takeSeats } from './capacity'
import type { EscortPersonTable, EventVisitorRow } from './visitors.table'

export type EscortColumns = Partial<Omit<EscortPersonTable, 'id' | 'visitor_id' | 'number' | 'checked_in' | 'checked_out' | 'checkin_date' | 'checkout_date'>>

const changedMeanwhile = () => new AppError(409, 'ESCORTS_CHANGED_MEANWHILE')

/** A unique violation of the escort numbers (a race the revision did not catch) is the same 409. */
export function escortRace(e: unknown): unknown {
  return isUniqueViolation(e, 'escort_person') ? changedMeanwhile() : e
}

/** Paid: the event sells tickets (ticket categories, or the older PAID_EVENT option). */
const paidEvent = (e: Pick<EventRow, 'options' | 'is_paid'>) => bool(e.is_paid) || fromJson<string[]>(e.options, []).includes('PAID_EVENT')

/**
 * Writes the escort list of registration `v` (as the caller read it, before its transaction where
 * it can): claims the edit by moving escort_rev on from v.escort_rev, then updates, removes and
 * adds. Answers the number of escorts now.
 */
export async function writeEscorts(trx: Db, v: Pick<EventVisitorRow, 'id' | 'escort_rev'>, list: Array<{ id?: number | null; columns: EscortColumns }>, opts: { keepCheckedIn: boolean }): Promise<number> {
  const claim = await trx
    .updateTable('event_visitor')
    .set((eb) => ({ escort_rev: eb('escort_rev', '+', 1) }))
    .where('id', '=', v.id)
    .where('escort_rev', '=', v.escort_rev)
    .executeTakeFirst()
  if (Number(claim.numUpdatedRows) !== 1) throw changedMeanwhile()
  const existing = await trx.selectFrom('escort_person').select(['id', 'number', 'checked_in']).where('visitor_id', '=', v.id).execute()
  const keep = new Set(list.map((e) => e.id).filter((id): id is number => id != null))
  // an escort id of another registration is not the caller's to change
  for (const id of keep) if (!existing.some((e) => e.id === id)) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'escortPersons', errorType: 'INVALID' }] })
  const removed = existing.filter((e) => !keep.has(e.id))
  // someone who already came in stays on the list (the desk's history and counts)
  if (opts.keepCheckedIn && removed.some((e) => bool(e.checked_in))) throw new AppError(409, 'ESCORT_CHECKED_IN')
  if (removed.length) {
    await trx
      .deleteFrom('escort_person')
      .where(
        'id',
        'in',
        removed.map((e) => e.id),
      )
      .execute()
  }
  // numbers of persons whose tickets were refunded stay retired: their QR codes must never name a new escort
  const retired = await trx.selectFrom('canceled_ticket_person').select((eb) => eb.fn.max('person').as('n')).where('visitor_id', '=', v.id).executeTakeFirst()
  let next = existing.reduce((m, e) => Math.max(m, e.number), Number(retired?.n ?? 0))
  for (const e of list) {
    if (e.id) {
      if (Object.keys(e.columns).length) await trx.updateTable('escort_person').set(e.columns).where('id', '=', e.id).where('visitor_id', '=', v.id).execute()
    } else await trx.insertInto('escort_person').values({ ...e.columns, visitor_id: v.id, number: ++next }).execute()
  }
  return list.length
}

export interface PersonsRule {
  /** who edits: the guest (portal, pay page) or the organiser */
  by: 'GUEST' | 'ORGANISER'
  /** the organiser says the persons beyond the tickets come free of charge (recorded) */
  freeOfCharge?: boolean
  accountId?: number | null
  at: string
}

/** The most persons the guest may name on a paid registration (tickets, at least the main guest, plus free persons); null when unpaid. */
export async function personsAllowed(db: Db, event: Pick<EventRow, 'options' | 'is_paid'>, v: Pick<EventVisitorRow, 'id' | 'visitor_count' | 'free_persons'>): Promise<number | null> {
  const order = await ticketsOfVisitor(db, v.id)
  if (!order && !paidEvent(event)) return null
  return Math.max(Math.max(order?.tickets ?? 0, 1) + v.free_persons, v.visitor_count)
}

/**
 * The person count after an escort edit, by the ticket rule: on a paid registration (the event sells
 * tickets, or the registration has an order) the named persons (main guest + escorts) may not pass
 * its tickets (at least the main guest) plus its free persons, unless the count does not grow; the
 * organiser's freeOfCharge adds the persons beyond to free_persons and records it in the order's
 * history. Fewer names than tickets keep the tickets' persons (unnamed escorts, as at registration).
 */
export async function personsAfterEdit(trx: Db, event: Pick<EventRow, 'options' | 'is_paid'>, v: Pick<EventVisitorRow, 'id' | 'visitor_count' | 'free_persons'>, escorts: number, rule: PersonsRule) {
  const named = 1 + escorts
  const order = await ticketsOfVisitor(trx, v.id)
  if (!order && !paidEvent(event)) return { persons: named, freePersons: v.free_persons }
  const tickets = order?.tickets ?? 0
  const allowed = Math.max(tickets, 1) + v.free_persons
  let freePersons = v.free_persons
  if (named > allowed && named > v.visitor_count) {
    if (rule.by === 'GUEST') throw new AppError(409, 'ESCORTS_NEED_TICKETS', { params: { tickets: Math.max(tickets, 1) }, extra: { tickets } })
    if (!rule.freeOfCharge) throw new AppError(409, 'ESCORTS_NOT_PAID', { params: { tickets }, extra: { tickets } })
    const extra = named - allowed
    freePersons += extra
    if (order) {
      await trx
        .insertInto('ticket_order_history')
        .values({ order_id: order.orderId, at: rule.at, kind: 'ESCORTS_FREE_OF_CHARGE', account_id: rule.accountId ?? null, data: toJson({ persons: extra, freePersons, tickets, visitorId: v.id }) as any })
        .execute()
    }
  }
  return { persons: Math.max(named, tickets), freePersons }
}

/**
 * Moves the places of a registration whose status stays to `persons`: the event places (conditional
 * update, EVENT_FULL) and the whole-registration choices (recountFieldPlaces). Answers seats_held.
 */
export async function settlePersons(trx: Db, v: Pick<EventVisitorRow, 'id' | 'event_id' | 'status' | 'seats_held' | 'visitor_count'>, persons: number): Promise<number> {
  const need = holdsSeats(v.status) ? persons : 0
  const diff = need - v.seats_held
  if (diff > 0 && !(await takeSeats(trx, v.event_id, diff))) throw new AppError(409, 'EVENT_FULL')
  if (diff < 0) await releaseSeats(trx, v.event_id, -diff)
  // choices hold their places exactly while the registration holds event places (docs/forms.md)
  if (persons !== v.visitor_count) await recountFieldPlaces(trx, v.id, persons, v.seats_held > 0 && need > 0)
  return need
}
