import type { Generated, Selectable } from 'kysely'
import type { GenJson, Id, Timestamp } from '../../db/types'

export interface ShortLinkTable {
  id: Id
  agency_id: number
  event_id: number
  code: string
  campaign_id: number | null
  tag_ids: GenJson<number[]>
  clicks: Generated<number>
  created_by_account_id: number | null
  created_at: Generated<Timestamp>
}
export type ShortLinkRow = Selectable<ShortLinkTable>

export interface ShortLinkTables {
  short_link: ShortLinkTable
}
