import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { RATE_LIMITS } from './rate-limit'
import { createAgency, createUser, loginAs, nextTotpStep, totpCode } from './test-helpers'

forEachDialect('two-factor methods', (h) => {
  async function organiser() {
    const agency = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: agency.id, role: 'AGENCY_ADMIN' }] })
    return { u, agent: await loginAs(h(), u, { accountId: u.accounts[0].id }) }
  }

  async function addOtp(agent: Awaited<ReturnType<typeof organiser>>['agent'], password: string) {
    const r = await agent.post('/proxy/api/user-tfa', { twoFactorType: 'OTP', displayName: 'Handy', accountPassword: password })
    expect(r.status).toBe(200)
    return r.body as { id: number; secret: string; qrCode: string; url: string; linked: boolean; enabled: boolean }
  }

  test('OTP: add (password), QR code and secret, link with a code, then login asks for the code', async () => {
    const { u, agent } = await organiser()
    const added = await addOtp(agent, u.password)
    expect(added).toMatchObject({ displayName: 'Handy', twoFactorType: 'OTP', linked: false, enabled: false })
    expect(added.qrCode).toStartWith('data:image/png;base64,')
    expect(added.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(added.url).toStartWith('otpauth://totp/einlass:')
    // the secret is not stored in clear
    const row = await h().ctx.db.selectFrom('user_tfa').selectAll().where('id', '=', added.id).executeTakeFirstOrThrow()
    expect(row.secret).not.toContain(added.secret)

    const again = await agent.get(`/proxy/api/user-tfa/${added.id}/forLink`)
    expect(again.body.secret).toBe(added.secret)

    const wrong = await agent.post(`/proxy/api/user-tfa/${added.id}/link`, { token: '000000' })
    expect(wrong.status).toBe(400)
    expect(wrong.body.errorFields).toEqual([{ field: 'token', errorType: 'TFA_TOKEN_INVALID' }])
    const short = await agent.post(`/proxy/api/user-tfa/${added.id}/link`, { token: '123' })
    expect(short.body.errorFields).toEqual([{ field: 'token', errorType: 'TOKEN_TOO_SHORT' }])

    nextTotpStep(h())
    const linked = await agent.post(`/proxy/api/user-tfa/${added.id}/link`, { token: totpCode(h(), added.secret) })
    expect(linked.status).toBe(200)
    expect(linked.body).toMatchObject({ linked: true, enabled: true })
    expect((await agent.get(`/proxy/api/user-tfa/${added.id}/forLink`)).body.errorType).toBe('TFA_ALREADY_LINKED')
    const list = await agent.get('/proxy/api/user-tfa/list')
    expect(list.body).toEqual([{ id: added.id, displayName: 'Handy', twoFactorType: 'OTP', enabled: true, linked: true }])
    expect((await agent.get('/proxy/userDetails')).body.user.tfaEnabled).toBe(true)

    // login now needs the second step; the password alone opens nothing
    const fresh = h().agent()
    const step1 = await fresh.post('/auth/login', { email: u.email, password: u.password })
    expect(step1.status).toBe(200)
    expect(step1.body).toMatchObject({ tfaRequired: true, user: null, tfaMethods: [{ id: added.id, displayName: 'Handy', twoFactorType: 'OTP' }] })
    expect((await fresh.get('/proxy/userDetails')).status).toBe(401)
    const bad = await fresh.post('/auth/login/tfa', { token: '111111' })
    expect(bad.status).toBe(400)
    expect(bad.body.errorType).toBe('TFA_TOKEN_INVALID')
    nextTotpStep(h())
    const code = totpCode(h(), added.secret)
    const step2 = await fresh.post('/auth/login/tfa', { token: code })
    expect(step2.status).toBe(200)
    expect(step2.body.user.email).toBe(u.email)
    expect((await fresh.get('/proxy/userDetails')).status).toBe(200)

    // a code is accepted once only (no replay)
    const other = h().agent()
    await other.post('/auth/login', { email: u.email, password: u.password })
    expect((await other.post('/auth/login/tfa', { token: code })).status).toBe(400)
  })

  test('the pending login step expires after 10 minutes', async () => {
    const { u, agent } = await organiser()
    const added = await addOtp(agent, u.password)
    nextTotpStep(h())
    await agent.post(`/proxy/api/user-tfa/${added.id}/link`, { token: totpCode(h(), added.secret) })
    const fresh = h().agent()
    await fresh.post('/auth/login', { email: u.email, password: u.password })
    h().clock.advance(11 * 60_000)
    const late = await fresh.post('/auth/login/tfa', { token: totpCode(h(), added.secret) })
    expect(late.status).toBe(401)
    expect(late.body.errorType).toBe('NOT_AUTHENTICATED')
  })

  test('adding needs the account password: missing, too short and wrong each have their message', async () => {
    const { agent } = await organiser()
    const missing = await agent.post('/proxy/api/user-tfa', { twoFactorType: 'OTP', displayName: 'Handy' })
    expect(missing.body.errorFields).toContainEqual({ field: 'accountPassword', errorType: 'ACCOUNT_PASSWORD_MISSING' })
    const short = await agent.post('/proxy/api/user-tfa', { twoFactorType: 'OTP', displayName: 'Handy', accountPassword: 'kurz' })
    expect(short.body.errorFields).toContainEqual({ field: 'accountPassword', errorType: 'ACCOUNT_PASSWORD_MISSING' })
    const wrong = await agent.post('/proxy/api/user-tfa', { twoFactorType: 'OTP', displayName: 'Handy', accountPassword: 'Falsch123!' })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toMatchObject({ errorType: 'ACCOUNT_PASSWORD_WRONG', errorFields: [{ field: 'accountPassword', errorType: 'ACCOUNT_PASSWORD_WRONG' }] })
    const noName = await agent.post('/proxy/api/user-tfa', { twoFactorType: 'OTP', displayName: '', accountPassword: 'Falsch123!' })
    expect(noName.body.errorFields).toContainEqual({ field: 'displayName', errorType: 'REQUIRED' })
    const noType = await agent.post('/proxy/api/user-tfa', { accountPassword: 'Falsch123!' })
    expect(noType.body.errorFields).toContainEqual({ field: 'twoFactorType', errorType: 'REQUIRED' })
  })

  test('enable, disable and delete need the password; a disabled method is not asked at login', async () => {
    const { u, agent } = await organiser()
    const added = await addOtp(agent, u.password)
    expect((await agent.post(`/proxy/api/user-tfa/${added.id}/enable`, { accountPassword: u.password })).body.errorType).toBe('TFA_NOT_LINKED')
    nextTotpStep(h())
    await agent.post(`/proxy/api/user-tfa/${added.id}/link`, { token: totpCode(h(), added.secret) })
    expect((await agent.post(`/proxy/api/user-tfa/${added.id}/disable`, { accountPassword: 'Falsch123!' })).body.errorType).toBe('ACCOUNT_PASSWORD_WRONG')
    expect((await agent.post(`/proxy/api/user-tfa/${added.id}/disable`, {})).body.errorFields).toContainEqual({ field: 'accountPassword', errorType: 'ACCOUNT_PASSWORD_MISSING' })
    const off = await agent.post(`/proxy/api/user-tfa/${added.id}/disable`, { accountPassword: u.password })
    expect(off.body).toMatchObject({ enabled: false, linked: true })
    const direct = await h().agent().post('/auth/login', { email: u.email, password: u.password })
    expect(direct.body.tfaRequired).toBe(false)
    const on = await agent.post(`/proxy/api/user-tfa/${added.id}/enable`, { accountPassword: u.password })
    expect(on.body.enabled).toBe(true)
    expect((await agent.delete(`/proxy/api/user-tfa/${added.id}`, { accountPassword: 'Falsch123!' })).status).toBe(400)
    expect((await agent.delete(`/proxy/api/user-tfa/${added.id}`, { accountPassword: u.password })).status).toBe(200)
    expect((await agent.get('/proxy/api/user-tfa/list')).body).toEqual([])
    // another user's method is not found
    const other = await organiser()
    const theirs = await addOtp(other.agent, other.u.password)
    expect((await agent.post(`/proxy/api/user-tfa/${theirs.id}/disable`, { accountPassword: u.password })).status).toBe(404)
  })

  test('EMAIL: the code comes by mail, only one EMAIL method, login mails a code on request', async () => {
    const { u, agent } = await organiser()
    const added = await agent.post('/proxy/api/user-tfa', { twoFactorType: 'EMAIL', accountPassword: u.password })
    expect(added.status).toBe(200)
    expect(added.body).toMatchObject({ twoFactorType: 'EMAIL', displayName: u.email, linked: false })
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(u.email) && m.subject.startsWith('Ihr Anmeldecode'))
    const code = /(\d{6})/.exec(mail.subject)![1]
    expect(mail.text).toContain('Er gilt 10 Minuten')
    expect((await agent.post(`/proxy/api/user-tfa/${added.body.id}/link`, { token: code })).body.linked).toBe(true)
    // a used code does not work twice
    const second = await agent.post('/proxy/api/user-tfa', { twoFactorType: 'EMAIL', accountPassword: u.password })
    expect(second.status).toBe(409)
    expect(second.body.errorType).toBe('TFA_EMAIL_EXISTS')

    const fresh = h().agent()
    const step1 = await fresh.post('/auth/login', { email: u.email, password: u.password })
    expect(step1.body.tfaMethods[0].twoFactorType).toBe('EMAIL')
    expect((await fresh.post('/auth/login/tfa', { token: code })).status).toBe(400)
    expect((await fresh.post('/auth/login/tfa/send', { methodId: added.body.id })).body.sent).toBe(true)
    await h().deliverMail()
    const loginMail = await h().smtp.waitFor((m) => m.to.includes(u.email) && m.subject.startsWith('Ihr Anmeldecode') && !m.subject.endsWith(code))
    const loginCode = /(\d{6})/.exec(loginMail.subject)![1]
    const ok = await fresh.post('/auth/login/tfa', { token: loginCode, methodId: added.body.id })
    expect(ok.status).toBe(200)
    // the send endpoint needs a pending login
    expect((await h().agent().post('/auth/login/tfa/send', { methodId: added.body.id })).status).toBe(401)
  })

  test('wrong codes are rate limited per user', async () => {
    const { u, agent } = await organiser()
    const added = await addOtp(agent, u.password)
    nextTotpStep(h())
    await agent.post(`/proxy/api/user-tfa/${added.id}/link`, { token: totpCode(h(), added.secret) })
    const fresh = h().agent()
    await fresh.post('/auth/login', { email: u.email, password: u.password })
    for (let i = 0; i < RATE_LIMITS.TFA_USER.max; i++) expect((await fresh.post('/auth/login/tfa', { token: '000000' })).status).toBe(400)
    nextTotpStep(h())
    const blocked = await fresh.post('/auth/login/tfa', { token: totpCode(h(), added.secret) })
    expect(blocked.status).toBe(429)
    expect(blocked.body.errorType).toBe('RATE_LIMITED')
  })

  test('two-factor calls need a logged-in user', async () => {
    expect((await h().request('GET', '/proxy/api/user-tfa/list')).status).toBe(401)
    expect((await h().request('POST', '/proxy/api/user-tfa', { body: { twoFactorType: 'OTP', displayName: 'x', accountPassword: 'Geheim123!' } })).status).toBe(401)
  })
})
