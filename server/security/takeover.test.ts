// Hostile: the public form taking over the organiser's entries. Knowing an invited guest's e-mail is
// not enough: an entry becomes the guest's registration only through the guest's own link (the
// entry's event token, an access link or session of that guest); the organiser's DECLINED stands.
import { expect, test } from 'bun:test'
import { forEachDialect, uniqueEmail } from '../testing/harness'
import { addGuest, createEvent } from '../testing/organiser'
import { GUEST_ACCESS, issueAccessToken } from '../modules/identity/access-tokens'
import { createAgency, createUser, loginAs, nextTotpStep, totpCode } from '../modules/identity/test-helpers'
import { publicRegister } from './fixtures'

forEachDialect('security: taking over the organiser\'s entries', (h) => {
  const row = (id: number) => h().ctx.db.selectFrom('event_visitor').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const seats = async (eventId: number) => (await h().ctx.db.selectFrom('event').select('seats_taken').where('id', '=', eventId).executeTakeFirstOrThrow()).seats_taken

  test('a stranger who knows an invited guest\'s e-mail gets ALREADY_INVITED (German) and changes nothing, for every organiser-made status', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin, { maxVisitors: 10 })
    for (const status of ['ADDED', 'INVITED', 'OPEN', 'VISITOR_DECLINED', 'DELETED'] as const) {
      const g = await addGuest(admin, e.id, { firstName: 'Echt', vip: true })
      await h().ctx.db.updateTable('event_visitor').set({ status }).where('id', '=', g.id).execute()
      const r = await publicRegister(h(), e.id, { email: g.email.toUpperCase(), firstName: 'Fälscher', escortPersons: [{ firstName: 'X', lastName: 'Y' }] })
      expect([status, r.status, r.body.errorType]).toEqual([status, 409, 'ALREADY_INVITED'])
      expect(r.body.errorMessage).toContain('Gästeliste')
      expect(r.body.errorFields).toEqual([{ field: 'email', errorType: 'ALREADY_INVITED' }])
      const v = await row(g.id)
      expect([v.status, v.first_name, v.vip, v.visitor_count, v.seats_held]).toEqual([status, 'Echt', 1, 1, 0])
    }
    expect(await seats(e.id)).toBe(0)
  })

  test('another guest\'s link or session does not help; the guest\'s own event token, access link or login does', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const victim = await addGuest(admin, e.id, { firstName: 'Echt' })
    const other = await addGuest(admin, e.id, { firstName: 'Andere' })
    // the other guest's own event token
    const foreign = await publicRegister(h(), e.id, { email: victim.email }, { 'x-guest-token': (await row(other.id)).event_token })
    expect(foreign.body.errorType).toBe('ALREADY_INVITED')
    // a made-up token
    expect((await publicRegister(h(), e.id, { email: victim.email }, { 'x-guest-token': 'x'.repeat(20) })).body.errorType).toBe('ALREADY_INVITED')
    // a logged-in organiser of the agency (not the guest) on the public form
    expect((await admin.post(`/proxy/api/public/events/${e.id}/registrations`, { salutation: 'Frau', firstName: 'A', lastName: 'B', email: victim.email })).body.errorType).toBe('ALREADY_INVITED')
    expect((await row(victim.id)).status).toBe('ADDED')
    // the guest's own invitation (event token) works
    const ok = await publicRegister(h(), e.id, { email: victim.email, firstName: 'Selbst' }, { 'x-guest-token': (await row(victim.id)).event_token })
    expect(ok.status === 201 ? 201 : ok.text).toBe(201)
    expect(ok.body.visitorId).toBe(victim.id)
    expect((await row(victim.id)).first_name).toBe('Selbst')
  })

  test('the guest\'s access link (invitation mail) lets them register over their entry', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin, { displayName: 'Gala' })
    const g = await addGuest(admin, e.id, { email: uniqueEmail('invited') })
    expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/invite`, {})).status).toBe(200)
    let mail
    for (let i = 0; i < 20 && !mail; i++) {
      await h().deliverMail()
      mail = h().smtp.mails.find((m: any) => m.to.includes(g.email))
    }
    const token = new URL(mail!.text.match(/https?:\/\/\S+\/guest\/dashboard\?token=\S+/)![0]).searchParams.get('token')!
    const r = await publicRegister(h(), e.id, { email: g.email }, { 'x-guest-token': token })
    expect(r.status === 201 ? 201 : r.text).toBe(201)
    expect((await row(g.id)).status).toBe('CONFIRMED')
  })

  test('a guest the organiser DECLINED cannot make themselves CONFIRMED, not even with their own link (REGISTRATION_DECLINED)', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin, { maxVisitors: 5 })
    const email = uniqueEmail('declined')
    const first = await publicRegister(h(), e.id, { email })
    expect(first.status).toBe(201)
    expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${first.body.visitorId}/decline`, { notify: false })).body.status).toBe('DECLINED')
    for (const headers of [{} as Record<string, string>, { 'x-guest-token': (await row(first.body.visitorId)).event_token }]) {
      const r = await publicRegister(h(), e.id, { email, firstName: 'Nochmal' }, headers)
      expect([r.status, r.body.errorType]).toEqual([409, 'REGISTRATION_DECLINED'])
      expect(r.body.errorMessage).toContain('abgelehnt')
    }
    expect([(await row(first.body.visitorId)).status, await seats(e.id)]).toEqual(['DECLINED', 0])
  })
})

