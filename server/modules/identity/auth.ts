// Who is calling: a logged-in user (session cookie) acting through an account (account header or
// the account chosen for the session), or a guest (guest-token header or `token` query).
// Resolved lazily and once per request, so public hot paths pay nothing.
import type { AppContext } from '../../context'
import { prepared } from '../../db/prepared'
import { bool } from '../../db/types'
import { AppError, forbidden, notAuthenticated } from '../../shared/errors'
import { hasFeature } from '../license/license'
import type { AccountRow, AppUserRow, SessionRow } from './identity.table'
import { GUEST_ACCESS, findAccessToken } from './access-tokens'
import { ORGANISER_ROLES, type Permission, can, isGuestRole } from './roles'
import { SESSION_COOKIE, readCookie, renewedSessionCookies, validateSessionToken } from './session'
import { ssoRefusal } from './sso/policy'

export const ACCOUNT_HEADER = 'x-account-id'
export const GUEST_TOKEN_HEADER = 'x-guest-token'
export const SPEC_GUEST_TOKEN_HEADER = 'guest-token'

export interface HttpContext {
  request: Request
  set: { headers: Record<string, any>; status?: any }
}

export interface UserActor {
  user: AppUserRow
  session: SessionRow
  account: AccountRow | null
}
export interface AccountActor extends UserActor {
  account: AccountRow
}
export interface GuestActor {
  user: AppUserRow
  /** how the guest proved who they are */
  via: 'token' | 'session'
  session: SessionRow | null
  /** a guest-link session of a user with their own login (see SessionActor) */
  restricted?: boolean
}

/** The account named by the account header (or the `account` query of /proxy/userDetails). */
function accountWish(request: Request): number | null {
  const h = request.headers.get(ACCOUNT_HEADER) ?? new URL(request.url).searchParams.get('account')
  return h && /^\d{1,12}$/.test(h) ? Number(h) : null
}

interface SessionActor {
  user: AppUserRow
  session: SessionRow
  /** a guest-link session of a user who logs in with a password or two-factor elsewhere: guest things only */
  restricted: boolean
}

/**
 * Whether a user proves themselves with a password (and maybe two-factor) for more than guest
 * things: an organiser account or a two-factor method. A guest link in a mail must not reach those.
 */
export async function needsOwnLogin(ctx: AppContext, userId: number): Promise<boolean> {
  const [organiser, tfa] = await Promise.all([
    ctx.db.selectFrom('account').select('id').where('user_id', '=', userId).where('user_role', 'in', [...ORGANISER_ROLES]).limit(1).executeTakeFirst(),
    ctx.db.selectFrom('user_tfa').select('id').where('user_id', '=', userId).where('enabled', '=', true as never).where('linked', '=', true as never).limit(1).executeTakeFirst(),
  ])
  return Boolean(organiser || tfa)
}

const sessionCache = new WeakMap<Request, Promise<SessionActor | null>>()

// read on every signed-in request: compiled once (db/prepared.ts; building a Kysely query cost more than running it)
const userById = prepared((db, p: { id: number }) => db.selectFrom('app_user').selectAll().where('id', '=', p.id))
const accountOfUser = prepared((db, p: { id: number; userId: number }) => db.selectFrom('account').selectAll().where('id', '=', p.id).where('user_id', '=', p.userId))

async function loadSession(ctx: AppContext, c: HttpContext): Promise<SessionActor | null> {
  const token = readCookie(c.request, SESSION_COOKIE)
  if (!token) return null
  const v = await validateSessionToken(ctx, token)
  if (!v) return null
  // the slid expiry goes to the browser, with the guest marker when the session has one
  if (v.refreshed) (c.set.headers as Record<string, string | string[]>)['set-cookie'] = renewedSessionCookies(ctx, c.request, token, v.session)
  const { session } = v
  if (session.tfa_pending) return null
  const user = await userById.first(ctx.db, { id: session.user_id })
  if (!user) throw new AppError(401, 'USER_NOT_FOUND')
  const restricted = bool(session.via_link) && (await needsOwnLogin(ctx, user.id))
  return { user, session, restricted }
}

/** The session cookie's session and user, whatever it may reach (once per request). */
export function currentSession(ctx: AppContext, c: HttpContext): Promise<SessionActor | null> {
  let p = sessionCache.get(c.request)
  if (!p) {
    p = loadSession(ctx, c)
    sessionCache.set(c.request, p)
  }
  return p
}

const userCache = new WeakMap<Request, Promise<UserActor | null>>()

