import type { Generated, Selectable } from 'kysely'
import type { GenJson, Id, Json, Timestamp } from '../../db/types'

export type TaskStatus = 'WAIT' | 'RUNNING' | 'FINISHED' | 'ERROR'

export interface TaskTable {
  id: Id
  agency_id: number | null
  account_id: number | null
  kind: string
  status: Generated<TaskStatus>
  current_count: Generated<number>
  total_count: Generated<number>
  error_count: Generated<number>
  state: string | null
  payload: GenJson<unknown>
  result: Json<unknown> | null
  /** progress checkpoint (JSON) written in the transaction of the step it records; null before the first */
  checkpoint: Json<unknown> | null
  attempts: Generated<number>
  run_after: Generated<Timestamp>
  locked_until: Timestamp | null
  /** the id of the request that queued it (its log lines carry it); null outside a request */
  request_id: Generated<string | null>
  created_at: Generated<Timestamp>
  started_at: Timestamp | null
  finished_at: Timestamp | null
}
export type TaskRow = Selectable<TaskTable>

export interface TaskTables {
  task: TaskTable
}
