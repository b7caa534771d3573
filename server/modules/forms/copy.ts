// Copying an event copies its registration form (registered as an onEventCopied hook in index.ts):
// fields with translations, settings, list values, defined groups and values, timeslots, and the
// conditions remapped to the copy's ids. Places start empty: nothing taken, no reservations.
import type { Db } from '../../db/database'
import { bool, fromJson, isoNow, toJson } from '../../db/types'
import { type Condition, VIP_SOURCE } from './definitions'

export async function copyEventForm(trx: Db, fromEventId: number, toEventId: number, now: Date): Promise<void> {
  const fields = await trx.selectFrom('event_field').selectAll().where('event_id', '=', fromEventId).orderBy('sort_order').orderBy('id').execute()
  // An untouched form lives in memory (form_version 0, copied with the event): nothing to copy.
  if (!fields.length) return
  const values = await trx.selectFrom('field_value').selectAll().where('event_id', '=', fromEventId).orderBy('id').execute()
  const slots = await trx.selectFrom('timeslot').selectAll().where('event_id', '=', fromEventId).orderBy('id').execute()
  const at = isoNow(now)
  const fieldIds = new Map<number, number>()
  const valueIds = new Map<number, number>()
  const slotIds = new Map<number, number>()
  for (const f of fields) {
    const row = await trx
      .insertInto('event_field')
      .values({
        event_id: toEventId,
        type: f.type,
        default_field: f.default_field,
        display_name: f.display_name,
        translations: f.translations,
        appearance: f.appearance,
        size: f.size,
        sort_order: f.sort_order,
        locked: bool(f.locked),
        autocomplete: f.autocomplete,
        conditions: '[]', // written below, once every field has its new id
        list_values: f.list_values,
        custom_value: bool(f.custom_value),
        multiple: bool(f.multiple),
        amount_selection: bool(f.amount_selection),
        max_per_guest: f.max_per_guest,
        hide_unavailable: bool(f.hide_unavailable),
        defined_groups: f.defined_groups,
        has_defined_groups: bool(f.has_defined_groups),
        show_defined_groups_as_tabs: bool(f.show_defined_groups_as_tabs),
        settings: f.settings,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    fieldIds.set(f.id, row.id)
  }
  for (const v of values) {
    const field = fieldIds.get(v.field_id)
    if (field === undefined) continue
    const row = await trx
      .insertInto('field_value')
      .values({
        field_id: field,
        event_id: toEventId,
        display_name: v.display_name,
        description: v.description,
        translations: v.translations,
        group_id: v.group_id,
        capacity: v.capacity,
        taken: 0,
        min_per_guest: v.min_per_guest,
        max_per_guest: v.max_per_guest,
        sort_order: v.sort_order,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    valueIds.set(v.id, row.id)
  }
  for (const s of slots) {
    const field = fieldIds.get(s.field_id)
    if (field === undefined) continue
    const row = await trx
      .insertInto('timeslot')
      .values({
        field_id: field,
        event_id: toEventId,
        display_name: s.display_name,
        date_info: s.date_info,
        date_timezone_info: s.date_timezone_info,
        group_id: s.group_id,
        capacity: s.capacity,
        taken: 0,
        sort_order: s.sort_order,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    slotIds.set(s.id, row.id)
  }
  // Conditions name a field by id and, for defined values and timeslots, the chosen one by id too.
  const typeOf = new Map(fields.map((f) => [f.id, f.type]))
  for (const f of fields) {
    const conditions = fromJson<Condition[]>(f.conditions, [])
    if (!conditions.length) continue
    const mapped = conditions.flatMap((c): Condition[] => {
      if (c.fieldId === VIP_SOURCE) return [c]
      const fieldId = fieldIds.get(c.fieldId)
      if (fieldId === undefined) return []
      const ids = typeOf.get(c.fieldId) === 'SMARTLIST' ? valueIds : typeOf.get(c.fieldId) === 'TIMESLOT' ? slotIds : null
      if (!ids || c.value == null || c.value === '') return [{ ...c, fieldId }]
      const value = ids.get(Number(c.value))
      return [{ ...c, fieldId, value: value === undefined ? c.value : typeof c.value === 'number' ? value : String(value) }]
    })
    await trx.updateTable('event_field').set({ conditions: toJson(mapped) }).where('id', '=', fieldIds.get(f.id)!).execute()
  }
}
