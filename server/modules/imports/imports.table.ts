import type { Generated, Selectable } from 'kysely'
import type { Id, Timestamp } from '../../db/types'

export interface ImportFileTable {
  id: Id
  agency_id: number
  event_id: number
  account_id: number | null
  file_name: string
  content: string
  delimiter: string
  row_count: number
  created_at: Generated<Timestamp>
}
export type ImportFileRow = Selectable<ImportFileTable>

export interface ImportTables {
  import_file: ImportFileTable
}
