// Timeslot reservations: a guest's pick holds places for RESERVATION_MINUTES while the form is
// filled in; registering fixes the reservation to the registration. Places move only through
// conditional updates with a checked row count, and every expired reservation is released by
// exactly one caller (the delete that removes it), so no process oversells or double-releases.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { prepared } from '../../db/prepared'
import { bool, isoNow } from '../../db/types'
import { AppError, notFound } from '../../shared/errors'
import { registrationState } from '../events/rules'
import { type RateLimit, clientKey, throttle } from '../identity/rate-limit'
import { randomString } from '../identity/tokens'
import { groupCommit } from '../forms/group-commit'
import { freeOf } from '../forms/repository'

/** `false` for a where clause on a boolean column (read back as 0/1, written as a boolean). */
export const NO = false as unknown as 0

/** How long a timed reservation holds its places; renew extends every selection by as much again. */
export const RESERVATION_MINUTES = 15

declare const __EINLASS_TRUST_TEST_LICENSE_KEY__: boolean | undefined
const testBuild = typeof __EINLASS_TRUST_TEST_LICENSE_KEY__ !== 'undefined' && __EINLASS_TRUST_TEST_LICENSE_KEY__ === true

/** The reservation duration. Builds made for the journeys (build.ts --test-license-key) may shorten it. */
export function reservationMs(): number {
  const test = testBuild ? Number(process.env.EINLASS_TEST_RESERVATION_SECONDS) : NaN
  return Number.isFinite(test) && test > 0 ? test * 1000 : RESERVATION_MINUTES * 60_000
}

/**
 * New holds one client address may make (HOLD_ADDRESS): four times its ceiling per 15 minutes. A crowd
 * behind one address makes about one hold per person and place; a client that takes and drops holds
 * to keep places from others goes faster. 1,200 per 15 minutes at the default ceiling of 300.
 */
export function holdRateLimit(addressPlaces: number): RateLimit {
  return { max: addressPlaces * 4, windowMs: 15 * 60_000 }
}

/** freeSlots 0: the slot is gone; anything else: it could not be reserved (guest-side.md 8). */
function notAvailable(free: number) {
  const extra = { succeeded: false, freeSlots: free, reservationToken: null, expireDate: null }
  return free === 0 ? new AppError(409, 'TIMESLOT_NOT_AVAILABLE', { extra }) : new AppError(409, 'TIMESLOT_NOT_RESERVED', { extra })
}

