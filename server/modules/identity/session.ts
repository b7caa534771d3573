// Login sessions in the database (the Lucia session guide, owned here): random token in an
// HttpOnly cookie, only a hash stored, sliding expiry written at most once an hour.
import type { AppContext } from '../../context'
import { prepared } from '../../db/prepared'
import { isoNow } from '../../db/types'
import type { SessionRow } from './identity.table'
import { newToken, secretMatches, splitToken } from './tokens'

export const SESSION_COOKIE = 'einlass_session'
const REFRESH_AFTER_MS = 60 * 60 * 1000

/** read on every signed-in request: compiled once (db/prepared.ts) */
const sessionById = prepared((db, p: { id: string }) => db.selectFrom('session').selectAll().where('id', '=', p.id))

const lifetimeMs = (ctx: AppContext) => ctx.config.session.lifetime_days * 24 * 60 * 60 * 1000

export async function createSession(
  ctx: AppContext,
  userId: number,
  opts: { accountId?: number | null; tfaPending?: boolean; viaLink?: boolean; lifetimeMs?: number; userAgent?: string | null; ip?: string | null; ssoAgencyId?: number | null } = {},
  db = ctx.db,
): Promise<{ token: string; session: SessionRow }> {
  const t = newToken()
  const now = ctx.clock.now()
  const session = await db
    .insertInto('session')
    .values({
      id: t.id,
      secret_hash: t.secretHash,
      user_id: userId,
      account_id: opts.accountId ?? null,
      tfa_pending: opts.tfaPending ?? false,
      via_link: opts.viaLink ?? false,
      created_at: isoNow(now),
      last_verified_at: isoNow(now),
      expires_at: isoNow(new Date(now.getTime() + (opts.lifetimeMs ?? lifetimeMs(ctx)))),
      user_agent: opts.userAgent?.slice(0, 300) ?? null,
      ip: opts.ip ?? null,
      sso_agency_id: opts.ssoAgencyId ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return { token: t.token, session }
}

/** The session for a cookie value, or null; extends an active session's expiry (sliding). */
export async function validateSessionToken(ctx: AppContext, token: string | null | undefined): Promise<{ session: SessionRow; refreshed: boolean } | null> {
  const parts = splitToken(token)
  if (!parts) return null
  const session = await sessionById.first(ctx.db, { id: parts.id })
  if (!session || !secretMatches(parts.secret, session.secret_hash)) return null
  const now = ctx.clock.now()
  if (new Date(session.expires_at).getTime() <= now.getTime()) {
    await ctx.db.deleteFrom('session').where('id', '=', session.id).execute()
    return null
  }
  // a login waiting for its two-factor code keeps its short, fixed lifetime
  if (!session.tfa_pending && now.getTime() - new Date(session.last_verified_at).getTime() >= REFRESH_AFTER_MS) {
    const expires = isoNow(new Date(now.getTime() + lifetimeMs(ctx)))
    await ctx.db.updateTable('session').set({ last_verified_at: isoNow(now), expires_at: expires }).where('id', '=', session.id).execute()
    return { session: { ...session, last_verified_at: isoNow(now), expires_at: expires }, refreshed: true }
  }
  return { session, refreshed: false }
}

export async function invalidateSession(ctx: AppContext, sessionId: string) {
  await ctx.db.deleteFrom('session').where('id', '=', sessionId).execute()
}

/** Ends every session of a user, optionally keeping one (the caller's own). */
export async function invalidateUserSessions(ctx: AppContext, userId: number, exceptSessionId?: string, db = ctx.db) {
  let q = db.deleteFrom('session').where('user_id', '=', userId)
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId)
  await q.execute()
}

export function sessionCookie(ctx: AppContext, token: string, expiresAt: string): string {
  const secure = ctx.config.baseUrl.startsWith('https:') || ctx.config.server.tls_cert ? '; Secure' : ''
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Expires=${new Date(expiresAt).toUTCString()}${secure}`
}

/**
 * The readable marker beside a guest link's session ("this browser has a guest session", no secret):
 * the session cookie is HttpOnly, so a page opened straight from a mail (the public event page) reads
 * this one to know it may ask for the guest's data to pre-fill its form. guest/link-session.ts sets it
 * with the session; it has the session cookie's lifetime, path and SameSite, is renewed with it
 * (renewedSessionCookies) and cleared with it at logout.
 */
export const KNOWN_GUEST_COOKIE = 'einlass_known'

export function knownGuestCookie(ctx: AppContext, expiresAt: string): string {
  const secure = ctx.config.baseUrl.startsWith('https:') || ctx.config.server.tls_cert ? '; Secure' : ''
  return `${KNOWN_GUEST_COOKIE}=1; Path=/; SameSite=Lax; Expires=${new Date(expiresAt).toUTCString()}${secure}`
}

export function clearKnownGuestCookie(ctx: AppContext): string {
  const secure = ctx.config.baseUrl.startsWith('https:') || ctx.config.server.tls_cert ? '; Secure' : ''
  return `${KNOWN_GUEST_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0${secure}`
}

/**
 * The Set-Cookie values when a session's expiry slid forward: the session cookie with the new expiry
 * and, for a session that has the marker (made from a guest link, or the browser sent the marker),
 * the marker with the same expiry; otherwise it ran out while the session lived on.
 */
export function renewedSessionCookies(ctx: AppContext, request: Request, token: string, session: Pick<SessionRow, 'expires_at' | 'via_link'>): string[] {
  const out = [sessionCookie(ctx, token, session.expires_at)]
  if (Boolean(session.via_link) || readCookie(request, KNOWN_GUEST_COOKIE) !== null) out.push(knownGuestCookie(ctx, session.expires_at))
  return out
}

export function clearSessionCookie(ctx: AppContext): string {
  const secure = ctx.config.baseUrl.startsWith('https:') || ctx.config.server.tls_cert ? '; Secure' : ''
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`
}

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get('cookie')
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      // a broken %-escape is no session (a malformed cookie answered 500)
      try {
        return decodeURIComponent(part.slice(eq + 1).trim())
      } catch {
        return null
      }
    }
  }
  return null
}
