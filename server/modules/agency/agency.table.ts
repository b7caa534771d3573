import type { Generated, Selectable } from 'kysely'
import type { Id, Timestamp } from '../../db/types'

export interface AgencyTable {
  id: Id
  display_name: string
  internal_name: string | null
  agency_type: Generated<string>
  contact_guest: string | null
  contact_guest_phone: string | null
  contact_guest_mail: string | null
  /** OK or PAUSED */
  status: Generated<string>
  /** the imprint and privacy texts or addresses the guest pages link (help module) */
  imprint_text: string | null
  imprint_url: string | null
  privacy_text: string | null
  privacy_url: string | null
  /** the agency's logo (an image asset of the agency): guest pages' header, public event page */
  logo_asset_id: number | null
  created_at: Generated<Timestamp>
}
export type AgencyRow = Selectable<AgencyTable>

export interface AgencyTables {
  agency: AgencyTable
}