/** Takes places in a timeslot; false when that would pass its capacity. */
export async function takeSlot(trx: Db, timeslotId: number, amount: number): Promise<boolean> {
  const r = await trx
    .updateTable('timeslot')
    .set((eb) => ({ taken: eb('taken', '+', amount) }))
    .where('id', '=', timeslotId)
    .where((eb) => eb.or([eb('capacity', '<', 0), eb(eb('taken', '+', amount), '<=', eb.ref('capacity'))]))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

// The reservation hot path's statements, compiled once (db/prepared.ts).
const Q = {
  // one countdown per visit: every live hold of it, timeslots and chairs, gets the same expiry
  alignSlots: prepared((db, p: { identification: string; expireDate: string; now: string }) =>
    db.updateTable('timeslot_reservation').set({ expires_at: p.expireDate }).where('identification', '=', p.identification).where('fixed', '=', NO).where('expires_at', '>', p.now),
  ),
  alignChairs: prepared((db, p: { identification: string; expireDate: string; now: string }) =>
    db.updateTable('chair_reservation').set({ expires_at: p.expireDate }).where('identification', '=', p.identification).where('fixed', '=', NO).where('expires_at', '>', p.now),
  ),
  slot: prepared((db, p: { id: number }) =>
    db
      .selectFrom('timeslot')
      .innerJoin('event_field', 'event_field.id', 'timeslot.field_id')
      .innerJoin('event', 'event.id', 'timeslot.event_id')
      .select([
        'timeslot.id',
        'timeslot.event_id',
        'timeslot.field_id',
        'event_field.multiple',
        'event_field.max_per_guest',
        'event_field.amount_selection',
        'event.status',
        'event.visibility',
        'event.use_date',
        'event.registration_from',
        'event.registration_until',
        'event.end_date',
      ])
      .where('timeslot.id', '=', p.id),
  ),
  // what this visitor already holds in the same field
  held: prepared((db, p: { identification: string; now: string; fieldId: number }) =>
    db
      .selectFrom('timeslot_reservation')
      .innerJoin('timeslot', 'timeslot.id', 'timeslot_reservation.timeslot_id')
      .select(['timeslot_reservation.timeslot_id', 'timeslot_reservation.amount'])
      .where('timeslot_reservation.identification', '=', p.identification)
      .where('timeslot_reservation.fixed', '=', NO)
      .where('timeslot_reservation.expires_at', '>', p.now)
      .where('timeslot.field_id', '=', p.fieldId),
  ),
  // the places this client address holds in the event, whatever identifications it sends
  heldByClient: prepared((db, p: { client: string; now: string; eventId: number }) =>
    db
      .selectFrom('timeslot_reservation')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('n'))
      .where('client_key', '=', p.client)
      .where('event_id', '=', p.eventId)
      .where('fixed', '=', NO)
      .where('expires_at', '>', p.now),
  ),
  take: prepared((db, p: { id: number; amount: number }) =>
    db
      .updateTable('timeslot')
      .set((eb) => ({ taken: eb('taken', '+', p.amount) }))
      .where('id', '=', p.id)
      .where((eb) => eb.or([eb('capacity', '<', 0), eb(eb('taken', '+', p.amount), '<=', eb.ref('capacity'))]))
      .returning(['capacity', 'taken']),
  ),
  insert: prepared(
    (db, p: { token: string; timeslotId: number; eventId: number; identification: string; amount: number; registrationChange: boolean; expiresAt: string; at: string; client: string | null }) =>
      db.insertInto('timeslot_reservation').values({
        client_key: p.client,
        token: p.token,
        timeslot_id: p.timeslotId,
        event_id: p.eventId,
        identification: p.identification,
        amount: p.amount,
        registration_change: p.registrationChange,
        fixed: false,
        expires_at: p.expiresAt,
        created_at: p.at,
      }),
  ),
  // a registration fixes the reservation it selected, while it is still held; answers what it held
  fix: prepared((db, p: { visitorId: number; token: string; timeslotId: number; now: string }) =>
    db
      .updateTable('timeslot_reservation')
      .set({ fixed: true, visitor_id: p.visitorId, expires_at: null })
      .where('token', '=', p.token)
      .where('timeslot_id', '=', p.timeslotId)
      .where('fixed', '=', NO)
      .where('expires_at', '>', p.now)
      .returning(['id', 'amount']),
  ),
}

/** takeSlot that answers the slot's capacity and taken count afterwards (null when refused). */
async function takeSlotReturning(trx: Db, timeslotId: number, amount: number): Promise<{ capacity: number; taken: number } | null> {
  return (await Q.take.first(trx, { id: timeslotId, amount })) ?? null
}

export async function releaseSlot(trx: Db, timeslotId: number, amount: number) {
  await trx
    .updateTable('timeslot')
    .set((eb) => ({ taken: eb('taken', '-', amount) }))
    .where('id', '=', timeslotId)
    .execute()
}

/** Releases the expired timed reservations of an event (or of one timeslot). */
export async function releaseExpired(trx: Db, now: Date, scope: { eventId?: number; timeslotId?: number }): Promise<number> {
  const at = isoNow(now)
  let q = trx.selectFrom('timeslot_reservation').select(['id', 'timeslot_id', 'amount']).where('fixed', '=', NO).where('expires_at', '<', at)
  if (scope.timeslotId) q = q.where('timeslot_id', '=', scope.timeslotId)
  else if (scope.eventId) q = q.where('event_id', '=', scope.eventId)
  const expired = await q.limit(500).execute()
  let n = 0
  for (const r of expired) {
    const gone = await trx.deleteFrom('timeslot_reservation').where('id', '=', r.id).where('fixed', '=', NO).executeTakeFirst()
    if (Number(gone.numDeletedRows) !== 1) continue
    await releaseSlot(trx, r.timeslot_id, r.amount)
    n++
  }
  return n
}

