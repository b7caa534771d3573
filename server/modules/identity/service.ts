// Login (password, then two-factor when a method is enabled), first-start setup.
import { sql } from 'kysely'
import type { AppContext } from '../../context'
import { audit } from '../audit/service'
import type { Db } from '../../db/database'
import { fromJson, isoNow, toJson } from '../../db/types'
import { AppError } from '../../shared/errors'
import { effectiveSetting } from '../notification-settings/service'
import type { AccountRow, AppUserRow, SessionRow } from './identity.table'
import { mailNewDevice } from './mails'
import type { LoginBody, SetupBody } from './model'
import { hashPassword, verifyPassword } from './passwords'
import { forgive, throttle } from './rate-limit'
import { type AccountWithAgency, countUsers, findUserByEmail, findUserById, insertUser, listAccountsOfUser } from './repository'
import { ORGANISER_ROLES, isGuestRole } from './roles'
import { createSession, invalidateSession, validateSessionToken } from './session'
import { requirementOf, ssoAgencies } from './sso/policy'
import { enabledMethods, verifyLoginCode } from './tfa'
import { hashSecret } from './tokens'

export { hashPassword, verifyPassword } from './passwords'

/** Serialises first-start setup between concurrent requests and processes. */
async function lockSetup(ctx: AppContext, trx: Db) {
  if (ctx.dialect === 'postgres') await sql`select pg_advisory_xact_lock(4242001)`.execute(trx)
}

export async function createAgencyWithAdmin(
  ctx: AppContext,
  input: SetupBody,
  opts: { onlyIfNoUser: boolean },
): Promise<{ user: AppUserRow; account: AccountRow }> {
  const passwordHash = await hashPassword(input.password)
  return ctx.db.transaction().execute(async (trx) => {
    await lockSetup(ctx, trx)
    if (opts.onlyIfNoUser && (await countUsers(trx)) > 0) throw new AppError(409, 'SETUP_DONE')
    if (await findUserByEmail(trx, input.email)) throw new AppError(409, 'EMAIL_TAKEN', { fields: [{ field: 'email', errorType: 'EMAIL_TAKEN' }] })
    const agency = await trx.insertInto('agency').values({ display_name: input.agencyName }).returningAll().executeTakeFirstOrThrow()
    const user = await insertUser(trx, { email: input.email, password_hash: passwordHash, status: 'OK', language: ctx.config.i18n.language })
    const account = await trx
      .insertInto('account')
      .values({ user_id: user.id, agency_id: agency.id, user_role: 'AGENCY_ADMIN', first_name: input.firstName, last_name: input.lastName })
      .returningAll()
      .executeTakeFirstOrThrow()
    return { user, account }
  })
}

export async function setupRequired(ctx: AppContext) {
  return (await countUsers(ctx.db)) === 0
}

export interface LoginMeta {
  userAgent: string | null
  ip: string | null
}

/** How long the step between password and two-factor code may take. */
export const TFA_PENDING_MS = 10 * 60_000

export type LoginResult =
  | { kind: 'done'; token: string; session: SessionRow; user: AppUserRow; accounts: AccountWithAgency[] }
  | { kind: 'tfa'; token: string; session: SessionRow; user: AppUserRow; methods: Array<{ id: number; displayName: string; twoFactorType: string }> }

/**
 * Checks the password. Without an enabled two-factor method the session is opened; with one, a
 * short pending session waits for the code (loginSecondStep). Wrong e-mail and wrong password are
 * one answer, and both cost one Argon2 verification.
 */
export async function login(ctx: AppContext, input: LoginBody, meta: LoginMeta): Promise<LoginResult> {
  const checks: Array<['LOGIN_ACCOUNT' | 'LOGIN_ADDRESS', string | null]> = [
    ['LOGIN_ACCOUNT', input.email],
    ['LOGIN_ADDRESS', meta.ip],
  ]
  await throttle(ctx, checks)
  const user = await findUserByEmail(ctx.db, input.email)
  const ok = await verifyPassword(user, input.password)
  if (!ok || !user) {
    if (user) await auditStaff(ctx, user, 'auth.login.failed')
    throw new AppError(401, 'INVALID_CREDENTIALS')
  }
  await forgive(ctx, checks)
  const methods = await enabledMethods(ctx.db, user.id)
  if (methods.length) {
    const { token, session } = await createSession(ctx, user.id, { tfaPending: true, lifetimeMs: TFA_PENDING_MS, userAgent: meta.userAgent, ip: meta.ip })
    return { kind: 'tfa', token, session, user, methods: methods.map((m) => ({ id: m.id, displayName: m.display_name, twoFactorType: m.tfa_type })) }
  }
  return completeLogin(ctx, user, meta)
}

