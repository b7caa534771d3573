import type { Selectable } from 'kysely'
import type { GenBool, Id, Timestamp } from '../../db/types'
import type { Generated } from 'kysely'

/** An uploaded file; the bytes live under <dataDir>/uploads/<storage_key> (encrypted unless encrypted = 0). */
export interface AssetTable {
  id: Id
  agency_id: number | null
  event_id: number | null
  visitor_id: number | null
  /** USER, EVENT, LOGO, BG, DYNAMIC_FILE, EVENT_GUEST */
  type: string
  original_file_name: string
  mime_type: string
  size_bytes: number
  /** bytes on disk for this asset including its sized variants */
  stored_bytes: Generated<number>
  width: number | null
  height: number | null
  encrypted: GenBool
  /** access checked on download (false: anyone with the id, e.g. public event images) */
  secure: GenBool
  store_own_media: GenBool
  owner_user_id: number | null
  /** the browser identification of an anonymous uploader (public registration form) */
  owner_identification: string | null
  /** hashed client address of an anonymous upload: its pool until a registration claims it */
  client_key?: string | null
  storage_key: string
  created_at: Generated<Timestamp>
}
export type AssetRow = Selectable<AssetTable>

export interface AssetTables {
  asset: AssetTable
}
