import type { Generated, Selectable } from 'kysely'
import type { Id, Timestamp } from '../../db/types'

/** A category of an agency's media gallery (listed as a gallery with its entry count). */
export interface MediaCategoryTable {
  id: Id
  agency_id: number
  display_name: string
  created_at: Generated<Timestamp>
}

/** An image in the gallery: an asset of the agency with its caption data and validity window. */
export interface MediaEntryTable {
  id: Id
  agency_id: number
  category_id: number
  asset_id: number
  display_name: string
  copyright: string | null
  note: string | null
  /** null: valid since always / for ever */
  valid_from: Timestamp | null
  valid_until: Timestamp | null
  last_modified: Generated<Timestamp>
}

export type MediaCategoryRow = Selectable<MediaCategoryTable>
export type MediaEntryRow = Selectable<MediaEntryTable>

export interface MediaTables {
  media_category: MediaCategoryTable
  media_entry: MediaEntryTable
}