export interface ReserveInput {
  timeslotId: number
  identification: string
  amount: number
  registrationChange: boolean
}

/** What one registration may hold in a field: one visit's (identification's) holds may be no more. */
function exceedsOneRegistration(held: ReadonlyArray<{ timeslot_id: number; amount: number }>, slot: { id: number; multiple: number | boolean; amount_selection: number | boolean; max_per_guest: number }, amount: number): boolean {
  const total = held.reduce((a, h) => a + h.amount, 0) + amount
  const bound = slot.max_per_guest >= 0 ? slot.max_per_guest : bool(slot.amount_selection) ? 10 : Number.POSITIVE_INFINITY
  return held.some((h) => h.timeslot_id === slot.id) || (!bool(slot.multiple) && held.length > 0) || total > bound
}

/**
 * The bounds of one client address, checked in the transaction that takes the places: new holds are
 * rate limited (HOLD_ADDRESS at a crowd's pace), and the address's live holds in the event stay within
 * the ceiling (EINLASS_HOLD_ADDRESS_PLACES). The rate-limit upsert locks the address's row until the
 * transaction ends, so on Postgres one address's holds are made one after another and each sees the
 * previous one (on SQLite the transaction is the single writer anyway).
 */
export async function withinAddressBounds(ctx: AppContext, trx: Db, clientAddress: string | null, heldByAddress: () => Promise<number>, amount: number): Promise<boolean> {
  if (!clientAddress) return true
  await throttle(ctx, [['HOLD_ADDRESS', clientAddress, holdRateLimit(ctx.config.holds.address_places)]], trx)
  return (await heldByAddress()) + amount <= ctx.config.holds.address_places
}

/**
 * Holds places for one visit of the form. One visit (its identification) holds no more than one
 * registration could take; one client address (an office, a carrier: many visits) no more than the
 * ceiling per event, and it makes new holds no faster than HOLD_ADDRESS: one client cannot hold
 * every place, a crowd behind one address still registers.
 */
export async function reserveTimeslot(ctx: AppContext, input: ReserveInput, clientAddress: string | null = null) {
  const now = ctx.clock.now()
  const client = clientAddress ? clientKey(clientAddress) : null
  // The slot's field and event settings are read before the transaction (the single writer on SQLite).
  const slot = await Q.slot.first(ctx.db, { id: input.timeslotId })
  if (!slot || slot.status !== 'OK' || slot.visibility === 'OFFLINE') throw notAvailable(-1)
  if (registrationState({ ...slot, max_visitors: null, seats_taken: 0 }, now) !== 'OPEN') throw notAvailable(-1)
  if (!bool(slot.amount_selection) && input.amount !== 1) throw notAvailable(-1)
  return groupCommit(ctx, async (trx) => {
    const byAddress = async () => Number((await Q.heldByClient.first(trx, { client: client!, now: isoNow(now), eventId: slot.event_id }))?.n ?? 0)
    if (!(await withinAddressBounds(ctx, trx, clientAddress, byAddress, input.amount))) throw notAvailable(await freeSlots(trx, slot.id))
    // What this visit already holds in the same field: single choice allows one slot, and
    // maxPerGuest bounds the sum of amounts.
    const held = (await Q.held(trx, { identification: input.identification, now: isoNow(now), fieldId: slot.field_id })).rows
    if (exceedsOneRegistration(held, slot, input.amount)) throw notAvailable(await freeSlots(trx, slot.id))
    // Expired holds are released when they stand in the way (and by availabilities), not on every call.
    let taken = await takeSlotReturning(trx, slot.id, input.amount)
    if (!taken && (await releaseExpired(trx, now, { timeslotId: slot.id })) > 0) taken = await takeSlotReturning(trx, slot.id, input.amount)
    if (!taken) throw notAvailable(await freeSlots(trx, slot.id))
    const token = randomString(24)
    const expireDate = isoNow(new Date(now.getTime() + reservationMs()))
    await alignVisitHolds(trx, input.identification, expireDate, isoNow(now))
    await Q.insert(trx, { token, timeslotId: slot.id, eventId: slot.event_id, identification: input.identification, amount: input.amount, registrationChange: input.registrationChange, expiresAt: expireDate, at: isoNow(now), client })
    return { succeeded: true, reservationToken: token, expireDate, freeSlots: freeOf(taken) }
  })
}

