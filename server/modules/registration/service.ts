// Registration through the event's form, public or by an organiser (admin mode). One transaction
// validates with the form engine, takes the places (event, defined values, timeslots), stores the
// guest with escorts and field values, claims uploads and queues the confirmation mail, or nothing
// happens at all.
import { timingSafeEqual } from 'node:crypto'
import type { Insertable } from 'kysely'
import type { AppContext } from '../../context'
import { type Db, isUniqueViolation } from '../../db/database'
import { prepared, preparedRows } from '../../db/prepared'
import { bool, fromJson, isoNow, toJson } from '../../db/types'
import { resolveLanguage } from '../../i18n/languages'
import { AppError, notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import { registrationState } from '../events/rules'
import { type FormContext, type Selection, type SlotSelection, kindOf } from '../forms/definitions'
import { type Evaluation, type Problem, evaluate } from '../forms/engine'
import { valueText } from '../forms/value-text'
import { groupCommit } from '../forms/group-commit'
import { formDefinitions } from '../forms/service'
import type { AccountActor } from '../identity/auth'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'
import { guestAccountForRegistration } from '../identity/guest-accounts'
import { randomString } from '../identity/tokens'
import { enqueueTemplateMail } from '../mail/outbox'
import { notifyNewRegistration } from '../notification-settings/service'
import { notExpired } from '../assets/expiry'
import { checkRegistrationAgreements, recordDecisions } from '../agreements/consent'
import { effectiveAgreements } from '../agreements/repository'
import { localisedAgreements } from '../agreements/translations'
import { NO, fixSlotSelections, releaseFieldPlaces, releaseVisitorSlots } from '../reservations/service'
import { fixChairHolds, releaseVisitorChairs } from '../seating/holds'
import { fixOrderChairs, seatTickets, withSeatTickets } from '../seating/orders'
import { attributeShortLink } from '../shortlinks/service'
import { holdOrder, planOrder } from '../ticketing/orders/create'
import { escortColumns } from '../visitors/escort-columns'
import { eventPaymentMethods } from '../ticketing/payment-methods'
import { releaseSeats, takeSeats } from '../visitors/capacity'
import type { Contact } from '../visitors/model'
import type { EscortPersonTable, EventVisitorRow, VisitorStatus } from '../visitors/visitors.table'
import type { AdminRegistrationInput, RegistrationInput } from './model'
import { CONFIRMATION_TEMPLATE, type ConfirmationParams } from './confirmation-mail'
import { lockedBasicData } from './prefill'

export interface RegistrationResult {
  visitor: EventVisitorRow
  status: VisitorStatus
  /** admin mode: required fields left empty, saved anyway (FIELD_ERROR_WARN_BUT_SAVED) */
  warnings: Problem[]
  /** paid events: the order's public id, the guest continues at /pay/{id} */
  ticketOrderId?: string
}

export interface RegisterOptions {
  requestLanguage: string
  /** admin mode: the organiser registering the guest */
  admin?: AccountActor
  /** a known guest (access link or login): locked basic data comes from their account */
  userId?: number | null
  /** the guest link's token the request carried (x-guest-token / ?token=): an entry's own event token proves it is theirs */
  guestToken?: string | null
}

/**
 * Registrations on the list that neither hold nor wait for a place (invited, added, started,
 * declined, removed): the guest's own registration on the public page turns such a row into the
 * registration (docs/forms.md, "Registering over an existing entry"). Every other status is
 * ALREADY_REGISTERED. None of these statuses holds places (SEAT_HOLDING), which the conversion's
 * conditional update checks too.
 */
export const TAKEOVER_STATUSES: readonly VisitorStatus[] = ['ADDED', 'INVITED', 'OPEN', 'DECLINED', 'VISITOR_DECLINED', 'DELETED']

const alreadyRegistered = () => new AppError(409, 'ALREADY_REGISTERED', { fields: [{ field: 'email', errorType: 'ALREADY_REGISTERED' }] })
/** Someone else's entry on the list: only the guest's own link or session turns it into a registration. */
const alreadyInvited = () => new AppError(409, 'ALREADY_INVITED', { fields: [{ field: 'email', errorType: 'ALREADY_INVITED' }] })
/** The organiser declined this guest: the public form does not undo that decision. */
const registrationDeclined = () => new AppError(409, 'REGISTRATION_DECLINED', { fields: [{ field: 'email', errorType: 'REGISTRATION_DECLINED' }] })

const STATE_ERROR = { NOT_OPEN: 'REGISTRATION_NOT_OPEN', CLOSED: 'REGISTRATION_CLOSED', EXPIRED: 'EVENT_EXPIRED', FULL: 'EVENT_FULL' } as const

const ESCORT_COLUMNS = ['visitor_id', 'number', 'salutation', 'title', 'first_name', 'last_name', 'email', 'company', 'position', 'phone_number', 'web', 'info', 'birthday', 'covid_state', 'street', 'street_number', 'post_code', 'city', 'country'] as const
type EscortRow = { [K in (typeof ESCORT_COLUMNS)[number]]: Insertable<EscortPersonTable>[K] } & Record<string, unknown>
type ValueRow = { visitor_id: number; event_id: number; field_id: number; data: string | null; value: string; asset_id: number | null }

// The registration hot path's statements, compiled once (db/prepared.ts).
const Q = {
  event: prepared((db, p: { id: number }) => db.selectFrom('event').selectAll().where('id', '=', p.id)),
  duplicate: prepared((db, p: { eventId: number; email: string }) => db.selectFrom('event_visitor').select(['id', 'status', 'user_id', 'event_token', 'seats_held']).where('event_id', '=', p.eventId).where('email', '=', p.email)),
  userByEmail: prepared((db, p: { email: string }) => db.selectFrom('app_user').select(['id', 'password_hash']).where('email', '=', p.email)),
  // another registration may create the same guest at the same moment (for another event)
  insertGuestUser: prepared((db, p: { email: string; language: string }) =>
    db.insertInto('app_user').values({ email: p.email, password_hash: null, status: 'OK', language: p.language }).onConflict((oc) => oc.column('email').doNothing()).returning('id'),
  ),
  insertVisitor: prepared(
    (
      db,
      p: Contact & {
        eventId: number
        userId: number | null
        status: VisitorStatus
        vip: boolean
        visitorCount: number
        seatsHeld: number
        eventToken: string
        downloadToken: string
        source: string
        language: string
        at: string
      },
    ) =>
      db
        .insertInto('event_visitor')
        .values({
          event_id: p.eventId,
          user_id: p.userId,
          status: p.status,
          vip: p.vip,
          salutation: p.salutation,
          title: p.title,
          first_name: p.firstName,
          last_name: p.lastName,
          email: p.email,
          company: p.company,
          position: p.position,
          phone_number: p.phoneNumber,
          visitor_count: p.visitorCount,
          seats_held: p.seatsHeld,
          event_token: p.eventToken,
          download_token: p.downloadToken,
          source: p.source,
          language: p.language,
          registered_at: p.at,
          created_at: p.at,
          updated_at: p.at,
        })
        .returningAll(),
  ),
  // the builder names every column: the rows it gets are placeholders (db/prepared.ts)
  insertEscorts: preparedRows((db, rows: EscortRow[]) => db.insertInto('escort_person').values(rows.map((r) => Object.fromEntries(ESCORT_COLUMNS.map((c) => [c, r[c]])) as EscortRow))),
  insertValues: preparedRows((db, rows: ValueRow[]) =>
    db.insertInto('visitor_field_value').values(rows.map((r) => ({ visitor_id: r.visitor_id, event_id: r.event_id, field_id: r.field_id, data: r.data, value: r.value, asset_id: r.asset_id }))),
  ),
  // a defined value's places: the same conditional update as every capacity (visitors/capacity.ts)
  takeValue: prepared((db, p: { id: number; fieldId: number; amount: number }) =>
    db
      .updateTable('field_value')
      .set((eb) => ({ taken: eb('taken', '+', p.amount) }))
      .where('id', '=', p.id)
      .where('field_id', '=', p.fieldId)
      .where((eb) => eb.or([eb('capacity', '<', 0), eb(eb('taken', '+', p.amount), '<=', eb.ref('capacity'))])),
  ),
}

/** Finds the guest's user by e-mail or creates one without a password (they log in by link). */
async function guestUser(trx: Db, email: string, language: string): Promise<{ id: number; hasPassword: boolean }> {
  const existing = await Q.userByEmail.first(trx, { email })
  if (existing) return { id: existing.id, hasPassword: existing.password_hash != null }
  const created = await Q.insertGuestUser.first(trx, { email, language })
  if (created) return { id: created.id, hasPassword: false }
  const raced = (await Q.userByEmail.first(trx, { email }))!
  return { id: raced.id, hasPassword: raced.password_hash != null }
}

export function formContext(event: EventRow, now: Date, opts: { admin: boolean; vip: boolean; language: string }): FormContext {
  return {
    now,
    eventStart: event.start_date,
    defaultPhoneLocale: event.default_phone_locale,
    disabledCovidStates: fromJson<string[]>(event.disabled_covid_states, []),
    maxVisitorPerSubscription: event.max_visitor_per_subscription,
    vip: opts.vip,
    admin: opts.admin,
    language: opts.language,
  }
}

const problemFields = (ps: Problem[]) => ps.map((p) => ({ field: p.field, errorType: p.errorType }))
const missingList = (ps: Problem[]) => ps.map((p) => ({ id: p.fieldId, field: p.field, displayName: p.displayName, errorType: p.errorType }))

/** Registers a guest for an event through its form. */
export async function register(ctx: AppContext, eventId: number, input: RegistrationInput | AdminRegistrationInput, opts: RegisterOptions): Promise<RegistrationResult> {
  const admin = opts.admin ?? null
  const language = resolveLanguage(input.language ?? opts.requestLanguage, ctx.license.features)
  const now = ctx.clock.now()
  // Everything that only reads or computes runs before the transaction: on SQLite the transaction
  // is the single writer, so the less it does the more registrations per second pass through.
  const event = await Q.event.first(ctx.db, { id: eventId })
  if (!event || (admin ? event.agency_id !== admin.account.agency_id || event.status === 'DELETED' : event.status !== 'OK' || event.visibility === 'OFFLINE')) throw notFound()
  if (!admin) {
    const state = registrationState({ ...event, max_visitors: null }, now)
    if (state !== 'OPEN') throw new AppError(409, STATE_ERROR[state])
  }
  const defs = await formDefinitions(ctx.db, event)
  let data: Record<string, unknown> = input
  if (!admin && opts.userId && bool(event.lock_basic_data)) {
    const lock = await lockedBasicData(ctx.db, event, defs, opts.userId)
    data = { ...input, ...lock.values, fields: { ...input.fields, ...((lock.values.fields as Record<string, unknown>) ?? {}) } }
  }
  const vipField = admin ? defs.find((f) => f.defaultField === 'VIP') : undefined
  const vip = !!admin && ((input as AdminRegistrationInput).vip === true || (vipField ? input.fields[String(vipField.id)] === true : false))
  const ev: Evaluation = evaluate(defs, data, formContext(event, now, { admin: !!admin, vip, language }))
  if (ev.invalid.length || (!admin && ev.missing.length)) {
    const all = [...ev.missing, ...ev.invalid]
    throw new AppError(400, 'FIELD_ERROR', { fields: problemFields(all), extra: { missingFields: missingList(all) } })
  }
  const d = ev.data
  // A paid event's guest buys tickets (docs/ticketing.md): one ticket is one person; escorts not
  // named here are asked for on the pay page. The organiser's admin mode registers without an order.
  // the visit's chair holds (seating plan): only a guest's own visit holds chairs; the organiser assigns them
  const chairTokens = admin ? [] : [...new Set(input.chairReservations ?? [])]
  // on a paid event a chair's price category decides its ticket (seating/orders.ts)
  const seatPlan = !admin && bool(event.is_paid) ? await seatTickets(ctx.db, eventId, input.identification, chairTokens, now) : null
  const plan = !admin && bool(event.is_paid) ? await planOrder(ctx.db, event, seatPlan ? withSeatTickets(input.tickets, seatPlan) : input.tickets, input.couponCode, now, { refuseSoldOut: !bool(event.require_approval), ticketCode: input.ticketCode }) : null
  if (plan && 1 + d.escortPersons.length > plan.tickets) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'escortPersons', errorType: 'TOO_BIG' }] })
  const methods = plan ? (await eventPaymentMethods(ctx.db, event)).map((m) => m.method) : []
  if (plan && plan.priced.grossPrice > 0 && !methods.length) throw new AppError(409, 'PAYMENT_METHOD_NOT_AVAILABLE')
  const persons = plan ? plan.tickets : 1 + d.escortPersons.length
  if (event.max_visitor_per_subscription > 0 && persons > event.max_visitor_per_subscription) {
    throw new AppError(400, 'TOO_MANY_PERSONS', { params: { max: event.max_visitor_per_subscription } })
  }
  // Agreements are part of registering: every REQUIRED one confirmed with a signature (not in admin mode).
  // the record keeps each agreement as the guest read it: in their language where the organiser translated it
  const agreementCheck = admin ? null : checkRegistrationAgreements(await localisedAgreements(ctx.db, await effectiveAgreements(ctx.db, event), language), (input as RegistrationInput).agreements ?? [])
  if (agreementCheck?.problems.length) {
    const p = agreementCheck.problems
    throw new AppError(400, 'FIELD_ERROR', {
      fields: p.map((x) => ({ field: x.field, errorType: x.errorType })),
      extra: { missingFields: p.map((x) => ({ id: x.agreementId, field: x.field, displayName: x.displayName, errorType: x.errorType })) },
    })
  }
  const email = d.email ?? null
  // A friendly early answer; the unique index on (event, e-mail) decides under concurrency. An
  // entry the organiser made (invited, added, declined …) becomes the guest's registration.
  let takeover: number | null = null
  // an invitation with a reserved place (PENDING), confirmed by its own guest through the form: the
  // places it holds are given back and taken again for the registration in one transaction
  let pendingSeats = 0
  if (email) {
    const dup = await Q.duplicate.first(ctx.db, { eventId, email })
    if (dup) {
      const pending = !admin && dup.status === 'PENDING'
      if (admin || (!TAKEOVER_STATUSES.includes(dup.status) && !pending)) throw alreadyRegistered()
      if (dup.status === 'DECLINED') throw registrationDeclined()
      if (!(await ownsEntry(ctx.db, dup, email, opts))) throw alreadyInvited()
      takeover = dup.id
      if (pending) pendingSeats = Math.max(1, dup.seats_held)
    }
  }
  // field values as stored, and what they take (defined values, timeslots, uploads)
  const byId = new Map(defs.map((f) => [String(f.id), f]))
  const fieldRows: Array<{ field_id: number; data: string | null; value: string; asset_id: number | null }> = []
  const valuePicks: Array<{ field: string; fieldId: number; fieldValueId: number; amount: number }> = []
  const slotPicks: Array<{ field: string; timeslotId: number; amount: number; reservationToken?: string | null }> = []
  const assets: Array<{ field: string; assetId: number }> = []
  for (let [id, value] of Object.entries(d.fields)) {
    const f = byId.get(id)
    if (!f || f.id < 0 || value === undefined) continue
    const kind = kindOf(f)
    const assetId = kind === 'IMAGE' || kind === 'FILE' ? (value as { assetId: number }).assetId : null
    if (assetId) assets.push({ field: `fields.${id}`, assetId })
    // A defined value or timeslot without amount selection is chosen for the whole registration: it
    // holds a place per person (docs/forms.md, "Places of choices"); with amount selection the
    // guest's amount is the number of places.
    if ((kind === 'SMARTLIST' || kind === 'TIMESLOT') && !f.amountSelection) value = (value as Array<Selection | SlotSelection>).map((x) => ({ ...x, amount: persons })) as Selection[] | SlotSelection[]
    if (kind === 'SMARTLIST') for (const x of value as Selection[]) valuePicks.push({ field: `fields.${id}`, fieldId: f.id, fieldValueId: x.fieldValueId, amount: x.amount })
    if (kind === 'TIMESLOT') for (const x of value as SlotSelection[]) slotPicks.push({ field: `fields.${id}`, ...x })
    fieldRows.push({ field_id: f.id, data: valueText(f, value, 'de').slice(0, 2000), value: toJson(value), asset_id: assetId })
  }
  if (chairTokens.length && !input.identification) throw new AppError(409, 'REGISTRATION_VALID_UNTIL_EXPIRED', { fields: [{ field: 'chairs', errorType: 'REGISTRATION_VALID_UNTIL_EXPIRED' }] })
  const expected: VisitorStatus = admin ? 'CONFIRMED' : bool(event.require_approval) ? 'REQUIRE_APPROVAL' : plan ? 'PENDING' : 'CONFIRMED'
  // a paying guest hears from the order (ticketing mails), not the registration confirmation
  const wantsMail = !plan && !!email && (!admin || (input as AdminRegistrationInput).sendMail !== false)
  const result = await groupCommit(ctx, async (trx) => {
    // the organiser already gave a PENDING invitation its place: confirmed without another approval
    let status: VisitorStatus = pendingSeats ? 'CONFIRMED' : expected
    let seats = persons
    if (pendingSeats && takeover !== null) {
      const held = await trx.selectFrom('event_visitor').select('seats_held').where('id', '=', takeover).where('status', '=', 'PENDING').executeTakeFirst()
      if (!held) throw alreadyRegistered()
      const r = await trx.updateTable('event_visitor').set({ seats_held: 0 }).where('id', '=', takeover).where('status', '=', 'PENDING').where('seats_held', '=', held.seats_held).executeTakeFirst()
      if (Number(r.numUpdatedRows) !== 1) throw alreadyRegistered()
      if (held.seats_held > 0) {
        await releaseSeats(trx, eventId, held.seats_held)
        await releaseFieldPlaces(trx, takeover)
      }
    }
    if (!(await takeSeats(trx, eventId, persons))) {
      // the reserved place of an invitation is not traded for a waiting-list entry
      if (pendingSeats) throw new AppError(409, 'EVENT_FULL')
      // Full: with a waiting list the guest is kept without a place, otherwise refused.
      if (!bool(event.waiting_list)) throw new AppError(409, 'EVENT_FULL')
      status = 'WAITING_LIST'
      seats = 0
    }
    const user = email ? await guestUser(trx, email, language) : null
    const userId = user?.id ?? null
    // a guest who logs in with a password gets this agency's guest account (identity/guest-accounts.ts)
    if (user?.hasPassword) await guestAccountForRegistration(ctx, trx, user.id, event.agency_id)
    const valueOfCode = (code: string) => {
      const f = defs.find((x) => x.defaultField === code)
      const v: unknown = f ? d.fields[String(f.id)] : undefined
      return typeof v === 'string' ? v : null
    }
    const at = isoNow(now)
    const columns = {
      eventId,
      userId,
      status,
      vip,
      salutation: d.salutation ?? null,
      title: d.title ?? null,
      firstName: d.firstName ?? null,
      lastName: d.lastName ?? null,
      email,
      company: valueOfCode('COMPANY'),
      position: valueOfCode('POSITION'),
      phoneNumber: valueOfCode('PHONE_NUMBER') ?? valueOfCode('MOBILE_PHONE_NUMBER'),
      visitorCount: persons,
      seatsHeld: seats,
      eventToken: randomString(20),
      downloadToken: randomString(20),
      source: admin ? 'ADMIN' : 'PUBLIC',
      language,
      at,
    }
    const visitor = takeover === null ? (await Q.insertVisitor.first(trx, columns))! : await takeOverEntry(trx, takeover, columns, pendingSeats > 0)
    if (d.escortPersons.length) {
      await Q.insertEscorts(
        trx,
        d.escortPersons.map((e, i) => ({ visitor_id: visitor.id, number: i + 1, ...escortColumns(e) })),
      )
    }

    const order = plan
      ? await holdOrder(ctx, trx, event, plan, { id: visitor.id, email, fullName: [d.firstName, d.lastName].filter(Boolean).join(' '), language, status, persons, escorts: d.escortPersons.length }, methods, now)
      : null

    for (const x of assets) await claimAsset(trx, now, x.assetId, event, visitor.id, x.field, admin ? { userId: admin.user.id, identification: null } : { userId: opts.userId ?? null, identification: input.identification ?? null })
    if (status !== 'WAITING_LIST') {
      for (const x of valuePicks) {
        const r = await Q.takeValue(trx, { id: x.fieldValueId, fieldId: x.fieldId, amount: x.amount })
        if (Number(r.numAffectedRows) !== 1) throw new AppError(409, 'FIELD_ERROR', { fields: [{ field: x.field, errorType: 'VALUE_UNAVAILABLE' }] })
      }
    }
    if (fieldRows.length) await Q.insertValues(trx, fieldRows.map((r) => ({ ...r, visitor_id: visitor.id, event_id: eventId })))
    if (agreementCheck?.decisions.length) await recordDecisions(trx, { visitorId: visitor.id, eventId, decisions: agreementCheck.decisions, origin: 'REGISTRATION', accountId: null, at })
    if (status === 'WAITING_LIST') {
      // No place: the timed reservations are given back right away.
      const tokens = slotPicks.map((p) => p.reservationToken).filter((x): x is string => !!x)
      if (tokens.length) {
        const held = await trx.selectFrom('timeslot_reservation').select(['id', 'timeslot_id', 'amount']).where('token', 'in', tokens).where('fixed', '=', NO).execute()
        for (const h of held) {
          const gone = await trx.deleteFrom('timeslot_reservation').where('id', '=', h.id).where('fixed', '=', NO).executeTakeFirst()
          if (Number(gone.numDeletedRows) === 1) await trx.updateTable('timeslot').set((eb) => ({ taken: eb('taken', '-', h.amount) })).where('id', '=', h.timeslot_id).execute()
        }
      }
    } else await fixSlotSelections(trx, now, visitor.id, eventId, slotPicks, !!admin)
    // Chairs: fixed to the registration while it holds places; a gone hold refuses it (nothing
    // written). On the waiting list the guest holds no chair: the holds are checked, then given back;
    // an order keeps them as its chairs, taken again when the guest moves up (orders/guest-list.ts).
    if (chairTokens.length) {
      if (order && seatPlan) await fixOrderChairs(trx, now, order.id, visitor.id, eventId, input.identification!, seatPlan)
      else await fixChairHolds(trx, now, visitor.id, eventId, input.identification!, chairTokens)
      if (status === 'WAITING_LIST') await releaseVisitorChairs(trx, visitor.id)
    }

    if (wantsMail && userId) {
      // rendered by the mail worker when it sends it (./confirmation-mail.ts)
      const params: ConfirmationParams = { status, token: await issueAccessToken(ctx, trx, userId, GUEST_ACCESS) }
      await enqueueTemplateMail(trx, {
        kind: 'REGISTRATION_CONFIRMATION',
        template: CONFIRMATION_TEMPLATE,
        params,
        to: email!,
        toName: [d.firstName, d.lastName].filter(Boolean).join(' '),
        language,
        agencyId: event.agency_id,
        eventId: event.id,
        visitorId: visitor.id,
        userId,
      })
    }
    // the short link the guest came by attaches its tags and campaign (organiser.md, short links)
    if (!admin && input.shortLink) await attributeShortLink(trx, visitor.id, eventId, input.shortLink)
    // organisers who asked for it (notification setting NEW_REGISTRATION) hear of guests' own registrations
    if (!admin) {
      const guestName = [visitor.first_name, visitor.last_name].filter(Boolean).join(' ') || (email ?? '')
      await notifyNewRegistration(ctx, trx, { agencyId: event.agency_id, eventId, eventName: event.display_name, guestName, guestEmail: email ?? '', persons: visitor.visitor_count, status })
    }
    return { visitor, status, warnings: admin ? ev.missing : [], ticketOrderId: order?.public_id }
  }).catch((e) => {
    // the same e-mail registering twice at the same moment: the unique index decides, not a 500
    if (isUniqueViolation(e, 'event_visitor')) throw alreadyRegistered()
    throw e
  })
  ctx.notifyMail()
  return result
}

