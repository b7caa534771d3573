import type { Selectable } from 'kysely'
import type { Id, Timestamp } from '../../db/types'

/** One hand-over of a registration to another person (transfer.ts); the organiser's history. */
export interface VisitorTransferTable {
  id: Id
  visitor_id: number
  event_id: number
  from_first_name: string | null
  from_last_name: string | null
  from_email: string | null
  to_first_name: string
  to_last_name: string
  to_email: string
  created_at: Timestamp
}
export type VisitorTransferRow = Selectable<VisitorTransferTable>

export interface GuestTables {
  visitor_transfer: VisitorTransferTable
}
