import type { Selectable } from 'kysely'
import type { Timestamp } from '../../db/types'

/** Per agency: the logo on its documents and the wallet credentials (keys sealed, secret-box.ts). */
export interface DocumentSettingsTable {
  agency_id: number
  logo_asset_id: number | null
  apple_pass_type_id: string | null
  apple_team_id: string | null
  /** PEM of the Pass Type ID certificate */
  apple_certificate: string | null
  /** sealed PEM of its private key */
  apple_key_sealed: string | null
  apple_key_passphrase_sealed: string | null
  /** PEM of Apple's WWDR intermediate (G4) */
  apple_wwdr: string | null
  google_issuer_id: string | null
  /** the service account's e-mail (the JWT's iss) */
  google_service_account: string | null
  /** sealed PEM of the service account's RSA private key */
  google_key_sealed: string | null
  updated_at: Timestamp
}
export type DocumentSettingsRow = Selectable<DocumentSettingsTable>

export interface DocumentTables {
  document_settings: DocumentSettingsTable
}
