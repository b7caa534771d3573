// The UI's navigation authorisation rules (ui/components/navigation-rules.ts): pure functions,
// tested here because the bun test root is server/.
import { describe, expect, test } from 'bun:test'
import {
  ACCOUNTS_PAGE,
  accountLink,
  filterAccounts,
  outcomeOfError,
  outcomeOfUser,
  recordFailure,
  refreshOutcome,
  showChangeRole,
} from '../../../ui/components/navigation-rules'

const admin = { currentAccount: { userRole: 'AGENCY_ADMIN' } }
const checkin = { currentAccount: { userRole: 'AGENCY_CHECKIN' } }
const guest = { currentAccount: { userRole: 'CP_PERSOO_VISITOR_GUEST' } }
const none = { currentAccount: null }

describe('navigation authorisation', () => {
  test('user not found → logout', () => {
    expect(outcomeOfError({ status: 401, errorType: 'USER_NOT_FOUND' }, [])).toEqual({ kind: 'logout' })
  })
  test('not authenticated → login; more than 2 failures within 5 s → logout', () => {
    let times: number[] = []
    const t0 = 1_000_000
    times = recordFailure(times, t0)
    expect(outcomeOfError({ status: 401, errorType: 'NOT_AUTHENTICATED' }, times)).toEqual({ kind: 'login' })
    times = recordFailure(times, t0 + 1000)
    expect(outcomeOfError({ status: 401, errorType: 'NOT_AUTHENTICATED' }, times).kind).toBe('login')
    times = recordFailure(times, t0 + 2000)
    expect(outcomeOfError({ status: 401, errorType: 'NOT_AUTHENTICATED' }, times)).toEqual({ kind: 'logout' })
    // failures older than 5 s do not count
    expect(recordFailure([t0, t0 + 1000, t0 + 2000], t0 + 5300)).toEqual([t0 + 1000, t0 + 2000, t0 + 5300])
    // the calls of one page view failing together are one failure, not three (a session that ended
    // elsewhere leads to the login page with the way back, not to a logout)
    let burst: number[] = []
    for (const dt of [0, 20, 45]) burst = recordFailure(burst, t0 + dt)
    expect(burst).toEqual([t0])
    expect(outcomeOfError({ status: 401, errorType: 'NOT_AUTHENTICATED' }, burst)).toEqual({ kind: 'login' })
  })
  test('no account selected → forget the stored account; then choose account', () => {
    expect(outcomeOfError({ status: 403, errorType: 'NO_ACCOUT_SELECTED' }, [])).toEqual({ kind: 'forgetAccount' })
    expect(outcomeOfUser(none, [], { account: true }, 'admin')).toEqual({ kind: 'chooseAccount' })
    expect(outcomeOfUser(none, [], {}, 'admin')).toEqual({ kind: 'ok' })
  })
  test('no permission or wrong subscription → no-permission page; loading failures too', () => {
    expect(outcomeOfError({ status: 403, errorType: 'NO_PERMISSION' }, [])).toEqual({ kind: 'noPermission', reason: 'NO_PERMISSION' })
    expect(outcomeOfError({ status: 403, errorType: 'WRONG_ABO' }, [])).toEqual({ kind: 'noPermission', reason: 'WRONG_ABO' })
    expect(outcomeOfError({ status: 500, errorType: 'INTERNAL_ERROR' }, [])).toEqual({ kind: 'noPermission', reason: 'LOAD_FAILED' })
    expect(outcomeOfUser(checkin, [], { account: true, permission: 'AGENCY.USERS' }, 'admin')).toEqual({ kind: 'noPermission', reason: 'NO_PERMISSION' })
    expect(outcomeOfUser(admin, [], { account: true, permission: 'AGENCY.USERS' }, 'admin')).toEqual({ kind: 'ok' })
    expect(outcomeOfUser(admin, [], { feature: 'MEDIA_GALLERY' }, 'admin')).toEqual({ kind: 'noPermission', reason: 'WRONG_ABO' })
    expect(outcomeOfUser(admin, ['MEDIA_GALLERY'], { feature: 'MEDIA_GALLERY' }, 'admin')).toEqual({ kind: 'ok' })
    expect(outcomeOfUser(checkin, [], { roles: ['AGENCY_ADMIN'] }, 'admin').kind).toBe('noPermission')
  })
  test('a guest-role account in the admin view goes to /guest; in the guest view permissions answer no', () => {
    expect(outcomeOfUser(guest, [], {}, 'admin')).toEqual({ kind: 'toGuest' })
    expect(outcomeOfUser(guest, [], {}, 'guest')).toEqual({ kind: 'ok' })
    expect(outcomeOfUser(admin, [], { permission: 'EVENT.VIEW' }, 'guest').kind).toBe('noPermission')
  })
  test('user refresh: reload after more than 2 failures in a row', () => {
    expect(refreshOutcome(1)).toBe('wait')
    expect(refreshOutcome(2)).toBe('wait')
    expect(refreshOutcome(3)).toBe('reload')
  })
})

describe('choose-account dialog', () => {
  const accounts = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, agency: { id: 100 + i, displayName: `Agentur ${i}`, internalName: i === 7 ? 'intern-sieben' : null }, userRole: 'AGENCY_EDITOR' }))
  test('a filter only above 5 accounts, by agency id, display or internal name', () => {
    expect(filterAccounts(accounts.slice(0, 5), 'nichts')).toHaveLength(5)
    expect(filterAccounts(accounts, 'agentur 4').map((a) => a.id)).toEqual([5, 41, 42, 43, 44, 45])
    expect(filterAccounts(accounts, 'SIEBEN').map((a) => a.id)).toEqual([8])
    expect(filterAccounts(accounts, '110').map((a) => a.id)).toEqual([11])
    expect(ACCOUNTS_PAGE).toBe(20)
  })
  test('guest accounts link to the guest dashboard, newLogin ones through /proxy', () => {
    expect(accountLink({ id: 3, agency: { id: 1, displayName: 'A', internalName: null }, userRole: 'CP_PERSOO_VISITOR_GUEST' })).toBe('/guest/dashboard')
    expect(accountLink({ id: 3, agency: { id: 1, displayName: 'A', internalName: null }, userRole: 'AGENCY_ADMIN', newLogin: true })).toBe('/proxy/auth/select/3')
    // signed in through another agency's company login: out first, then in again
    expect(accountLink({ id: 3, agency: { id: 1, displayName: 'A', internalName: null }, userRole: 'AGENCY_EDITOR', requireLogout: true })).toBe('/logout?redirect=%2Flogin')
    expect(accountLink({ id: 3, agency: { id: 1, displayName: 'A', internalName: null }, userRole: 'AGENCY_ADMIN' })).toBe('/auth/select/3')
  })
  test('"change role" only with more than one valid account', () => {
    expect(showChangeRole({ validAccounts: 1 })).toBe(false)
    expect(showChangeRole({ validAccounts: 2 })).toBe(true)
    expect(showChangeRole({})).toBe(false)
  })
})