async function freeSlots(db: Db, id: number): Promise<number> {
  const s = await db.selectFrom('timeslot').select(['capacity', 'taken']).where('id', '=', id).executeTakeFirst()
  return s ? freeOf(s) : 0
}

/**
 * One countdown for a visit (guest-side.md §4): its timeslot and chair holds expire together. Every
 * new hold and every renew moves all live holds of the visit to the same expiry.
 */
export async function alignVisitHolds(trx: Db, identification: string, expireDate: string, now: string): Promise<number> {
  const a = await Q.alignSlots(trx, { identification, expireDate, now })
  const b = await Q.alignChairs(trx, { identification, expireDate, now })
  return Number(a.numAffectedRows ?? 0) + Number(b.numAffectedRows ?? 0)
}

/** Extends every timed reservation of this visitor, timeslots and chairs alike; REGISTRATION_VALID_UNTIL_EXPIRED when none is left. */
export async function renewReservations(ctx: AppContext, identification: string) {
  const now = ctx.clock.now()
  const expireDate = isoNow(new Date(now.getTime() + reservationMs()))
  const n = await ctx.db.transaction().execute((trx) => alignVisitHolds(trx, identification, expireDate, isoNow(now)))
  if (n === 0) throw new AppError(409, 'REGISTRATION_VALID_UNTIL_EXPIRED')
  return { expireDate }
}

/** Releases one timed reservation (by token) or all timed ones of a visitor. */
export async function deleteReservations(ctx: AppContext, input: { reservationToken?: string; deleteAllTimed?: boolean; identification?: string }) {
  return ctx.db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('timeslot_reservation').select(['id', 'timeslot_id', 'amount']).where('fixed', '=', NO)
    q = input.reservationToken ? q.where('token', '=', input.reservationToken) : q.where('identification', '=', input.identification!)
    const rows = await q.execute()
    if (input.reservationToken && rows.length === 0) throw new AppError(409, 'UNABLE_TO_REVOKE_RESERVATION')
    let deleted = 0
    for (const r of rows) {
      const gone = await trx.deleteFrom('timeslot_reservation').where('id', '=', r.id).where('fixed', '=', NO).executeTakeFirst()
      if (Number(gone.numDeletedRows) !== 1) continue
      await releaseSlot(trx, r.timeslot_id, r.amount)
      deleted++
    }
    return { deleted }
  })
}

/** Free places per timeslot of an event (negative = unlimited), after releasing expired holds. */
export async function availabilities(ctx: AppContext, eventId: number): Promise<Record<string, number>> {
  // the same events the public form is served for: OK and not OFFLINE (404 like an unknown id)
  const event = await ctx.db.selectFrom('event').select(['status', 'visibility']).where('id', '=', eventId).executeTakeFirst()
  if (!event || event.status !== 'OK' || event.visibility === 'OFFLINE') throw notFound()
  const now = ctx.clock.now()
  const expired = await ctx.db
    .selectFrom('timeslot_reservation')
    .select('id')
    .where('event_id', '=', eventId)
    .where('fixed', '=', NO)
    .where('expires_at', '<', isoNow(now))
    .limit(1)
    .executeTakeFirst()
  if (expired) await ctx.db.transaction().execute((trx) => releaseExpired(trx, now, { eventId }))
  const slots = await ctx.db.selectFrom('timeslot').select(['id', 'capacity', 'taken']).where('event_id', '=', eventId).execute()
  const out: Record<string, number> = {}
  for (const s of slots) out[String(s.id)] = freeOf(s)
  return out
}

/**
 * Fixes the reservations a registration selected (public) or takes the places directly (admin mode,
 * no reservations). Throws REGISTRATION_VALID_UNTIL_EXPIRED when a reservation is gone.
 */
