// Staff single sign-on against a real OpenID provider (server/testing/fakes/oidc.ts) on a port of
// its own: discovery, authorize with PKCE, token, JWKS; every refusal with its German message.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Agent, type Harness, forEachDialect, uniqueEmail } from '../../../testing/harness'
import { type OidcFake, type OidcMode, startOidcFake } from '../../../testing/fakes/oidc'
import { RATE_LIMITS } from '../rate-limit'
import { createAgency, createUser, loginAs } from '../test-helpers'

let idp: OidcFake
beforeAll(async () => {
  idp = await startOidcFake()
})
afterAll(() => idp.stop())

const domain = () => `firma-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.de`

async function agencyWithSso(h: Harness, opts: { domains?: string[]; newUserRole?: string | null; clientId?: string } = {}) {
  const admin = await h.admin()
  const domains = opts.domains ?? [domain()]
  const r = await admin.put('/proxy/api/agency/sso', {
    enabled: true,
    issuer: idp.issuer,
    clientId: opts.clientId ?? idp.clientId,
    clientSecret: idp.clientSecret,
    allowedDomains: domains,
    newUserRole: opts.newUserRole ?? null,
  })
  expect(r.status).toBe(200)
  return { admin, domains }
}

/** The browser's trip: start → provider (form posted as `email`) → callback. Answers the callback's response. */
async function ssoLogin(agent: Agent, start: string, email: string, mode: OidcMode = 'ok') {
  const s = await agent.get(start)
  expect(s.status).toBe(302)
  const authorize = new URL(s.headers.get('location')!)
  if (!authorize.href.startsWith(idp.issuer)) return { callback: s, location: s.headers.get('location')!, callbackUrl: '' }
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
  expect(authorize.searchParams.get('state')).toBeTruthy()
  expect(authorize.searchParams.get('nonce')).toBeTruthy()
  const form = await fetch(authorize)
  expect(form.status).toBe(200)
  const posted = new URLSearchParams(authorize.searchParams)
  posted.set('email', email)
  posted.set('mode', mode)
  const back = await fetch(`${idp.issuer}/authorize`, { method: 'POST', body: posted.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' })
  const callbackUrl = new URL(back.headers.get('location')!)
  expect(callbackUrl.pathname).toBe('/proxy/auth/sso/callback')
  const callback = await agent.get(callbackUrl.pathname + callbackUrl.search)
  return { callback, location: callback.headers.get('location') ?? '', callbackUrl: callbackUrl.pathname + callbackUrl.search }
}

const refusal = (location: string) => new URL(location, 'http://localhost').searchParams.get('ssoError')

async function errorText(h: Harness, code: string, email = '') {
  const { t } = await import('../../../i18n/catalogue')
  return t('de', `errors.${code}`, { email })
}

forEachDialect('staff single sign-on (OpenID Connect)', (h) => {
  test('settings: only AGENCY.MANAGE, the secret never comes back, a wrong issuer is refused with a German message', async () => {
    const admin = await h().admin()
    const body = { enabled: true, issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, allowedDomains: ['Firma.DE', '@beispiel.de'], newUserRole: 'AGENCY_EDITOR' }
    const saved = await admin.put('/proxy/api/agency/sso', body)
    expect(saved.status).toBe(200)
    expect(saved.body).toEqual({ enabled: true, issuer: idp.issuer, clientId: idp.clientId, clientSecretSet: true, allowedDomains: ['firma.de', 'beispiel.de'], newUserRole: 'AGENCY_EDITOR', redirectUri: 'http://localhost/proxy/auth/sso/callback' })
    expect(JSON.stringify((await admin.get('/proxy/api/agency/sso')).body)).not.toContain(idp.clientSecret)
    const row = await h().ctx.db.selectFrom('agency_sso').selectAll().where('agency_id', '=', admin.agencyId).executeTakeFirstOrThrow()
    expect(row.client_secret_sealed).not.toContain(idp.clientSecret)
    // an empty secret keeps the stored one
    expect((await admin.put('/proxy/api/agency/sso', { ...body, clientSecret: '' })).status).toBe(200)
    expect((await h().ctx.db.selectFrom('agency_sso').select('client_secret_sealed').where('agency_id', '=', admin.agencyId).executeTakeFirstOrThrow()).client_secret_sealed).toBe(row.client_secret_sealed)
    const wrong = await admin.put('/proxy/api/agency/sso', { ...body, issuer: `${idp.issuer}/nicht-da` })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toMatchObject({ errorType: 'SSO_DISCOVERY_FAILED', errorMessage: await errorText(h(), 'SSO_DISCOVERY_FAILED') })
    const bad = await admin.put('/proxy/api/agency/sso', { ...body, allowedDomains: ['kein domain'] })
    expect(bad.status).toBe(400)
    expect(bad.body.errorType).toBe('FIELD_ERROR')
    // an editor may not
    const editor = await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }] })
    const e = await loginAs(h(), editor)
    expect((await e.get('/proxy/api/agency/sso')).status).toBe(403)
    expect((await e.put('/proxy/api/agency/sso', body)).status).toBe(403)
  })

  test('an existing account signs in through the provider; the session is marked and the login audited', async () => {
    const { admin, domains } = await agencyWithSso(h())
    const staff = await createUser(h(), { email: `anna@${domains[0]}`, accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }] })
    const agent = h().agent()
    const { callback, location } = await ssoLogin(agent, `/proxy/auth/sso/start?email=${encodeURIComponent(staff.email)}`, staff.email)
    expect(callback.status).toBe(302)
    expect(location).toBe(`/events?account=${staff.accounts[0].id}`)
    const me = await agent.get('/proxy/userDetails')
    expect(me.status).toBe(200)
    expect(me.body.user.currentAccount.id).toBe(staff.accounts[0].id)
    const accounts = await agent.get('/auth/accounts')
    expect(accounts.body[0]).toMatchObject({ id: staff.accounts[0].id, requireSsoLogin: false, newLogin: false, requireLogout: false })
    const log = await h().ctx.db.selectFrom('audit_log').selectAll().where('agency_id', '=', admin.agencyId).where('action', '=', 'auth.sso.login').execute()
    expect(log.map((l) => l.actor_email)).toEqual([staff.email])
  })

  test('refusals: wrong audience, expired token, replayed state, e-mail outside the allowed domains, unknown person — each audited', async () => {
    const { admin, domains } = await agencyWithSso(h())
    const staff = await createUser(h(), { email: `ben@${domains[0]}`, accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }] })
    const start = `/proxy/auth/sso/start?agency=${admin.agencyId}`

    const aud = await ssoLogin(h().agent(), start, staff.email, 'wrongAudience')
    expect(refusal(aud.location)).toBe('SSO_WRONG_AUDIENCE')
    expect(aud.callback.headers.get('set-cookie')).toBeNull()

    const expired = await ssoLogin(h().agent(), start, staff.email, 'expired')
    expect(refusal(expired.location)).toBe('SSO_TOKEN_EXPIRED')

    const nonce = await ssoLogin(h().agent(), start, staff.email, 'wrongNonce')
    expect(refusal(nonce.location)).toBe('SSO_TOKEN_INVALID')

    const outside = await ssoLogin(h().agent(), start, 'eve@anderswo.example')
    expect(refusal(outside.location)).toBe('SSO_EMAIL_DOMAIN')
    expect(new URL(outside.location, 'http://x').searchParams.get('ssoEmail')).toBe('eve@anderswo.example')
    expect(await errorText(h(), 'SSO_EMAIL_DOMAIN', 'eve@anderswo.example')).toBe('Mit der E-Mail-Adresse eve@anderswo.example ist die Anmeldung über diesen Firmen-Login nicht erlaubt.')

    const unknown = await ssoLogin(h().agent(), start, `neu@${domains[0]}`)
    expect(refusal(unknown.location)).toBe('SSO_NO_ACCOUNT')

    // a good login, then the same callback again: the state is used up
    const agent = h().agent()
    const ok = await ssoLogin(agent, start, staff.email)
    expect(ok.callback.status).toBe(302)
    expect(refusal(ok.location)).toBeNull()
    const replay = await h().agent().get(ok.callbackUrl)
    expect(refusal(replay.headers.get('location')!)).toBe('SSO_STATE_INVALID')
    expect(replay.headers.get('set-cookie')).toBeNull()
    // a state that never was
    expect(refusal((await h().agent().get('/proxy/auth/sso/callback?code=x&state=erfunden')).headers.get('location')!)).toBe('SSO_STATE_INVALID')
    // an expired one: started, then more than 10 minutes at the provider
    const slow = await h().agent().get(start)
    const slowState = new URL(slow.headers.get('location')!).searchParams.get('state')!
    h().clock.advance(11 * 60_000)
    expect(refusal((await h().agent().get(`/proxy/auth/sso/callback?code=x&state=${slowState}`)).headers.get('location')!)).toBe('SSO_STATE_INVALID')
    h().clock.advance(-11 * 60_000)

    const reasons = (await h().ctx.db.selectFrom('audit_log').select('detail').where('agency_id', '=', admin.agencyId).where('action', '=', 'auth.sso.refused').orderBy('id').execute()).map((r) => JSON.parse(r.detail!).reason)
    expect(reasons).toEqual(['SSO_WRONG_AUDIENCE', 'SSO_TOKEN_EXPIRED', 'SSO_TOKEN_INVALID', 'SSO_EMAIL_DOMAIN', 'SSO_NO_ACCOUNT', 'SSO_STATE_INVALID', 'SSO_STATE_INVALID'])
  })

  test('a new person gets an account with the configured role at first login, within the licence limit', async () => {
    const { admin, domains } = await agencyWithSso(h(), { newUserRole: 'AGENCY_CHECKIN' })
    const email = `clara.zeller@${domains[0]}`
    const agent = h().agent()
    const { location } = await ssoLogin(agent, `/proxy/auth/sso/start?email=${email}`, email)
    expect(location).toMatch(/^\/events\?account=\d+$/)
    const me = await agent.get('/proxy/userDetails')
    expect(me.body.user.currentAccount).toMatchObject({ userRole: 'AGENCY_CHECKIN', agency: { id: admin.agencyId }, firstName: 'Clara', lastName: 'Zeller' })
    // a second login finds the same account
    const again = await ssoLogin(h().agent(), `/proxy/auth/sso/start?email=${email}`, email)
    expect(again.location).toBe(location)
    expect((await h().ctx.db.selectFrom('account').select('id').where('agency_id', '=', admin.agencyId).where('user_role', '=', 'AGENCY_CHECKIN').execute()).length).toBe(1)
  })

  test('no new account past the licence’s agencyUsers: refused with the limit’s message, nothing written', async () => {
    const { admin, domains } = await agencyWithSso(h(), { newUserRole: 'AGENCY_EDITOR' })
    const allowed = h().ctx.license.limits.agencyUsers
    for (let i = 1; i < allowed; i++) await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }] })
    const email = `voll@${domains[0]}`
    const { location } = await ssoLogin(h().agent(), `/proxy/auth/sso/start?email=${email}`, email)
    expect(refusal(location)).toBe('LIMIT_AGENCY_USERS_EXCEEDED')
    expect(await h().ctx.db.selectFrom('app_user').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined()
    const log = await h().ctx.db.selectFrom('audit_log').select('detail').where('agency_id', '=', admin.agencyId).where('action', '=', 'auth.sso.refused').executeTakeFirstOrThrow()
    expect(JSON.parse(log.detail!).reason).toBe('LIMIT_AGENCY_USERS_EXCEEDED')
  })

  test('account switcher: requireSsoLogin / newLogin for an SSO agency after a password login, requireLogout after another agency’s SSO; both honoured', async () => {
    const { admin, domains } = await agencyWithSso(h())
    const other = await createAgency(h())
    const u = await createUser(h(), { email: `dora@${domains[0]}`, accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }, { agencyId: other.id, role: 'AGENCY_ADMIN' }] })
    const [ssoAccount, plainAccount] = u.accounts
    // password login: the SSO agency's account is not preselected, it needs the company login
    const pw = h().agent()
    const login = await pw.post('/auth/login', { email: u.email, password: u.password })
    expect(login.status).toBe(200)
    expect(login.body.user.currentAccount.id).toBe(plainAccount.id)
    const entry = (list: any[], id: number) => list.find((a) => a.id === id)
    expect(entry(login.body.accounts, ssoAccount.id)).toMatchObject({ requireSsoLogin: true, newLogin: true, requireLogout: false })
    expect(entry(login.body.accounts, plainAccount.id)).toMatchObject({ requireSsoLogin: false, newLogin: false, requireLogout: false })
    // honoured: not by header, not by the plain select; the /proxy select starts the company login
    const byHeader = await pw.get('/proxy/userDetails', { headers: { 'x-account-id': String(ssoAccount.id) } })
    expect(byHeader.status).toBe(403)
    expect(byHeader.body).toMatchObject({ errorType: 'SSO_LOGIN_REQUIRED', errorMessage: await errorText(h(), 'SSO_LOGIN_REQUIRED') })
    expect((await pw.get(`/auth/select/${ssoAccount.id}`)).body.errorType).toBe('SSO_LOGIN_REQUIRED')
    const viaProxy = await pw.get(`/proxy/auth/select/${ssoAccount.id}`)
    expect(viaProxy.headers.get('location')).toBe(`/proxy/auth/sso/start?agency=${admin.agencyId}&account=${ssoAccount.id}`)
    // the company login opens the SSO agency's account; the other agency now needs a logout
    const sso = h().agent()
    await ssoLogin(sso, viaProxy.headers.get('location')!, u.email)
    const accountsAnswer = await sso.get('/auth/accounts')
    expect(accountsAnswer.status).toBe(200)
    const accounts = accountsAnswer.body
    expect(entry(accounts, ssoAccount.id)).toMatchObject({ requireSsoLogin: false, newLogin: false, requireLogout: false })
    expect(entry(accounts, plainAccount.id)).toMatchObject({ requireSsoLogin: false, newLogin: false, requireLogout: true })
    const cross = await sso.get('/proxy/userDetails', { headers: { 'x-account-id': String(plainAccount.id) } })
    expect(cross.body).toMatchObject({ status: 403, errorType: 'SSO_LOGOUT_REQUIRED', errorMessage: await errorText(h(), 'SSO_LOGOUT_REQUIRED') })
    expect((await sso.get(`/auth/select/${plainAccount.id}`)).body.errorType).toBe('SSO_LOGOUT_REQUIRED')
    expect((await sso.get(`/proxy/auth/select/${plainAccount.id}`)).headers.get('location')).toBe('/logout?redirect=%2Flogin')
  })

  test('the account chosen in the switcher is the one the company login opens', async () => {
    const { admin, domains } = await agencyWithSso(h())
    const u = await createUser(h(), { email: `emil@${domains[0]}`, accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }, { agencyId: admin.agencyId, role: 'AGENCY_CHECKIN' }] })
    const agent = h().agent()
    const { location } = await ssoLogin(agent, `/proxy/auth/sso/start?agency=${admin.agencyId}&account=${u.accounts[1].id}`, u.email)
    expect(location).toBe(`/events?account=${u.accounts[1].id}`)
    expect((await agent.get('/proxy/userDetails')).body.user.currentAccount).toMatchObject({ id: u.accounts[1].id, userRole: 'AGENCY_CHECKIN' })
    // without a choice: the first one
    expect((await ssoLogin(h().agent(), `/proxy/auth/sso/start?agency=${admin.agencyId}`, u.email)).location).toBe(`/events?account=${u.accounts[0].id}`)
  })

  test('starting company logins is limited per client address (each stores an attempt)', async () => {
    const { admin } = await agencyWithSso(h())
    const from = { headers: { 'x-forwarded-for': '198.51.100.7' } }
    for (let i = 0; i < RATE_LIMITS.SSO_START_ADDRESS.max; i++) expect((await h().request('GET', `/proxy/auth/sso/start?agency=${admin.agencyId}`, from)).headers.get('location')).toStartWith(idp.issuer)
    const over = await h().request('GET', `/proxy/auth/sso/start?agency=${admin.agencyId}`, from)
    expect(over.headers.get('location')).toBe('/login?ssoError=RATE_LIMITED')
    expect((await h().request('GET', `/proxy/auth/sso/start?agency=${admin.agencyId}`, { headers: { 'x-forwarded-for': '198.51.100.8' } })).headers.get('location')).toStartWith(idp.issuer)
  })

  test('agencies without a company login keep passwords; an unknown domain is sent back to the password login', async () => {
    const agency = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: agency.id, role: 'AGENCY_ADMIN' }] })
    const r = await h().agent().post('/auth/login', { email: u.email, password: u.password })
    expect(r.body.accounts[0]).toMatchObject({ requireSsoLogin: false, newLogin: false, requireLogout: false })
    expect(r.body.user.currentAccount.id).toBe(u.accounts[0].id)
    const start = await h().agent().get(`/proxy/auth/sso/start?email=${encodeURIComponent(uniqueEmail('x'))}`)
    expect(start.headers.get('location')).toBe('/login?ssoError=SSO_NOT_CONFIGURED')
  })
})
