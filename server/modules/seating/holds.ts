// Chair reservations (register mode): a guest's pick holds places of a chair for the reservation
// time of the form (the same clock as timeslot holds), registering or ordering fixes them.
// Places move only by `UPDATE seating_chair SET taken = taken + n WHERE … AND taken + n <= places`
// with its row count checked, and every expired hold is released by exactly the one caller whose
// DELETE removed it: no two guests on one place, on SQLite and across processes on Postgres.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { prepared } from '../../db/prepared'
import { bool, isoNow } from '../../db/types'
import { AppError, notFound } from '../../shared/errors'
import { registrationState } from '../events/rules'
import { groupCommit } from '../forms/group-commit'
import { randomString } from '../identity/tokens'
import { clientKey } from '../identity/rate-limit'
import { alignVisitHolds, renewReservations, reservationMs, withinAddressBounds } from '../reservations/service'
import { type HoldOfVisit, areaDto, chairColumns, chairDto, priceCategoryDto } from './dto'

/** How many places one visit may hold when the event sets no maxVisitorPerSubscription. */
export const DEFAULT_MAX_PER_VISIT = 10

export type Rejection = 'blocked' | 'wrongPK' | 'maxChooseCount' | 'reservationError' | 'requestError' | 'chairAmount' | 'rejected'

/** The spec's three seat messages, by what went wrong; `rejection` names the internal code. */
function refused(rejection: Rejection, freeChairs: number) {
  const extra = { succeeded: false, freeChairs, reservationToken: null, expireDate: null, rejection }
  if (rejection === 'maxChooseCount') return new AppError(409, 'SEAT_MAX_REACHED', { extra })
  if (freeChairs === 0) return new AppError(409, 'SEAT_NOT_AVAILABLE', { extra })
  return new AppError(409, 'SEAT_NOT_RESERVED', { extra })
}

// Every chair reservation runs these: compiled once (db/prepared.ts), like the timeslot holds.
const Q = {
  event: prepared((db, p: { id: number }) =>
    db.selectFrom('event').select(['id', 'status', 'visibility', 'use_date', 'registration_from', 'registration_until', 'end_date', 'max_visitor_per_subscription']).where('id', '=', p.id),
  ),
  chair: prepared((db, p: { id: number; eventId: number }) => db.selectFrom('seating_chair').selectAll().where('id', '=', p.id).where('event_id', '=', p.eventId)),
  holds: prepared((db, p: { eventId: number; identification: string; now: string }) => holdsOfVisitQuery(db, p.eventId, p.identification, p.now)),
  take: prepared((db, p: { id: number; amount: number }) =>
    db
      .updateTable('seating_chair')
      .set((eb) => ({ taken: eb('taken', '+', p.amount) }))
      .where('id', '=', p.id)
      .where('blocked', '=', false as never)
      .where((eb) => eb(eb('taken', '+', p.amount), '<=', eb.ref('places')))
      .returning(['places', 'taken']),
  ),
  insert: prepared((db, p: { token: string; chairId: number; eventId: number; identification: string; amount: number; expiresAt: string; createdAt: string; client: string | null }) =>
    db.insertInto('chair_reservation').values({ token: p.token, chair_id: p.chairId, event_id: p.eventId, identification: p.identification, amount: p.amount, fixed: false as never, expires_at: p.expiresAt, created_at: p.createdAt, client_key: p.client }),
  ),
  // the places this client address holds in the event, whatever identifications it sends
  heldByClient: prepared((db, p: { client: string; eventId: number; now: string }) =>
    db
      .selectFrom('chair_reservation')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('n'))
      .where('client_key', '=', p.client)
      .where('event_id', '=', p.eventId)
      .where('fixed', '=', false as never)
      .where('expires_at', '>', p.now),
  ),
}

/** An event whose public page may show and sell its plan. */
/** Guests see an event's plan while the event is active and not offline. */
const shownToGuests = <E extends { status: string; visibility: string }>(e: E | undefined): e is E => !!e && e.status === 'OK' && e.visibility !== 'OFFLINE'

async function publicEvent(db: Db, eventId: number) {
  const e = await Q.event.first(db, { id: eventId })
  if (!shownToGuests(e)) throw notFound()
  return e
}

