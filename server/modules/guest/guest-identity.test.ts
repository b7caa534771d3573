import { expect, test } from 'bun:test'
import { forEachDialect, uniqueEmail } from '../../testing/harness'
import { linkIn } from '../../testing/smtp-sink'
import { RATE_LIMITS } from '../identity/rate-limit'
import { createAgency, createUser, loginAs } from '../identity/test-helpers'
import { ACCESS_LINK_HOURS } from './access-link'

forEachDialect('guest identity: access links and guest user details', (h) => {
  test('resendMail: a guest gets a link that logs in for a day', async () => {
    const g = await createUser(h(), { password: null })
    const r = await h().request('POST', '/api/public/visitor/resendMail', { body: { email: g.email.toUpperCase() } })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ sent: true })
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(g.email))
    expect(mail.subject).toBe('Ihr Zugangslink zu Ihren Veranstaltungen')
    expect(mail.text).toContain('Er gilt 24 Stunden.')
    const token = new URL(linkIn(mail, '/guest/dashboard?token=')).searchParams.get('token')!
    const details = await h().request('GET', `/userDetails/guest?t=${Date.now()}`, { headers: { 'x-guest-token': token } })
    expect(details.status).toBe(200)
    expect(details.body).toMatchObject({ via: 'token', user: { email: g.email, isAccount: false } })
    expect((await h().request('GET', '/proxy/api/guest/events', { headers: { 'x-guest-token': token } })).status).toBe(200)
    h().clock.advance(ACCESS_LINK_HOURS * 3600_000 + 1000)
    const expired = await h().request('GET', '/proxy/api/guest/events', { headers: { 'x-guest-token': token } })
    expect(expired.status).toBe(401)
    expect(expired.body.errorType).toBe('NOT_AUTHENTICATED')
  })

  test('resendMail: NOT_FOUND for unknown addresses, USER_HAS_ACCOUNT for organisers, FIELD_ERROR for bad ones', async () => {
    const unknown = await h().request('POST', '/proxy/api/public/visitor/resendMail', { body: { email: uniqueEmail('niemand') } })
    expect(unknown.status).toBe(404)
    expect(unknown.body.errorType).toBe('NOT_FOUND')
    const agency = await createAgency(h())
    const org = await createUser(h(), { accounts: [{ agencyId: agency.id, role: 'AGENCY_EDITOR' }] })
    const has = await h().request('POST', '/proxy/api/public/visitor/resendMail', { body: { email: org.email } })
    expect(has.status).toBe(409)
    expect(has.body).toMatchObject({ errorType: 'USER_HAS_ACCOUNT', errorMessage: 'Zu dieser E-Mail-Adresse gibt es ein Benutzerkonto. Bitte melden Sie sich mit Ihrem Passwort an.' })
    const bad = await h().request('POST', '/proxy/api/public/visitor/resendMail', { body: { email: 'kaputt' } })
    expect(bad.body.errorFields).toEqual([{ field: 'email', errorType: 'INVALID_EMAIL' }])
    const missing = await h().request('POST', '/proxy/api/public/visitor/resendMail', { body: {} })
    expect(missing.body.errorFields).toEqual([{ field: 'email', errorType: 'REQUIRED' }])
    // a guest with a guest-role account is still a guest
    const guest = await createUser(h(), { accounts: [{ agencyId: agency.id, role: 'CP_PERSOO_VISITOR_GUEST' }] })
    expect((await h().request('POST', '/proxy/api/public/visitor/resendMail', { body: { email: guest.email } })).status).toBe(200)
  })

  test('resendMail is rate limited per address and per e-mail', async () => {
    const g = await createUser(h(), { password: null })
    for (let i = 0; i < RATE_LIMITS.ACCESS_LINK_EMAIL.max; i++) {
      expect((await h().request('POST', '/proxy/api/public/visitor/resendMail', { body: { email: g.email }, headers: { 'x-forwarded-for': `198.51.100.${i}` } })).status).toBe(200)
    }
    const limited = await h().request('POST', '/proxy/api/public/visitor/resendMail', { body: { email: g.email }, headers: { 'x-forwarded-for': '198.51.100.99' } })
    expect(limited.status).toBe(429)
    expect(limited.body.errorType).toBe('RATE_LIMITED')
    // per address: unknown e-mails count too, so the endpoint cannot be used to probe addresses at speed
    const ip = '198.51.100.200'
    for (let i = 0; i < RATE_LIMITS.ACCESS_LINK_ADDRESS.max; i++) {
      expect((await h().request('POST', '/proxy/api/public/visitor/resendMail', { body: { email: uniqueEmail('probe') }, headers: { 'x-forwarded-for': ip } })).status).toBe(404)
    }
    expect((await h().request('POST', '/proxy/api/public/visitor/resendMail', { body: { email: uniqueEmail('probe') }, headers: { 'x-forwarded-for': ip } })).status).toBe(429)
    h().clock.advance(RATE_LIMITS.ACCESS_LINK_ADDRESS.windowMs + 1000)
  })

  test('userDetails/guest, guestAccount and account/guest', async () => {
    const a = await createAgency(h(), 'Agentur Gast')
    const b = await createAgency(h(), 'Agentur Orga')
    const g = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'CP_PERSOO_VISITOR_GUEST', canEditAccount: false }, { agencyId: b.id, role: 'AGENCY_EDITOR' }] })
    const agent = await loginAs(h(), g)
    const details = await agent.get('/userDetails/guest')
    expect(details.body).toMatchObject({ via: 'session', user: { email: g.email, isAccount: true, validAccounts: 2 } })
    const acc = await agent.get(`/userDetails/guestAccount?t=${Date.now()}`)
    expect(acc.body.accounts).toHaveLength(1)
    expect(acc.body.accounts[0]).toMatchObject({ userRole: 'CP_PERSOO_VISITOR_GUEST', canEditAccount: false, agency: { displayName: 'Agentur Gast' } })
    const one = await agent.get(`/proxy/account/guest?agency=${a.id}`)
    expect(one.body).toMatchObject({ id: g.accounts[0].id, userRole: 'CP_PERSOO_VISITOR_GUEST' })
    // the organiser account is not a guest account
    expect((await agent.get(`/proxy/account/guest?agency=${b.id}`)).status).toBe(404)
    expect((await h().request('GET', '/userDetails/guestAccount')).status).toBe(401)
    expect((await agent.get('/proxy/account/guest?agency=x')).body.errorType).toBe('FIELD_ERROR')
  })
})