export async function fixSlotSelections(
  trx: Db,
  now: Date,
  visitorId: number,
  eventId: number,
  picks: Array<{ field: string; timeslotId: number; amount: number; reservationToken?: string | null }>,
  admin: boolean,
) {
  for (const p of picks) {
    if (admin) {
      if (!(await takeSlot(trx, p.timeslotId, p.amount))) throw new AppError(409, 'FIELD_ERROR', { fields: [{ field: p.field, errorType: 'TIMESLOT_NOT_AVAILABLE' }] })
      await trx
        .insertInto('timeslot_reservation')
        .values({ token: randomString(24), timeslot_id: p.timeslotId, event_id: eventId, identification: `visitor-${visitorId}`, amount: p.amount, fixed: true, visitor_id: visitorId, expires_at: null, created_at: isoNow(now) })
        .execute()
      continue
    }
    const r = await Q.fix.first(trx, { visitorId, token: p.reservationToken ?? '', timeslotId: p.timeslotId, now: isoNow(now) })
    if (!r) throw new AppError(409, 'REGISTRATION_VALID_UNTIL_EXPIRED', { fields: [{ field: p.field, errorType: 'REGISTRATION_VALID_UNTIL_EXPIRED' }] })
    // The hold was made while the form was filled in (one place, or the amount then); the
    // registration holds as many as it needs now (a place per person when chosen for everyone).
    if (r.amount !== p.amount) {
      if (p.amount > r.amount && !(await takeSlot(trx, p.timeslotId, p.amount - r.amount))) throw new AppError(409, 'FIELD_ERROR', { fields: [{ field: p.field, errorType: 'TIMESLOT_NOT_AVAILABLE' }] })
      if (p.amount < r.amount) await releaseSlot(trx, p.timeslotId, r.amount - p.amount)
      await trx.updateTable('timeslot_reservation').set({ amount: p.amount }).where('id', '=', r.id).execute()
    }
  }
}

/** Gives back every timeslot place a registration holds (for deleting or declining registrations). */
export async function releaseVisitorSlots(trx: Db, visitorId: number) {
  const rows = await trx.selectFrom('timeslot_reservation').select(['id', 'timeslot_id', 'amount']).where('visitor_id', '=', visitorId).execute()
  for (const r of rows) {
    const gone = await trx.deleteFrom('timeslot_reservation').where('id', '=', r.id).executeTakeFirst()
    if (Number(gone.numDeletedRows) === 1) await releaseSlot(trx, r.timeslot_id, r.amount)
  }
}

/**
 * A registration's defined-value and timeslot choices hold their places exactly while the
 * registration holds event places (seats_held > 0). Whoever moves seats_held between 0 and more
 * (decline, delete, restore, waiting list → place) calls these in the same transaction.
 */
export async function releaseFieldPlaces(trx: Db, visitorId: number): Promise<void> {
  await releaseVisitorSlots(trx, visitorId)
  for (const s of await choicesOf(trx, visitorId, 'SMARTLIST')) {
    await trx
      .updateTable('field_value')
      .set((eb) => ({ taken: eb('taken', '-', s.amount) }))
      .where('id', '=', s.id)
      .execute()
  }
}

/** Takes the places of a registration's choices again; FIELD_ERROR when one is no longer free. */
export async function takeFieldPlaces(trx: Db, visitorId: number, eventId: number, now: Date): Promise<void> {
  for (const s of await choicesOf(trx, visitorId, 'SMARTLIST')) {
    const r = await trx
      .updateTable('field_value')
      .set((eb) => ({ taken: eb('taken', '+', s.amount) }))
      .where('id', '=', s.id)
      .where((eb) => eb.or([eb('capacity', '<', 0), eb(eb('taken', '+', s.amount), '<=', eb.ref('capacity'))]))
      .executeTakeFirst()
    if (Number(r.numUpdatedRows) !== 1) throw new AppError(409, 'FIELD_ERROR', { fields: [{ field: `fields.${s.fieldId}`, errorType: 'VALUE_UNAVAILABLE' }] })
  }
  const slots = await choicesOf(trx, visitorId, 'TIMESLOT')
  await fixSlotSelections(
    trx,
    now,
    visitorId,
    eventId,
    slots.map((s) => ({ field: `fields.${s.fieldId}`, timeslotId: s.id, amount: s.amount })),
    true,
  )
}

