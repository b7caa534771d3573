// A guest changes their registration data (event option CAN_EDIT_REGISTRATION_DATA) through the same
// form engine and rules as registering: conditions, required fields, defined values and timeslots.
// What a guest cannot change here (guest-side.md 5, "fields hidden from guests"): the basic data
// (salutation, title, names, e-mail), escort persons (the details dialog edits those), and fields
// the organiser hides from guests (appearance HIDDEN keeps the organiser's value). Locked basic data
// of the guest's account (lockBasicData) wins over the input, as when registering.
//
// Places: while the registration holds event places, its choices hold theirs (docs/forms.md). In one
// transaction the old choices of the changed fields are given back and the new ones taken by the
// conditional update (never oversold); a kept timeslot stays fixed, a new one needs the reservation
// the guest made with registrationChange.
import type { AppContext } from '../../context'
import { bool, fromJson, isoNow, toJson } from '../../db/types'
import { AppError } from '../../shared/errors'
import { notExpired } from '../assets/expiry'
import { type EscortData, type FieldDef, type Selection, type SlotSelection, kindOf } from '../forms/definitions'
import { evaluate } from '../forms/engine'
import { valueText } from '../forms/value-text'
import { isFormField } from '../forms/values'
import { formDefinitions } from '../forms/service'
import type { GuestActor } from '../identity/auth'
import { lockedBasicData } from '../registration/prefill'
import { formContext } from '../registration/service'
import { NO, releaseSlot } from '../reservations/service'
import { escortDto } from '../visitors/dto'
import { escortsOf } from '../visitors/repository'
import { canEditData, guestChangeFields, ownRegistration, registrationDetails, registrationExpired } from './details'
import type { DataChangeInput } from './model'

const EDITABLE: readonly string[] = ['CONFIRMED', 'PENDING', 'INVITED', 'REQUIRE_APPROVAL', 'WAITING_LIST', 'OPEN']

/** Fields whose stored value the guest's change replaces: the guest form's own, not the organiser's hidden ones. */
const changeable = (f: FieldDef) => f.id > 0 && f.appearance !== 'HIDDEN' && isFormField(f) && !f.defaultField?.startsWith('ESCORT_') && !['SALUTATION', 'TITLE', 'FIRST_NAME', 'LAST_NAME', 'EMAIL', 'VIP'].includes(f.defaultField ?? '')

/** What a guest sees prefilled in the change form: the stored values of the form. */
export async function currentFormData(ctx: AppContext, guest: GuestActor, visitorId: number) {
  const { v, event } = await ownRegistration(ctx.db, guest, visitorId)
  if (!canEditData(event)) throw new AppError(409, 'DATA_CHANGE_NOT_ALLOWED')
  const [defs, values] = await Promise.all([formDefinitions(ctx.db, event), ctx.db.selectFrom('visitor_field_value').select(['field_id', 'value']).where('visitor_id', '=', v.id).execute()])
  // Fields hidden from guests are not sent to them (neither definition nor value); escorts are edited
  // in the details dialog. The guest's own choices count as free for them, and slots they hold are
  // marked as kept (no new reservation needed).
  const visibleDefs = guestChangeFields(ownPlacesFree(defs, values, v.seats_held > 0))
  const ids = new Set(visibleDefs.map((f) => f.id))
  const kept = (f: FieldDef | undefined, value: unknown) => (f && kindOf(f) === 'TIMESLOT' && Array.isArray(value) ? value.map((x) => ({ ...x, reservationToken: KEPT })) : value)
  return {
    event: { id: event.id, startDate: event.start_date, defaultPhoneLocale: event.default_phone_locale, disabledCovidStates: fromJson<string[]>(event.disabled_covid_states, []), maxVisitorPerSubscription: event.max_visitor_per_subscription },
    fields: visibleDefs,
    values: {
      salutation: v.salutation,
      title: v.title,
      firstName: v.first_name,
      lastName: v.last_name,
      email: v.email,
      fields: Object.fromEntries(values.filter((x) => ids.has(x.field_id)).map((x) => [String(x.field_id), kept(visibleDefs.find((f) => f.id === x.field_id), fromJson<unknown>(x.value, null))])),
      escortPersons: [],
    },
    /** nothing is locked: what a guest may not change here is not in the form at all */
    locked: [] as string[],
  }
}


