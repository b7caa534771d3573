import { expect, test } from 'bun:test'
import { forEachDialect, uniqueEmail } from '../../testing/harness'
import { linkIn } from '../../testing/smtp-sink'
import { createAgency, createUser, loginAs } from '../identity/test-helpers'

const NEW = 'Kollegin1!pw'

forEachDialect('agency users: invitations, roles, removal, limit', (h) => {
  async function invitationToken(email: string) {
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(email) && /Einladung/.test(m.subject))
    return { mail, token: new URL(linkIn(mail, '/invitation?token=')).searchParams.get('token')! }
  }

  test('an administrator invites a new colleague, who sets a password through the mailed link', async () => {
    const admin = await h().admin({ agency: 'Agentur Einladung' })
    const email = uniqueEmail('kollegin')
    const r = await admin.post('/proxy/api/agency/users', { email, userRole: 'AGENCY_EDITOR', firstName: 'Kira', lastName: 'Kollegin' })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ email, userRole: 'AGENCY_EDITOR', status: 'PENDING_ACTIVATION', userStatus: 'PENDING_ACTIVATION', firstName: 'Kira' })
    const { mail, token } = await invitationToken(email)
    expect(mail.subject).toBe('Einladung in die Agentur Agentur Einladung')
    expect(mail.text).toContain('als Redakteur')

    // the pending user cannot log in
    expect((await h().request('POST', '/auth/login', { body: { email, password: NEW } })).status).toBe(401)

    const info = await h().request('GET', `/proxy/api/public/invitation?token=${encodeURIComponent(token)}`)
    expect(info.body).toEqual({ email, agency: 'Agentur Einladung', userRole: 'AGENCY_EDITOR', needsPassword: true, alreadyActive: false })

    const agent = h().agent()
    const weak = await agent.post('/proxy/api/public/invitation', { token, password: 'schwach', passwordRepeat: 'schwach' })
    expect(weak.status).toBe(400)
    expect(weak.body.errorFields).toEqual([{ field: 'password', errorType: 'PASSWORD_TOO_WEAK' }])
    const mismatch = await agent.post('/proxy/api/public/invitation', { token, password: NEW, passwordRepeat: 'Anders1!xx' })
    expect(mismatch.body.errorFields).toEqual([{ field: 'passwordRepeat', errorType: 'PASSWORD_REPEAT_MISMATCH' }])
    const ok = await agent.post('/proxy/api/public/invitation', { token, password: NEW, passwordRepeat: NEW })
    expect(ok.status).toBe(200)
    expect(ok.body.loggedIn).toBe(true)
    const me = await agent.get('/proxy/userDetails')
    expect(me.body.user).toMatchObject({ email, userStatus: 'OK', currentAccount: { userRole: 'AGENCY_EDITOR' } })
    // one use only
    expect((await h().request('POST', '/proxy/api/public/invitation', { body: { token, password: NEW, passwordRepeat: NEW } })).body.errorType).toBe('LINK_EXPIRED')
    // the administrator is told (COLLEAGUE_JOINED) and sees the colleague active
    await h().deliverMail()
    await h().smtp.waitFor((m) => m.to.includes(admin.email) && m.subject === 'Kira Kollegin hat die Einladung angenommen')
    const list = await admin.get('/proxy/api/agency/users')
    expect(list.body.items.find((x: any) => x.email === email)).toMatchObject({ status: 'OK', userStatus: 'OK' })
    expect(list.body.items.find((x: any) => x.email === admin.email).self).toBe(true)
  })

  test('an existing user gets a second agency; the link does not log in', async () => {
    const admin = await h().admin({ agency: 'Agentur Zwei' })
    const other = await createAgency(h(), 'Agentur Eins')
    const u = await createUser(h(), { accounts: [{ agencyId: other.id, role: 'AGENCY_ADMIN' }] })
    const r = await admin.post('/proxy/api/agency/users', { email: u.email, userRole: 'AGENCY_MANAGER' })
    expect(r.body).toMatchObject({ status: 'PENDING_ACTIVATION', userStatus: 'OK' })
    const { mail, token } = await invitationToken(u.email)
    expect(mail.text).toContain('melden Sie sich danach wie gewohnt an')
    // while pending, the account is listed but marked and cannot be chosen
    const agent = await loginAs(h(), u)
    const accounts = await agent.get('/auth/accounts')
    expect(accounts.body.map((a: any) => [a.agency.displayName, a.status])).toEqual([
      ['Agentur Eins', 'OK'],
      ['Agentur Zwei', 'PENDING_ACTIVATION'],
    ])
    const accept = await h().request('POST', '/proxy/api/public/invitation', { body: { token } })
    expect(accept.body).toEqual({ accountId: r.body.id, loggedIn: false })
    expect(accept.headers.get('set-cookie')).toBeNull()
    expect((await agent.get('/auth/accounts')).body.every((a: any) => a.status === 'OK')).toBe(true)
    // invited twice: refused
    const twice = await admin.post('/proxy/api/agency/users', { email: u.email, userRole: 'AGENCY_EDITOR' })
    expect(twice.status).toBe(409)
    expect(twice.body.errorFields).toEqual([{ field: 'email', errorType: 'ALREADY_MEMBER' }])
  })

  test('the agencyUsers limit of the license is enforced (community: 3), also under concurrent invitations', async () => {
    const admin = await h().admin()
    const emails = Array.from({ length: 6 }, () => uniqueEmail('flut'))
    const results = await Promise.all(emails.map((email) => admin.post('/proxy/api/agency/users', { email, userRole: 'AGENCY_CHECKIN' })))
    const created = results.filter((r) => r.status === 201)
    const refused = results.filter((r) => r.status === 403)
    expect(created).toHaveLength(2)
    expect(refused).toHaveLength(4)
    expect(refused[0].body).toMatchObject({ errorType: 'LIMIT_AGENCY_USERS_EXCEEDED', allowed: 3, used: 3 })
    const list = await admin.get('/proxy/api/agency/users')
    expect(list.body).toMatchObject({ allowedAgencyUsers: 3, usedAgencyUsers: 3 })
    expect(list.body.items).toHaveLength(3)
    // removing one frees a place
    await admin.delete(`/proxy/api/agency/users/${created[0].body.id}`)
    expect((await admin.post('/proxy/api/agency/users', { email: uniqueEmail('danach'), userRole: 'AGENCY_CHECKIN' })).status).toBe(201)
  })

  test('roles change; the last administrator stays; the member is told', async () => {
    const admin = await h().admin({ agency: 'Agentur Rollen' })
    const agency = admin.agencyId
    const u = await createUser(h(), { accounts: [{ agencyId: agency, role: 'AGENCY_EDITOR' }] })
    const r = await admin.patch(`/proxy/api/agency/users/${u.accounts[0].id}`, { userRole: 'AGENCY_CHECKIN' })
    expect(r.status).toBe(200)
    expect(r.body.userRole).toBe('AGENCY_CHECKIN')
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(u.email) && m.subject === 'Ihr Zugang zur Agentur Agentur Rollen wurde geändert')
    expect(mail.text).toContain('die Rolle Einlass-Personal')
    // the member's next call uses the new role
    const agent = await loginAs(h(), u, { accountId: u.accounts[0].id })
    expect((await agent.get('/proxy/userDetails')).body.user.currentAccount.permissions).toEqual(['EVENT.VIEW', 'EVENT.GUEST.VIEW', 'EVENT.CHECKIN'])
    const last = await admin.patch(`/proxy/api/agency/users/${admin.accountId}`, { userRole: 'AGENCY_MANAGER' })
    expect(last.status).toBe(409)
    expect(last.body.errorType).toBe('LAST_ADMINISTRATOR_ROLE')
    expect((await admin.patch(`/proxy/api/agency/users/${u.accounts[0].id}`, { userRole: 'GOD' })).body.errorFields).toEqual([{ field: 'userRole', errorType: 'REQUIRED' }])
    expect((await admin.patch(`/proxy/api/agency/users/${u.accounts[0].id}`, { userRole: 'CP_PERSOO_VISITOR_GUEST' })).status).toBe(400)
  })

  test('removing: the account goes at once, its sessions lose the agency; the last administrator cannot be removed', async () => {
    const admin = await h().admin({ agency: 'Agentur Entfernen' })
    const u = await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }] })
    const agent = await loginAs(h(), u, { accountId: u.accounts[0].id })
    expect((await agent.get('/proxy/api/events')).status).toBe(200)
    expect((await admin.delete(`/proxy/api/agency/users/${u.accounts[0].id}`)).status).toBe(200)
    const after = await agent.get('/proxy/api/events')
    expect(after.status).toBe(403)
    expect(after.body.errorType).toBe('NO_ACCOUT_SELECTED')
    await h().deliverMail()
    await h().smtp.waitFor((m) => m.to.includes(u.email) && /wurde geändert/.test(m.subject) && m.text.includes('wurde entfernt'))
    const self = await admin.delete(`/proxy/api/agency/users/${admin.accountId}`)
    expect(self.status).toBe(409)
    expect(self.body.errorType).toBe('LAST_ADMINISTRATOR')
    // an invited, never activated person leaves no user behind
    const email = uniqueEmail('nie')
    const inv = await admin.post('/proxy/api/agency/users', { email, userRole: 'AGENCY_EDITOR' })
    await admin.delete(`/proxy/api/agency/users/${inv.body.id}`)
    expect(await h().ctx.db.selectFrom('app_user').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined()
  })

  test('resending an invitation replaces the link', async () => {
    const admin = await h().admin()
    const email = uniqueEmail('erneut')
    const inv = await admin.post('/proxy/api/agency/users', { email, userRole: 'AGENCY_EDITOR' })
    const first = (await invitationToken(email)).token
    expect((await admin.post(`/proxy/api/agency/users/${inv.body.id}/resendInvitation`)).status).toBe(200)
    await h().deliverMail()
    const mails = h().smtp.to(email).filter((m) => /Einladung/.test(m.subject))
    const second = new URL(linkIn(mails[mails.length - 1], '/invitation?token=')).searchParams.get('token')!
    expect(second).not.toBe(first)
    expect((await h().request('GET', `/proxy/api/public/invitation?token=${encodeURIComponent(first)}`)).body.errorType).toBe('LINK_EXPIRED')
    expect((await h().request('GET', `/proxy/api/public/invitation?token=${encodeURIComponent(second)}`)).status).toBe(200)
    // an invitation link expires after 7 days
    h().clock.advance(8 * 86_400_000)
    expect((await h().request('GET', `/proxy/api/public/invitation?token=${encodeURIComponent(second)}`)).status).toBe(410)
  })

  test('only AGENCY.USERS may manage users; other agencies\' accounts are not found', async () => {
    const admin = await h().admin()
    const manager = await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_MANAGER' }] })
    const m = await loginAs(h(), manager, { accountId: manager.accounts[0].id })
    expect((await m.get('/proxy/api/agency/users')).body.errorType).toBe('NO_PERMISSION')
    expect((await m.post('/proxy/api/agency/users', { email: uniqueEmail('x'), userRole: 'AGENCY_EDITOR' })).status).toBe(403)
    expect((await m.patch(`/proxy/api/agency/users/${admin.accountId}`, { userRole: 'AGENCY_EDITOR' })).status).toBe(403)
    expect((await m.delete(`/proxy/api/agency/users/${admin.accountId}`)).status).toBe(403)
    const otherAdmin = await h().admin()
    expect((await otherAdmin.patch(`/proxy/api/agency/users/${manager.accounts[0].id}`, { userRole: 'AGENCY_EDITOR' })).status).toBe(404)
    expect((await otherAdmin.delete(`/proxy/api/agency/users/${manager.accounts[0].id}`)).status).toBe(404)
    expect((await h().request('GET', '/proxy/api/agency/users')).status).toBe(401)
    const bad = await admin.post('/proxy/api/agency/users', { email: 'kein-mail', userRole: 'AGENCY_EDITOR' })
    expect(bad.body.errorFields).toEqual([{ field: 'email', errorType: 'INVALID_EMAIL' }])
  })
})
