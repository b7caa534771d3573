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
// session's lifetime, path and SameSite, is renewed whenever the session cookie is (its expiry slides,
// identity/auth.ts), and /logout clears it with the session (identity/session.ts makes all three).
import type { AppContext } from '../../context'
import { clientIp } from '../../http/client-address'
import { GUEST_ACCESS, findAccessToken } from '../identity/access-tokens'
import { SESSION_COOKIE, createSession, invalidateSession, knownGuestCookie, readCookie, renewedSessionCookies, sessionCookie, validateSessionToken } from '../identity/session'

export { KNOWN_GUEST_COOKIE, clearKnownGuestCookie, knownGuestCookie } from '../identity/session'

type Server = Parameters<typeof clientIp>[1]

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
    const current = readCookie(request, SESSION_COOKIE)
    const existing = await validateSessionToken(ctx, current)
    // the browser's own login of the same person stays (it may reach more than the link would); when
    // this request slid its expiry, its cookies go out renewed as on any other request
    if (existing && current && existing.refreshed && existing.session.user_id === link.user_id && !existing.session.tfa_pending) {
      for (const c of renewedSessionCookies(ctx, request, current, existing.session)) out.append('set-cookie', c)
    }
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
