// Check-in at the desk (docs/organiser.md, "Check-in"). Reads happen before the write transaction;
// every flag changes through a conditional UPDATE whose row count is checked, so two desks scanning
// one ticket at once can never both check the same person in. A client nonce stored with the answer in
// the same transaction turns a retried request into a no-op that returns the first answer.
import type { AppContext } from '../../context'
import { type Db, isForeignKeyViolation } from '../../db/database'
import { prepared } from '../../db/prepared'
import { bool, fromJson, isoNow, toJson } from '../../db/types'
import { AppError, notFound } from '../../shared/errors'
import { decisionsOf, effectiveAgreements, missingRequiredAgreements } from '../agreements/repository'
import type { EventRow } from '../events/events.table'
import { checkState } from '../visitors/dto'
import { normaliseCode, visitorQuery } from '../visitors/repository'
import { GuestFilter } from '../visitors/model'
import type { EscortPersonRow, EventVisitorRow } from '../visitors/visitors.table'
import { chairsOfVisitors } from '../seating/holds'
import { generationOf, looksSigned, scanSpellings, type SignedCode, verifyTicketCode } from './signed-code'
import { BLOCK_ERROR, type OrderColumns, orderStateOf, paymentView, ticketBlock, withLatestOrder } from './ticket-validity'
import { ensureTicketCode, formatTicketCode } from './ticket'
import type { CheckinInput, Person } from './model'
import { listCheckIn, listCheckOut, personRefusals, personsOnList } from './list-checkin'
import { listOfEvent } from './lists'
import type { CheckinListRow } from './checkin.table'

export const CHECKIN_STATUSES = ['CONFIRMED', 'APPEARED'] as const

// Whether an event has REQUIRED (or any) agreements at all, from the agreements the registration
// and self check-in read anyway: cached per process while the 'setup' counter stands still
// (db/generation-cache.ts; triggers raise it on every agreement change), so an agreement added on
// one process is in force at the desk of every other at its next scan (docs/operations.md "Several
// processes"). The usual event without agreements costs one primary-key read, not the query.
async function hasRequiredAgreements(db: Db, event: { id: number; agency_id: number }): Promise<boolean> {
  return (await effectiveAgreements(db, event)).some((a) => a.appearance === 'REQUIRED')
}
export async function hasAgreements(db: Db, event: { id: number; agency_id: number }): Promise<boolean> {
  return (await effectiveAgreements(db, event)).length > 0
}
const canCheckIn = (status: string) => (CHECKIN_STATUSES as readonly string[]).includes(status)

