import type { Generated, Selectable } from 'kysely'
import type { GenBool, GenJson, Id, Json, Timestamp } from '../../db/types'

export type UserStatus = 'PENDING_ACTIVATION' | 'OK' | 'DUMMY'

export interface AppUserTable {
  id: Id
  /** always lower-case */
  email: string
  password_hash: string | null
  status: UserStatus
  language: Generated<string>
  design: string | null
  deletion_in_progress: GenBool
  password_changed_at: Timestamp | null
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
}
export type AppUserRow = Selectable<AppUserTable>

export interface AccountTable {
  id: Id
  user_id: number
  agency_id: number
  user_role: string
  status: Generated<string>
  salutation: string | null
  title: string | null
  first_name: string | null
  last_name: string | null
  company: string | null
  position: string | null
  web: string | null
  info: string | null
  street: string | null
  street_number: string | null
  post_code: string | null
  city: string | null
  country: string | null
  company_address: Json<unknown> | null
  birthday: string | null
  gender: string | null
  phone_number: string | null
  mobile_phone_number: string | null
  covid_state: string | null
  image_asset_id: number | null
  can_edit_account: GenBool
  require_deletion: GenBool
  final_deletion_date: Timestamp | null
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
}
export type AccountRow = Selectable<AccountTable>

export interface SessionTable {
  id: string
  secret_hash: string
  user_id: number
  account_id: number | null
  /** set between the password step and the two-factor step of a login */
  tfa_pending: GenBool
  created_at: Generated<Timestamp>
  last_verified_at: Generated<Timestamp>
  expires_at: Timestamp
  user_agent: string | null
  ip: string | null
}
export type SessionRow = Selectable<SessionTable>

export interface AccessTokenTable {
  id: string
  secret_hash: string
  user_id: number
  /** GUEST_ACCESS, DELETION_CONFIRM, TFA_EMAIL, … */
  purpose: string
  data: Json<unknown> | null
  uses: Generated<number>
  max_uses: number | null
  created_at: Generated<Timestamp>
  last_used_at: Timestamp | null
  expires_at: Timestamp
}
export type AccessTokenRow = Selectable<AccessTokenTable>

export interface IdentityTables {
  app_user: AppUserTable
  account: AccountTable
  session: SessionTable
  access_token: AccessTokenTable
}