/** The pending session of a login that waits for its two-factor code, or null. */
export async function pendingLogin(ctx: AppContext, cookieToken: string | null): Promise<{ session: SessionRow; user: AppUserRow } | null> {
  const v = await validateSessionToken(ctx, cookieToken)
  if (!v || !v.session.tfa_pending) return null
  const user = await findUserById(ctx.db, v.session.user_id)
  return user ? { session: v.session, user } : null
}

export async function loginSecondStep(ctx: AppContext, cookieToken: string | null, code: string, methodId: number | undefined, meta: LoginMeta) {
  const pending = await pendingLogin(ctx, cookieToken)
  if (!pending) throw new AppError(401, 'NOT_AUTHENTICATED')
  if (!(await verifyLoginCode(ctx, pending.user, code, methodId, meta.ip))) {
    await auditStaff(ctx, pending.user, 'auth.tfa.failed')
    throw new AppError(400, 'TFA_TOKEN_INVALID', { fields: [{ field: 'token', errorType: 'TFA_TOKEN_INVALID' }] })
  }
  // a fresh session id after the second factor (the pending one could have been observed)
  await invalidateSession(ctx, pending.session.id)
  return completeLogin(ctx, pending.user, meta)
}

/** Opens the real session; picks the account when there is only one to pick. */
async function completeLogin(ctx: AppContext, user: AppUserRow, meta: LoginMeta): Promise<Extract<LoginResult, { kind: 'done' }>> {
  const accounts = await listAccountsOfUser(ctx.db, user.id)
  // accounts of agencies with a company login are reached through it, never preselected by a password
  const sso = await ssoAgencies(ctx.db, accounts.map((a) => a.agency_id))
  const usable = accounts.filter((a) => a.status === 'OK' && !requirementOf(a, sso, null).requireSsoLogin)
  const organiser = usable.filter((a) => !isGuestRole(a.user_role))
  const preselect = organiser.length === 1 ? organiser[0].id : organiser.length === 0 && usable.length === 1 ? usable[0].id : null
  const { token, session } = await createSession(ctx, user.id, { accountId: preselect, userAgent: meta.userAgent, ip: meta.ip })
  await auditStaff(ctx, user, 'auth.login', organiser.map((a) => a.agency_id))
  await rememberDevice(ctx, user, meta)
  return { kind: 'done', token, session, user, accounts }
}

/**
 * Logins of staff go into the audit log of each agency they work for (a guest's login is not an
 * organiser's action); `agencies` when the caller knows them already.
 */
async function auditStaff(ctx: AppContext, user: AppUserRow, action: 'auth.login' | 'auth.login.failed' | 'auth.tfa.failed', agencies?: number[]) {
  const ids =
    agencies ??
    (await ctx.db.selectFrom('account').select('agency_id').where('user_id', '=', user.id).where('user_role', 'in', [...ORGANISER_ROLES]).execute()).map((a) => a.agency_id)
  for (const agencyId of new Set(ids)) await audit(ctx, ctx.db, { agencyId, actor: action === 'auth.login' ? { user } : null, actorEmail: user.email, action, entityType: 'user', entityId: user.id })
}

const KNOWN_DEVICES = 10

/** Remembers the browser; a login from one not seen before mails the user (LOGIN_NEW_DEVICE). */
async function rememberDevice(ctx: AppContext, user: AppUserRow, meta: LoginMeta) {
  const device = hashSecret(meta.userAgent ?? 'unknown').slice(0, 24)
  const known = fromJson<string[]>(user.known_devices, [])
  if (known.includes(device)) return
  const next = [...known, device].slice(-KNOWN_DEVICES)
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('app_user').set({ known_devices: toJson(next) }).where('id', '=', user.id).execute()
    // the very first login has nothing to compare with
    if (known.length && (await effectiveSetting(trx, user.id, 'LOGIN_NEW_DEVICE', {}))) {
      await mailNewDevice(trx, user, { when: isoNow(ctx.clock.now()), device: deviceLabel(meta.userAgent), ip: meta.ip ?? '' })
    }
  })
  if (known.length) ctx.notifyMail()
}

/** "Firefox, Linux" from a user agent; enough for a person to recognise the device. */
export function deviceLabel(ua: string | null): string {
  if (!ua) return '?'
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrom(e|ium)\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : ua.split(/[ /]/)[0]
  const os = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Windows/.test(ua) ? 'Windows' : /Mac OS X/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : ''
  return os ? `${browser}, ${os}` : browser
}
