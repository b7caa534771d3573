import type { Generated, Selectable } from 'kysely'
import type { Bool, GenBool, GenJson, Id, Json, Timestamp } from '../../db/types'

export type UserStatus = 'PENDING_ACTIVATION' | 'OK' | 'DUMMY'

export interface AppUserTable {
  id: Id
  /** always lower-case */
  email: string
  password_hash: string | null
  status: UserStatus
  language: Generated<string>
  design: string | null
  /** the user asked to delete the whole user (all accounts) */
  deletion_in_progress: GenBool
  /** the user's deletion was confirmed by mail; erased after final_deletion_date */
  require_deletion: GenBool
  final_deletion_date: Timestamp | null
  deletion_reason: string | null
  /** JSON array of hashed user agents this user logged in with (newest last) */
  known_devices: GenJson<string[]>
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
  /** marked for deletion by the user, waiting for the mailed confirmation (or confirmed) */
  deletion_in_progress: GenBool
  /** deletion confirmed: erased after final_deletion_date unless revoked before */
  require_deletion: GenBool
  final_deletion_date: Timestamp | null
  deletion_reason: string | null
  invited_at: Timestamp | null
  invited_by_user_id: number | null
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
  /** opened by a guest link in a mail, not by a login: see guest/link-session.ts */
  via_link: GenBool
  created_at: Generated<Timestamp>
  last_verified_at: Generated<Timestamp>
  expires_at: Timestamp
  user_agent: string | null
  ip: string | null
  /** the agency whose OpenID provider signed this session in (identity/sso), null for a password login */
  sso_agency_id: Generated<number | null>
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

export type TfaType = 'OTP' | 'EMAIL'

export interface UserTfaTable {
  id: Id
  user_id: number
  display_name: string
  tfa_type: TfaType
  /** base32 TOTP secret, encrypted with the data dir's key (null for EMAIL) */
  secret: string | null
  enabled: GenBool
  linked: GenBool
  /** the last TOTP time step accepted, so a code cannot be replayed */
  last_used_step: number | null
  created_at: Generated<Timestamp>
}
export type UserTfaRow = Selectable<UserTfaTable>

/** One-time two-factor recovery codes (SHA-256 of the code; used_at once spent). */
export interface UserTfaRecoveryTable {
  id: Id
  user_id: number
  code_hash: string
  used_at: Timestamp | null
  created_at: Generated<Timestamp>
}

export type NotificationScope = 'USER' | 'ACCOUNT' | 'EVENT'

export interface NotificationSettingTable {
  id: Id
  user_id: number
  scope: NotificationScope
  /** account or event id; 0 for the user's own settings */
  scope_id: number
  code: string
  /** null: inherit from the level above */
  enabled: Bool | null
}

export interface UserIntroductionTable {
  user_id: number
  key: string
  created_at: Generated<Timestamp>
}

export interface RateLimitTable {
  bucket: string
  window_start: Timestamp
  hits: number
}

export interface IdentityTables {
  app_user: AppUserTable
  account: AccountTable
  session: SessionTable
  access_token: AccessTokenTable
  user_tfa: UserTfaTable
  user_tfa_recovery: UserTfaRecoveryTable
  notification_setting: NotificationSettingTable
  user_introduction: UserIntroductionTable
  rate_limit: RateLimitTable
  agency_sso: AgencySsoTable
  sso_login_state: SsoLoginStateTable
}

/** An agency's OpenID Connect provider for staff logins (docs/identity.md, single sign-on). */
export interface AgencySsoTable {
  agency_id: number
  enabled: GenBool
  issuer: string
  client_id: string
  client_secret_sealed: string
  /** JSON array of lower-case e-mail domains */
  allowed_domains: string
  /** role of a new account made at first SSO login; null = existing accounts only */
  new_user_role: string | null
  updated_at: Generated<Timestamp>
}
export type AgencySsoRow = Selectable<AgencySsoTable>

export interface SsoLoginStateTable {
  state: string
  agency_id: number
  nonce: string
  code_verifier: string
  redirect: string | null
  account_id: number | null
  created_at: Timestamp
  used_at: Timestamp | null
}