/** Marks a timeslot pick the registration already holds (a real token is 24 random characters). */
const KEPT = '__kept__'

/**
 * The guest's own choices count as free for them: a defined value they hold may be kept even when
 * it is sold out (it is given back and taken again in the same transaction).
 */
function ownPlacesFree(defs: FieldDef[], stored: Array<{ field_id: number; value: string }>, holding: boolean): FieldDef[] {
  if (!holding) return defs
  const mine = new Map<number, number>()
  for (const r of stored) {
    const f = defs.find((x) => x.id === r.field_id)
    if (!f || kindOf(f) !== 'SMARTLIST') continue
    for (const s of fromJson<Selection[]>(r.value, [])) mine.set(s.fieldValueId, (mine.get(s.fieldValueId) ?? 0) + s.amount)
  }
  if (!mine.size) return defs
  return defs.map((f) =>
    kindOf(f) !== 'SMARTLIST' ? f : { ...f, definedValues: f.definedValues.map((d) => (mine.has(d.id) && d.freeValue >= 0 ? { ...d, freeValue: d.freeValue + mine.get(d.id)! } : d)) },
  )
}

function picksOf(f: FieldDef, value: unknown) {
  const kind = kindOf(f)
  if (kind === 'SMARTLIST') return { values: (value as Selection[]) ?? [], slots: [] as SlotSelection[] }
  if (kind === 'TIMESLOT') return { values: [] as Selection[], slots: (value as SlotSelection[]) ?? [] }
  return { values: [] as Selection[], slots: [] as SlotSelection[] }
}