// The check-in hot path's statements, compiled once (db/prepared.ts): building a Kysely query costs
// more than the statement itself.
// Each read of the registration brings its latest ticket order along (ticket-validity.ts): whether the
// ticket is valid is decided without another query.
/** a registration as the desk reads it: the row and its latest order's columns */
export type DeskVisitor = EventVisitorRow & Partial<OrderColumns>
const visitorByCode = prepared((db, p: { code: string }) => withLatestOrder(db.selectFrom('event_visitor as v').selectAll('v').where('v.ticket_code', '=', p.code)))
const visitorById = prepared((db, p: { id: number }) => withLatestOrder(db.selectFrom('event_visitor as v').selectAll('v').where('v.id', '=', p.id)))
const visitorInEvent = prepared((db, p: { id: number; eventId: number }) => withLatestOrder(db.selectFrom('event_visitor as v').selectAll('v').where('v.id', '=', p.id).where('v.event_id', '=', p.eventId)))
const checkInMain = prepared((db, p: { id: number; now: string }) =>
  db
    .updateTable('event_visitor')
    .set({ status: 'APPEARED', main_guest_checked_in: true, main_guest_checked_out: false, main_guest_checkin_date: p.now, updated_at: p.now })
    .where('id', '=', p.id)
    .where('status', 'in', [...CHECKIN_STATUSES])
    .where((eb) => eb.or([eb('main_guest_checked_in', '=', false as never), eb('main_guest_checked_out', '=', true as never)])),
)
const checkInEscort = prepared((db, p: { visitorId: number; number: number; now: string }) =>
  db
    .updateTable('escort_person')
    .set({ checked_in: true, checked_out: false, checkin_date: p.now })
    .where('visitor_id', '=', p.visitorId)
    .where('number', '=', p.number)
    .where((eb) => eb.or([eb('checked_in', '=', false as never), eb('checked_out', '=', true as never)])),
)
const markAppeared = prepared((db, p: { id: number; now: string }) => db.updateTable('event_visitor').set({ status: 'APPEARED', updated_at: p.now }).where('id', '=', p.id).where('status', '=', 'CONFIRMED'))
const addPresence = prepared((db, p: { visitorId: number; eventId: number; person: number; now: string; accountId: number | null; note: string | null; origin: string }) =>
  db.insertInto('presence').values({ visitor_id: p.visitorId, event_id: p.eventId, person: p.person, checkin_at: p.now, checkin_account_id: p.accountId, note: p.note, origin: p.origin }),
)
const checkOutMain = prepared((db, p: { id: number; now: string }) =>
  db
    .updateTable('event_visitor')
    .set({ main_guest_checked_out: true, main_guest_checkout_date: p.now, updated_at: p.now })
    .where('id', '=', p.id)
    .where('main_guest_checked_in', '=', true as never)
    .where('main_guest_checked_out', '=', false as never),
)
const checkOutEscort = prepared((db, p: { visitorId: number; number: number; now: string }) =>
  db
    .updateTable('escort_person')
    .set({ checked_out: true, checkout_date: p.now })
    .where('visitor_id', '=', p.visitorId)
    .where('number', '=', p.number)
    .where('checked_in', '=', true as never)
    .where('checked_out', '=', false as never),
)
const closePresence = prepared((db, p: { visitorId: number; person: number; now: string; accountId: number | null }) =>
  db.updateTable('presence').set({ checkout_at: p.now, checkout_account_id: p.accountId }).where('visitor_id', '=', p.visitorId).where('person', '=', p.person).where('checkout_at', 'is', null),
)
const storeNonce = prepared((db, p: { nonce: string; eventId: number; response: string; now: string }) =>
  db.insertInto('checkin_request').values({ nonce: p.nonce, event_id: p.eventId, status: 200, response: p.response, created_at: p.now }).onConflict((oc) => oc.column('nonce').doNothing()),
)
const escortsByVisitor = prepared((db, p: { visitorId: number }) => db.selectFrom('escort_person').selectAll().where('visitor_id', '=', p.visitorId).orderBy('number'))
const canceledPerson = prepared((db, p: { visitorId: number; person: number }) => db.selectFrom('canceled_ticket_person').select('id').where('visitor_id', '=', p.visitorId).where('person', '=', p.person))
const nonceAnswer = prepared((db, p: { nonce: string }) => db.selectFrom('checkin_request').select(['response', 'event_id']).where('nonce', '=', p.nonce))
const changed = (r: { numAffectedRows?: bigint; numUpdatedRows?: bigint }) => Number(r.numAffectedRows ?? r.numUpdatedRows ?? 0n)

function personsOf(v: EventVisitorRow, escorts: EscortPersonRow[]): Person[] {
  return [
    {
      person: 0,
      salutation: v.salutation,
      title: v.title,
      firstName: v.first_name,
      lastName: v.last_name,
      checkState: checkState(v.main_guest_checked_in, v.main_guest_checked_out),
      checkinDate: v.main_guest_checkin_date,
      checkoutDate: v.main_guest_checkout_date,
    },
    ...escorts.map((e) => ({
      person: e.number,
      salutation: e.salutation,
      title: e.title,
      firstName: e.first_name,
      lastName: e.last_name,
      checkState: checkState(e.checked_in, e.checked_out),
      checkinDate: e.checkin_date,
      checkoutDate: e.checkout_date,
    })),
  ]
}

/** A registration's escort persons by number (none to read for a registration of one person). */
export const escortsOf = async (db: Db, v: Pick<EventVisitorRow, 'id' | 'visitor_count'>): Promise<EscortPersonRow[]> =>
  v.visitor_count > 1 ? ((await escortsByVisitor(db, { visitorId: v.id })).rows as EscortPersonRow[]) : []

