// Guest list use cases. Every change of places goes through takeSeats/releaseSeats and seats_held in
// the transaction that changes the status, so event.seats_taken always equals the sum of seats_held.
import type { AppContext } from '../../context'
import { audit } from '../audit/service'
import type { Db } from '../../db/database'
import { bool, isoNow } from '../../db/types'
import { AppError, notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import { eventOfAgency } from '../events/service'
import type { AccountActor, GuestActor } from '../identity/auth'
import { newTicketCode } from '../checkin/ticket'
import { randomString } from '../identity/tokens'
import { assertLabelsOfAgency, setVisitorLabels } from '../tags/service'
import { releaseFieldPlaces, takeFieldPlaces } from '../reservations/service'
import { releaseVisitorChairs } from '../seating/holds'
import { activeOrderOfVisitor, cancelOrderWithRegistration, startWaitingOrder, waitingOrderOf, withdrawOrderWithRegistration } from '../ticketing/orders/guest-list'
import { holdsSeats, releaseSeats, takeSeats } from './capacity'
import { escortRace, personsAfterEdit, settlePersons, writeEscorts } from './escort-write'
import { isPaidEvent } from '../forms/service'
import { queueGuestMail } from './mails'
import type { ActionInput, VisitorAction, VisitorInput } from './model'
import { findVisitor } from './repository'
import { ACTION_FROM, GUEST_ACTIVATABLE, GUEST_REJECTABLE } from './transitions'
import type { EventVisitorRow, VisitorStatus } from './visitors.table'

/** The registration, if it belongs to the event (which the actor's agency owns). */
export async function visitorOfEvent(db: Db, event: EventRow, visitorId: number): Promise<EventVisitorRow> {
  const v = await findVisitor(db, visitorId)
  if (!v || v.event_id !== event.id) throw notFound()
  return v
}

function emailTaken(): AppError {
  return new AppError(409, 'ALREADY_REGISTERED', { fields: [{ field: 'email', errorType: 'ALREADY_REGISTERED' }] })
}

async function assertEmailFree(trx: Db, eventId: number, email: string | null, exceptId?: number) {
  if (!email) return
  let q = trx.selectFrom('event_visitor').select('id').where('event_id', '=', eventId).where('email', '=', email)
  if (exceptId) q = q.where('id', '!=', exceptId)
  if (await q.executeTakeFirst()) throw emailTaken()
}

function basicColumns(input: VisitorInput) {
  return {
    salutation: input.salutation,
    title: input.title,
    first_name: input.firstName,
    last_name: input.lastName,
    email: input.email,
    company: input.company,
    position: input.position,
    phone_number: input.phoneNumber,
    vip: input.vip,
    note: input.note,
  }
}

function escortColumns(e: VisitorInput['escortPersons'][number]) {
  return { salutation: e.salutation, title: e.title, first_name: e.firstName, last_name: e.lastName, email: e.email, company: e.company, position: e.position, phone_number: e.phoneNumber }
}

/**
 * Moves the places a registration holds to what its status and person count need. The form's choices
 * (defined values, timeslots) hold their places exactly while the registration holds event places
 * (docs/forms.md): they are given back or taken again here, in the same transaction.
 */
async function settleSeats(trx: Db, v: { id: number; event_id: number; seats_held: number }, status: VisitorStatus, persons: number, now = new Date()) {
  const need = holdsSeats(status) ? persons : 0
  const diff = need - v.seats_held
  if (diff > 0 && !(await takeSeats(trx, v.event_id, diff))) throw new AppError(409, 'EVENT_FULL')
  if (diff < 0) await releaseSeats(trx, v.event_id, -diff)
  if (v.seats_held > 0 && need === 0) {
    await releaseFieldPlaces(trx, v.id)
    // chairs are given back for good (someone else may take them meanwhile); the organiser assigns again
    await releaseVisitorChairs(trx, v.id)
  }
  if (v.seats_held === 0 && need > 0) await takeFieldPlaces(trx, v.id, v.event_id, now)
  return need
}

export async function addVisitor(ctx: AppContext, actor: AccountActor, eventId: number, input: VisitorInput): Promise<EventVisitorRow> {
  const agencyId = actor.account.agency_id
  return ctx.db.transaction().execute(async (trx) => {
    const event = await eventOfAgency(ctx, actor, eventId, trx)
    if (event.status === 'DELETED') throw notFound()
    const tags = await assertLabelsOfAgency(trx, 'tag', agencyId, input.tags, 'tags')
    const campaigns = await assertLabelsOfAgency(trx, 'campaign', agencyId, input.campaigns, 'campaigns')
    await assertEmailFree(trx, eventId, input.email)
    const persons = 1 + input.escortPersons.length
    // a guest the organiser adds to a paid event has no ticket: escorts come only free of charge (recorded)
    const paid = isPaidEvent(event)
    if (paid && input.escortPersons.length && !input.escortsFreeOfCharge) {
      throw new AppError(409, 'ESCORTS_NOT_PAID', { params: { tickets: 0 }, extra: { tickets: 0 } })
    }
    if (holdsSeats(input.status) && !(await takeSeats(trx, eventId, persons))) throw new AppError(409, 'EVENT_FULL')
    const now = isoNow(ctx.clock.now())
    const v = await trx
      .insertInto('event_visitor')
      .values({
        ...basicColumns(input),
        event_id: eventId,
        status: input.status,
        visitor_count: persons,
        seats_held: holdsSeats(input.status) ? persons : 0,
        free_persons: paid ? input.escortPersons.length : 0,
        event_token: randomString(20),
        download_token: randomString(20),
        source: 'ADMIN',
        registered_at: input.status === 'CONFIRMED' ? now : null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    if (input.escortPersons.length) {
      await trx
        .insertInto('escort_person')
        .values(input.escortPersons.map((e, i) => ({ ...escortColumns(e), visitor_id: v.id, number: i + 1 })))
        .execute()
    }
    await setVisitorLabels(trx, v.id, tags, campaigns)
    return v
  })
}

export async function updateVisitor(ctx: AppContext, actor: AccountActor, eventId: number, visitorId: number, input: VisitorInput): Promise<EventVisitorRow> {
  return updateVisitorOnce(ctx, actor, eventId, visitorId, input).catch((e) => {
    throw escortRace(e)
  })
}

async function updateVisitorOnce(ctx: AppContext, actor: AccountActor, eventId: number, visitorId: number, input: VisitorInput): Promise<EventVisitorRow> {
  const agencyId = actor.account.agency_id
  return ctx.db.transaction().execute(async (trx) => {
    const event = await eventOfAgency(ctx, actor, eventId, trx)
    const v = await visitorOfEvent(trx, event, visitorId)
    const tags = await assertLabelsOfAgency(trx, 'tag', agencyId, input.tags, 'tags')
    const campaigns = await assertLabelsOfAgency(trx, 'campaign', agencyId, input.campaigns, 'campaigns')
    await assertEmailFree(trx, eventId, input.email, v.id)
    // Escorts: listed ids are kept (with their check-in state), others removed, new ones numbered on
    // (escort-write.ts: in place, one edit at a time, one ticket one person, places follow)
    const at = isoNow(ctx.clock.now())
    const escorts = await writeEscorts(
      trx,
      v,
      input.escortPersons.map((e) => ({ id: e.id, columns: escortColumns(e) })),
      { keepCheckedIn: false },
    )
    const { persons, freePersons } = await personsAfterEdit(trx, event, v, escorts, { by: 'ORGANISER', freeOfCharge: input.escortsFreeOfCharge, accountId: actor.account.id, at })
    const held = await settlePersons(trx, v, persons)
    const row = await trx
      .updateTable('event_visitor')
      .set({ ...basicColumns(input), visitor_count: persons, seats_held: held, free_persons: freePersons, updated_at: at })
      .where('id', '=', v.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await setVisitorLabels(trx, v.id, tags, campaigns)
    return row
  })
}

export async function patchVisitor(ctx: AppContext, actor: AccountActor, eventId: number, visitorId: number, patch: { vip?: boolean; note?: string | null }) {
  const event = await eventOfAgency(ctx, actor, eventId)
  await visitorOfEvent(ctx.db, event, visitorId)
  const set: Record<string, unknown> = { updated_at: isoNow(ctx.clock.now()) }
  if (patch.vip !== undefined) set.vip = patch.vip
  if (patch.note !== undefined) set.note = patch.note
  return ctx.db.updateTable('event_visitor').set(set).where('id', '=', visitorId).returningAll().executeTakeFirstOrThrow()
}

const TARGET: Record<Exclude<VisitorAction, 'invite'>, VisitorStatus> = { approve: 'CONFIRMED', decline: 'DECLINED', delete: 'DELETED', restore: 'ADDED' }

/**
 * One status action on one registration, inside a transaction the caller may provide (the
 * invitation task runs many). The status only changes when it is still the one read (conditional
 * update), so two organisers acting at once cannot both take or release places.
 */
export async function applyAction(
  ctx: AppContext,
  trx: Db,
  event: EventRow,
  v: EventVisitorRow,
  action: VisitorAction,
  opts: { reservePlace?: boolean; notify?: boolean; reason?: string | null },
): Promise<EventVisitorRow> {
  if (!ACTION_FROM[action].includes(v.status)) throw new AppError(409, 'STATUS_TRANSITION_NOT_ALLOWED', { params: { status: v.status } })
  if (action === 'invite' && !v.email) throw new AppError(409, 'NO_EMAIL')
  // a paid registration's waiting order moves on to payment: the guest is PENDING until it settles (docs/ticketing.md)
  const order = action === 'approve' && (v.status === 'WAITING_LIST' || v.status === 'REQUIRE_APPROVAL') ? await waitingOrderOf(trx, v.id) : undefined
  // a registration waiting for its order's payment is confirmed by the order (mark paid), never
  // around it: its expiry would otherwise delete the registration the organiser just confirmed
  if (action === 'approve' && v.status === 'PENDING' && (await activeOrderOfVisitor(trx, v.id))?.status === 'OPEN') throw new AppError(409, 'ORDER_AWAITS_PAYMENT')
  const to: VisitorStatus = action === 'invite' ? (opts.reservePlace || v.status === 'PENDING' ? 'PENDING' : 'INVITED') : order ? 'PENDING' : TARGET[action]
  const held = await settleSeats(trx, v, to, v.visitor_count, ctx.clock.now())
  const now = isoNow(ctx.clock.now())
  const set: Record<string, unknown> = { status: to, seats_held: held, updated_at: now }
  if (action === 'approve' || action === 'decline') set.decided_at = now
  if (action === 'approve' && !v.registered_at) set.registered_at = now
  if (action === 'invite') {
    set.invited_at = now
    set.invitation_count = v.invitation_count + 1
  }
  if (action === 'decline') set.decline_reason = opts.reason ?? null
  const row = await trx.updateTable('event_visitor').set(set).where('id', '=', v.id).where('status', '=', v.status).returningAll().executeTakeFirst()
  if (!row) throw new AppError(409, 'STATUS_CHANGED_MEANWHILE')
  const notify = opts.notify !== false
  if (action === 'invite') await queueGuestMail(ctx, trx, 'INVITATION', event, row)
  // the order's mail (with the /pay link) tells the guest instead
  if (order) await startWaitingOrder(ctx, trx, order, notify)
  // moving up from the waiting list tells the guest they got a place, not that a review passed
  else if (action === 'approve' && notify) await queueGuestMail(ctx, trx, v.status === 'WAITING_LIST' ? 'PROMOTED' : 'APPROVED', event, row)
  if (action === 'decline' && notify) await queueGuestMail(ctx, trx, 'DECLINED', event, row, { reason: opts.reason })
  return row
}

export async function changeStatus(ctx: AppContext, actor: AccountActor, eventId: number, visitorId: number, action: VisitorAction, opts: ActionInputT) {
  if (action === 'delete' || action === 'decline') {
    // a registration with a ticket order: the order is cancelled in the same transaction (docs/ticketing.md)
    const event = await eventOfAgency(ctx, actor, eventId)
    if (event.status === 'DELETED') throw notFound()
    const v = await visitorOfEvent(ctx.db, event, visitorId)
    if (!ACTION_FROM[action].includes(v.status)) throw new AppError(409, 'STATUS_TRANSITION_NOT_ALLOWED', { params: { status: v.status } })
    const row = await cancelOrderWithRegistration(ctx, actor, event, visitorId, action, async (trx) => {
      const changed = await applyAction(ctx, trx, event, await visitorOfEvent(trx, event, visitorId), action, opts)
      await auditStatus(ctx, trx, actor, event, v, changed, action, opts.reason)
      return changed
    })
    if (row) {
      ctx.notifyMail()
      return row
    }
  }
  const row = await ctx.db.transaction().execute(async (trx) => {
    const event = await eventOfAgency(ctx, actor, eventId, trx)
    if (event.status === 'DELETED') throw notFound()
    const v = await visitorOfEvent(trx, event, visitorId)
    const changed = await applyAction(ctx, trx, event, v, action, opts)
    await auditStatus(ctx, trx, actor, event, v, changed, action, opts.reason)
    return changed
  })
  ctx.notifyMail()
  return row
}

/** a guest's status changed by the organiser, for the audit log (who, which guest, from → to) */
function auditStatus(ctx: AppContext, trx: Db, actor: AccountActor, event: EventRow, before: EventVisitorRow, after: EventVisitorRow, action: VisitorAction, reason?: string | null) {
  return audit(ctx, trx, {
    agencyId: event.agency_id,
    actor,
    action: 'guest.status',
    entityType: 'registration',
    entityId: before.id,
    eventId: event.id,
    changes: before.status === after.status ? null : { status: [before.status, after.status] },
    detail: { action, guest: [before.first_name, before.last_name].filter(Boolean).join(' ') || null, ...(reason ? { reason } : {}) },
  })
}
type ActionInputT = { reservePlace?: boolean; notify?: boolean; reason?: string | null }
export type { ActionInput }

/** The guest's own registration (by their access token or session). */
async function ownRegistration(trx: Db, guest: GuestActor, eventId: number, visitorId: number) {
  const v = await findVisitor(trx, visitorId)
  if (!v || v.event_id !== eventId || v.user_id !== guest.user.id) throw notFound()
  const event = await trx.selectFrom('event').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow()
  if (event.status === 'DELETED') throw notFound()
  return { v, event }
}

/** The guest confirms an invitation (INVITED takes places; PENDING already holds them). */
export async function activateByGuest(ctx: AppContext, guest: GuestActor, eventId: number, visitorId: number) {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const { v, event } = await ownRegistration(trx, guest, eventId, visitorId)
    if (!GUEST_ACTIVATABLE.includes(v.status)) throw new AppError(409, 'STATUS_TRANSITION_NOT_ALLOWED', { params: { status: v.status } })
    // a paid registration is confirmed by its order (payment or the organiser), never by the guest's click
    if (v.status === 'PENDING' && (await activeOrderOfVisitor(trx, v.id))) throw new AppError(409, 'ORDER_PAYMENT_REQUIRED')
    const to: VisitorStatus = bool(event.require_approval) && v.status === 'INVITED' ? 'REQUIRE_APPROVAL' : 'CONFIRMED'
    const held = await settleSeats(trx, v, to, v.visitor_count, ctx.clock.now())
    const now = isoNow(ctx.clock.now())
    const r = await trx
      .updateTable('event_visitor')
      // the confirmed guest's ticket code is made with the confirmation (export and desk show it at once)
      .set({ status: to, seats_held: held, registered_at: v.registered_at ?? now, updated_at: now, ticket_code: v.ticket_code ?? (to === 'CONFIRMED' ? newTicketCode() : null) })
      .where('id', '=', v.id)
      .where('status', '=', v.status)
      .returningAll()
      .executeTakeFirst()
    if (!r) throw new AppError(409, 'STATUS_CHANGED_MEANWHILE')
    if (to === 'CONFIRMED') await queueGuestMail(ctx, trx, 'ACTIVATED', event, r)
    return r
  })
  ctx.notifyMail()
  return row
}

/** The guest declines (with an optional reason), unless the event hides the decline button. */
export async function rejectByGuest(ctx: AppContext, guest: GuestActor, eventId: number, visitorId: number, reason: string | null) {
  // a registration with a ticket order: the order is cancelled with it, if nothing is paid or owed (docs/ticketing.md)
  const { event } = await ownRegistration(ctx.db, guest, eventId, visitorId)
  const withOrder = await withdrawOrderWithRegistration(ctx, event, visitorId, (trx) => rejectOwn(ctx, trx, guest, eventId, visitorId, reason))
  if (withOrder) {
    ctx.notifyMail()
    return withOrder
  }
  return ctx.db.transaction().execute((trx) => rejectOwn(ctx, trx, guest, eventId, visitorId, reason))
}

async function rejectOwn(ctx: AppContext, trx: Db, guest: GuestActor, eventId: number, visitorId: number, reason: string | null) {
  const { v, event } = await ownRegistration(trx, guest, eventId, visitorId)
  if (bool(event.hide_decline_button)) throw new AppError(409, 'DECLINE_NOT_ALLOWED')
  if (!GUEST_REJECTABLE.includes(v.status)) throw new AppError(409, 'STATUS_TRANSITION_NOT_ALLOWED', { params: { status: v.status } })
  await settleSeats(trx, v, 'VISITOR_DECLINED', v.visitor_count, ctx.clock.now())
  const r = await trx
    .updateTable('event_visitor')
    .set({ status: 'VISITOR_DECLINED', seats_held: 0, decline_reason: reason, updated_at: isoNow(ctx.clock.now()) })
    .where('id', '=', v.id)
    .where('status', '=', v.status)
    .returningAll()
    .executeTakeFirst()
  if (!r) throw new AppError(409, 'STATUS_CHANGED_MEANWHILE')
  return r
}
