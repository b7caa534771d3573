// The registration details dialog (guest-side.md 2): name, event, status, registered persons against
// checked-in persons, escort persons, master data and event fields; and the escort edit that saves
// it (PATCH escortPersons), allowed until the registration has expired (section 4, timing).
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { bool, fromJson, isoNow } from '../../db/types'
import { AppError, notFound } from '../../shared/errors'
import { publicEventDto } from '../events/dto'
import { localisedEvent } from '../events/translations'
import type { EventRow } from '../events/events.table'
import { registrationState } from '../events/rules'
import { type FieldDef, isEscortCode, kindOf, labelOf } from '../forms/definitions'
import { escortAppearance, evaluate } from '../forms/engine'
import { isFormField } from '../forms/values'
import { formDefinitions } from '../forms/service'
import type { GuestActor } from '../identity/auth'
import { formContext } from '../registration/service'
import { escortRace, personsAfterEdit, personsAllowed, settlePersons, writeEscorts } from '../visitors/escort-write'
import { escortDto } from '../visitors/dto'
import { escortsOf, findVisitor } from '../visitors/repository'
import type { EventVisitorRow } from '../visitors/visitors.table'
import type { EscortEdit } from './model'
import { escortColumns } from '../visitors/escort-columns'

/** The guest's own registration: another guest's id (or a removed one) answers 404. */
export async function ownRegistration(db: Db, guest: GuestActor, visitorId: number): Promise<{ v: EventVisitorRow; event: EventRow }> {
  const v = await findVisitor(db, visitorId)
  if (!v || v.user_id !== guest.user.id || v.status === 'DELETED') throw notFound()
  const event = await db.selectFrom('event').selectAll().where('id', '=', v.event_id).executeTakeFirst()
  if (!event || event.status === 'DELETED') throw notFound()
  return { v, event }
}

/**
 * Registration timing of section 4: the registration has expired once registrationUntil or the
 * event's end has passed; escort edits (and data changes) stop then.
 */
export function registrationExpired(event: EventRow, now: Date): boolean {
  const s = registrationState({ ...event, max_visitors: null }, now)
  return s === 'CLOSED' || s === 'EXPIRED'
}

export const canEditData = (event: Pick<EventRow, 'options'>) => fromJson<string[]>(event.options, []).includes('CAN_EDIT_REGISTRATION_DATA')

/** Basic data: shown in the details dialog, never changed by the guest (guest-side.md 5). */
export const BASIC_FIELDS: readonly string[] = ['SALUTATION', 'TITLE', 'FIRST_NAME', 'LAST_NAME', 'EMAIL']

/** The fields of the guest's change form: what a guest sees there (not hidden, no basic data, escorts or delegate). */
export const guestChangeFields = (defs: FieldDef[]) =>
  defs.filter((f) => f.appearance !== 'HIDDEN' && f.type !== 'DELEGATE_EMAIL' && !f.defaultField?.startsWith('ESCORT_') && !BASIC_FIELDS.includes(f.defaultField ?? ''))

/** Whether that form has anything to fill in (separators and explanations are not): otherwise "Angaben ändern" is not offered. */
export const hasGuestChangeFields = (defs: FieldDef[]) => guestChangeFields(defs).some((f) => isFormField(f) && kindOf(f) !== 'SEPARATOR' && kindOf(f) !== 'EXPLANATION')

/** Statuses whose registration the guest may still shape (escorts, data). */
const EDITABLE: readonly string[] = ['CONFIRMED', 'PENDING', 'INVITED', 'REQUIRE_APPROVAL', 'WAITING_LIST', 'OPEN']

/** Master data (default fields except escorts) and event fields a guest may see, with their values. */
function fieldsForGuest(defs: FieldDef[], v: EventVisitorRow, values: Map<number, { data: string | null; value: string }>, language: string) {
  const basic: Record<string, string | null> = { SALUTATION: v.salutation, TITLE: v.title, FIRST_NAME: v.first_name, LAST_NAME: v.last_name, EMAIL: v.email }
  const master: Array<{ key: string; fieldId: number; displayName: string; data: string | null; appearance: string }> = []
  const event: Array<{ eventField: number; displayName: string; type: string; data: string | null }> = []
  for (const f of [...defs].sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id)) {
    if (f.appearance === 'HIDDEN' || !isFormField(f) || isEscortCode(f.defaultField)) continue
    const kind = kindOf(f)
    if (kind === 'SEPARATOR' || kind === 'EXPLANATION') continue
    const stored = values.get(f.id)
    const data = f.defaultField && f.defaultField in basic ? basic[f.defaultField] : (stored?.data ?? null)
    if (f.defaultField) master.push({ key: f.defaultField, fieldId: f.id, displayName: labelOf(f, language), data, appearance: f.appearance })
    else event.push({ eventField: f.id, displayName: labelOf(f, language), type: f.type, data })
  }
  return { master, event }
}