/** Who checked each person of a registration in, for those who are in now (open presence rows). */
async function checkedInBy(db: Db, visitorId: number): Promise<Map<number, { by: string | null; origin: string }>> {
  const rows = await db
    .selectFrom('presence as p')
    .leftJoin('account as a', 'a.id', 'p.checkin_account_id')
    .leftJoin('app_user as u', 'u.id', 'a.user_id')
    .select(['p.person', 'p.origin', 'p.checkin_at', 'a.first_name', 'a.last_name', 'u.email'])
    .where('p.visitor_id', '=', visitorId)
    .where('p.checkout_at', 'is', null)
    .orderBy('p.checkin_at')
    .execute()
  const out = new Map<number, { by: string | null; origin: string }>()
  for (const r of rows) out.set(r.person, { by: r.origin === 'SELF' ? null : [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email || null, origin: r.origin })
  return out
}

/** What the desk shows for one registration. */
export async function registrationView(ctx: AppContext, event: EventRow, v0: EventVisitorRow | DeskVisitor, escorts?: EscortPersonRow[]) {
  // a row read without its order (another module's call): read the order now
  const v: DeskVisitor = 'tko_id' in v0 ? v0 : (((await visitorById.first(ctx.db, { id: v0.id })) as DeskVisitor | undefined) ?? v0)
  const payment = paymentView(v, event.invoice_tickets)
  const admissible = canCheckIn(v.status) && !payment?.ticketBlocked
  const [es, agreements, decisions, by, chairs] = await Promise.all([
    escorts ? Promise.resolve(escorts) : escortsOf(ctx.db, v),
    effectiveAgreements(ctx.db, event),
    decisionsOf(ctx.db, v.id),
    checkedInBy(ctx.db, v.id),
    chairsOfVisitors(ctx.db, [v.id]),
  ])
  const byAgreement = new Map(decisions.map((d) => [d.agreement_id, d]))
  const list = agreements.map((a) => {
    const d = byAgreement.get(a.id)
    return { id: a.id, displayName: a.display_name, appearance: a.appearance, status: d?.status ?? 'OPEN', decidedAt: d?.decided_at ?? null }
  })
  return {
    id: v.id,
    eventId: v.event_id,
    status: v.status,
    vip: bool(v.vip),
    email: v.email,
    company: v.company,
    // codes are made on first use: a guest who never opened the QR code has one at the desk too
    ticketCode: v.ticket_code ? formatTicketCode(v.ticket_code) : canCheckIn(v.status) ? formatTicketCode(await ensureTicketCode(ctx.db, v.id)) : null,
    canCheckin: admissible,
    /** the ticket order: what is due and whether the ticket is valid (null without an order) */
    payment,
    persons: personsOf(v, es).map((p) => (p.checkState === 'CHECKED_IN' ? { ...p, checkinBy: by.get(p.person)?.by ?? null, checkinOrigin: by.get(p.person)?.origin ?? null } : p)),
    /** the seats on the event's seating plan (label per chair) */
    chairs: chairs.get(v.id) ?? [],
    agreements: list,
    missingAgreements: list.filter((a) => a.appearance === 'REQUIRED' && a.status !== 'CONFIRMED').map((a) => ({ id: a.id, displayName: a.displayName })),
  }
}

/**
 * A scanned or typed code: a signed QR payload (signed-code.ts) or a plain ticket code. A signed code
 * whose signature does not match is refused before any database read; a genuine one whose ticket code
 * has changed since (the place was passed on) is refused like an unknown one.
 */
export async function findByScan(ctx: AppContext, event: EventRow, raw: string): Promise<{ v: DeskVisitor; person: number | null }> {
  let v: DeskVisitor | undefined
  let person: number | null = null
  const spellings = scanSpellings(raw)
  if (looksSigned(spellings[0])) {
    let signed: SignedCode | null = null
    for (const s of spellings) if (!signed) signed = verifyTicketCode(ctx.secrets.signingKey, s)
    if (!signed) throw new AppError(404, 'TICKET_NOT_FOUND')
    v = (await visitorById.first(ctx.db, { id: signed.visitorId })) as DeskVisitor | undefined
    if (!v || v.event_id !== signed.eventId || !v.ticket_code || generationOf(v.ticket_code) !== signed.generation) throw new AppError(404, 'TICKET_NOT_FOUND')
    person = signed.person
    // a person whose ticket was refunded on its own (ticketing/orders/line-refund.ts): their code admits no one
    if (person > 0 && (await canceledPerson.first(ctx.db, { visitorId: v.id, person }))) throw new AppError(409, 'TICKET_PERSON_CANCELED')
  } else {
    for (const s of spellings) {
      const code = normaliseCode(s)
      if (!v && code.length === 10) v = (await visitorByCode.first(ctx.db, { code })) as DeskVisitor | undefined
    }
  }
  if (!v) throw new AppError(404, 'TICKET_NOT_FOUND')
  if (v.event_id !== event.id) {
    const other = await ctx.db.selectFrom('event').select(['display_name', 'agency_id']).where('id', '=', v.event_id).executeTakeFirst()
    if (other?.agency_id === event.agency_id) throw new AppError(409, 'TICKET_OTHER_EVENT', { params: { event: other.display_name } })
    throw new AppError(404, 'TICKET_NOT_FOUND')
  }
  return { v, person }
}

/** Whether a search text is a code (signed, or the short one as typed) rather than a name. */
const looksLikeCode = (q: string) => looksSigned(scanSpellings(q)[0]) || /^[0-9A-Z]{5}-?[0-9A-Z]{5}$/i.test(q.trim())

export async function lookup(ctx: AppContext, event: EventRow, q: { code?: string; search?: string; listId?: number }) {
  // on a check-in list: each person's state is the list's (docs/ticketing.md "Check-in lists")
  if (q.listId) {
    const list = await listOfEvent(ctx.db, event.id, q.listId)
    const found = await lookupAll(ctx, event, { code: q.code, search: q.search })
    return { items: await Promise.all(found.items.map(async (r) => ({ ...r, listId: list.id, persons: await onListView(ctx.db, list, r) }))) }
  }
  return lookupAll(ctx, event, q)
}

/**
 * The persons as the desk on a list sees them: their state on the list and, for one the list does
 * not admit, why (`listRefusal`: the error the check-in would answer, for the desk to say before).
 */
async function onListView(db: Db, list: CheckinListRow, r: { id: number; persons: Person[] }) {
  const order = await db.selectFrom('ticket_order').select((eb) => eb.fn.max('id').as('id')).where('visitor_id', '=', r.id).executeTakeFirst()
  const refusals = await personRefusals(db, list, { tko_id: order?.id == null ? null : Number(order.id) } as never, r.persons)
  return (await personsOnList(db, list.id, r.id, r.persons)).map((p) => {
    const e = refusals.get(p.person)
    return { ...p, listRefusal: e ? { errorType: e.errorType, params: e.options.params ?? {} } : null }
  })
}

async function lookupAll(ctx: AppContext, event: EventRow, q: { code?: string; search?: string }) {
  if (q.code) return { items: [await scanned(ctx, event, q.code)] }
  if (!q.search) return { items: [] }
  // a scan sent as a name search (a desk or client that could not tell) is still a code
  if (looksLikeCode(q.search)) {
    try {
      return { items: [await scanned(ctx, event, q.search)] }
    } catch (e) {
      if (!(e instanceof AppError && e.status === 404)) throw e
      // a signed code that is not (any more) valid finds nobody; a name that looks like a short code searches on
      if (looksSigned(scanSpellings(q.search)[0])) return { items: [] }
    }
  }
  const rows = (await withLatestOrder(visitorQuery(ctx.db, event.id, GuestFilter.parse({}), q.search).selectAll('v')).orderBy('v.last_name').orderBy('v.first_name').limit(20).execute()) as DeskVisitor[]
  return { items: await Promise.all(rows.map((v) => registrationView(ctx, event, v))) }
}

async function scanned(ctx: AppContext, event: EventRow, code: string) {
  const scan = await findByScan(ctx, event, code)
  return { ...(await registrationView(ctx, event, scan.v)), scannedPerson: scan.person }
}

function select(p: 'ALL' | number[], persons: Person[], eligible: (x: Person) => boolean): Person[] {
  if (p === 'ALL') return persons.filter(eligible)
  const out: Person[] = []
  for (const n of new Set(p)) {
    const x = persons.find((y) => y.person === n)
    if (!x) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'checkinGuests', errorType: 'INVALID' }] })
    out.push(x)
  }
  return out
}

