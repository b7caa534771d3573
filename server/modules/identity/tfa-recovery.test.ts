// Issue 10 item 16: one-time recovery codes — shown once when the first method is linked, stored
// hashed, accepted instead of a code at login exactly once, regenerated (old ones invalid).
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { hashSecret } from './tokens'
import { createAgency, createUser, loginAs, nextTotpStep, totpCode } from './test-helpers'
import { normaliseRecoveryCode } from './tfa'

forEachDialect('two-factor recovery codes', (h) => {
  async function withOtp() {
    const agency = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: agency.id, role: 'AGENCY_ADMIN' }] })
    const agent = await loginAs(h(), u, { accountId: u.accounts[0].id })
    const added = (await agent.post('/proxy/api/user-tfa', { twoFactorType: 'OTP', displayName: 'Handy', accountPassword: u.password })).body
    nextTotpStep(h())
    const linked = await agent.post(`/proxy/api/user-tfa/${added.id}/link`, { token: totpCode(h(), added.secret) })
    expect(linked.status).toBe(200)
    return { u, agent, added, codes: linked.body.recoveryCodes as string[] }
  }
  async function loginWith(u: { email: string; password: string }, token: string) {
    const fresh = h().agent()
    const step1 = await fresh.post('/auth/login', { email: u.email, password: u.password })
    expect(step1.body.tfaRequired).toBe(true)
    return { agent: fresh, r: await fresh.post('/auth/login/tfa', { token, methodId: step1.body.tfaMethods[0].id }) }
  }

  test('linking the first method shows ten codes once; only their hashes are stored', async () => {
    const { u, agent, codes } = await withOtp()
    expect(codes).toHaveLength(10)
    for (const c of codes) expect(c).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/)
    expect(new Set(codes).size).toBe(10)
    const rows = await h().ctx.db.selectFrom('user_tfa_recovery').select('code_hash').where('user_id', '=', u.userId).execute()
    expect(rows.map((r) => r.code_hash).sort()).toEqual(codes.map((c) => hashSecret(normaliseRecoveryCode(c))).sort())
    expect(JSON.stringify(rows)).not.toContain(codes[0].replace('-', ''))
    expect((await agent.get('/proxy/api/user-tfa/recovery-codes')).body).toEqual({ total: 10, remaining: 10 })
    // a second method does not replace them
    const mail = (await agent.post('/proxy/api/user-tfa', { twoFactorType: 'EMAIL', accountPassword: u.password })).body
    expect(mail.id).toBeGreaterThan(0)
  })

  test('a recovery code logs in instead of a code, once; lower case and without hyphen too', async () => {
    const { u, codes } = await withOtp()
    const first = await loginWith(u, codes[0].toLowerCase().replace('-', ' '))
    expect(first.r.status).toBe(200)
    expect((await first.agent.get('/proxy/userDetails')).status).toBe(200)
    const again = await loginWith(u, codes[0])
    expect(again.r.status).toBe(400)
    expect(again.r.body.errorType).toBe('TFA_TOKEN_INVALID')
    const made = await loginWith(u, 'ABCDE-FGHJK')
    expect(made.r.status).toBe(400)
    const state = await first.agent.get('/proxy/api/user-tfa/recovery-codes')
    expect(state.body).toEqual({ total: 10, remaining: 9 })
  })

  test('regenerating needs the password and invalidates the old codes', async () => {
    const { u, agent, codes } = await withOtp()
    const wrong = await agent.post('/proxy/api/user-tfa/recovery-codes', { accountPassword: 'falsch-falsch' })
    expect(wrong.status).toBeGreaterThanOrEqual(400)
    const fresh = await agent.post('/proxy/api/user-tfa/recovery-codes', { accountPassword: u.password })
    expect(fresh.status).toBe(200)
    expect(fresh.body.recoveryCodes).toHaveLength(10)
    expect(fresh.body.recoveryCodes).not.toContain(codes[1])
    expect((await loginWith(u, codes[1])).r.status).toBe(400)
    expect((await loginWith(u, fresh.body.recoveryCodes[1])).r.status).toBe(200)
  })

  test('without a linked method there are no codes to make; removing the last method removes them', async () => {
    const agency = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: agency.id, role: 'AGENCY_ADMIN' }] })
    const agent = await loginAs(h(), u, { accountId: u.accounts[0].id })
    const none = await agent.post('/proxy/api/user-tfa/recovery-codes', { accountPassword: u.password })
    expect(none.status).toBe(409)
    expect(none.body.errorType).toBe('TFA_NOT_LINKED')
    const w = await withOtp()
    expect((await w.agent.delete(`/proxy/api/user-tfa/${w.added.id}`, { accountPassword: w.u.password })).status).toBe(200)
    expect((await w.agent.get('/proxy/api/user-tfa/recovery-codes')).body).toEqual({ total: 0, remaining: 0 })
  })
})
