import { expect, test } from 'bun:test'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { linkIn } from '../../testing/smtp-sink'
import { DELETION_GRACE_DAYS } from './deletion'
import { createAgency, createUser, loginAs } from './test-helpers'

const DAY = 86_400_000

forEachDialect('deletion of accounts and users', (h) => {
  async function confirmLinkFor(email: string, subject: RegExp) {
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(email) && subject.test(m.subject))
    return new URL(linkIn(mail, '/account/deletion?token=')).searchParams.get('token')!
  }

  test('mark, mail, confirm, revoke: an account goes through its states', async () => {
    const a = await createAgency(h(), 'Agentur Eins')
    const b = await createAgency(h(), 'Agentur Zwei')
    const u = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_EDITOR' }, { agencyId: b.id, role: 'AGENCY_EDITOR' }] })
    const agent = await loginAs(h(), u, { accountId: u.accounts[0].id })
    const [one, two] = u.accounts.map((x) => x.id)

    const marked = await agent.post('/proxy/api/user/deleteAccounts', { accounts: [two], reason: 'brauche ich nicht mehr' })
    expect(marked.status).toBe(200)
    expect(marked.body.mailed).toBe(true)
    expect(marked.body.accounts.find((x: any) => x.id === two)).toMatchObject({ deletionInProgress: true, requireDeletion: false, finalDeletionDate: null })
    expect((await agent.get('/proxy/api/user/current')).body.deletionInProgress).toBe(true)
    expect((await agent.get('/proxy/api/user/accounts')).body.find((x: any) => x.id === two).accountStatus).toBe('DELETION_REQUESTED')

    const token = await confirmLinkFor(u.email, /Löschung Ihrer Konten/)
    const confirmed = await h().request('POST', '/proxy/api/public/user/confirmDeletion', { body: { token } })
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.accounts).toEqual([two])
    const acc = (await agent.get('/proxy/api/user/accounts')).body.find((x: any) => x.id === two)
    expect(acc).toMatchObject({ requireDeletion: true, accountStatus: 'DELETION_SCHEDULED' })
    expect(new Date(acc.finalDeletionDate).getTime() - h().clock.now().getTime()).toBeGreaterThan((DELETION_GRACE_DAYS - 1) * DAY)
    // the link is used up
    expect((await h().request('POST', '/proxy/api/public/user/confirmDeletion', { body: { token } })).body.errorType).toBe('LINK_EXPIRED')

    // confirmed ones cannot be toggled in the dialog: leaving it out of the list does not revoke it
    const again = await agent.post('/proxy/api/user/deleteAccounts', { accounts: [] })
    expect(again.body.accounts.find((x: any) => x.id === two).requireDeletion).toBe(true)
    expect(again.body.mailed).toBe(false)

    // revoke before the final date
    const revoked = await agent.get(`/proxy/api/user/accounts/${two}/revokeDeletion`)
    expect(revoked.status).toBe(200)
    expect(revoked.body.find((x: any) => x.id === two)).toMatchObject({ deletionInProgress: false, requireDeletion: false, finalDeletionDate: null })
    expect((await agent.get(`/proxy/api/user/accounts/${one}/revokeDeletion`)).body.errorType).toBe('DELETION_NOT_REQUESTED')

    // the erasing task finds nothing to do after a revocation
    h().clock.advance((DELETION_GRACE_DAYS + 1) * DAY)
    await h().tasks.runOnce()
    expect(await h().ctx.db.selectFrom('account').select('id').where('id', '=', two).executeTakeFirst()).toBeDefined()
  })

  test('a mark without confirmation can be taken back by leaving it out of the list', async () => {
    const a = await createAgency(h())
    const b = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_EDITOR' }, { agencyId: b.id, role: 'CP_PERSOO_VISITOR_GUEST' }] })
    const agent = await loginAs(h(), u)
    await agent.post('/proxy/api/user/deleteAccounts', { accounts: [u.accounts[1].id] })
    const token = await confirmLinkFor(u.email, /Löschung/)
    const back = await agent.post('/proxy/api/user/deleteAccounts', { accounts: [] })
    expect(back.body.accounts.every((x: any) => !x.deletionInProgress)).toBe(true)
    // the old link then schedules nothing
    const c = await h().request('POST', '/proxy/api/public/user/confirmDeletion', { body: { token } })
    expect(c.body.accounts).toEqual([])
    expect(await h().ctx.db.selectFrom('task').select('id').where('kind', '=', 'IDENTITY_ERASE').where('payload', 'like', `%"userId":${u.userId}}%`).executeTakeFirst()).toBeUndefined()
  })

  test('administrator accounts are flagged; the last administrator of an agency with members is refused', async () => {
    const a = await createAgency(h(), 'Agentur Admin')
    const admin = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_ADMIN' }] })
    const agent = await loginAs(h(), admin)
    const overview = await agent.get('/proxy/api/user/deletion')
    expect(overview.body[0]).toMatchObject({ isAdmin: true, lastAdmin: true })
    // alone in the agency: may go, the mail says it is an administrator account
    const alone = await agent.post('/proxy/api/user/deleteAccounts', { accounts: [admin.accounts[0].id] })
    expect(alone.status).toBe(200)
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(admin.email) && /Löschung/.test(m.subject))
    expect(mail.text).toContain('Administratorkonto')
    await agent.post('/proxy/api/user/deleteAccounts', { accounts: [] })
    // with a colleague but no other administrator: refused
    await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_EDITOR' }] })
    const refused = await agent.post('/proxy/api/user/deleteAccounts', { accounts: [admin.accounts[0].id] })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ errorType: 'LAST_ADMINISTRATOR', errorMessage: 'Die Agentur „Agentur Admin“ braucht mindestens einen Administrator. Ernennen Sie zuerst einen anderen Administrator.' })
    await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_ADMIN' }] })
    expect((await agent.post('/proxy/api/user/deleteAccounts', { accounts: [admin.accounts[0].id] })).status).toBe(200)
    expect((await agent.get('/proxy/api/user/deletion')).body[0]).toMatchObject({ isAdmin: true, lastAdmin: false, deletionInProgress: true })
  })

  test('after the final date the task erases a guest account and anonymises its registrations in that agency', async () => {
    const { admin, event } = await eventWithAdmin()
    const email = uniqueEmail('gast')
    const reg = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email } })
    expect(reg.status).toBe(201)
    const user = await h().ctx.db.selectFrom('app_user').selectAll().where('email', '=', email).executeTakeFirstOrThrow()
    const account = await h()
      .ctx.db.insertInto('account')
      .values({ user_id: user.id, agency_id: admin.agencyId, user_role: 'CP_PERSOO_VISITOR_GUEST', first_name: 'Grete' })
      .returningAll()
      .executeTakeFirstOrThrow()
    await h().ctx.db.updateTable('app_user').set({ password_hash: await Bun.password.hash('Geheim123!') }).where('id', '=', user.id).execute()
    const guest = await loginAs(h(), { email, password: 'Geheim123!' })
    expect((await guest.delete(`/proxy/api/user/accounts/${account.id}`, { reason: 'Datenschutz' })).status).toBe(200)
    const token = await confirmLinkFor(email, /Löschung Ihrer Konten/)
    const c = await h().request('POST', '/proxy/api/public/user/confirmDeletion', { body: { token } })
    expect(c.body.accounts).toEqual([account.id])

    // before the final date nothing happens
    h().clock.advance((DELETION_GRACE_DAYS - 1) * DAY)
    await h().tasks.runOnce()
    expect(await h().ctx.db.selectFrom('account').select('id').where('id', '=', account.id).executeTakeFirst()).toBeDefined()
    h().clock.advance(2 * DAY)
    await h().tasks.runOnce()
    expect(await h().ctx.db.selectFrom('account').select('id').where('id', '=', account.id).executeTakeFirst()).toBeUndefined()
    const task = await h().ctx.db.selectFrom('task').selectAll().where('kind', '=', 'IDENTITY_ERASE').orderBy('id', 'desc').executeTakeFirstOrThrow()
    expect(task.status).toBe('FINISHED')
    const v = await h().ctx.db.selectFrom('event_visitor').selectAll().where('event_id', '=', event.id).executeTakeFirstOrThrow()
    expect(v).toMatchObject({ first_name: null, last_name: null, email: null, user_id: null, status: 'CONFIRMED' })
    // the agency still counts the place
    const list = await admin.get(`/proxy/api/events/${event.id}`)
    expect(list.body.seatsTaken).toBe(1)
    // the user (with the password) remains: only the account was asked to go
    expect(await h().ctx.db.selectFrom('app_user').select('id').where('id', '=', user.id).executeTakeFirst()).toBeDefined()
  })

  test('deleting the whole user: all accounts, the user, its sessions; sent mails anonymised', async () => {
    const a = await createAgency(h())
    const b = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_EDITOR' }, { agencyId: b.id, role: 'AGENCY_MANAGER' }] })
    const agent = await loginAs(h(), u)
    const other = await createUser(h())
    expect((await agent.delete(`/proxy/api/user/${other.userId}`, {})).status).toBe(404)
    const r = await agent.delete(`/proxy/api/user/${u.userId}`, { reason: 'Ich höre auf' })
    expect(r.status).toBe(200)
    expect(r.body.accounts.every((x: any) => x.deletionInProgress)).toBe(true)
    const token = await confirmLinkFor(u.email, /Löschung Ihres Benutzers/)
    const c = await h().request('POST', '/proxy/api/public/user/confirmDeletion', { body: { token } })
    expect(c.body.wholeUser).toBe(true)
    expect((await agent.get('/proxy/api/user/current')).body).toMatchObject({ requireDeletion: true, deletionInProgress: true })

    h().clock.advance((DELETION_GRACE_DAYS + 1) * DAY)
    await h().tasks.runOnce()
    expect(await h().ctx.db.selectFrom('app_user').select('id').where('id', '=', u.userId).executeTakeFirst()).toBeUndefined()
    expect(await h().ctx.db.selectFrom('account').select('id').where('user_id', '=', u.userId).executeTakeFirst()).toBeUndefined()
    expect(await h().ctx.db.selectFrom('session').select('id').where('user_id', '=', u.userId).executeTakeFirst()).toBeUndefined()
    expect(await h().ctx.db.selectFrom('mail_outbox').select('id').where('to_address', '=', u.email).executeTakeFirst()).toBeUndefined()
    expect((await agent.get('/proxy/api/user/current')).status).toBe(401)
  })

  test('revoking the user deletion before the final date keeps everything', async () => {
    const a = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_EDITOR' }] })
    const agent = await loginAs(h(), u)
    await agent.delete(`/proxy/api/user/${u.userId}`, {})
    const token = await confirmLinkFor(u.email, /Löschung Ihres Benutzers/)
    await h().request('POST', '/proxy/api/public/user/confirmDeletion', { body: { token } })
    const r = await agent.get('/proxy/api/user/revokeDeletion')
    expect(r.status).toBe(200)
    expect(r.body[0]).toMatchObject({ requireDeletion: false, deletionInProgress: false })
    expect((await agent.get('/proxy/api/user/current')).body).toMatchObject({ requireDeletion: false, deletionInProgress: false })
    h().clock.advance((DELETION_GRACE_DAYS + 1) * DAY)
    await h().tasks.runOnce()
    expect((await agent.get('/proxy/api/user/current')).status).toBe(200)
    expect((await agent.get('/proxy/api/user/revokeDeletion')).body.errorType).toBe('DELETION_NOT_REQUESTED')
  })

  test('deletion calls need the user; bad input and unknown accounts refused', async () => {
    expect((await h().request('POST', '/proxy/api/user/deleteAccounts', { body: { accounts: [] } })).status).toBe(401)
    const u = await createUser(h())
    const agent = await loginAs(h(), u)
    expect((await agent.post('/proxy/api/user/deleteAccounts', { accounts: [999999] })).status).toBe(404)
    expect((await agent.post('/proxy/api/user/deleteAccounts', { accounts: 'x' })).body.errorType).toBe('FIELD_ERROR')
    expect((await h().request('POST', '/proxy/api/public/user/confirmDeletion', { body: { token: 'abcdefghijk.lmnop' } })).body.errorType).toBe('LINK_EXPIRED')
  })

  async function eventWithAdmin() {
    const admin = await h().admin()
    const r = await admin.post('/proxy/api/events', eventBody({ startDate: new Date(h().clock.now().getTime() + 60 * DAY).toISOString(), endDate: new Date(h().clock.now().getTime() + 60 * DAY + 3600_000).toISOString() }))
    expect(r.status).toBe(201)
    return { admin, event: r.body }
  }
})