export async function changeRegistrationData(ctx: AppContext, guest: GuestActor, visitorId: number, input: DataChangeInput, language: string) {
  const now = ctx.clock.now()
  const { v, event } = await ownRegistration(ctx.db, guest, visitorId)
  if (!canEditData(event)) throw new AppError(409, 'DATA_CHANGE_NOT_ALLOWED')
  if (registrationExpired(event, now)) throw new AppError(409, 'REGISTRATION_EXPIRED')
  if (!EDITABLE.includes(v.status)) throw new AppError(409, 'STATUS_TRANSITION_NOT_ALLOWED', { params: { status: v.status } })
  const defs = ownPlacesFree(await formDefinitions(ctx.db, event), await ctx.db.selectFrom('visitor_field_value').select(['field_id', 'value']).where('visitor_id', '=', v.id).execute(), v.seats_held > 0)
  const fixedBefore = await ctx.db.selectFrom('timeslot_reservation').select(['timeslot_id', 'amount']).where('visitor_id', '=', v.id).where('fixed', '=', true as never).execute()
  const escorts = (await escortsOf(ctx.db, v.id)).map((e) => {
    const d = escortDto(e)
    return { ...d, birthday: d.birthday ?? null } as unknown as EscortData
  })
  let fields: Record<string, unknown> = { ...input.fields }
  // a slot the registration already holds needs no new reservation: marked as kept for the engine
  for (const f of defs) {
    const picks = fields[String(f.id)]
    if (kindOf(f) !== 'TIMESLOT' || !Array.isArray(picks)) continue
    fields[String(f.id)] = picks.map((p: any) => (p && !p.reservationToken && fixedBefore.some((r) => r.timeslot_id === Number(p.timeslotId) && r.amount === Number(p.amount ?? 1)) ? { ...p, reservationToken: KEPT } : p))
  }
  if (bool(event.lock_basic_data)) {
    const lock = await lockedBasicData(ctx.db, event, defs, guest.user.id)
    fields = { ...fields, ...((lock.values.fields as Record<string, unknown>) ?? {}) }
  }
  const data = { salutation: v.salutation, title: v.title, firstName: v.first_name, lastName: v.last_name, email: v.email, fields, escortPersons: escorts }
  const ev = evaluate(defs, data, formContext(event, now, { admin: false, vip: bool(v.vip), language }))
  // escorts are as stored (edited in the details dialog); only the form's own fields count here
  const problems = [...ev.missing, ...ev.invalid].filter((p) => !p.field.startsWith('escortPersons.'))
  if (problems.length) {
    throw new AppError(400, 'FIELD_ERROR', {
      fields: problems.map((p) => ({ field: p.field, errorType: p.errorType })),
      extra: { missingFields: problems.map((p) => ({ id: p.fieldId, field: p.field, displayName: p.displayName, errorType: p.errorType })) },
    })
  }
  const replaced = defs.filter(changeable)
  const replacedIds = replaced.map((f) => f.id)
  const byId = new Map(defs.map((f) => [f.id, f]))
  const fieldOfSlot = new Map<number, number>()
  for (const f of defs) for (const s of f.timeslots) fieldOfSlot.set(s.id, f.id)
  const rows: Array<{ field_id: number; data: string | null; value: string; asset_id: number | null }> = []
  const newValues: Array<{ field: string; fieldId: number } & Selection> = []
  const newSlots: Array<{ field: string } & SlotSelection> = []
  const assets: Array<{ field: string; assetId: number }> = []
  for (const f of replaced) {
    const value = ev.data.fields[String(f.id)]
    if (value === undefined) continue
    const kind = kindOf(f)
    const assetId = kind === 'IMAGE' || kind === 'FILE' ? (value as { assetId: number }).assetId : null
    if (assetId) assets.push({ field: `fields.${f.id}`, assetId })
    const p = picksOf(f, value)
    for (const x of p.values) newValues.push({ field: `fields.${f.id}`, fieldId: f.id, ...x })
    for (const x of p.slots) newSlots.push({ field: `fields.${f.id}`, ...x })
    rows.push({ field_id: f.id, data: valueText(f, value, 'de').slice(0, 2000), value: toJson(value), asset_id: assetId })
  }
  const valueOfCode = (code: string) => {
    const f = defs.find((x) => x.defaultField === code)
    const x: unknown = f ? ev.data.fields[String(f.id)] : undefined
    return typeof x === 'string' ? x : null
  }

  await ctx.db.transaction().execute(async (trx) => {
    const cur = await trx.selectFrom('event_visitor').select(['id', 'status', 'seats_held', 'user_id']).where('id', '=', v.id).executeTakeFirst()
    if (!cur || cur.user_id !== guest.user.id || cur.status !== v.status) throw new AppError(409, 'STATUS_CHANGED_MEANWHILE')
    const holding = cur.seats_held > 0
    const old = replacedIds.length ? await trx.selectFrom('visitor_field_value').selectAll().where('visitor_id', '=', v.id).where('field_id', 'in', replacedIds).execute() : []
    // uploads: a new file must be the guest's own, unclaimed upload of this agency
    for (const a of assets) {
      if (old.some((o) => o.asset_id === a.assetId)) continue
      // only an upload of this browser visit (as when registering): an asset id alone is guessable
      const r = await trx
        .updateTable('asset')
        .set({ visitor_id: v.id, event_id: event.id })
        .where('id', '=', a.assetId)
        .where('agency_id', '=', event.agency_id)
        .where('visitor_id', 'is', null)
        .where('owner_identification', '=', input.identification ?? '')
        .where(notExpired(now))
        .executeTakeFirst()
      if (Number(r.numUpdatedRows) !== 1) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: a.field, errorType: 'INVALID' }] })
    }
    if (holding) {
      // defined values: the old choices go back first, so keeping a value of a full list works
      for (const o of old) {
        const f = byId.get(o.field_id)
        if (!f || kindOf(f) !== 'SMARTLIST') continue
        for (const s of fromJson<Selection[]>(o.value, [])) {
          await trx
            .updateTable('field_value')
            .set((eb) => ({ taken: eb('taken', '-', s.amount) }))
            .where('id', '=', s.fieldValueId)
            .execute()
        }
      }
      for (const x of newValues) {
        const r = await trx
          .updateTable('field_value')
          .set((eb) => ({ taken: eb('taken', '+', x.amount) }))
          .where('id', '=', x.fieldValueId)
          .where('field_id', '=', x.fieldId)
          .where((eb) => eb.or([eb('capacity', '<', 0), eb(eb('taken', '+', x.amount), '<=', eb.ref('capacity'))]))
          .executeTakeFirst()
        if (Number(r.numUpdatedRows) !== 1) throw new AppError(409, 'FIELD_ERROR', { fields: [{ field: x.field, errorType: 'VALUE_UNAVAILABLE' }] })
      }
    }
    // timeslots: a kept slot stays fixed; a new one is the guest's registrationChange reservation
    const fixed = await trx.selectFrom('timeslot_reservation').select(['id', 'timeslot_id', 'amount']).where('visitor_id', '=', v.id).where('fixed', '=', true as never).execute()
    const keep = new Set<number>()
    for (const s of newSlots) {
      const same = fixed.find((r) => r.timeslot_id === s.timeslotId && r.amount === s.amount && !keep.has(r.id))
      if (same && (!s.reservationToken || s.reservationToken === KEPT)) {
        keep.add(same.id)
        continue
      }
      if (!holding) continue
      const r = await trx
        .updateTable('timeslot_reservation')
        .set({ fixed: true, visitor_id: v.id, expires_at: null })
        .where('token', '=', s.reservationToken ?? '')
        .where('timeslot_id', '=', s.timeslotId)
        .where('amount', '=', s.amount)
        .where('fixed', '=', NO)
        .where('expires_at', '>', isoNow(now))
        .executeTakeFirst()
      if (Number(r.numUpdatedRows) !== 1) throw new AppError(409, 'REGISTRATION_VALID_UNTIL_EXPIRED', { fields: [{ field: s.field, errorType: 'REGISTRATION_VALID_UNTIL_EXPIRED' }] })
    }
    for (const r of fixed) {
      const fieldId = fieldOfSlot.get(r.timeslot_id)
      if (keep.has(r.id) || fieldId === undefined || !replacedIds.includes(fieldId)) continue
      const gone = await trx.deleteFrom('timeslot_reservation').where('id', '=', r.id).executeTakeFirst()
      if (Number(gone.numDeletedRows) === 1) await releaseSlot(trx, r.timeslot_id, r.amount)
    }
    if (!holding) {
      // without a place the timed reservations are given back at once (as when registering onto the waiting list)
      for (const s of newSlots) {
        if (!s.reservationToken || s.reservationToken === KEPT) continue
        const held = await trx.selectFrom('timeslot_reservation').select(['id', 'timeslot_id', 'amount']).where('token', '=', s.reservationToken).where('fixed', '=', NO).executeTakeFirst()
        if (!held) continue
        const gone = await trx.deleteFrom('timeslot_reservation').where('id', '=', held.id).where('fixed', '=', NO).executeTakeFirst()
        if (Number(gone.numDeletedRows) === 1) await releaseSlot(trx, held.timeslot_id, held.amount)
      }
    }
    if (replacedIds.length) await trx.deleteFrom('visitor_field_value').where('visitor_id', '=', v.id).where('field_id', 'in', replacedIds).execute()
    if (rows.length) await trx.insertInto('visitor_field_value').values(rows.map((r) => ({ ...r, visitor_id: v.id, event_id: event.id }))).execute()
    const set: Record<string, unknown> = { updated_at: isoNow(now) }
    for (const [code, col] of [
      ['COMPANY', 'company'],
      ['POSITION', 'position'],
    ] as const) {
      if (replaced.some((f) => f.defaultField === code)) set[col] = valueOfCode(code)
    }
    if (replaced.some((f) => f.defaultField === 'PHONE_NUMBER' || f.defaultField === 'MOBILE_PHONE_NUMBER')) set.phone_number = valueOfCode('PHONE_NUMBER') ?? valueOfCode('MOBILE_PHONE_NUMBER')
    await trx.updateTable('event_visitor').set(set).where('id', '=', v.id).execute()
  })
  return registrationDetails(ctx, guest, visitorId, language)
}
