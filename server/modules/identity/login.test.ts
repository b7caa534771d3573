import { expect, test } from 'bun:test'
import { TEST_PASSWORD, eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { GUEST_ACCESS, issueAccessToken } from './access-tokens'
import { RATE_LIMITS, throttle } from './rate-limit'
import { createAgency, createUser, loginAs } from './test-helpers'

forEachDialect('login, sessions and account choice', (h) => {
  test('login sets an HttpOnly session cookie and picks the only organiser account', async () => {
    const agency = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: agency.id, role: 'AGENCY_EDITOR' }] })
    const agent = h().agent()
    const r = await agent.post('/auth/login', { email: u.email.toUpperCase(), password: u.password })
    expect(r.status).toBe(200)
    expect(r.headers.get('set-cookie')).toMatch(/einlass_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax/)
    expect(r.body.tfaRequired).toBe(false)
    expect(r.body.requireAccountSelection).toBe(false)
    expect(r.body.user.currentAccount).toMatchObject({ id: u.accounts[0].id, userRole: 'AGENCY_EDITOR' })
    expect(r.body.user.currentAccount.permissions).toContain('EVENT.EDIT')
    const me = await agent.get('/proxy/userDetails')
    expect(me.status).toBe(200)
    expect(me.body.user.email).toBe(u.email)
    // only the hash of the token is stored
    const token = agent.cookies.get('einlass_session')!
    const row = await h().ctx.db.selectFrom('session').selectAll().where('user_id', '=', u.userId).executeTakeFirstOrThrow()
    expect(token.startsWith(`${row.id}.`)).toBe(true)
    expect(row.secret_hash).not.toContain(token.split('.')[1])
  })

  test('wrong password and unknown e-mail get the same answer', async () => {
    const u = await createUser(h())
    const wrong = await h().request('POST', '/auth/login', { body: { email: u.email, password: 'Falsch123!' } })
    const unknown = await h().request('POST', '/auth/login', { body: { email: uniqueEmail('nobody'), password: 'Falsch123!' } })
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401)
      expect(r.body).toMatchObject({ errorType: 'INVALID_CREDENTIALS', errorMessage: 'E-Mail-Adresse oder Passwort ist falsch.' })
      expect(r.headers.get('set-cookie')).toBeNull()
    }
  })

  test('a forged or unknown session cookie is refused', async () => {
    const u = await createUser(h())
    const agent = await loginAs(h(), u)
    const [id] = agent.cookies.get('einlass_session')!.split('.')
    const forged = h().agent()
    forged.cookies.set('einlass_session', `${id}.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa`)
    expect((await forged.get('/proxy/userDetails')).status).toBe(401)
    const none = await h().request('GET', '/proxy/userDetails')
    expect(none.status).toBe(401)
    expect(none.body.errorType).toBe('NOT_AUTHENTICATED')
  })

  test('rate limit per account: after 10 wrong passwords even the right one is throttled, with a clear error', async () => {
    const u = await createUser(h())
    for (let i = 0; i < RATE_LIMITS.LOGIN_ACCOUNT.max; i++) {
      const r = await h().request('POST', '/auth/login', { body: { email: u.email, password: `Falsch${i}!Aa` }, headers: { 'x-forwarded-for': `10.0.0.${i}` } })
      expect(r.status).toBe(401)
    }
    const blocked = await h().request('POST', '/auth/login', { body: { email: u.email, password: u.password }, headers: { 'x-forwarded-for': '10.0.1.1' } })
    expect(blocked.status).toBe(429)
    expect(blocked.body).toMatchObject({ errorType: 'RATE_LIMITED', errorMessage: 'Zu viele Versuche. Bitte warten Sie einen Moment und versuchen Sie es dann erneut.' })
    expect(blocked.body.retryAfter).toBeGreaterThan(0)
    // another account is not affected
    const other = await createUser(h())
    expect((await h().request('POST', '/auth/login', { body: { email: other.email, password: other.password }, headers: { 'x-forwarded-for': '10.0.1.1' } })).status).toBe(200)
    // the window passes
    h().clock.advance(RATE_LIMITS.LOGIN_ACCOUNT.windowMs + 1000)
    expect((await h().request('POST', '/auth/login', { body: { email: u.email, password: u.password } })).status).toBe(200)
  })

  test('rate limit per address: many e-mails from one address are throttled; successes do not count', async () => {
    const ip = '192.0.2.77'
    const u = await createUser(h())
    for (let i = 0; i < 3; i++) expect((await h().request('POST', '/auth/login', { body: { email: u.email, password: u.password }, headers: { 'x-forwarded-for': ip } })).status).toBe(200)
    // earlier failures from this address (as if sprayed over many e-mails), counted by the same limiter
    for (let i = 0; i < RATE_LIMITS.LOGIN_ADDRESS.max - 1; i++) await throttle(h().ctx, [['LOGIN_ADDRESS', ip]])
    const last = await h().request('POST', '/auth/login', { body: { email: uniqueEmail('spray'), password: 'Falsch1!a' }, headers: { 'x-forwarded-for': ip } })
    expect(last.status).toBe(401)
    const r = await h().request('POST', '/auth/login', { body: { email: u.email, password: u.password }, headers: { 'x-forwarded-for': ip } })
    expect(r.status).toBe(429)
    expect(r.body.errorType).toBe('RATE_LIMITED')
    expect((await h().request('POST', '/auth/login', { body: { email: u.email, password: u.password }, headers: { 'x-forwarded-for': '192.0.2.78' } })).status).toBe(200)
    h().clock.advance(RATE_LIMITS.LOGIN_ADDRESS.windowMs + 1000)
    expect((await h().request('POST', '/auth/login', { body: { email: u.email, password: u.password }, headers: { 'x-forwarded-for': ip } })).status).toBe(200)
  })

  test('sliding expiry: an active session is extended, an idle one ends', async () => {
    const u = await createUser(h())
    const agent = await loginAs(h(), u)
    const before = await h().ctx.db.selectFrom('session').select(['id', 'expires_at']).where('user_id', '=', u.userId).executeTakeFirstOrThrow()
    h().clock.advance(2 * 3600_000)
    const r = await agent.get('/proxy/userDetails')
    expect(r.status).toBe(200)
    expect(r.headers.get('set-cookie')).toContain('einlass_session=')
    const after = await h().ctx.db.selectFrom('session').select('expires_at').where('id', '=', before.id).executeTakeFirstOrThrow()
    expect(new Date(after.expires_at).getTime()).toBeGreaterThan(new Date(before.expires_at).getTime())
    const days = h().ctx.config.session.lifetime_days
    h().clock.advance(days * 86_400_000 + 1000)
    expect((await agent.get('/proxy/userDetails')).status).toBe(401)
    expect(await h().ctx.db.selectFrom('session').select('id').where('id', '=', before.id).executeTakeFirst()).toBeUndefined()
  })

  test('logout ends the session and redirects only within the site', async () => {
    const u = await createUser(h())
    const agent = await loginAs(h(), u)
    const r = await agent.get('/logout?redirect=/guest/nopermission')
    expect(r.status).toBe(302)
    expect(r.headers.get('location')).toBe('/guest/nopermission')
    expect((await agent.get('/proxy/userDetails')).status).toBe(401)
    const agent2 = await loginAs(h(), u)
    const evil = await agent2.get('/logout?redirect=//evil.example/x')
    expect(evil.headers.get('location')).toBe('/login')
  })

  test('several accounts: selection needed; account header and /auth/select choose; foreign accounts are refused', async () => {
    const a = await createAgency(h(), 'Agentur Alpha')
    const b = await createAgency(h(), 'Agentur Beta')
    const u = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_ADMIN' }, { agencyId: b.id, role: 'AGENCY_CHECKIN' }] })
    const agent = h().agent()
    const login = await agent.post('/auth/login', { email: u.email, password: u.password })
    expect(login.body.requireAccountSelection).toBe(true)
    expect(login.body.user.currentAccount).toBeNull()
    expect(login.body.accounts.map((x: any) => x.agency.displayName)).toEqual(['Agentur Alpha', 'Agentur Beta'])

    // no account chosen: organiser calls say NO_ACCOUT_SELECTED
    const none = await agent.get('/proxy/api/events')
    expect(none.status).toBe(403)
    expect(none.body.errorType).toBe('NO_ACCOUT_SELECTED')

    const accounts = await agent.get(`/auth/accounts?t=${Date.now()}`)
    expect(accounts.body).toHaveLength(2)
    expect(accounts.body[0]).toMatchObject({ agency: { displayName: 'Agentur Alpha' }, userRole: 'AGENCY_ADMIN', newLogin: false, requireLogout: false, requireSsoLogin: false })

    const sel = await agent.get(`/auth/select/${u.accounts[1].id}`)
    expect(sel.status).toBe(302)
    expect(sel.headers.get('location')).toBe(`/events?account=${u.accounts[1].id}`)
    expect((await agent.get('/proxy/userDetails')).body.user.currentAccount.agency.displayName).toBe('Agentur Beta')
    // the header chooses per call
    const viaHeader = await agent.get('/proxy/userDetails', { headers: { 'x-account-id': String(u.accounts[0].id) } })
    expect(viaHeader.body.user.currentAccount.userRole).toBe('AGENCY_ADMIN')
    const viaQuery = await agent.get(`/proxy/userDetails?account=${u.accounts[0].id}&refresh=true&t=1`)
    expect(viaQuery.body.user.currentAccount.userRole).toBe('AGENCY_ADMIN')
    // check-in staff may not create events, the administrator may
    expect((await agent.post('/proxy/api/events', eventBody(), { headers: { 'x-account-id': String(u.accounts[1].id) } })).body.errorType).toBe('NO_PERMISSION')
    expect((await agent.post('/proxy/api/events', eventBody(), { headers: { 'x-account-id': String(u.accounts[0].id) } })).status).toBe(201)

    const other = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_ADMIN' }] })
    const foreign = await agent.get('/proxy/userDetails', { headers: { 'x-account-id': String(other.accounts[0].id) } })
    expect(foreign.status).toBe(403)
    expect(foreign.body.errorType).toBe('NO_ACCOUT_SELECTED')
    expect((await agent.get(`/auth/select/${other.accounts[0].id}`)).status).toBe(404)
  })

  test('a pending (invited) account cannot be selected; guest accounts select to the guest dashboard', async () => {
    const a = await createAgency(h())
    const b = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_EDITOR', status: 'PENDING_ACTIVATION' }, { agencyId: b.id, role: 'CP_PERSOO_VISITOR_GUEST' }] })
    const agent = await loginAs(h(), u)
    const pending = await agent.get(`/auth/select/${u.accounts[0].id}`)
    expect(pending.status).toBe(403)
    const guest = await agent.get(`/proxy/auth/select/${u.accounts[1].id}`)
    expect(guest.headers.get('location')).toBe('/guest/dashboard')
  })

  test('a guest token (header or token query) authenticates a guest; an expired one does not', async () => {
    const u = await createUser(h(), { password: null })
    const token = await issueAccessToken(h().ctx, h().ctx.db, u.userId, GUEST_ACCESS, { lifetimeMs: 3600_000 })
    const viaHeader = await h().request('GET', '/userDetails/guest', { headers: { 'x-guest-token': token } })
    expect(viaHeader.status).toBe(200)
    expect(viaHeader.body).toMatchObject({ via: 'token', user: { email: u.email, isAccount: false, hasPassword: false } })
    const viaQuery = await h().request('GET', `/proxy/api/guest/events?token=${encodeURIComponent(token)}`)
    expect(viaQuery.status).toBe(200)
    expect((await h().request('GET', '/proxy/api/guest/events', { headers: { 'x-guest-token': `${token}x` } })).status).toBe(401)
    h().clock.advance(3600_000 + 1000)
    expect((await h().request('GET', '/proxy/api/guest/events', { headers: { 'x-guest-token': token } })).status).toBe(401)
  })

  test('login validates its input', async () => {
    const r = await h().request('POST', '/auth/login', { body: { email: 'nope', password: '' } })
    expect(r.status).toBe(400)
    expect(r.body.errorFields).toEqual(expect.arrayContaining([{ field: 'email', errorType: 'INVALID_EMAIL' }, { field: 'password', errorType: 'PASSWORD_MISSING' }]))
    expect(TEST_PASSWORD).toBeTruthy()
  })
})
