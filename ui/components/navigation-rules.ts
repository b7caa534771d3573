// Navigation authorisation (agency-side 4, guest-side 4), as pure rules so they can be tested
// without a browser: what to do with the answer of the user-details call for a route.
import { type Permission, can, isGuestRole } from '../../server/modules/identity/roles'

/** Spec 9: logout after more than 2 failures within 5 s; user refresh every 60 s, reload after more than 2 failures. */
export const LOGIN_FAILURE_WINDOW_MS = 5000
export const MAX_LOGIN_FAILURES = 2
export const USER_REFRESH_MS = 60_000
export const MAX_REFRESH_FAILURES = 2

export interface RouteSecurity {
  /** the route needs a selected account (organiser pages; not the account area) */
  account?: boolean
  /** a permission of the current account's role */
  permission?: Permission
  /** a licensed feature */
  feature?: string
  /** roles allowed (any when absent) */
  roles?: readonly string[]
}

export type Outcome =
  | { kind: 'ok' }
  /** end the session (and go to the login page) */
  | { kind: 'logout' }
  | { kind: 'login' }
  /** the stored account header named an account that is no longer valid: forget it, load again */
  | { kind: 'forgetAccount' }
  | { kind: 'chooseAccount' }
  | { kind: 'noPermission'; reason: 'NO_PERMISSION' | 'WRONG_ABO' | 'LOAD_FAILED' }
  /** a guest-role account in the admin view */
  | { kind: 'toGuest' }

/** Keeps the failure times of the last window and adds this one. */
/** Failures this close together are one: the calls one page view fires at once all fail together. */
export const FAILURE_BURST_MS = 300

export function recordFailure(times: readonly number[], now: number): number[] {
  const live = times.filter((t) => now - t < LOGIN_FAILURE_WINDOW_MS)
  const last = live.at(-1)
  return last !== undefined && now - last < FAILURE_BURST_MS ? live : [...live, now]
}

/** What a failed user-details call means. */
export function outcomeOfError(err: { status: number; errorType: string }, failureTimes: readonly number[]): Outcome {
  switch (err.errorType) {
    case 'USER_NOT_FOUND':
      return { kind: 'logout' }
    case 'NOT_AUTHENTICATED':
      return failureTimes.length > MAX_LOGIN_FAILURES ? { kind: 'logout' } : { kind: 'login' }
    case 'NO_ACCOUT_SELECTED':
      return { kind: 'forgetAccount' }
    case 'NO_PERMISSION':
    case 'WRONG_ABO':
      return { kind: 'noPermission', reason: err.errorType }
    default:
      return err.status === 401 ? (failureTimes.length > MAX_LOGIN_FAILURES ? { kind: 'logout' } : { kind: 'login' }) : { kind: 'noPermission', reason: 'LOAD_FAILED' }
  }
}

export interface LoadedUser {
  currentAccount: { userRole: string; permissions?: readonly string[] } | null
}

/** What a loaded user may do on a route of the admin view or the guest view. */
export function outcomeOfUser(user: LoadedUser, features: readonly string[], route: RouteSecurity, view: 'admin' | 'guest'): Outcome {
  const account = user.currentAccount
  if (view === 'admin' && account && isGuestRole(account.userRole)) return { kind: 'toGuest' }
  if (route.account && !account) return { kind: 'chooseAccount' }
  if (route.feature && !features.includes(route.feature)) return { kind: 'noPermission', reason: 'WRONG_ABO' }
  if (route.roles && (!account || !route.roles.includes(account.userRole))) return { kind: 'noPermission', reason: 'NO_PERMISSION' }
  // in the guest application every permission check answers no
  if (route.permission && (view === 'guest' || !account || !can(account.userRole, route.permission))) return { kind: 'noPermission', reason: 'NO_PERMISSION' }
  return { kind: 'ok' }
}

/** The periodic refresh: after more than MAX_REFRESH_FAILURES failures in a row the page reloads. */
export function refreshOutcome(consecutiveFailures: number): 'wait' | 'reload' {
  return consecutiveFailures > MAX_REFRESH_FAILURES ? 'reload' : 'wait'
}

export interface SwitchableAccount {
  id: number
  agency: { id: number; displayName: string | null; internalName: string | null }
  userRole: string
  status?: string
  newLogin?: boolean
  requireSsoLogin?: boolean
  requireLogout?: boolean
}

/** Choose-account list: a filter only above 5 accounts, matching agency id, display or internal name. */
export const FILTER_ABOVE = 5
export const ACCOUNTS_PAGE = 20
export function filterAccounts<T extends SwitchableAccount>(accounts: readonly T[], filter: string): T[] {
  const q = filter.trim().toLowerCase()
  if (!q || accounts.length <= FILTER_ABOVE) return [...accounts]
  return accounts.filter((a) => String(a.agency.id) === q || (a.agency.displayName ?? '').toLowerCase().includes(q) || (a.agency.internalName ?? '').toLowerCase().includes(q))
}

/**
 * Where picking an account leads: guest accounts to the guest dashboard, newLogin ones through /proxy
 * (which starts the agency's company login), ones that need a logout first (signed in through another
 * agency's company login) to the logout and the login page.
 */
export function accountLink(a: SwitchableAccount): string {
  if (isGuestRole(a.userRole)) return '/guest/dashboard'
  if (a.requireLogout) return '/logout?redirect=%2Flogin'
  return a.newLogin ? `/proxy/auth/select/${a.id}` : `/auth/select/${a.id}`
}

/** "change role" only when the user has an account and more than one valid (activated) account. */
export function showChangeRole(user: { validAccounts?: number }): boolean {
  return (user.validAccounts ?? 0) > 1
}
