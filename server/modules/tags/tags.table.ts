import type { Generated, Selectable } from 'kysely'
import type { Id, Timestamp } from '../../db/types'

/** tag and campaign share one shape */
export interface LabelTable {
  id: Id
  agency_id: number
  /** DEFAULT, or LOCATION for tags */
  type: Generated<string>
  display_name: string
  group_name: string | null
  name: string
  name_key: string
  created_at: Generated<Timestamp>
}
export type LabelRow = Selectable<LabelTable>

export interface TagTables {
  tag: LabelTable
  campaign: LabelTable
  event_tag: { event_id: number; tag_id: number }
  event_campaign: { event_id: number; campaign_id: number }
  visitor_tag: { visitor_id: number; tag_id: number }
  visitor_campaign: { visitor_id: number; campaign_id: number }
}
