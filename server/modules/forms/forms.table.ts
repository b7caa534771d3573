import type { Generated, Selectable } from 'kysely'
import type { GenBool, GenJson, Id, Json, Timestamp } from '../../db/types'
import type { Condition, DefinedGroup, FieldSettings, Translation } from './definitions'

export interface EventFieldTable {
  id: Id
  event_id: number
  type: string
  default_field: string | null
  display_name: string
  translations: GenJson<Translation[]>
  appearance: Generated<string>
  size: Generated<string>
  sort_order: Generated<number>
  locked: GenBool
  autocomplete: string | null
  conditions: GenJson<Condition[]>
  /** LIST options */
  list_values: GenJson<string[]>
  custom_value: GenBool
  multiple: GenBool
  amount_selection: GenBool
  max_per_guest: Generated<number>
  hide_unavailable: GenBool
  defined_groups: GenJson<DefinedGroup[]>
  has_defined_groups: GenBool
  show_defined_groups_as_tabs: GenBool
  settings: GenJson<FieldSettings>
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
}
export type EventFieldRow = Selectable<EventFieldTable>

/** A SMARTLIST's defined value; capacity -1 = unlimited, taken changes only by conditional updates. */
export interface FieldValueTable {
  id: Id
  field_id: number
  event_id: number
  display_name: string
  description: string | null
  translations: GenJson<Translation[]>
  group_id: string | null
  capacity: Generated<number>
  taken: Generated<number>
  min_per_guest: Generated<number>
  max_per_guest: Generated<number>
  sort_order: Generated<number>
}
export type FieldValueRow = Selectable<FieldValueTable>

/** A TIMESLOT field's slot; taken counts live reservations and registrations. */
export interface TimeslotTable {
  id: Id
  field_id: number
  event_id: number
  display_name: string
  date_info: string | null
  date_timezone_info: string | null
  group_id: string | null
  capacity: Generated<number>
  taken: Generated<number>
  sort_order: Generated<number>
}
export type TimeslotRow = Selectable<TimeslotTable>

/** Places held in a timeslot: timed (expires_at) until a registration fixes them to a visitor. */
export interface TimeslotReservationTable {
  id: Id
  token: string
  timeslot_id: number
  event_id: number
  identification: string
  amount: number
  registration_change: GenBool
  fixed: GenBool
  visitor_id: number | null
  expires_at: Timestamp | null
  created_at: Generated<Timestamp>
  /** hashed client address of a timed hold (null for holds made before it was recorded, and fixed admin picks) */
  client_key?: string | null
}
export type TimeslotReservationRow = Selectable<TimeslotReservationTable>

/** One field's value of one registration: `value` is the engine's normalised value as JSON, `data` a readable text. */
export interface VisitorFieldValueTable {
  id: Id
  visitor_id: number
  event_id: number
  field_id: number
  data: string | null
  value: Json<unknown>
  asset_id: number | null
}
export type VisitorFieldValueRow = Selectable<VisitorFieldValueTable>

export interface FormTables {
  event_field: EventFieldTable
  field_value: FieldValueTable
  timeslot: TimeslotTable
  timeslot_reservation: TimeslotReservationTable
  visitor_field_value: VisitorFieldValueTable
}
