// Which accounts a session may use when agencies sign their staff in through their own OpenID
// provider (docs/identity.md, single sign-on). Rules, per organiser account of an agency:
// - the agency has its company login on and this session was not signed in through it:
//   requireSsoLogin (and newLogin: choosing goes through /proxy/auth/select, which starts that login);
// - this session was signed in through another agency's provider: requireLogout (that provider
//   vouches for its own agency only; the person signs out and in again, with a password or the other
//   agency's login).
// Guest roles are not staff: neither rule applies to them. Administrators (AGENCY_ADMIN) are not
// held to the company login either (they may still use it): with their password and two-factor they
// are the way back in when the provider is down or misconfigured, and the one who switches it on
// does not lock themselves out.
import type { Db } from '../../../db/database'
import { bool } from '../../../db/types'
import { isGuestRole } from '../roles'

export interface SsoRequirement {
  requireSsoLogin: boolean
  requireLogout: boolean
}

/** Agencies (of the given ids) whose company login is on. */
export async function ssoAgencies(db: Db, agencyIds: number[]): Promise<Set<number>> {
  if (!agencyIds.length) return new Set()
  const rows = await db.selectFrom('agency_sso').select(['agency_id', 'enabled']).where('agency_id', 'in', [...new Set(agencyIds)]).execute()
  return new Set(rows.filter((r) => bool(r.enabled)).map((r) => r.agency_id))
}

export function requirementOf(account: { agency_id: number; user_role: string }, sso: Set<number>, sessionSsoAgency: number | null | undefined): SsoRequirement {
  if (isGuestRole(account.user_role)) return { requireSsoLogin: false, requireLogout: false }
  const requireSsoLogin = sso.has(account.agency_id) && sessionSsoAgency !== account.agency_id && account.user_role !== 'AGENCY_ADMIN'
  const requireLogout = !requireSsoLogin && sessionSsoAgency != null && sessionSsoAgency !== account.agency_id
  return { requireSsoLogin, requireLogout }
}

/** The refusal for using an account in this session, or null when it may be used. */
export async function ssoRefusal(db: Db, account: { agency_id: number; user_role: string }, sessionSsoAgency: number | null | undefined): Promise<'SSO_LOGIN_REQUIRED' | 'SSO_LOGOUT_REQUIRED' | null> {
  if (isGuestRole(account.user_role)) return null
  // an administrator is never held to the company login, so only a logout can be in the way: no query
  const mayNeedSso = sessionSsoAgency !== account.agency_id && account.user_role !== 'AGENCY_ADMIN'
  const r = requirementOf(account, mayNeedSso ? await ssoAgencies(db, [account.agency_id]) : new Set(), sessionSsoAgency)
  return r.requireSsoLogin ? 'SSO_LOGIN_REQUIRED' : r.requireLogout ? 'SSO_LOGOUT_REQUIRED' : null
}
