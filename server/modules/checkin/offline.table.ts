// Tables of the offline desk (migration 2026-11-29-920, docs/checkin-offline.md).
import type { Generated, Selectable } from 'kysely'
import type { Id, Timestamp } from '../../db/types'

/** A desk registered for an event (a tablet or phone that may work offline). */
export interface CheckinDeskTable {
  id: Id
  event_id: number
  account_id: number | null
  name: string
  created_at: Generated<Timestamp>
}
export type CheckinDeskRow = Selectable<CheckinDeskTable>

/** The key that encrypts a desk's local copy, bound to the login session that registered the desk. */
export interface CheckinDeskKeyTable {
  desk_id: number
  session_id: string
  key: string
}

/** One queued check-in/out a desk sent, with its answer (unique per desk and idempotency key). */
export interface CheckinSyncItemTable {
  id: Id
  desk_id: number
  key: string
  event_id: number
  visitor_id: number
  person: number
  action: string
  at: Timestamp
  list_id: number | null
  result: string
  reason: string | null
  conflict_id: number | null
  created_at: Generated<Timestamp>
}

/** Two admissions of one person without a check-out between: the first by time is kept. */
export interface CheckinConflictTable {
  id: Id
  event_id: number
  visitor_id: number
  person: number
  list_id: number | null
  /** null: the online desk or self check-in */
  first_desk_id: number | null
  first_at: Timestamp
  second_desk_id: number | null
  second_at: Timestamp
  created_at: Generated<Timestamp>
  seen_at: Timestamp | null
  seen_account_id: number | null
}
export type CheckinConflictRow = Selectable<CheckinConflictTable>

/** The change feed: one row per change of a registration a desk sees (written by triggers). */
export interface CheckinChangeTable {
  id: Id
  event_id: number
  visitor_id: number
  /** Postgres only: the writing transaction's id */
  tx: Generated<number>
}

export interface CheckinOfflineTables {
  checkin_desk: CheckinDeskTable
  checkin_desk_key: CheckinDeskKeyTable
  checkin_sync_item: CheckinSyncItemTable
  checkin_conflict: CheckinConflictTable
  checkin_change: CheckinChangeTable
}
