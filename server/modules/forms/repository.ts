// Queries of the forms domain: field definitions with their defined values and timeslots.
import type { Db } from '../../db/database'
import { bool, fromJson } from '../../db/types'
import type { Appearance, DefaultFieldCode, FieldDef, FieldSize, FieldType } from './definitions'
import type { EventFieldRow, FieldValueRow, TimeslotRow } from './forms.table'

export const freeOf = (r: { capacity: number; taken: number }) => (r.capacity < 0 ? -1 : Math.max(0, r.capacity - r.taken))

export function toFieldDef(f: EventFieldRow, values: FieldValueRow[], slots: TimeslotRow[]): FieldDef {
  return {
    id: f.id,
    type: f.type as FieldType,
    defaultField: (f.default_field as DefaultFieldCode | null) ?? null,
    displayName: f.display_name,
    translations: fromJson(f.translations, []),
    appearance: f.appearance as Appearance,
    size: f.size as FieldSize,
    sortOrder: f.sort_order,
    locked: bool(f.locked),
    autocomplete: f.autocomplete,
    conditions: fromJson(f.conditions, []),
    values: fromJson(f.list_values, []),
    customValue: bool(f.custom_value),
    multiple: bool(f.multiple),
    amountSelection: bool(f.amount_selection),
    maxPerGuest: f.max_per_guest,
    hideUnavailable: bool(f.hide_unavailable),
    definedGroups: fromJson(f.defined_groups, []),
    hasDefinedGroups: bool(f.has_defined_groups),
    showDefinedGroupsAsTabs: bool(f.show_defined_groups_as_tabs),
    settings: fromJson(f.settings, {}),
    definedValues: values
      .filter((v) => v.field_id === f.id)
      .sort((a, b) => a.sort_order - b.sort_order || a.id - b.id)
      .map((v) => ({
        id: v.id,
        displayName: v.display_name,
        description: v.description,
        translations: fromJson(v.translations, []),
        group: v.group_id,
        capacity: v.capacity,
        freeValue: freeOf(v),
        minPerGuest: v.min_per_guest,
        maxPerGuest: v.max_per_guest,
        sortOrder: v.sort_order,
      })),
    timeslots: slots
      .filter((s) => s.field_id === f.id)
      .sort((a, b) => a.sort_order - b.sort_order || a.id - b.id)
      .map((s) => ({
        id: s.id,
        displayName: s.display_name,
        dateInfo: s.date_info,
        dateTimezoneInfo: s.date_timezone_info,
        groupId: s.group_id,
        capacity: s.capacity,
        freeSlots: freeOf(s),
        sortOrder: s.sort_order,
      })),
  }
}

/** All fields of an event in form order, with live free counts. */
export async function loadFieldDefs(db: Db, eventId: number): Promise<FieldDef[]> {
  const [fields, values, slots] = await Promise.all([
    db.selectFrom('event_field').selectAll().where('event_id', '=', eventId).orderBy('sort_order').orderBy('id').execute(),
    db.selectFrom('field_value').selectAll().where('event_id', '=', eventId).execute(),
    db.selectFrom('timeslot').selectAll().where('event_id', '=', eventId).execute(),
  ])
  return fields.map((f) => toFieldDef(f, values, slots))
}