async function loadUser(ctx: AppContext, c: HttpContext): Promise<UserActor | null> {
  const s = await currentSession(ctx, c)
  // a guest link reaches guest things only (currentGuest); organisers log in themselves
  if (!s || s.restricted) return null
  const { user, session } = s
  const headerAccount = accountWish(c.request)
  const accountId = headerAccount ?? session.account_id
  let account: AccountRow | null = null
  if (accountId != null) {
    account = (await accountOfUser.first(ctx.db, { id: accountId, userId: user.id })) ?? null
    // an account that is gone (removed by an administrator, deleted) or not the user's: choose again
    if (!account && headerAccount != null) throw new AppError(403, 'NO_ACCOUT_SELECTED')
    // an account of an agency with a company login only through it; an SSO session only its agency's
    const refusal = account && (await ssoRefusal(ctx.db, account, session.sso_agency_id))
    if (refusal) {
      if (headerAccount != null) throw refusal === 'SSO_LOGIN_REQUIRED' ? new AppError(403, 'SSO_LOGIN_REQUIRED') : new AppError(403, 'SSO_LOGOUT_REQUIRED')
      account = null
    }
  }
  return { user, session, account }
}

/** The logged-in user, or null. */
export function currentUser(ctx: AppContext, c: HttpContext): Promise<UserActor | null> {
  let p = userCache.get(c.request)
  if (!p) {
    p = loadUser(ctx, c)
    userCache.set(c.request, p)
  }
  return p
}

export async function requireUser(ctx: AppContext, c: HttpContext): Promise<UserActor> {
  const a = await currentUser(ctx, c)
  if (!a) throw notAuthenticated()
  return a
}

/** A user acting through an organiser account, optionally holding a permission. */
export async function requireAccount(ctx: AppContext, c: HttpContext, permission?: Permission): Promise<AccountActor> {
  const a = await requireUser(ctx, c)
  if (!a.account) throw new AppError(403, 'NO_ACCOUT_SELECTED')
  if (a.account.status !== 'OK') throw forbidden()
  if (permission && !can(a.account.user_role, permission)) throw forbidden()
  return a as AccountActor
}

export async function requireOrganiser(ctx: AppContext, c: HttpContext, permission?: Permission): Promise<AccountActor> {
  const a = await requireAccount(ctx, c, permission)
  if (isGuestRole(a.account.user_role)) throw forbidden()
  return a
}

/** Refuses with WRONG_ABO when the license lacks a feature a call needs. */
export function requireFeature(ctx: AppContext, feature: string) {
  if (!hasFeature(ctx.license, feature)) throw new AppError(403, 'WRONG_ABO')
}

export interface SelfActor {
  user: AppUserRow
  /** null when the caller proved itself with a guest token only; a guest-link session otherwise */
  session: SessionRow | null
  account: AccountRow | null
  via: 'session' | 'token'
}

/** The caller's own user: a logged-in session, else a guest token (the account area of guests). */
export async function requireSelf(ctx: AppContext, c: HttpContext): Promise<SelfActor> {
  const u = await currentUser(ctx, c)
  if (u) return { ...u, via: 'session' }
  const g = await currentGuest(ctx, c)
  // a guest link (token or link session) of an organiser or two-factor user reaches guest things
  // only: their profile and security settings need their own login
  if (g && !g.restricted && !(g.via === 'token' && (await needsOwnLogin(ctx, g.user.id)))) {
    return { user: g.user, session: g.session, account: null, via: g.via }
  }
  throw notAuthenticated()
}

export function guestTokenOf(request: Request): string | null {
  // the spec names the header guest-token; x-guest-token is what earlier clients send
  const h = request.headers.get(SPEC_GUEST_TOKEN_HEADER) ?? request.headers.get(GUEST_TOKEN_HEADER)
  if (h) return h
  const q = new URL(request.url).searchParams.get('token')
  return q || null
}

const guestCache = new WeakMap<Request, Promise<GuestActor | null>>()

async function loadGuest(ctx: AppContext, c: HttpContext): Promise<GuestActor | null> {
  const token = guestTokenOf(c.request)
  if (token) {
    const row = await findAccessToken(ctx, token, GUEST_ACCESS)
    if (row) {
      const user = await ctx.db.selectFrom('app_user').selectAll().where('id', '=', row.user_id).executeTakeFirst()
      if (user) return { user, via: 'token', session: null }
    }
  }
  // the session alone: a stale account header must not lock a guest out of their own registrations
  const s = await currentSession(ctx, c).catch(() => null)
  if (s) return { user: s.user, via: 'session', session: s.session, restricted: s.restricted }
  return null
}

/** A guest identified by a link token or a logged-in user looking at their own registrations. */
export function currentGuest(ctx: AppContext, c: HttpContext): Promise<GuestActor | null> {
  let p = guestCache.get(c.request)
  if (!p) {
    p = loadGuest(ctx, c)
    guestCache.set(c.request, p)
  }
  return p
}

export async function requireGuest(ctx: AppContext, c: HttpContext): Promise<GuestActor> {
  const g = await currentGuest(ctx, c)
  if (!g) throw notAuthenticated()
  return g
}