export async function registrationDetails(ctx: AppContext, guest: GuestActor, visitorId: number, language: string) {
  const { v, event } = await ownRegistration(ctx.db, guest, visitorId)
  const [escorts, defs, values, agency, allowed] = await Promise.all([
    escortsOf(ctx.db, v.id),
    formDefinitions(ctx.db, event),
    ctx.db.selectFrom('visitor_field_value').select(['field_id', 'data', 'value']).where('visitor_id', '=', v.id).execute(),
    ctx.db.selectFrom('agency').select(['id', 'display_name', 'logo_asset_id']).where('id', '=', event.agency_id).executeTakeFirst(),
    personsAllowed(ctx.db, event, v),
  ])
  const now = ctx.clock.now()
  const expired = registrationExpired(event, now)
  const checkinCount = (bool(v.main_guest_checked_in) ? 1 : 0) + escorts.filter((e) => bool(e.checked_in)).length
  const checkoutCount = (bool(v.main_guest_checked_out) ? 1 : 0) + escorts.filter((e) => bool(e.checked_out)).length
  const fields = fieldsForGuest(defs, v, new Map(values.map((x) => [x.field_id, x])), language)
  const editable = EDITABLE.includes(v.status) && !expired
  return {
    id: v.id,
    name: [v.salutation, v.title, v.first_name, v.last_name].filter(Boolean).join(' '),
    salutation: v.salutation,
    title: v.title,
    firstName: v.first_name,
    lastName: v.last_name,
    email: v.email,
    status: v.status,
    event: publicEventDto(ctx, await localisedEvent(ctx.db, event, language), agency ?? null),
    visitorCount: v.visitor_count,
    checkinCount,
    checkoutCount,
    registrationExpired: expired,
    /** escorts may be added, changed and removed (section 4: until the registration has expired) */
    canEditEscorts: editable,
    /** the whole form may be changed (option CAN_EDIT_REGISTRATION_DATA) */
    canEditRegistrationData: editable && canEditData(event) && hasGuestChangeFields(defs),
    escortPersons: escorts.map(escortDto),
    /** which escort properties the event asks for (HIDDEN, VISIBLE, REQUIRED) */
    escortFields: escortAppearance(defs),
    maxVisitorPerSubscription: event.max_visitor_per_subscription,
    /** paid registrations: the most persons its tickets (and free persons) allow; null when unpaid */
    ticketPersons: allowed,
    defaultFields: fields.master,
    visitorFields: fields.event,
  }
}


/**
 * Saves the escort list of the guest's registration: listed ids are kept (with their check-in
 * state), others removed, new ones numbered on. The escorts go through the form engine's escort
 * rules (the event's ESCORT_* settings); the person count moves the event places the registration
 * holds in the same transaction (conditional update: never oversold).
 */
export async function saveEscorts(ctx: AppContext, guest: GuestActor, visitorId: number, list: EscortEdit[], language: string) {
  const now = ctx.clock.now()
  // read and check before the transaction (the single writer on SQLite)
  const { event } = await ownRegistration(ctx.db, guest, visitorId)
  if (registrationExpired(event, now)) throw new AppError(409, 'REGISTRATION_EXPIRED')
  const defs = await formDefinitions(ctx.db, event)
  const ev = evaluate(defs, { escortPersons: list }, formContext(event, now, { admin: false, vip: false, language }))
  const problems = [...ev.missing, ...ev.invalid].filter((p) => p.field.startsWith('escortPersons.'))
  if (problems.length) {
    throw new AppError(400, 'FIELD_ERROR', {
      fields: problems.map((p) => ({ field: p.field, errorType: p.errorType })),
      extra: { missingFields: problems.map((p) => ({ id: p.fieldId, field: p.field, displayName: p.displayName, errorType: p.errorType })) },
    })
  }
  const persons = 1 + list.length
  if (event.max_visitor_per_subscription > 0 && persons > event.max_visitor_per_subscription) {
    throw new AppError(400, 'TOO_MANY_PERSONS', { params: { max: event.max_visitor_per_subscription } })
  }
  // the engine's normalised values (trimmed names, E.164 phone numbers, ISO birthdays)
  const clean: EscortEdit[] = ev.data.escortPersons.map((e, i) => ({ ...list[i], ...e, id: list[i]!.id }) as EscortEdit)
  // the registration as read before the transaction: its escort_rev claims the edit (two at once: 409)
  const { v: seen } = await ownRegistration(ctx.db, guest, visitorId)
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const { v } = await ownRegistration(trx, guest, visitorId)
      if (!EDITABLE.includes(v.status)) throw new AppError(409, 'STATUS_TRANSITION_NOT_ALLOWED', { params: { status: v.status } })
      const escorts = await writeEscorts(
        trx,
        { id: v.id, escort_rev: seen.escort_rev },
        clean.map((e) => ({ id: e.id, columns: escortColumns(e) })),
        { keepCheckedIn: true },
      )
      // one ticket is one person (docs/ticketing.md); places follow the person count
      const { persons, freePersons } = await personsAfterEdit(trx, event, v, escorts, { by: 'GUEST', at: isoNow(now) })
      const held = await settlePersons(trx, v, persons)
      const r = await trx
        .updateTable('event_visitor')
        .set({ visitor_count: persons, seats_held: held, free_persons: freePersons, updated_at: isoNow(now) })
        .where('id', '=', v.id)
        .where('status', '=', v.status)
        .where('seats_held', '=', v.seats_held)
        .executeTakeFirst()
      if (Number(r.numUpdatedRows) !== 1) throw new AppError(409, 'STATUS_CHANGED_MEANWHILE')
    })
  } catch (e) {
    throw escortRace(e)
  }
  return registrationDetails(ctx, guest, visitorId, language)
}