/** The visit's live holds (answered by the index on identification, event, expiry: query-plans.test.ts). */
export function holdsOfVisitQuery(db: Db, eventId: number, identification: string, now: string) {
  return db
    .selectFrom('chair_reservation')
    .select(['id', 'token', 'chair_id', 'amount', 'expires_at'])
    .where('identification', '=', identification)
    .where('event_id', '=', eventId)
    .where('fixed', '=', false as never)
    .where('expires_at', '>', now)
}

async function holdsOfVisit(db: Db, eventId: number, identification: string, now: string) {
  return (await Q.holds(db, { eventId, identification, now })).rows
}

/**
 * Whether the public page of an event boots with its seating plan first (index-public-seating.html:
 * the picker draws before the rest of the page's app has loaded, docs/seating.md): a public event
 * whose registration is open by its dates (a full one may still have a waiting list) and whose plan
 * has an area. The same visibility rule as the plan's own call, so the page tells nothing the call
 * would not; two primary-key/indexed reads per public page view.
 */
export async function publicPageHasPlan(ctx: AppContext, eventId: number): Promise<boolean> {
  const e = await Q.event.first(ctx.db, { id: eventId })
  if (!shownToGuests(e)) return false
  if (registrationState({ ...e, max_visitors: null, seats_taken: 0 }, ctx.clock.now()) !== 'OPEN') return false
  return !!(await ctx.db.selectFrom('seating_area').select('id').where('event_id', '=', eventId).limit(1).executeTakeFirst())
}

/** The plan's areas and price categories for the public page (chairs come per area). */
export async function publicPlan(ctx: AppContext, eventId: number) {
  await publicEvent(ctx.db, eventId)
  const [areas, categories] = await Promise.all([
    ctx.db.selectFrom('seating_area').selectAll().where('event_id', '=', eventId).orderBy('sort').orderBy('id').execute(),
    ctx.db.selectFrom('seating_price_category').selectAll().where('event_id', '=', eventId).orderBy('sort').orderBy('id').execute(),
  ])
  return { areas: areas.map(areaDto), priceCategories: categories.map(priceCategoryDto) }
}

/** POST /api/public/events/{eventId}/seatingplanArea: the area's chairs, with what this visit holds. */
/** The chairs of an area (the spec's { chairs }), or with chairFormat 'columns' the same as one array per field. */
export async function areaChairs(ctx: AppContext, eventId: number, areaId: number, identification?: string, chairFormat?: 'columns') {
  await publicEvent(ctx.db, eventId)
  const now = ctx.clock.now()
  const area = await ctx.db.selectFrom('seating_area').select('id').where('id', '=', areaId).where('event_id', '=', eventId).executeTakeFirst()
  if (!area) throw notFound()
  await releaseExpiredIfAny(ctx, eventId, now)
  const [chairs, categories, holds] = await Promise.all([
    ctx.db.selectFrom('seating_chair').selectAll().where('area_id', '=', areaId).orderBy('id').execute(),
    ctx.db.selectFrom('seating_price_category').selectAll().where('event_id', '=', eventId).execute(),
    identification ? holdsOfVisit(ctx.db, eventId, identification, isoNow(now)) : Promise.resolve([]),
  ])
  const cats = new Map(categories.map((c) => [c.id, priceCategoryDto(c)]))
  const mine = new Map<number, HoldOfVisit>(holds.map((h) => [h.chair_id, { token: h.token, amount: h.amount, expiresAt: h.expires_at }]))
  const list = chairs.map((c) => chairDto(c, cats, mine.get(c.id)))
  if (chairFormat === 'columns') return { chairColumns: chairColumns(list), priceCategories: [...cats.values()] }
  return { chairs: list }
}

async function releaseExpiredIfAny(ctx: AppContext, eventId: number, now: Date) {
  const any = await ctx.db
    .selectFrom('chair_reservation')
    .select('id')
    .where('event_id', '=', eventId)
    .where('fixed', '=', false as never)
    .where('expires_at', '<', isoNow(now))
    .limit(1)
    .executeTakeFirst()
  if (any) await ctx.db.transaction().execute((trx) => releaseExpiredChairs(trx, now, { eventId }))
}

