// A link in a guest mail (/guest/…?token=…) becomes a session on the first request that carries
// it: the server sets the HttpOnly session cookie and answers with a redirect to the same page
// without the token. So the guest stays signed in on that browser (every tab, bookmarks, a page
// opened before the dashboard finished loading) for the session lifetime (EINLASS_SESSION_LIFETIME_DAYS
// of inactivity), and the token leaves the address bar, the history and Referer headers.
// The session is marked via_link: for a user who also logs in with a password (an organiser) or
// two-factor, it reaches guest things only (identity/auth.ts).
// Beside the session a marker cookie (KNOWN_GUEST_COOKIE) that scripts may read: the session cookie
// is HttpOnly, so without it a page opened straight from the mail (the public event page) could not
// know that it should ask for the guest's data to pre-fill the form. It holds no secret ("1"), has the
// session's lifetime, path and SameSite, and /logout clears it with the session.
import type { AppContext } from '../../context'
import { clientIp } from '../../http/client-address'
import { GUEST_ACCESS, findAccessToken } from '../identity/access-tokens'
import { SESSION_COOKIE, createSession, invalidateSession, readCookie, sessionCookie, validateSessionToken } from '../identity/session'

type Server = Parameters<typeof clientIp>[1]

export const KNOWN_GUEST_COOKIE = 'einlass_known'

const secureFlag = (ctx: AppContext) => (ctx.config.baseUrl.startsWith('https:') || ctx.config.server.tls_cert ? '; Secure' : '')

/** "This browser has a guest session": readable by scripts on purpose, no secret in it. */
export const knownGuestCookie = (ctx: AppContext, expiresAt: string) => `${KNOWN_GUEST_COOKIE}=1; Path=/; SameSite=Lax; Expires=${new Date(expiresAt).toUTCString()}${secureFlag(ctx)}`

export const clearKnownGuestCookie = (ctx: AppContext) => `${KNOWN_GUEST_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0${secureFlag(ctx)}`

/** The redirect that turns a guest link into a session, or null when the request is no guest link. */
export async function adoptGuestLink(ctx: AppContext, request: Request, server: Server, headers: Record<string, string>): Promise<Response | null> {
  if (request.method !== 'GET') return null
  const url = new URL(request.url)
  const token = url.searchParams.get('token')
  if (token === null || !(url.pathname === '/guest' || url.pathname.startsWith('/guest/'))) return null
  url.searchParams.delete('token')
  const out = new Headers({ ...headers, location: url.pathname + url.search, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
  const link = await findAccessToken(ctx, token, GUEST_ACCESS)
  // an unknown or expired link changes nothing: the page asks for a new link as before
  if (link) {
    const existing = await validateSessionToken(ctx, readCookie(request, SESSION_COOKIE))
    // the browser's own login of the same person stays (it may reach more than the link would)
    if (!existing || existing.session.user_id !== link.user_id || existing.session.tfa_pending) {
      if (existing) await invalidateSession(ctx, existing.session.id)
      const { token: sessionToken, session } = await createSession(ctx, link.user_id, {
        viaLink: true,
        userAgent: request.headers.get('user-agent'),
        ip: clientIp(request, server, ctx.config.server.trusted_proxies),
      })
      out.set('set-cookie', sessionCookie(ctx, sessionToken, session.expires_at))
      out.append('set-cookie', knownGuestCookie(ctx, session.expires_at))
    }
  }
  return new Response(null, { status: 302, headers: out })
}