const nameOf = (p: Person) => [p.firstName, p.lastName].filter(Boolean).join(' ')

/** `known`: the registration row the caller just read (self check-in found it by its token). */
export async function performCheckin(ctx: AppContext, event: EventRow, accountId: number | null, input: CheckinInput, origin: 'DESK' | 'SELF' = 'DESK', known?: DeskVisitor) {
  try {
    return await checkinOnce(ctx, event, accountId, input, origin, known)
  } catch (e) {
    // A retried request whose first attempt went through: answer what the first one answered.
    if (input.nonce && e instanceof AppError && e.status === 409) {
      const done = (await nonceAnswer.first(ctx.db, { nonce: input.nonce })) as { response: string; event_id: number } | undefined
      if (done && done.event_id === event.id) return { replayed: true, ...fromJson<Record<string, unknown>>(done.response, {}) }
    }
    throw e
  }
}

async function checkinOnce(ctx: AppContext, event: EventRow, accountId: number | null, input: CheckinInput, origin: 'DESK' | 'SELF', known?: DeskVisitor) {
  const scan = !(known && known.event_id === event.id && 'tko_id' in known) && input.code ? await findByScan(ctx, event, input.code) : null
  const v = known && known.event_id === event.id && 'tko_id' in known ? known : scan ? scan.v : ((await visitorInEvent.first(ctx.db, { id: input.visitorId ?? known!.id, eventId: event.id })) as DeskVisitor | undefined)
  if (!v) throw notFound()
  const escorts = await escortsOf(ctx.db, v)
  // on a check-in list (docs/ticketing.md "Check-in lists") the persons' states are the list's
  const list = input.listId ? await listOfEvent(ctx.db, event.id, input.listId) : null
  const persons = list ? await personsOnList(ctx.db, list.id, v.id, personsOf(v, escorts)) : personsOf(v, escorts)
  // A personal QR code (signed, naming one person) admits that person only: "ALL" means them, and
  // another person of the booking is refused (they have a code of their own; the desk admits them by
  // tapping them, a request by registration id).
  let checkinGuests = input.checkinGuests
  const own = scan?.person
  if (own != null && persons.some((p) => p.person === own)) {
    if (checkinGuests === 'ALL') checkinGuests = [own]
    else if (checkinGuests.some((n) => n !== own)) throw new AppError(409, 'CODE_OTHER_PERSON', { params: { name: nameOf(persons.find((p) => p.person === own)!) } })
  }
  let toIn = select(checkinGuests, persons, (x) => x.checkState !== 'CHECKED_IN')
  const toOut = select(input.checkoutGuests, persons, (x) => x.checkState === 'CHECKED_IN')
  if (toIn.length && !canCheckIn(v.status)) throw new AppError(409, 'CHECKIN_STATUS', { params: { status: v.status } })
  // only a valid ticket admits (ticket-validity.ts): the desk records the payment first
  const block = toIn.length ? ticketBlock(orderStateOf(v), event.invoice_tickets) : null
  if (block) throw new AppError(409, BLOCK_ERROR[block], { params: { number: v.tko_number ?? '' }, extra: { payment: paymentView(v, event.invoice_tickets) } })
  // a person whose own ticket's category the list does not admit is refused, with the reason, never
  // checked in; "ALL" means the persons the list admits (the others of the booking hold other tickets)
  const refusals = list && toIn.length ? await personRefusals(ctx.db, list, v, persons) : null
  const notAdmitted = refusals ? toIn.filter((p) => refusals.has(p.person)) : []
  if (refusals && notAdmitted.length) {
    const admitted = toIn.filter((p) => !refusals.has(p.person))
    if (checkinGuests !== 'ALL' || !admitted.length) throw refusals.get(notAdmitted[0].person)!
    toIn = admitted
  }
  if (checkinGuests === 'ALL' && !toIn.length && input.checkoutGuests !== 'ALL' && !toOut.length) throw new AppError(409, 'ALL_CHECKED_IN')
  if (input.checkoutGuests === 'ALL' && !toOut.length && !toIn.length) throw new AppError(409, 'NONE_CHECKED_IN')
  if (toIn.length && !input.ignoreMissingAgreements && (await hasRequiredAgreements(ctx.db, event))) {
    const missing = await missingRequiredAgreements(ctx.db, event, v.id)
    if (missing.length) throw new AppError(409, 'AGREEMENTS_MISSING', { extra: { missingAgreements: missing.map((m) => ({ id: m.id, displayName: m.display_name })) } })
  }
  const now = isoNow(ctx.clock.now())
  const result = await ctx.db.transaction().execute(async (trx) => {
    if (list) await onList(trx, list.id, v, toIn, toOut, { now, accountId, note: input.note, origin, eventId: event.id })
    for (const p of list ? [] : toIn) {
      const r = p.person === 0 ? await checkInMain(trx, { id: v.id, now }) : await checkInEscort(trx, { visitorId: v.id, number: p.person, now })
      if (changed(r) !== 1) throw new AppError(409, 'ALREADY_CHECKED_IN', { params: { name: nameOf(p) } })
    }
    if (toIn.length && !list) {
      if (!toIn.some((p) => p.person === 0) && v.status === 'CONFIRMED') await markAppeared(trx, { id: v.id, now })
      for (const p of toIn) await addPresence(trx, { visitorId: v.id, eventId: event.id, person: p.person, now, accountId, note: input.note, origin })
    }
    for (const p of list ? [] : toOut) {
      const r = p.person === 0 ? await checkOutMain(trx, { id: v.id, now }) : await checkOutEscort(trx, { visitorId: v.id, number: p.person, now })
      if (changed(r) !== 1) throw new AppError(409, 'NOT_CHECKED_IN', { params: { name: nameOf(p) } })
      await closePresence(trx, { visitorId: v.id, person: p.person, now, accountId })
    }
    const inSet = new Set(toIn.map((p) => p.person))
    const outSet = new Set(toOut.map((p) => p.person))
    const after = persons.map((p) =>
      inSet.has(p.person) ? { ...p, checkState: 'CHECKED_IN' as const, checkinDate: now, checkoutDate: null } : outSet.has(p.person) ? { ...p, checkState: 'CHECKED_OUT' as const, checkoutDate: now } : p,
    )
    const response = {
      ...(list ? { listId: list.id } : {}),
      visitorId: v.id,
      status: toIn.length && v.status === 'CONFIRMED' ? 'APPEARED' : v.status,
      checkedIn: [...inSet],
      checkedOut: [...outSet],
      persons: after,
    }
    if (input.nonce) {
      // The nonce is stored with the answer in the same transaction. A request with the same nonce that
      // committed first makes this insert a no-op: we roll back and answer like it (409 → replay above).
      const stored = await storeNonce(trx, { nonce: input.nonce, eventId: event.id, response: toJson(response), now })
      if (changed(stored) === 0) throw new AppError(409, 'NONCE_REUSED')
    }
    return response
  })
  return { replayed: false, ...result }
}