// A stolen session (cookie copied from a shared computer) must not take the account over: whatever
// locks the owner out needs the current password (the password-confirm dialog's fields).
forEachDialect('security: a stolen session cannot take the account over', (h) => {
  async function organiser() {
    const agency = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: agency.id, role: 'AGENCY_ADMIN' }] })
    return { u, stolen: await loginAs(h(), u, { accountId: u.accounts[0].id }) }
  }
  const NEW = 'Uebernahme-Passw0rt!'

  test('changing the password needs currentPassword (missing or wrong: 400, nothing changes)', async () => {
    const { u, stolen } = await organiser()
    const missing = await stolen.patch(`/proxy/api/user/${u.userId}`, { password: NEW, passwordRepeat: NEW })
    expect([missing.status, missing.body.errorFields]).toEqual([400, [{ field: 'currentPassword', errorType: 'CURRENT_PASSWORD_MISSING' }]])
    const wrong = await stolen.patch(`/proxy/api/user/${u.userId}`, { password: NEW, passwordRepeat: NEW, currentPassword: 'Geraten123!' })
    expect([wrong.status, wrong.body.errorType]).toEqual([400, 'CURRENT_PASSWORD_WRONG'])
    // the owner still logs in with the old password; the attacker's is not set
    expect((await h().agent().post('/auth/login', { email: u.email, password: u.password })).status).toBe(200)
    expect((await h().agent().post('/auth/login', { email: u.email, password: NEW })).status).toBe(401)
  })

  test('a guest link of the user cannot change a set password either', async () => {
    const { u } = await organiser()
    const token = await issueAccessToken(h().ctx, h().ctx.db, u.userId, GUEST_ACCESS)
    const r = await h().request('PATCH', `/proxy/api/user/${u.userId}`, { body: { password: NEW, passwordRepeat: NEW }, headers: { 'x-guest-token': token } })
    // an organiser's guest link reaches guest things only (401); were it let in, the password is asked (400)
    expect([400, 401]).toContain(r.status)
    expect((await h().agent().post('/auth/login', { email: u.email, password: u.password })).status).toBe(200)
  })

  test('switching off or deleting two-factor needs accountPassword', async () => {
    const { u, stolen } = await organiser()
    const added = (await stolen.post('/proxy/api/user-tfa', { twoFactorType: 'OTP', displayName: 'Handy', accountPassword: u.password })).body
    nextTotpStep(h())
    expect((await stolen.post(`/proxy/api/user-tfa/${added.id}/link`, { token: totpCode(h(), added.secret) })).body.linked).toBe(true)
    for (const body of [{}, { accountPassword: 'Geraten123!' }]) {
      expect((await stolen.post(`/proxy/api/user-tfa/${added.id}/disable`, body)).status).toBe(400)
      expect((await stolen.delete(`/proxy/api/user-tfa/${added.id}`, body)).status).toBe(400)
    }
    const login = await h().agent().post('/auth/login', { email: u.email, password: u.password })
    expect(login.body.tfaRequired).toBe(true)
  })

  test('no route changes a user\'s e-mail address (a new one must ask for the password): the OpenAPI document lists none', async () => {
    const doc = (await h().request('GET', '/proxy/api/openapi.json')).body
    const writes: string[] = []
    const propsOf = (op: any) => Object.keys(op?.requestBody?.content?.['application/json']?.schema?.properties ?? {})
    // the walk sees body fields at all (the login's e-mail)
    expect(propsOf(doc.paths['/auth/login']?.post)).toContain('email')
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        if (method === 'get' || !/\/(user|auth|userDetails)\b/.test(path)) continue
        const props = propsOf(op)
        if (props.includes('email') && !/public|login|invitation|forgot/.test(path)) writes.push(`${method.toUpperCase()} ${path}`)
      }
    }
    expect(writes).toEqual([])
  })
})