/**
 * Whether the caller is the guest of an entry on the list: their own link (the entry's event token,
 * or an access link / session of the user the entry belongs to or whose e-mail it carries). Knowing
 * the e-mail address alone is not enough (docs/forms.md, "Registering over an existing entry").
 */
async function ownsEntry(db: Db, dup: { user_id: number | null; event_token: string }, email: string, opts: RegisterOptions): Promise<boolean> {
  if (opts.guestToken && opts.guestToken.length === dup.event_token.length && timingSafeEqual(Buffer.from(opts.guestToken), Buffer.from(dup.event_token))) return true
  if (!opts.userId) return false
  if (dup.user_id === opts.userId) return true
  const u = await db.selectFrom('app_user').select('email').where('id', '=', opts.userId).executeTakeFirst()
  return !!u && u.email.toLowerCase() === email.toLowerCase()
}

type VisitorColumns = Parameters<typeof Q.insertVisitor>[1]

/**
 * Turns the organiser's entry (TAKEOVER_STATUSES) into the guest's registration: the guest's data,
 * status, places and answers replace what the entry had; what the organiser keeps about the guest
 * stays (VIP, note, tags, campaigns, invitation count, ticket code, tokens, agreements, check-in
 * history). The status is changed only while it is still one without places (conditional update),
 * so a concurrent registration, approval or invitation-with-place wins cleanly: ALREADY_REGISTERED.
 */
