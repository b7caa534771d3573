import type { Generated, Selectable } from 'kysely'
import type { Id, Timestamp } from '../../db/types'

/** One thing an organiser, an administrator or a login attempt did (append-only: see the migration). */
export interface AuditLogTable {
  id: Id
  agency_id: number | null
  created_at: Generated<Timestamp>
  actor_user_id: number | null
  actor_email: string | null
  actor_ip: string | null
  request_id: string | null
  action: string
  entity_type: string | null
  entity_id: string | null
  event_id: number | null
  /** JSON {field: [before, after]} */
  changes: string | null
  /** JSON */
  detail: string | null
}
export type AuditLogRow = Selectable<AuditLogTable>

export interface AuditTables {
  audit_log: AuditLogTable
}