export async function releaseChair(trx: Db, chairId: number, amount: number) {
  await trx
    .updateTable('seating_chair')
    .set((eb) => ({ taken: eb('taken', '-', amount) }))
    .where('id', '=', chairId)
    .execute()
}

/** Releases expired holds of an event or one chair; each by the one caller whose DELETE removed it. */
export async function releaseExpiredChairs(trx: Db, now: Date, scope: { eventId?: number; chairId?: number }): Promise<number> {
  let q = trx.selectFrom('chair_reservation').select(['id', 'chair_id', 'amount']).where('fixed', '=', false as never).where('expires_at', '<', isoNow(now))
  if (scope.chairId) q = q.where('chair_id', '=', scope.chairId)
  else if (scope.eventId) q = q.where('event_id', '=', scope.eventId)
  let n = 0
  for (const r of await q.limit(500).execute()) {
    const gone = await trx.deleteFrom('chair_reservation').where('id', '=', r.id).where('fixed', '=', false as never).executeTakeFirst()
    if (Number(gone.numDeletedRows) !== 1) continue
    await releaseChair(trx, r.chair_id, r.amount)
    n++
  }
  return n
}

export async function take(trx: Db, chairId: number, amount: number) {
  return Q.take.first(trx, { id: chairId, amount })
}

/**
 * POST …/seatingplan/reservation/chair: holds `amount` places of a chair for this visit. The visit
 * holds no more than one registration may take; its client address no more than the ceiling per
 * event, at a crowd's pace (the same bounds as timeslot holds: reservations/service.ts).
 */
export async function reserveChair(ctx: AppContext, eventId: number, input: { chairId: number; identification: string; amount: number }, clientAddress: string | null = null) {
  const client = clientAddress ? clientKey(clientAddress) : null
  const now = ctx.clock.now()
  const event = await publicEvent(ctx.db, eventId).catch(() => null)
  if (!event) throw refused('requestError', -1)
  if (registrationState({ ...event, max_visitors: null, seats_taken: 0 }, now) !== 'OPEN') throw refused('rejected', -1)
  const chair = await Q.chair.first(ctx.db, { id: input.chairId, eventId })
  if (!chair) throw refused('requestError', -1)
  const free = () => Math.max(0, chair.places - chair.taken)
  if (bool(chair.blocked)) throw refused('blocked', 0)
  if (input.amount < chair.min_amount || input.amount > chair.max_amount) throw refused('chairAmount', free())
  const bound = event.max_visitor_per_subscription > 0 ? event.max_visitor_per_subscription : DEFAULT_MAX_PER_VISIT
  return groupCommit(ctx, async (trx) => {
    const byAddress = async () => Number((await Q.heldByClient.first(trx, { client: client!, eventId, now: isoNow(now) }))?.n ?? 0)
    if (!(await withinAddressBounds(ctx, trx, clientAddress, byAddress, input.amount))) throw refused('rejected', free())
    const held = await holdsOfVisit(trx, eventId, input.identification, isoNow(now))
    if (held.some((h) => h.chair_id === chair.id)) throw refused('rejected', free())
    if (held.reduce((s, h) => s + h.amount, 0) + input.amount > bound) throw refused('maxChooseCount', free())
    let taken = await take(trx, chair.id, input.amount)
    if (!taken && (await releaseExpiredChairs(trx, now, { chairId: chair.id })) > 0) taken = await take(trx, chair.id, input.amount)
    if (!taken) {
      const now2 = await trx.selectFrom('seating_chair').select(['places', 'taken', 'blocked']).where('id', '=', chair.id).executeTakeFirst()
      throw refused(now2 && bool(now2.blocked) ? 'blocked' : 'reservationError', now2 ? Math.max(0, now2.places - now2.taken) : 0)
    }
    const token = randomString(24)
    const expireDate = isoNow(new Date(now.getTime() + reservationMs()))
    // one countdown: the visit's other chair and timeslot holds expire with this one
    await alignVisitHolds(trx, input.identification, expireDate, isoNow(now))
    await Q.insert(trx, { token, chairId: chair.id, eventId, identification: input.identification, amount: input.amount, expiresAt: expireDate, createdAt: isoNow(now), client })
    return { succeeded: true, reservationToken: token, expireDate, freeChairs: Math.max(0, taken.places - taken.taken) }
  })
}