/**
 * The writes of a check-in on a list: "already checked in" is the list's (a guest may enter the main
 * entrance and the workshop). Entering any list also marks the person present at the event when they
 * are not (the event's own counts and presence); leaving a list leaves the event state alone.
 */
async function onList(trx: Db, listId: number, v: DeskVisitor, toIn: Person[], toOut: Person[], o: { now: string; accountId: number | null; note: string | null; origin: string; eventId: number }) {
  for (const p of toIn) {
    // the list deleted since the desk read it (the entry's foreign key): gone, like an unknown list
    const entered = await listCheckIn(trx, { listId, visitorId: v.id, person: p.person, now: o.now, accountId: o.accountId }).catch((e) => {
      if (isForeignKeyViolation(e)) throw notFound()
      throw e
    })
    if (!entered) throw new AppError(409, 'ALREADY_CHECKED_IN', { params: { name: nameOf(p) } })
    const r = p.person === 0 ? await checkInMain(trx, { id: v.id, now: o.now }) : await checkInEscort(trx, { visitorId: v.id, number: p.person, now: o.now })
    if (changed(r) === 1) await addPresence(trx, { visitorId: v.id, eventId: o.eventId, person: p.person, now: o.now, accountId: o.accountId, note: o.note, origin: o.origin })
  }
  if (toIn.length && !toIn.some((p) => p.person === 0) && v.status === 'CONFIRMED') await markAppeared(trx, { id: v.id, now: o.now })
  for (const p of toOut) {
    if (!(await listCheckOut(trx, { listId, visitorId: v.id, person: p.person, now: o.now }))) throw new AppError(409, 'NOT_CHECKED_IN', { params: { name: nameOf(p) } })
  }
}

