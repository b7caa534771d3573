import { expect, test } from 'bun:test'
import { TEST_PASSWORD, forEachDialect, uniqueEmail } from '../../testing/harness'
import { linkIn } from '../../testing/smtp-sink'
import { PASSWORD_RESET, PASSWORD_RESET_MINUTES, PASSWORD_RESET_TASK } from './password-reset'
import { RATE_LIMITS } from './rate-limit'
import { createAgency, createUser, loginAs, nextTotpStep, totpCode } from './test-helpers'

const NEW = 'Neu-Passw0rt!'
const FORGOT = '/proxy/api/public/password/forgot'
const RESET = '/proxy/api/public/password/reset'

forEachDialect('password reset', (h) => {
  let ipCounter = 0
  /** Each request from its own client address unless a test is about the address limit. */
  const forgot = (email: string, ip = `203.0.113.${++ipCounter % 250}`) => h().request('POST', FORGOT, { body: { email }, headers: { 'x-forwarded-for': ip } })

  async function organiser(opts: { language?: string } = {}) {
    const agency = await createAgency(h())
    return createUser(h(), { accounts: [{ agencyId: agency.id, role: 'AGENCY_EDITOR' }], ...opts })
  }

  /** Runs the queued lookups and delivers their mails. */
  async function process() {
    await h().tasks.runOnce()
    await h().deliverMail()
  }

  const mailsTo = (email: string) => h().smtp.mails.filter((m) => m.to.includes(email))

  /** Asks for a reset and returns the token of the mailed link. */
  async function resetToken(email: string) {
    expect((await forgot(email)).status).toBe(200)
    await process()
    const mail = await h().smtp.waitFor((m) => m.to.includes(email) && m.subject === 'Neues Passwort für einlass festlegen')
    const all = mailsTo(email).filter((m) => m.subject === mail.subject)
    return new URL(linkIn(all[all.length - 1], '/password/reset?token=')).searchParams.get('token')!
  }

  test('forgot → mail → reset: new password works, old one not, every session ended, token used, Argon2id', async () => {
    const u = await organiser()
    const desk = await loginAs(h(), u, { accountId: u.accounts[0].id })
    const phone = await loginAs(h(), u, { userAgent: 'Phone' })
    const r = await forgot(u.email.toUpperCase())
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ sent: true })
    await process()
    const mail = await h().smtp.waitFor((m) => m.to.includes(u.email) && /Passwort/.test(m.subject))
    expect(mail.subject).toBe('Neues Passwort für einlass festlegen')
    expect(mail.text).toContain(`Der Link gilt ${PASSWORD_RESET_MINUTES} Minuten und nur einmal.`)
    expect(mail.text).toContain('Wenn Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren')
    const token = new URL(linkIn(mail, '/password/reset?token=')).searchParams.get('token')!
    // only a hash of the secret is stored
    const row = await h().ctx.db.selectFrom('access_token').selectAll().where('user_id', '=', u.userId).where('purpose', '=', PASSWORD_RESET).executeTakeFirstOrThrow()
    expect(token.startsWith(`${row.id}.`)).toBe(true)
    expect(row.secret_hash).not.toContain(token.split('.')[1])
    expect(row.max_uses).toBe(1)

    const info = await h().request('GET', `${RESET}?token=${encodeURIComponent(token)}`)
    expect(info.status).toBe(200)
    expect(info.body).toEqual({ email: u.email, expiresAt: row.expires_at })

    const done = await h().request('POST', RESET, { body: { token, password: NEW, passwordRepeat: NEW } })
    expect(done.status).toBe(200)
    expect(done.body).toEqual({ passwordChanged: true })
    // not logged in by the link
    expect(done.headers.get('set-cookie')).toBeNull()
    expect((await desk.get('/proxy/userDetails')).status).toBe(401)
    expect((await phone.get('/proxy/userDetails')).status).toBe(401)
    expect(await h().ctx.db.selectFrom('session').select('id').where('user_id', '=', u.userId).execute()).toEqual([])
    const user = await h().ctx.db.selectFrom('app_user').selectAll().where('id', '=', u.userId).executeTakeFirstOrThrow()
    expect(user.password_hash).toStartWith('$argon2id$')
    expect(user.password_changed_at).not.toBeNull()
    const used = await h().ctx.db.selectFrom('access_token').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()
    expect(used.uses).toBe(1)
    expect(used.last_used_at).not.toBeNull()

    expect((await h().request('POST', '/auth/login', { body: { email: u.email, password: u.password } })).status).toBe(401)
    expect((await h().request('POST', '/auth/login', { body: { email: u.email, password: NEW } })).status).toBe(200)
    // the owner hears about it
    await h().deliverMail()
    const notice = await h().smtp.waitFor((m) => m.to.includes(u.email) && m.subject === 'Ihr Passwort wurde geändert')
    expect(notice.text).toContain('über einen Link zum Zurücksetzen geändert. Alle Anmeldungen wurden beendet.')
  })

  test('a used link is refused: 410 LINK_EXPIRED on check and on reset', async () => {
    const u = await organiser()
    const token = await resetToken(u.email)
    expect((await h().request('POST', RESET, { body: { token, password: NEW, passwordRepeat: NEW } })).status).toBe(200)
    const again = await h().request('POST', RESET, { body: { token, password: 'Anders-Passw0rt', passwordRepeat: 'Anders-Passw0rt' } })
    expect(again.status).toBe(410)
    expect(again.body).toMatchObject({ errorType: 'LINK_EXPIRED', errorMessage: 'Dieser Link ist abgelaufen oder wurde bereits verwendet.' })
    expect((await h().request('GET', `${RESET}?token=${encodeURIComponent(token)}`)).status).toBe(410)
    expect((await h().request('POST', '/auth/login', { body: { email: u.email, password: NEW } })).status).toBe(200)
  })

  test('two resets with one link at the same moment: exactly one succeeds', async () => {
    const u = await organiser()
    const token = await resetToken(u.email)
    const results = await Promise.all(['Erstes-Passw0rt', 'Zweites-Passw0rt', 'Drittes-Passw0rt'].map((p) => h().request('POST', RESET, { body: { token, password: p, passwordRepeat: p } })))
    expect(results.map((r) => r.status).sort()).toEqual([200, 410, 410])
  })

  test('the link expires after one hour (TestClock)', async () => {
    const u = await organiser()
    const token = await resetToken(u.email)
    h().clock.advance(PASSWORD_RESET_MINUTES * 60_000 - 5_000)
    expect((await h().request('GET', `${RESET}?token=${encodeURIComponent(token)}`)).status).toBe(200)
    h().clock.advance(10_000)
    const check = await h().request('GET', `${RESET}?token=${encodeURIComponent(token)}`)
    expect(check.status).toBe(410)
    expect(check.body.errorType).toBe('LINK_EXPIRED')
    const r = await h().request('POST', RESET, { body: { token, password: NEW, passwordRepeat: NEW } })
    expect(r.status).toBe(410)
    expect((await h().request('POST', '/auth/login', { body: { email: u.email, password: u.password } })).status).toBe(200)
  })

  test('unknown, forged and other-purpose tokens are refused; a missing token is a field error', async () => {
    const u = await organiser()
    const token = await resetToken(u.email)
    const [id] = token.split('.')
    for (const bad of ['x', 'nichts.da', `${id}.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa`]) {
      expect((await h().request('GET', `${RESET}?token=${encodeURIComponent(bad)}`)).status).toBe(410)
      expect((await h().request('POST', RESET, { body: { token: bad, password: NEW, passwordRepeat: NEW } })).body.errorType).toBe('LINK_EXPIRED')
    }
    // a guest access link of the same user is no reset link
    const g = await createUser(h(), { password: null })
    expect((await forgot(g.email)).status).toBe(200)
    await process()
    const access = await h().smtp.waitFor((m) => m.to.includes(g.email))
    const guestToken = new URL(linkIn(access, '/guest/dashboard?token=')).searchParams.get('token')!
    expect((await h().request('POST', RESET, { body: { token: guestToken, password: NEW, passwordRepeat: NEW } })).status).toBe(410)
    const missing = await h().request('POST', RESET, { body: { password: NEW, passwordRepeat: NEW } })
    expect(missing.status).toBe(400)
    expect(missing.body.errorFields).toEqual([{ field: 'token', errorType: 'REQUIRED' }])
    expect((await h().request('GET', RESET)).body.errorFields).toEqual([{ field: 'token', errorType: 'REQUIRED' }])
  })

  test('password rules of the spec, each with its message; a refused password leaves the link usable', async () => {
    const u = await organiser()
    const token = await resetToken(u.email)
    const cases: Array<[Record<string, unknown>, Array<{ field: string; errorType: string }>]> = [
      [{}, [{ field: 'password', errorType: 'PASSWORD_MISSING' }, { field: 'passwordRepeat', errorType: 'PASSWORD_REPEAT_MISSING' }]],
      [{ password: 'kurz', passwordRepeat: 'kurz' }, [{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }]],
      [{ password: 'Ohne Leer1!', passwordRepeat: 'Ohne Leer1!' }, [{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }]],
      [{ password: 'keingross1!', passwordRepeat: 'keingross1!' }, [{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }]],
      [{ password: 'KeineZiffer!', passwordRepeat: 'KeineZiffer!' }, [{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }]],
      [{ password: 'OhneSonder1', passwordRepeat: 'OhneSonder1' }, [{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }]],
      [{ password: NEW, passwordRepeat: `${NEW}x` }, [{ field: 'passwordRepeat', errorType: 'PASSWORD_REPEAT_MISMATCH' }]],
      [{ password: NEW }, [{ field: 'passwordRepeat', errorType: 'PASSWORD_REPEAT_MISSING' }]],
    ]
    for (const [body, fields] of cases) {
      const r = await h().request('POST', RESET, { body: { token, ...body } })
      expect(r.status).toBe(400)
      expect(r.body.errorType).toBe('FIELD_ERROR')
      expect(r.body.errorFields).toEqual(fields)
    }
    const weak = await h().request('POST', RESET, { body: { token, password: 'kurz', passwordRepeat: 'kurz' } })
    expect(weak.body.errorMessage).toBeString()
    expect((await h().request('POST', RESET, { body: { token, password: NEW, passwordRepeat: NEW } })).status).toBe(200)
  })

  test('two-factor is still required after a reset; a pending second step is ended', async () => {
    const u = await organiser()
    const agent = await loginAs(h(), u, { accountId: u.accounts[0].id })
    const added = (await agent.post('/proxy/api/user-tfa', { twoFactorType: 'OTP', displayName: 'Handy', accountPassword: u.password })).body
    nextTotpStep(h())
    expect((await agent.post(`/proxy/api/user-tfa/${added.id}/link`, { token: totpCode(h(), added.secret) })).status).toBe(200)
    // someone has the password and waits at the second step
    const pending = h().agent()
    expect((await pending.post('/auth/login', { email: u.email, password: u.password })).body.tfaRequired).toBe(true)

    const token = await resetToken(u.email)
    expect((await h().request('POST', RESET, { body: { token, password: NEW, passwordRepeat: NEW } })).status).toBe(200)
    nextTotpStep(h())
    expect((await pending.post('/auth/login/tfa', { token: totpCode(h(), added.secret) })).status).toBe(401)

    const fresh = h().agent()
    const step1 = await fresh.post('/auth/login', { email: u.email, password: NEW })
    expect(step1.status).toBe(200)
    expect(step1.body).toMatchObject({ tfaRequired: true, user: null })
    expect((await fresh.get('/proxy/userDetails')).status).toBe(401)
    nextTotpStep(h())
    const step2 = await fresh.post('/auth/login/tfa', { token: totpCode(h(), added.secret) })
    expect(step2.status).toBe(200)
    expect((await fresh.get('/proxy/userDetails')).status).toBe(200)
  })

  test('no enumeration: the same answer and the same work for organiser, guest, invited, dummy and unknown addresses', async () => {
    const agency = await createAgency(h())
    const org = await organiser()
    const guest = await createUser(h(), { password: null, accounts: [{ agencyId: agency.id, role: 'CP_PERSOO_VISITOR_GUEST' }] })
    const invited = await createUser(h(), { password: null, accounts: [{ agencyId: agency.id, role: 'AGENCY_MANAGER', status: 'PENDING_ACTIVATION' }] })
    await h().ctx.db.updateTable('app_user').set({ status: 'PENDING_ACTIVATION' }).where('id', '=', invited.userId).execute()
    const dummy = await createUser(h(), { email: `platzhalter.${Date.now()}@dummy.einlass.invalid`, password: null })
    await h().ctx.db.updateTable('app_user').set({ status: 'DUMMY' }).where('id', '=', dummy.userId).execute()
    const unknown = uniqueEmail('niemand')
    const addresses = [org.email, guest.email, invited.email, dummy.email, unknown]

    const outboxBefore = await h().ctx.db.selectFrom('mail_outbox').select('id').execute()
    const tokensBefore = await h().ctx.db.selectFrom('access_token').select('id').execute()
    const answers = []
    for (const email of addresses) {
      const r = await forgot(email)
      answers.push({ status: r.status, text: r.text, type: r.headers.get('content-type') })
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1)
    expect(answers[0]).toMatchObject({ status: 200, text: '{"sent":true}' })
    // the answer came before anything depended on the address: one queued lookup each, no token, no mail
    expect(await h().ctx.db.selectFrom('mail_outbox').select('id').execute()).toHaveLength(outboxBefore.length)
    expect(await h().ctx.db.selectFrom('access_token').select('id').execute()).toHaveLength(tokensBefore.length)
    const tasks = await h().ctx.db.selectFrom('task').selectAll().where('kind', '=', PASSWORD_RESET_TASK).where('status', '=', 'WAIT').execute()
    expect(tasks).toHaveLength(addresses.length)

    await process()
    // the addresses are not kept once looked at
    for (const t of await h().ctx.db.selectFrom('task').selectAll().where('id', 'in', tasks.map((t) => t.id)).execute()) {
      expect(t.status).toBe('FINISHED')
      expect(JSON.parse(t.payload as string)).toEqual({})
    }
    expect((await h().smtp.waitFor((m) => m.to.includes(org.email))).subject).toBe('Neues Passwort für einlass festlegen')
    // a guest without a password gets the existing access-link mail, and the link logs in
    const access = await h().smtp.waitFor((m) => m.to.includes(guest.email))
    expect(access.subject).toBe('Ihr Zugangslink zu Ihren Veranstaltungen')
    const guestToken = new URL(linkIn(access, '/guest/dashboard?token=')).searchParams.get('token')!
    expect((await h().request('GET', `/userDetails/guest?t=1`, { headers: { 'x-guest-token': guestToken } })).body).toMatchObject({ via: 'token', user: { email: guest.email } })
    // an invited user who never set a password is pointed at the invitation
    const note = await h().smtp.waitFor((m) => m.to.includes(invited.email))
    expect(note.subject).toBe('Ihr Zugang ist noch nicht aktiviert')
    expect(note.text).toContain('Ihr Passwort legen Sie über den Link in Ihrer Einladungs-E-Mail fest.')
    expect(note.text).not.toContain('/password/reset')
    expect(await h().ctx.db.selectFrom('access_token').select('id').where('user_id', '=', invited.userId).execute()).toEqual([])
    // nothing for the placeholder and the unknown address
    expect(mailsTo(dummy.email)).toEqual([])
    expect(mailsTo(unknown)).toEqual([])
  })

  test('a user with a password but only guest accounts gets a reset link; the mail speaks the user\'s language', async () => {
    const agency = await createAgency(h())
    const g = await createUser(h(), { language: 'en', accounts: [{ agencyId: agency.id, role: 'CP_PERSOO_VISITOR_GUEST' }] })
    expect((await forgot(g.email)).status).toBe(200)
    await process()
    const mail = await h().smtp.waitFor((m) => m.to.includes(g.email))
    expect(mail.subject).toBe('Choose a new password for einlass')
    expect(mail.text).toContain('/password/reset?token=')
  })

  test('bad e-mail is a field error', async () => {
    expect((await h().request('POST', FORGOT, { body: { email: 'kaputt' } })).body.errorFields).toEqual([{ field: 'email', errorType: 'INVALID_EMAIL' }])
    expect((await h().request('POST', FORGOT, { body: {} })).body.errorFields).toEqual([{ field: 'email', errorType: 'REQUIRED' }])
  })

  test('rate limit per account (e-mail), known or not, and per client address', async () => {
    const u = await organiser()
    const unknown = uniqueEmail('niemand')
    for (const email of [u.email, unknown]) {
      for (let i = 0; i < RATE_LIMITS.PASSWORD_RESET_ACCOUNT.max; i++) expect((await forgot(email)).status).toBe(200)
      const limited = await forgot(email)
      expect(limited.status).toBe(429)
      expect(limited.body).toMatchObject({ errorType: 'RATE_LIMITED', errorMessage: 'Zu viele Versuche. Bitte warten Sie einen Moment und versuchen Sie es dann erneut.' })
      expect(limited.body.retryAfter).toBeGreaterThan(0)
    }
    // a throttled request queues nothing
    const queued = await h().ctx.db.selectFrom('task').select('id').where('kind', '=', PASSWORD_RESET_TASK).where('status', '=', 'WAIT').execute()
    expect(queued).toHaveLength(2 * RATE_LIMITS.PASSWORD_RESET_ACCOUNT.max)
    await process()
    expect(mailsTo(u.email)).toHaveLength(RATE_LIMITS.PASSWORD_RESET_ACCOUNT.max)

    const ip = '198.51.100.210'
    for (let i = 0; i < RATE_LIMITS.PASSWORD_RESET_ADDRESS.max; i++) expect((await forgot(uniqueEmail('probe'), ip)).status).toBe(200)
    expect((await forgot(uniqueEmail('probe'), ip)).status).toBe(429)
    expect((await forgot(uniqueEmail('probe'), '198.51.100.211')).status).toBe(200)

    h().clock.advance(RATE_LIMITS.PASSWORD_RESET_ADDRESS.windowMs + 1000)
    expect((await forgot(u.email, ip)).status).toBe(200)
    await process()
  })

  test('a reset lifts the login lock of the account', async () => {
    const u = await organiser()
    for (let i = 0; i < RATE_LIMITS.LOGIN_ACCOUNT.max; i++) await h().request('POST', '/auth/login', { body: { email: u.email, password: `Falsch${i}!Aa` }, headers: { 'x-forwarded-for': `10.9.0.${i}` } })
    expect((await h().request('POST', '/auth/login', { body: { email: u.email, password: u.password } })).status).toBe(429)
    const token = await resetToken(u.email)
    expect((await h().request('POST', RESET, { body: { token, password: NEW, passwordRepeat: NEW } })).status).toBe(200)
    expect((await h().request('POST', '/auth/login', { body: { email: u.email, password: NEW } })).status).toBe(200)
  })

  test('several links: each works until one is used; a password change in the account area ends them too', async () => {
    const u = await organiser()
    const first = await resetToken(u.email)
    const second = await resetToken(u.email)
    expect(first).not.toBe(second)
    expect((await h().request('GET', `${RESET}?token=${encodeURIComponent(first)}`)).status).toBe(200)
    expect((await h().request('POST', RESET, { body: { token: second, password: NEW, passwordRepeat: NEW } })).status).toBe(200)
    expect((await h().request('GET', `${RESET}?token=${encodeURIComponent(first)}`)).status).toBe(410)

    const third = await resetToken(u.email)
    const agent = await loginAs(h(), { email: u.email, password: NEW }, { accountId: u.accounts[0].id })
    expect((await agent.patch(`/proxy/api/user/${u.userId}`, { password: TEST_PASSWORD, passwordRepeat: TEST_PASSWORD, currentPassword: NEW })).status).toBe(200)
    expect((await h().request('GET', `${RESET}?token=${encodeURIComponent(third)}`)).status).toBe(410)
  })
})