/** Extends every hold of the visit, chairs and timeslots alike (the countdown is shared with timeslots). */
export async function renewChairs(ctx: AppContext, _eventId: number, identification: string) {
  return renewReservations(ctx, identification)
}

/** DELETE …/reservation/chair: gives back `amount` places of a hold (all of it without amount), or every hold of the visit. */
export async function deleteChairHolds(ctx: AppContext, eventId: number, input: { reservationToken?: string; amount?: number; identification?: string; deleteAll?: boolean }) {
  return ctx.db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('chair_reservation').select(['id', 'chair_id', 'amount']).where('event_id', '=', eventId).where('fixed', '=', false as never)
    q = input.reservationToken ? q.where('token', '=', input.reservationToken) : q.where('identification', '=', input.identification!)
    const rows = await q.execute()
    if (input.reservationToken && rows.length === 0) throw new AppError(409, 'UNABLE_TO_REVOKE_RESERVATION')
    let released = 0
    for (const r of rows) {
      if (input.reservationToken && input.amount !== undefined && input.amount < r.amount) {
        const less = await trx.updateTable('chair_reservation').set({ amount: r.amount - input.amount }).where('id', '=', r.id).where('amount', '=', r.amount).where('fixed', '=', false as never).executeTakeFirst()
        if (Number(less.numUpdatedRows) !== 1) continue
        await releaseChair(trx, r.chair_id, input.amount)
        released += input.amount
        continue
      }
      const gone = await trx.deleteFrom('chair_reservation').where('id', '=', r.id).where('fixed', '=', false as never).executeTakeFirst()
      if (Number(gone.numDeletedRows) !== 1) continue
      await releaseChair(trx, r.chair_id, r.amount)
      released += r.amount
    }
    return { released }
  })
}

/**
 * Fixes a registration's (or order's) chair holds to it, inside its transaction. Every token must
 * be a live hold of this visit on this event; otherwise REGISTRATION_VALID_UNTIL_EXPIRED and the
 * caller's transaction writes nothing.
 */
export async function fixChairHolds(trx: Db, now: Date, visitorId: number, eventId: number, identification: string, tokens: string[]) {
  const out: Array<{ chairId: number; amount: number }> = []
  for (const token of tokens) {
    const row = await trx
      .updateTable('chair_reservation')
      .set({ fixed: true, visitor_id: visitorId, expires_at: null })
      .where('token', '=', token)
      .where('event_id', '=', eventId)
      .where('identification', '=', identification)
      .where('fixed', '=', false as never)
      .where('expires_at', '>', isoNow(now))
      .returning(['chair_id', 'amount'])
      .executeTakeFirst()
    if (!row) throw new AppError(409, 'REGISTRATION_VALID_UNTIL_EXPIRED', { fields: [{ field: 'chairs', errorType: 'REGISTRATION_VALID_UNTIL_EXPIRED' }] })
    out.push({ chairId: row.chair_id, amount: row.amount })
  }
  return out
}

/** Gives back every chair place a registration holds (cancel, decline, delete). */
export async function releaseVisitorChairs(trx: Db, visitorId: number) {
  const rows = await trx.selectFrom('chair_reservation').select(['id', 'chair_id', 'amount']).where('visitor_id', '=', visitorId).execute()
  for (const r of rows) {
    const gone = await trx.deleteFrom('chair_reservation').where('id', '=', r.id).executeTakeFirst()
    if (Number(gone.numDeletedRows) === 1) await releaseChair(trx, r.chair_id, r.amount)
  }
}

/**
 * The price category a guest's chair must have in assign mode: the one bound to the ticket they
 * bought (a paid event's seat-bound category), else the one of the chair they have; null: any.
 */