// at most 16 rows by primary key per poll (every 5 s per desk), whatever the size of the event
const countsQuery = prepared((db, p: { eventId: number }) =>
  db
    .selectFrom('event_checkin_count')
    .select((eb) => [eb.fn.sum<number>('registered').as('registered'), eb.fn.sum<number>('checked_in').as('checked_in'), eb.fn.sum<number>('checked_out').as('checked_out')])
    .where('event_id', '=', p.eventId),
)

/**
 * The desk's live counts: persons of CONFIRMED/APPEARED registrations, persons in now, persons
 * checked out. Counters kept by database triggers in every write's transaction (migration 601).
 */
export async function checkinCounts(db: Db, eventId: number) {
  const c = await countsQuery.first(db, { eventId })
  return { registered: Number(c?.registered ?? 0), checkedIn: Number(c?.checked_in ?? 0), checkedOut: Number(c?.checked_out ?? 0) }
}

export async function presenceOf(db: Db, visitorId: number) {
  const rows = await db.selectFrom('presence').selectAll().where('visitor_id', '=', visitorId).orderBy('checkin_at').execute()
  return rows.map((r) => ({ person: r.person, checkin: r.checkin_at, checkout: r.checkout_at, user: r.checkin_account_id, note: r.note, origin: r.origin }))
}
