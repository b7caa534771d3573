// A guest link becomes a session on its first request (issue: guest access lived in one tab), and
// a guest link of an organiser reaches guest things only (security: a registration mail's link
// could edit the organiser account's profile and switch off its security notifications).
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'
import { createAgency, createUser, loginAs } from '../identity/test-helpers'

forEachDialect('guest links become sessions', (h) => {
  const linkFor = (userId: number) => issueAccessToken(h().ctx, h().ctx.db, userId, GUEST_ACCESS)

  test('the first request with the link sets an HttpOnly session cookie and drops the token from the address', async () => {
    const g = await createUser(h(), { password: null })
    const token = await linkFor(g.userId)
    const agent = h().agent()
    const r = await agent.request('GET', `/guest/dashboard?token=${encodeURIComponent(token)}&tab=events`)
    expect(r.status).toBe(302)
    expect(r.headers.get('location')).toBe('/guest/dashboard?tab=events')
    expect(r.headers.get('cache-control')).toBe('no-store')
    expect(r.headers.get('referrer-policy')).toBe('no-referrer')
    const [cookie, marker] = r.headers.getSetCookie()
    expect(cookie).toContain('einlass_session=')
    expect(cookie).toContain('HttpOnly')
    // beside it the marker scripts may read (the public form's pre-fill): no secret, same lifetime, path and SameSite
    expect(marker).toMatch(/^einlass_known=1; /)
    expect(marker).not.toContain('HttpOnly')
    const attrs = (c: string) => c.split('; ').slice(1).filter((a) => a !== 'HttpOnly')
    expect(attrs(marker!)).toEqual(attrs(cookie!))
    expect(agent.cookies.get('einlass_known')).toBe('1')
    // a new tab or a bookmark: only the cookie, no token anywhere
    const events = await agent.get('/proxy/api/guest/events')
    expect(events.status).toBe(200)
    const details = await agent.get(`/userDetails/guest?t=${Date.now()}`)
    expect(details.body).toMatchObject({ via: 'session', user: { email: g.email } })
    // a guest without a login of their own reaches their own account area (to set a password)
    expect((await agent.get('/proxy/api/user/current')).status).toBe(200)
    // a page opened at once after the link, before any script ran, has the session too
    expect((await agent.get('/proxy/api/user/accounts')).status).toBe(200)
    // logout ends it
    const out = await agent.request('GET', '/logout?redirect=/guest/nopermission')
    expect(out.status).toBe(302)
    expect((await agent.get('/proxy/api/guest/events')).status).toBe(401)
    // the marker goes with the session
    expect(out.headers.getSetCookie().find((c) => c.startsWith('einlass_known='))).toContain('Max-Age=0')
    expect(agent.cookies.has('einlass_known')).toBe(false)
  })

  test('an unknown or expired link sets nothing and still leaves the address bar', async () => {
    const agent = h().agent()
    const r = await agent.request('GET', '/guest/dashboard?token=abc.def')
    expect(r.status).toBe(302)
    expect(r.headers.get('location')).toBe('/guest/dashboard')
    expect(r.headers.get('set-cookie')).toBeNull()
    expect((await agent.get('/proxy/api/guest/events')).status).toBe(401)
    // other pages with a token parameter (password reset, deletion) are not guest links
    expect((await agent.request('GET', '/password/reset?token=abc.def')).status).not.toBe(302)
  })

  test('the browser\'s own login of the same person stays; another person\'s session is replaced', async () => {
    const a = await createAgency(h())
    const org = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_EDITOR' }] })
    const agent = await loginAs(h(), org, { accountId: undefined })
    const own = await agent.request('GET', `/guest/dashboard?token=${encodeURIComponent(await linkFor(org.userId))}`)
    expect(own.headers.get('set-cookie')).toBeNull()
    expect((await agent.get('/proxy/userDetails')).status).toBe(200)
    const other = await createUser(h(), { password: null })
    const swap = await agent.request('GET', `/guest/dashboard?token=${encodeURIComponent(await linkFor(other.userId))}`)
    expect(swap.headers.get('set-cookie')).toContain('einlass_session=')
    expect((await agent.get(`/userDetails/guest?t=1`)).body.user.email).toBe(other.email)
    // the organiser's session is gone: this browser is now the guest's
    expect((await agent.get('/proxy/userDetails')).body.user.email).toBe(other.email)
    expect((await agent.get('/proxy/api/events')).status).not.toBe(200)
  })

  test('a guest link of an organiser reaches guest things only', async () => {
    const a = await createAgency(h())
    const org = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_ADMIN' }] })
    const token = await linkFor(org.userId)
    const agent = h().agent()
    await agent.request('GET', `/guest/dashboard?token=${encodeURIComponent(token)}`)
    agent.headers['x-account-id'] = String(org.accounts[0].id)
    expect((await agent.get('/proxy/api/guest/events')).status).toBe(200)
    expect((await agent.get(`/userDetails/guest?t=1`)).status).toBe(200)
    for (const [method, path, body] of [
      ['GET', '/proxy/userDetails', undefined],
      ['GET', '/proxy/api/user/current', undefined],
      ['GET', '/proxy/api/user/accounts', undefined],
      ['PATCH', `/proxy/api/user/accounts/${org.accounts[0].id}`, { firstName: 'Mallory' }],
      ['PATCH', `/proxy/api/user/${org.userId}`, { language: 'en' }],
      ['GET', '/proxy/api/notifications/user', undefined],
      ['PATCH', '/proxy/api/notifications?user=true', { notifications: [] }],
      ['GET', '/proxy/api/events', undefined],
    ] as const) {
      const r = await agent.request(method, path, { body })
      expect({ path, status: r.status }).toEqual({ path, status: 401 })
    }
    // the token itself (header or query, as the spec's guest-token) is no key to the account area either
    for (const header of ['guest-token', 'x-guest-token']) {
      const r = await h().request('GET', '/proxy/api/user/current', { headers: { [header]: token } })
      expect(r.status).toBe(401)
      expect((await h().request('GET', '/proxy/api/guest/events', { headers: { [header]: token } })).status).toBe(200)
    }
    // with two-factor switched on, a guest link of a guest is likewise guest things only
    const tfaGuest = await createUser(h(), { password: 'Geheim123!' })
    await h().ctx.db.insertInto('user_tfa').values({ user_id: tfaGuest.userId, tfa_type: 'EMAIL', display_name: 'Mail', enabled: true, linked: true } as never).execute()
    const t2 = h().agent()
    await t2.request('GET', `/guest/dashboard?token=${encodeURIComponent(await linkFor(tfaGuest.userId))}`)
    expect((await t2.get('/proxy/api/guest/events')).status).toBe(200)
    expect((await t2.get('/proxy/api/user/current')).status).toBe(401)
  })

  // The session slides its expiry (at most once an hour, identity/session.ts) and renews its cookie;
  // the marker renews with it, or it ran out while the session lived on and the public form of a
  // guest who was still signed in came up empty.
  const expiresOf = (c: string | undefined) => new Date(/Expires=([^;]+)/.exec(c ?? '')?.[1] ?? NaN).getTime()
  const cookieNamed = (r: { headers: Headers }, name: string) => r.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))

  test('when the session cookie is renewed the marker is renewed with it, with the same expiry', async () => {
    const g = await createUser(h(), { password: null })
    const agent = h().agent()
    const first = await agent.request('GET', `/guest/dashboard?token=${encodeURIComponent(await linkFor(g.userId))}`)
    const lifetime = h().ctx.config.session.lifetime_days * 24 * 60 * 60 * 1000
    expect(expiresOf(cookieNamed(first, 'einlass_known'))).toBe(expiresOf(cookieNamed(first, 'einlass_session')))
    // within the hour nothing is renewed
    h().clock.advance(10 * 60 * 1000)
    const quiet = await agent.get('/proxy/api/guest/events')
    expect(quiet.status).toBe(200)
    expect(quiet.headers.getSetCookie()).toEqual([])
    // two days on: the session slides, both cookies go out with the new expiry
    h().clock.advance(2 * 24 * 60 * 60 * 1000)
    const later = await agent.get('/proxy/api/guest/events')
    expect(later.status).toBe(200)
    const session = cookieNamed(later, 'einlass_session')
    const marker = cookieNamed(later, 'einlass_known')
    expect(session).toBeDefined()
    expect(marker).toMatch(/^einlass_known=1; /)
    expect(marker).not.toContain('HttpOnly')
    expect(Math.abs(expiresOf(session) - (h().clock.now().getTime() + lifetime))).toBeLessThan(2000)
    expect(expiresOf(marker)).toBe(expiresOf(session))
    expect(expiresOf(marker)).toBeGreaterThan(expiresOf(cookieNamed(first, 'einlass_known')))
    // the same link opened again days later keeps the session and renews both cookies as well
    h().clock.advance(2 * 24 * 60 * 60 * 1000)
    const again = await agent.request('GET', `/guest/dashboard?token=${encodeURIComponent(await linkFor(g.userId))}`)
    expect(again.status).toBe(302)
    expect(expiresOf(cookieNamed(again, 'einlass_known'))).toBe(expiresOf(cookieNamed(again, 'einlass_session')))
    expect(expiresOf(cookieNamed(again, 'einlass_session'))).toBeGreaterThan(expiresOf(session))
    expect((await agent.get('/proxy/api/guest/events')).status).toBe(200)
    // logout clears both
    const out = await agent.request('GET', '/logout')
    expect(cookieNamed(out, 'einlass_known')).toContain('Max-Age=0')
    expect(cookieNamed(out, 'einlass_session')).toContain('Max-Age=0')
  })

  test('a password login without a guest link gets no marker when its session is renewed', async () => {
    const a = await createAgency(h())
    const org = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_EDITOR' }] })
    const agent = await loginAs(h(), org, { accountId: undefined })
    h().clock.advance(2 * 60 * 60 * 1000)
    const r = await agent.get('/proxy/userDetails')
    expect(r.status).toBe(200)
    expect(cookieNamed(r, 'einlass_session')).toBeDefined()
    expect(cookieNamed(r, 'einlass_known')).toBeUndefined()
  })
})