export async function assignCategory(db: Db, eventId: number, visitorId: number): Promise<number | null> {
  const bought = await db
    .selectFrom('ticket_order as o')
    .innerJoin('ticket_order_line as l', 'l.order_id', 'o.id')
    .innerJoin('seating_price_category as p', 'p.ticket_category_id', 'l.category_id')
    .select('p.id')
    .where('o.visitor_id', '=', visitorId)
    .where('o.status', 'not in', ['CANCELED', 'DELETED', 'REFUNDED'])
    .where('p.event_id', '=', eventId)
    .orderBy('l.sort_order')
    .executeTakeFirst()
  if (bought) return bought.id
  const seated = await db
    .selectFrom('chair_reservation as r')
    .innerJoin('seating_chair as c', 'c.id', 'r.chair_id')
    .select('c.price_category_id')
    .where('r.visitor_id', '=', visitorId)
    .where('r.fixed', '=', true as never)
    .orderBy('r.id')
    .executeTakeFirst()
  return seated?.price_category_id ?? null
}

/** Assign mode: the organiser gives a registration one place on a chair (replacing the one it had). */
export async function assignChair(ctx: AppContext, agencyId: number, eventId: number, visitorId: number, chairId: number) {
  const now = ctx.clock.now()
  return ctx.db.transaction().execute(async (trx) => {
    const v = await trx
      .selectFrom('event_visitor as v')
      .innerJoin('event as e', 'e.id', 'v.event_id')
      .select(['v.id'])
      .where('v.id', '=', visitorId)
      .where('v.event_id', '=', eventId)
      .where('e.agency_id', '=', agencyId)
      .executeTakeFirst()
    if (!v) throw notFound()
    const chair = await trx.selectFrom('seating_chair').select(['id', 'label', 'price_category_id', 'places', 'taken']).where('id', '=', chairId).where('event_id', '=', eventId).executeTakeFirst()
    if (!chair) throw notFound()
    // assign mode offers chairs of the guest's price category only (spec §4: the others are blocked)
    const category = await assignCategory(trx, eventId, visitorId)
    if (category !== null && chair.price_category_id !== category) throw refused('wrongPK', Math.max(0, chair.places - chair.taken))
    await releaseVisitorChairs(trx, visitorId)
    let taken = await take(trx, chairId, 1)
    if (!taken && (await releaseExpiredChairs(trx, now, { chairId })) > 0) taken = await take(trx, chairId, 1)
    if (!taken) throw refused('reservationError', 0)
    await trx
      .insertInto('chair_reservation')
      .values({ token: randomString(24), chair_id: chairId, event_id: eventId, identification: `visitor-${visitorId}`, amount: 1, fixed: true, visitor_id: visitorId, expires_at: null, created_at: isoNow(now) })
      .execute()
    return { chairId, label: chair.label }
  })
}

/** Chairs (with labels) each registration of an event holds: guest list, desk, ticket. */
export async function chairsOfVisitors(db: Db, visitorIds: number[]): Promise<Map<number, Array<{ chairId: number; label: string; amount: number }>>> {
  const out = new Map<number, Array<{ chairId: number; label: string; amount: number }>>()
  if (!visitorIds.length) return out
  const rows = await db
    .selectFrom('chair_reservation as r')
    .innerJoin('seating_chair as c', 'c.id', 'r.chair_id')
    .select(['r.visitor_id', 'c.id', 'c.label', 'r.amount'])
    .where('r.visitor_id', 'in', visitorIds)
    .where('r.fixed', '=', true as never)
    .execute()
  for (const r of rows) {
    const list = out.get(r.visitor_id!) ?? []
    list.push({ chairId: r.id, label: r.label, amount: r.amount })
    out.set(r.visitor_id!, list)
  }
  return out
}

/** The places a registration holds, one entry per person in seat order (a table of 3 gives three entries): ticket PDF. */
export async function placesOfVisitor(db: Db, visitorId: number): Promise<Array<{ area: string; label: string }>> {
  const rows = await db
    .selectFrom('chair_reservation as r')
    .innerJoin('seating_chair as c', 'c.id', 'r.chair_id')
    .innerJoin('seating_area as a', 'a.id', 'c.area_id')
    .select(['a.display_name as area', 'c.label', 'r.amount'])
    .where('r.visitor_id', '=', visitorId)
    .where('r.fixed', '=', true as never)
    .orderBy('a.sort')
    .orderBy('c.id')
    .execute()
  return rows.flatMap((r) => Array.from({ length: r.amount }, () => ({ area: r.area, label: r.label })))
}
