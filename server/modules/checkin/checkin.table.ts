import type { Generated, Selectable } from 'kysely'
import type { Id, Json, Timestamp } from '../../db/types'
import type { CheckinOfflineTables } from './offline.table'

export interface PresenceTable {
  id: Id
  visitor_id: number
  event_id: number
  /** 0 = main guest, n = escort person number n */
  person: number
  checkin_at: Timestamp
  checkout_at: Timestamp | null
  checkin_account_id: number | null
  checkout_account_id: number | null
  note: string | null
  origin: string
}
export type PresenceRow = Selectable<PresenceTable>

export interface CheckinRequestTable {
  nonce: string
  event_id: number
  status: number
  response: Json<unknown>
  created_at: Generated<Timestamp>
}

/**
 * The desk's live counts of an event, kept by database triggers in the transaction of every write
 * that changes them (migration 601): persons of CONFIRMED/APPEARED registrations, in now, out. Spread
 * over up to 16 shards per event (registration id % 16): the counts are the sums.
 */
export interface EventCheckinCountTable {
  event_id: number
  shard: number
  registered: Generated<number>
  checked_in: Generated<number>
  checked_out: Generated<number>
}

/** A check-in list of an event (docs/ticketing.md "Check-in lists"). */
export interface CheckinListTable {
  id: Id
  event_id: number
  name: string
  /** the ticket categories admitted; empty = all categories and guests without ticket */
  category_ids: Json<number[]>
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
}
export type CheckinListRow = Selectable<CheckinListTable>

/** One person in (or out again) on a check-in list (migration 2026-11-29-910). */
export interface CheckinListEntryTable {
  id: Id
  list_id: number
  visitor_id: number
  person: number
  checkin_at: Timestamp
  checkout_at: Timestamp | null
  checkin_account_id: number | null
}

export interface CheckinTables extends CheckinOfflineTables {
  checkin_list: CheckinListTable
  checkin_list_entry: CheckinListEntryTable
  presence: PresenceTable
  checkin_request: CheckinRequestTable
  event_checkin_count: EventCheckinCountTable
}