async function takeOverEntry(trx: Db, visitorId: number, c: VisitorColumns, pending = false): Promise<EventVisitorRow> {
  const row = await trx
    .updateTable('event_visitor')
    .set({
      user_id: c.userId,
      status: c.status,
      salutation: c.salutation,
      title: c.title,
      first_name: c.firstName,
      last_name: c.lastName,
      company: c.company,
      position: c.position,
      phone_number: c.phoneNumber,
      visitor_count: c.visitorCount,
      seats_held: c.seatsHeld,
      main_guest_checked_in: false,
      main_guest_checked_out: false,
      source: c.source,
      language: c.language,
      decline_reason: null,
      // an import that is undone removes its rows: this one is the guest's own registration now
      import_task_id: null,
      registered_at: c.at,
      updated_at: c.at,
    })
    .where('id', '=', visitorId)
    .where('event_id', '=', c.eventId)
    .where('status', 'in', pending ? [...TAKEOVER_STATUSES, 'PENDING'] : TAKEOVER_STATUSES)
    // the organiser's decline (even one a moment ago) stands: REGISTRATION_DECLINED on the early check
    .where('status', '!=', 'DECLINED')
    .where('seats_held', '=', 0)
    .returningAll()
    .executeTakeFirst()
  if (!row) throw alreadyRegistered()
  // The entry's escorts and answers are replaced by the registration's; a timeslot it still held
  // (none, while it holds no seats) is given back so every place is counted exactly once.
  await trx.deleteFrom('escort_person').where('visitor_id', '=', visitorId).execute()
  await trx.deleteFrom('visitor_field_value').where('visitor_id', '=', visitorId).execute()
  await releaseVisitorSlots(trx, visitorId)
  await releaseVisitorChairs(trx, visitorId)
  return row
}

/**
 * Binds an uploaded file to the registration: only an unclaimed file of this agency that the caller
 * uploaded itself (the same browser identification, or the same logged-in user). Someone else's
 * upload answers exactly like an id that does not exist (docs/security.md, "Uploads").
 */
async function claimAsset(trx: Db, now: Date, assetId: number, event: EventRow, visitorId: number, field: string, owner: { userId: number | null; identification: string | null }) {
  const r =
    owner.userId === null && owner.identification === null
      ? null
      : await trx
          .updateTable('asset')
          .set({ visitor_id: visitorId, event_id: event.id })
          .where('id', '=', assetId)
          .where('agency_id', '=', event.agency_id)
          .where('visitor_id', 'is', null)
          .where((eb) => eb.or([eb('event_id', 'is', null), eb('event_id', '=', event.id)]))
          .where(notExpired(now))
          .where((eb) => {
            const mine = []
            if (owner.identification !== null) mine.push(eb('owner_identification', '=', owner.identification))
            if (owner.userId !== null) mine.push(eb('owner_user_id', '=', owner.userId))
            return eb.or(mine)
          })
          .executeTakeFirst()
  if (Number(r?.numUpdatedRows ?? 0) !== 1) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field, errorType: 'INVALID' }] })
}