/** The stored choices of one kind: defined value or timeslot id with amount. */
async function choicesOf(trx: Db, visitorId: number, type: 'SMARTLIST' | 'TIMESLOT') {
  const rows = await trx
    .selectFrom('visitor_field_value')
    .innerJoin('event_field', 'event_field.id', 'visitor_field_value.field_id')
    .select(['visitor_field_value.field_id', 'visitor_field_value.value'])
    .where('visitor_field_value.visitor_id', '=', visitorId)
    .where('event_field.type', '=', type)
    .execute()
  const out: Array<{ fieldId: number; id: number; amount: number }> = []
  for (const r of rows) {
    const list = JSON.parse(r.value) as Array<{ fieldValueId?: number; timeslotId?: number; amount: number }>
    for (const x of list) out.push({ fieldId: r.field_id, id: Number(type === 'SMARTLIST' ? x.fieldValueId : x.timeslotId), amount: x.amount })
  }
  return out
}

/**
 * A choice made for the whole registration (no amount selection) holds a place per person
 * (docs/forms.md, "Places of choices"). When the persons change later (escorts added or removed by
 * the guest, the organiser or the pay page), its stored amount follows, and while the registration
 * holds places so do the places: more with the conditional update (full: FIELD_ERROR
 * VALUE_UNAVAILABLE / TIMESLOT_NOT_AVAILABLE, and the caller's transaction changes nothing), fewer
 * given back. What is stored is what a later release (decline, expiry, refund) gives back.
 */
export async function recountFieldPlaces(trx: Db, visitorId: number, persons: number, holding: boolean): Promise<void> {
  const rows = await trx
    .selectFrom('visitor_field_value')
    .innerJoin('event_field', 'event_field.id', 'visitor_field_value.field_id')
    .select(['visitor_field_value.id', 'visitor_field_value.field_id', 'visitor_field_value.value', 'event_field.type', 'event_field.amount_selection'])
    .where('visitor_field_value.visitor_id', '=', visitorId)
    .where('event_field.type', 'in', ['SMARTLIST', 'TIMESLOT'])
    .execute()
  for (const r of rows) {
    if (bool(r.amount_selection)) continue
    const list = JSON.parse(r.value as string) as Array<{ fieldValueId?: number; timeslotId?: number; amount: number }>
    let changed = false
    for (const x of list) {
      const diff = persons - x.amount
      if (diff === 0) continue
      if (holding && r.type === 'SMARTLIST') {
        const u = await trx
          .updateTable('field_value')
          .set((eb) => ({ taken: eb('taken', '+', diff) }))
          .where('id', '=', Number(x.fieldValueId))
          .where((eb) => (diff < 0 ? eb.val(true) : eb.or([eb('capacity', '<', 0), eb(eb('taken', '+', diff), '<=', eb.ref('capacity'))])))
          .executeTakeFirst()
        if (Number(u.numUpdatedRows) !== 1) throw new AppError(409, 'FIELD_ERROR', { fields: [{ field: `fields.${r.field_id}`, errorType: 'VALUE_UNAVAILABLE' }] })
      }
      if (holding && r.type === 'TIMESLOT') {
        const slot = Number(x.timeslotId)
        if (diff > 0 && !(await takeSlot(trx, slot, diff))) throw new AppError(409, 'FIELD_ERROR', { fields: [{ field: `fields.${r.field_id}`, errorType: 'TIMESLOT_NOT_AVAILABLE' }] })
        if (diff < 0) await releaseSlot(trx, slot, -diff)
        // the fixed reservation row is what releaseVisitorSlots gives back
        await trx.updateTable('timeslot_reservation').set({ amount: persons }).where('visitor_id', '=', visitorId).where('timeslot_id', '=', slot).execute()
      }
      x.amount = persons
      changed = true
    }
    if (changed) await trx.updateTable('visitor_field_value').set({ value: JSON.stringify(list) }).where('id', '=', r.id).execute()
  }
}
