// The form builder's use cases: an event's fields (default set until the organiser first opens the
// builder), adding, editing, ordering and removing fields. Every change bumps event.form_version in
// the same transaction, which is what the per-database definition cache keys on.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { bool, fromJson, isoNow, toJson } from '../../db/types'
import { AppError, notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import { type DefaultFieldCode, type FieldDef, LOCKED_CODES, VIP_SOURCE, blankFieldDef, operatorsFor } from './definitions'
import { de } from './messages'
import type { FieldInput } from './model'
import { installPhoneParser } from './values'
import { phoneToE164 } from './phone'
import { loadFieldDefs } from './repository'

// The server validates phone numbers from the start (the browser loads the reader on demand).
installPhoneParser(phoneToE164)

interface DefaultSpec {
  code: DefaultFieldCode
  appearance: FieldDef['appearance']
  autocomplete?: string
}

/** The form every event starts with: basic data plus the escort settings (guest-side.md 3). */
export const DEFAULT_FORM: DefaultSpec[] = [
  { code: 'SALUTATION', appearance: 'REQUIRED', autocomplete: 'honorific-prefix' },
  { code: 'TITLE', appearance: 'VISIBLE', autocomplete: 'honorific-suffix' },
  { code: 'FIRST_NAME', appearance: 'REQUIRED', autocomplete: 'given-name' },
  { code: 'LAST_NAME', appearance: 'REQUIRED', autocomplete: 'family-name' },
  { code: 'EMAIL', appearance: 'REQUIRED', autocomplete: 'email' },
  { code: 'ESCORT_NAME', appearance: 'REQUIRED' },
  { code: 'ESCORT_SALUTATION', appearance: 'HIDDEN' },
  { code: 'ESCORT_TITLE', appearance: 'HIDDEN' },
  { code: 'ESCORT_EMAIL', appearance: 'HIDDEN' },
  { code: 'ESCORT_COMPANY', appearance: 'HIDDEN' },
  { code: 'ESCORT_POSITION', appearance: 'HIDDEN' },
  { code: 'ESCORT_PHONE_NUMBER', appearance: 'HIDDEN' },
  { code: 'ESCORT_WEB', appearance: 'HIDDEN' },
  { code: 'ESCORT_INFO', appearance: 'HIDDEN' },
  { code: 'ESCORT_ADDRESS', appearance: 'HIDDEN' },
  { code: 'ESCORT_BIRTHDAY', appearance: 'HIDDEN' },
  { code: 'ESCORT_COVID_STATE', appearance: 'HIDDEN' },
]

/** A default field's display name when it is created: its German name from the catalogue. */
export const defaultFieldName = (code: DefaultFieldCode): string => de[`defaultField.${code}`]

const emptyDef = (id: number, spec: DefaultSpec, sortOrder: number): FieldDef =>
  blankFieldDef({
    id,
    type: 'DYNAMIC_DEFAULT_FIELD',
    defaultField: spec.code,
    displayName: defaultFieldName(spec.code),
    appearance: spec.appearance,
    sortOrder,
    locked: LOCKED_CODES.includes(spec.code),
    autocomplete: spec.autocomplete ?? null,
  })

/** The default form before an organiser touched it (negative ids: nothing is stored yet). */
export const defaultDefs = (): FieldDef[] => DEFAULT_FORM.map((s, i) => emptyDef(-(i + 1), s, (i + 1) * 10))
// read-only like the cached definitions below: built once, not for every registration
let sharedDefaults: FieldDef[] | null = null
const sharedDefaultDefs = () => (sharedDefaults ??= defaultDefs())

/** The event's paid flag: set by ticketing through event options (docs/forms.md). */
/** Paid: the event has ticket categories (ticketing), or the older PAID_EVENT option. */
export const isPaidEvent = (e: Pick<EventRow, 'options' | 'is_paid'>) => bool(e.is_paid) || fromJson<string[]>(e.options, []).includes('PAID_EVENT')

// Field definitions change rarely and are read on every registration: cached per database, event
// and version. The cache belongs to the database (the Kysely adapter, which a transaction shares
// with its database): ids count from 1 in every database, so two databases in one process (test
// harnesses, a restore check) must never see each other's forms. Free counts are not part of the
// cache; capacity is decided by conditional updates when taking.
type DefsCache = Map<number, { version: number; defs: FieldDef[] }>
const caches = new WeakMap<object, DefsCache>()
const CACHE_MAX = 2000

function cacheOf(db: Db): DefsCache {
  const key = db.getExecutor().adapter
  let c = caches.get(key)
  if (!c) caches.set(key, (c = new Map()))
  return c
}

/** The event's field definitions for validation (cached; free counts are not current). */
export async function formDefinitions(db: Db, event: Pick<EventRow, 'id' | 'form_version'>): Promise<FieldDef[]> {
  if (event.form_version === 0) return sharedDefaultDefs()
  const cache = cacheOf(db)
  const hit = cache.get(event.id)
  if (hit && hit.version === event.form_version) return hit.defs
  const defs = (await loadFieldDefs(db, event.id)).map((f) => ({
    ...f,
    definedValues: f.definedValues.map((v) => ({ ...v, freeValue: -1 })),
    timeslots: f.timeslots.map((s) => ({ ...s, freeSlots: -1 })),
  }))
  if (cache.size >= CACHE_MAX) cache.clear()
  cache.set(event.id, { version: event.form_version, defs })
  return defs
}

/** The event's fields with current free counts (public form, builder). */
export async function liveDefinitions(db: Db, event: Pick<EventRow, 'id' | 'form_version'>): Promise<FieldDef[]> {
  return event.form_version === 0 ? defaultDefs() : loadFieldDefs(db, event.id)
}

/** Writes the default form once; a conditional update makes exactly one caller do it. */
async function materialize(trx: Db, eventId: number) {
  const won = await trx.updateTable('event').set({ form_version: 1 }).where('id', '=', eventId).where('form_version', '=', 0).executeTakeFirst()
  if (Number(won.numUpdatedRows) !== 1) return
  await trx
    .insertInto('event_field')
    .values(
      DEFAULT_FORM.map((s, i) => ({
        event_id: eventId,
        type: 'DYNAMIC_DEFAULT_FIELD',
        default_field: s.code,
        display_name: defaultFieldName(s.code),
        appearance: s.appearance,
        sort_order: (i + 1) * 10,
        locked: LOCKED_CODES.includes(s.code),
        autocomplete: s.autocomplete ?? null,
      })),
    )
    .execute()
}

const bump = (trx: Db, eventId: number, now: string) =>
  trx
    .updateTable('event')
    .set((eb) => ({ form_version: eb('form_version', '+', 1), updated_at: now }))
    .where('id', '=', eventId)
    .execute()

/** The builder's view: materialises the default form on first use. */
export async function builderFields(ctx: AppContext, event: EventRow) {
  if (event.form_version === 0) await ctx.db.transaction().execute((trx) => materialize(trx, event.id))
  const e = await ctx.db.selectFrom('event').select(['id', 'form_version', 'waiting_list', 'options', 'is_paid']).where('id', '=', event.id).executeTakeFirstOrThrow()
  return { formVersion: e.form_version, waitingList: bool(e.waiting_list), isPayedEvent: isPaidEvent(e), fields: await loadFieldDefs(ctx.db, event.id) }
}

function checkConditions(input: FieldInput, selfId: number | null, others: FieldDef[]) {
  input.conditions.forEach((c, i) => {
    if (c.fieldId === VIP_SOURCE) {
      if (!operatorsFor(VIP_SOURCE).includes(c.operator)) throw badField(`conditions.${i}.operator`, 'INVALID_CONDITION')
      return
    }
    const src = others.find((f) => f.id === c.fieldId)
    if (!src || src.id === selfId) throw badField(`conditions.${i}.fieldId`, 'INVALID_CONDITION')
    if (!operatorsFor(src).includes(c.operator)) throw badField(`conditions.${i}.operator`, 'INVALID_CONDITION')
  })
}

const badField = (field: string, errorType: string) => new AppError(400, 'FIELD_ERROR', { fields: [{ field, errorType }] })

function fieldColumns(input: FieldInput) {
  return {
    type: input.type,
    default_field: input.type === 'DYNAMIC_DEFAULT_FIELD' ? (input.defaultField ?? null) : null,
    display_name: input.displayName,
    translations: toJson(input.translations.filter((t) => t.displayName)),
    appearance: input.appearance,
    size: input.size,
    autocomplete: input.autocomplete,
    conditions: toJson(input.conditions),
    list_values: toJson(input.values),
    custom_value: input.customValue,
    multiple: input.multiple,
    amount_selection: input.amountSelection,
    max_per_guest: input.maxPerGuest,
    hide_unavailable: input.hideUnavailable,
    has_defined_groups: input.hasDefinedGroups,
    show_defined_groups_as_tabs: input.showDefinedGroupsAsTabs,
    defined_groups: toJson(input.definedGroups),
    settings: toJson(input.settings),
  }
}

/** Replaces a field's defined values / timeslots: update by id, insert new, delete the rest unless taken. */
async function syncChildren(trx: Db, eventId: number, fieldId: number, input: FieldInput) {
  const values = await trx.selectFrom('field_value').select(['id', 'taken']).where('field_id', '=', fieldId).execute()
  const keepV = new Set(input.definedValues.filter((v) => v.id).map((v) => v.id!))
  for (const v of values) {
    if (keepV.has(v.id)) continue
    if (v.taken > 0) throw new AppError(409, 'FIELD_IN_USE')
    await trx.deleteFrom('field_value').where('id', '=', v.id).execute()
  }
  for (const [i, v] of input.definedValues.entries()) {
    const cols = {
      display_name: v.displayName,
      description: v.description,
      translations: toJson(v.translations.filter((t) => t.displayName)),
      group_id: v.group ?? null,
      capacity: v.capacity,
      min_per_guest: v.minPerGuest,
      max_per_guest: v.maxPerGuest,
      sort_order: (i + 1) * 10,
    }
    if (v.id) {
      const existing = values.find((x) => x.id === v.id)
      if (!existing) throw badField(`definedValues.${i}.id`, 'INVALID')
      // A capacity below what guests already hold would turn into a negative ("unlimited") free count.
      const r = await trx
        .updateTable('field_value')
        .set(cols)
        .where('id', '=', v.id)
        .where((eb) => eb.or([eb.lit(v.capacity < 0), eb('taken', '<=', v.capacity)]))
        .executeTakeFirst()
      if (Number(r.numUpdatedRows) !== 1) throw badField(`definedValues.${i}.capacity`, 'CAPACITY_BELOW_TAKEN')
    } else await trx.insertInto('field_value').values({ ...cols, field_id: fieldId, event_id: eventId }).execute()
  }

  const slots = await trx.selectFrom('timeslot').select(['id', 'taken']).where('field_id', '=', fieldId).execute()
  const keepS = new Set(input.timeslots.filter((s) => s.id).map((s) => s.id!))
  for (const s of slots) {
    if (keepS.has(s.id)) continue
    if (s.taken > 0) throw new AppError(409, 'FIELD_IN_USE')
    await trx.deleteFrom('timeslot').where('id', '=', s.id).execute()
  }
  for (const [i, s] of input.timeslots.entries()) {
    const cols = {
      display_name: s.displayName,
      date_info: s.dateInfo,
      date_timezone_info: s.dateTimezoneInfo,
      group_id: s.groupId ?? null,
      capacity: s.capacity,
      sort_order: (i + 1) * 10,
    }
    if (s.id) {
      if (!slots.some((x) => x.id === s.id)) throw badField(`timeslots.${i}.id`, 'INVALID')
      const r = await trx
        .updateTable('timeslot')
        .set(cols)
        .where('id', '=', s.id)
        .where((eb) => eb.or([eb.lit(s.capacity < 0), eb('taken', '<=', s.capacity)]))
        .executeTakeFirst()
      if (Number(r.numUpdatedRows) !== 1) throw badField(`timeslots.${i}.capacity`, 'CAPACITY_BELOW_TAKEN')
    } else await trx.insertInto('timeslot').values({ ...cols, field_id: fieldId, event_id: eventId }).execute()
  }
}

async function findField(trx: Db, eventId: number, fieldId: number) {
  const f = await trx.selectFrom('event_field').selectAll().where('id', '=', fieldId).where('event_id', '=', eventId).executeTakeFirst()
  if (!f) throw notFound()
  return f
}

async function reload(trx: Db, eventId: number, fieldId: number): Promise<FieldDef> {
  return (await loadFieldDefs(trx, eventId)).find((f) => f.id === fieldId)!
}

export async function createField(ctx: AppContext, event: EventRow, input: FieldInput): Promise<FieldDef> {
  return ctx.db.transaction().execute(async (trx) => {
    await materialize(trx, event.id)
    const others = await loadFieldDefs(trx, event.id)
    if (input.defaultField && others.some((f) => f.defaultField === input.defaultField)) throw badField('defaultField', 'DUPLICATE')
    checkConditions(input, null, others)
    const now = isoNow(ctx.clock.now())
    const max = others.reduce((m, f) => Math.max(m, f.sortOrder), 0)
    const row = await trx
      .insertInto('event_field')
      .values({ ...fieldColumns(input), event_id: event.id, sort_order: max + 10, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    await syncChildren(trx, event.id, row.id, input)
    await bump(trx, event.id, now)
    return reload(trx, event.id, row.id)
  })
}

export async function updateField(ctx: AppContext, event: EventRow, fieldId: number, input: FieldInput): Promise<FieldDef> {
  return ctx.db.transaction().execute(async (trx) => {
    const existing = await findField(trx, event.id, fieldId)
    if (existing.type !== input.type || (existing.default_field ?? null) !== (input.type === 'DYNAMIC_DEFAULT_FIELD' ? (input.defaultField ?? null) : null)) {
      throw badField('type', 'TYPE_CHANGE_NOT_ALLOWED')
    }
    if (bool(existing.locked) && input.appearance !== 'REQUIRED') throw badField('appearance', 'FIELD_LOCKED')
    // The e-mail address is how a paying guest gets tickets and invoices: fixed for paid events.
    if (existing.default_field === 'EMAIL' && isPaidEvent(event) && input.appearance !== 'REQUIRED') throw badField('appearance', 'FIELD_LOCKED')
    checkConditions(input, fieldId, await loadFieldDefs(trx, event.id))
    const now = isoNow(ctx.clock.now())
    await trx.updateTable('event_field').set({ ...fieldColumns(input), updated_at: now }).where('id', '=', fieldId).execute()
    await syncChildren(trx, event.id, fieldId, input)
    await bump(trx, event.id, now)
    return reload(trx, event.id, fieldId)
  })
}

export async function deleteField(ctx: AppContext, event: EventRow, fieldId: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const existing = await findField(trx, event.id, fieldId)
    // The default form's fields are hidden rather than removed (the registration's columns need them).
    if (bool(existing.locked) || DEFAULT_FORM.some((d) => d.code === existing.default_field)) throw new AppError(409, 'FIELD_LOCKED')
    const heldV = await trx.selectFrom('field_value').select('id').where('field_id', '=', fieldId).where('taken', '>', 0).executeTakeFirst()
    const heldS = await trx.selectFrom('timeslot').select('id').where('field_id', '=', fieldId).where('taken', '>', 0).executeTakeFirst()
    if (heldV || heldS) throw new AppError(409, 'FIELD_IN_USE')
    await trx.deleteFrom('event_field').where('id', '=', fieldId).execute()
    // Conditions that read the removed field would otherwise silently stop restricting.
    const dependants = await trx.selectFrom('event_field').select(['id', 'conditions']).where('event_id', '=', event.id).execute()
    for (const d of dependants) {
      const conds = fromJson<FieldDef['conditions']>(d.conditions, [])
      const kept = conds.filter((c) => c.fieldId !== fieldId)
      if (kept.length !== conds.length) await trx.updateTable('event_field').set({ conditions: toJson(kept) }).where('id', '=', d.id).execute()
    }
    await bump(trx, event.id, isoNow(ctx.clock.now()))
  })
}

export async function reorderFields(ctx: AppContext, event: EventRow, ids: number[]): Promise<FieldDef[]> {
  return ctx.db.transaction().execute(async (trx) => {
    await materialize(trx, event.id)
    const rows = await trx.selectFrom('event_field').select('id').where('event_id', '=', event.id).execute()
    const known = new Set(rows.map((r) => r.id))
    if (ids.length !== known.size || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) throw badField('ids', 'INVALID')
    for (const [i, id] of ids.entries()) await trx.updateTable('event_field').set({ sort_order: (i + 1) * 10 }).where('id', '=', id).execute()
    await bump(trx, event.id, isoNow(ctx.clock.now()))
    return loadFieldDefs(trx, event.id)
  })
}

export async function updateFormSettings(ctx: AppContext, event: EventRow, input: { waitingList: boolean }) {
  await ctx.db.updateTable('event').set({ waiting_list: input.waitingList, updated_at: isoNow(ctx.clock.now()) }).where('id', '=', event.id).execute()
  return builderFields(ctx, event)
}
