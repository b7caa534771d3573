import { expect, test } from 'bun:test'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { createAgency, createUser, loginAs } from '../identity/test-helpers'

forEachDialect('notification settings', (h) => {
  test('personal settings: defaults, available codes per user, save and read back', async () => {
    const agency = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: agency.id, role: 'AGENCY_ADMIN' }] })
    const agent = await loginAs(h(), u)
    const available = await agent.get('/proxy/api/notifications/user/available')
    expect(available.body.map((c: any) => c.code)).toEqual(['LOGIN_NEW_DEVICE', 'ACCOUNT_CHANGES', 'COLLEAGUE_JOINED', 'NEW_REGISTRATION'])
    const initial = await agent.get('/proxy/api/notifications/user')
    expect(initial.body).toEqual([
      { code: 'LOGIN_NEW_DEVICE', enabled: true },
      { code: 'ACCOUNT_CHANGES', enabled: true },
      { code: 'COLLEAGUE_JOINED', enabled: true },
      { code: 'NEW_REGISTRATION', enabled: false },
    ])
    const saved = await agent.patch('/proxy/api/notifications?user=true', { notifications: [{ code: 'NEW_REGISTRATION', enabled: true }, { code: 'LOGIN_NEW_DEVICE', enabled: false }] })
    expect(saved.status).toBe(200)
    expect((await agent.get('/proxy/api/user/notifications')).body).toContainEqual({ code: 'NEW_REGISTRATION', enabled: true })
    expect((await agent.get('/api/notifications/user')).body).toContainEqual({ code: 'LOGIN_NEW_DEVICE', enabled: false })
    // personal values cannot be "inherit"; unknown codes are refused
    const nul = await agent.patch('/proxy/api/notifications?user=true', { notifications: [{ code: 'NEW_REGISTRATION', enabled: null }] })
    expect(nul.body.errorFields).toEqual([{ field: 'notifications.0.enabled', errorType: 'REQUIRED' }])
    const unknown = await agent.patch('/proxy/api/notifications?user=true', { notifications: [{ code: 'SPAM', enabled: true }] })
    expect(unknown.body.errorFields).toEqual([{ field: 'notifications.0.code', errorType: 'INVALID' }])
    expect((await agent.patch('/proxy/api/notifications', { notifications: [] })).body.errorType).toBe('INVALID_PARAMETERS')
    expect((await agent.patch(`/proxy/api/notifications?user=true&accountId=${u.accounts[0].id}`, { notifications: [] })).body.errorType).toBe('INVALID_PARAMETERS')
  })

  test('a guest without password or organiser account has nothing to set; a check-in account gets no admin codes', async () => {
    const guest = await createUser(h())
    const g = await loginAs(h(), guest)
    expect((await g.get('/proxy/api/notifications/user')).body).toEqual([{ code: 'LOGIN_NEW_DEVICE', enabled: true }])
    const agency = await createAgency(h())
    const c = await createUser(h(), { accounts: [{ agencyId: agency.id, role: 'AGENCY_CHECKIN' }] })
    const agent = await loginAs(h(), c)
    expect((await agent.get(`/proxy/api/notifications/account/${c.accounts[0].id}/available`)).body.map((x: any) => x.code)).toEqual(['ACCOUNT_CHANGES', 'NEW_REGISTRATION'])
  })

  test('agency level: null inherits; only own organiser accounts', async () => {
    const a = await createAgency(h())
    const b = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_ADMIN' }, { agencyId: b.id, role: 'CP_PERSOO_VISITOR_GUEST' }] })
    const agent = await loginAs(h(), u)
    const id = u.accounts[0].id
    expect((await agent.get(`/proxy/api/notifications/account/${id}`)).body).toEqual([
      { code: 'ACCOUNT_CHANGES', enabled: null },
      { code: 'COLLEAGUE_JOINED', enabled: null },
      { code: 'NEW_REGISTRATION', enabled: null },
    ])
    await agent.patch(`/proxy/api/notifications?accountId=${id}`, { notifications: [{ code: 'COLLEAGUE_JOINED', enabled: false }] })
    expect((await agent.get(`/proxy/api/notifications/account/${id}`)).body).toContainEqual({ code: 'COLLEAGUE_JOINED', enabled: false })
    await agent.patch(`/proxy/api/notifications?accountId=${id}`, { notifications: [{ code: 'COLLEAGUE_JOINED', enabled: null }] })
    expect((await agent.get(`/proxy/api/notifications/account/${id}`)).body).toContainEqual({ code: 'COLLEAGUE_JOINED', enabled: null })
    // guest-role accounts have no agency-level settings; other users' accounts are not found
    expect((await agent.get(`/proxy/api/notifications/account/${u.accounts[1].id}`)).status).toBe(404)
    const other = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_EDITOR' }] })
    expect((await agent.get(`/proxy/api/notifications/account/${other.accounts[0].id}`)).status).toBe(404)
    expect((await agent.patch(`/proxy/api/notifications?accountId=${other.accounts[0].id}`, { notifications: [] })).status).toBe(404)
  })

  test('NEW_REGISTRATION: event over account over personal; mails only those who want it', async () => {
    const admin = await h().admin({ agency: 'Agentur Benachrichtigung' })
    const ev = (await admin.post('/proxy/api/events', eventBody({ displayName: 'Herbstfest' }))).body
    const ev2 = (await admin.post('/proxy/api/events', eventBody({ displayName: 'Winterfest' }))).body
    const editor = await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }] })
    const e = await loginAs(h(), editor, { accountId: editor.accounts[0].id })
    // personal on, account off, event 1 on
    await e.patch('/proxy/api/notifications?user=true', { notifications: [{ code: 'NEW_REGISTRATION', enabled: true }] })
    await e.patch(`/proxy/api/notifications?accountId=${editor.accounts[0].id}`, { notifications: [{ code: 'NEW_REGISTRATION', enabled: false }] })
    expect((await e.get(`/proxy/api/notifications/event/${ev.id}/available`)).body.map((x: any) => x.code)).toEqual(['NEW_REGISTRATION'])
    const setEvent = await e.patch(`/proxy/api/notifications?eventId=${ev.id}`, { notifications: [{ code: 'NEW_REGISTRATION', enabled: true }] })
    expect(setEvent.body).toEqual([{ code: 'NEW_REGISTRATION', enabled: true }])
    expect((await e.get(`/proxy/api/notifications/event/${ev2.id}`)).body).toEqual([{ code: 'NEW_REGISTRATION', enabled: null }])

    const { notifyNewRegistration } = await import('./service')
    const send = (eventId: number, eventName: string) =>
      h().ctx.db.transaction().execute((trx) =>
        notifyNewRegistration(h().ctx, trx, { agencyId: admin.agencyId, eventId, eventName, guestName: 'Grete Gast', guestEmail: uniqueEmail('g'), persons: 2, status: 'CONFIRMED' }),
      )
    expect(await send(ev.id, 'Herbstfest')).toBe(1)
    expect(await send(ev2.id, 'Winterfest')).toBe(0)
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(editor.email) && m.subject === 'Neue Anmeldung: Herbstfest')
    expect(mail.text).toContain('Grete Gast')
    expect(h().smtp.to(admin.email).some((m) => m.subject.startsWith('Neue Anmeldung'))).toBe(false)
    // an event of another agency is not found
    const other = await h().admin()
    const otherEvent = (await other.post('/proxy/api/events', eventBody())).body
    expect((await e.get(`/proxy/api/notifications/event/${otherEvent.id}`)).status).toBe(404)
  })

  test('NEW_REGISTRATION through a real public registration: one mail to the organiser who wants it', async () => {
    const admin = await h().admin({ agency: 'Agentur Echt' })
    const ev = (await admin.post('/proxy/api/events', eventBody({ displayName: 'Sommerabend' }))).body
    await admin.patch('/proxy/api/notifications?user=true', { notifications: [{ code: 'NEW_REGISTRATION', enabled: true }] })
    const guestEmail = uniqueEmail('gast')
    const r = await h().request('POST', `/proxy/api/public/events/${ev.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Gerda', lastName: 'Gast', email: guestEmail } })
    expect(r.status).toBe(201)
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(admin.email) && m.subject === 'Neue Anmeldung: Sommerabend')
    expect(mail.text).toContain(`Gerda Gast (${guestEmail})`)
    expect(mail.text).toContain('Status Angemeldet')
  })

  test('NEW_REGISTRATION recipients (cached per process) follow every change at once, whoever writes it', async () => {
    const admin = await h().admin({ agency: 'Agentur Zwischenspeicher' })
    const ev = (await admin.post('/proxy/api/events', eventBody({ displayName: 'Cache-Fest' }))).body
    const editor = await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }] })
    const e = await loginAs(h(), editor, { accountId: editor.accounts[0].id })
    const { recipientsOf } = await import('./service')
    const db = h().ctx.db
    const emails = async () => (await db.transaction().execute((trx) => recipientsOf(trx, admin.agencyId, 'NEW_REGISTRATION', ev.id))).map((r) => r.email).sort()
    expect(await emails()).toEqual([])
    expect(await emails()).toEqual([])
    // through the API
    await e.patch('/proxy/api/notifications?user=true', { notifications: [{ code: 'NEW_REGISTRATION', enabled: true }] })
    expect(await emails()).toEqual([editor.email])
    // written directly, as another process or an import would: the database's triggers invalidate
    await db.updateTable('app_user').set({ email: 'neu.adresse@example.org' }).where('id', '=', editor.userId).execute()
    expect(await emails()).toEqual(['neu.adresse@example.org'])
    await db.updateTable('account').set({ status: 'DISABLED' }).where('id', '=', editor.accounts[0].id).execute()
    expect(await emails()).toEqual([])
    await db.updateTable('account').set({ status: 'OK', user_role: 'AGENCY_CHECKIN' }).where('id', '=', editor.accounts[0].id).execute()
    expect(await emails()).toEqual(['neu.adresse@example.org'])
    await db.deleteFrom('notification_setting').where('user_id', '=', editor.userId).execute()
    expect(await emails()).toEqual([])
    await db.insertInto('notification_setting').values({ user_id: editor.userId, scope: 'EVENT', scope_id: ev.id, code: 'NEW_REGISTRATION', enabled: true }).execute()
    expect(await emails()).toEqual(['neu.adresse@example.org'])
    await db.deleteFrom('account').where('id', '=', editor.accounts[0].id).execute()
    expect(await emails()).toEqual([])
    // a colleague joining counts too
    const second = await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_ADMIN' }] })
    await db.insertInto('notification_setting').values({ user_id: second.userId, scope: 'USER', scope_id: 0, code: 'NEW_REGISTRATION', enabled: true }).execute()
    expect(await emails()).toEqual([second.email])
  })

  test('LOGIN_NEW_DEVICE: a login from an unknown browser mails the user unless switched off', async () => {
    const u = await createUser(h())
    await loginAs(h(), u, { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' })
    await loginAs(h(), u, { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' })
    await loginAs(h(), u, { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1' })
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(u.email) && m.subject === 'Neue Anmeldung bei einlass')
    expect(mail.text).toContain('Safari, iOS')
    expect(h().smtp.to(u.email).filter((m) => m.subject === 'Neue Anmeldung bei einlass')).toHaveLength(1)
    const agent = await loginAs(h(), u, { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' })
    await agent.patch('/proxy/api/notifications?user=true', { notifications: [{ code: 'LOGIN_NEW_DEVICE', enabled: false }] })
    await loginAs(h(), u, { userAgent: 'Mozilla/5.0 (Windows NT 10.0) Edg/140.0' })
    await h().deliverMail()
    expect(h().smtp.to(u.email).filter((m) => m.subject === 'Neue Anmeldung bei einlass')).toHaveLength(1)
  })

  test('settings need a user', async () => {
    expect((await h().request('GET', '/proxy/api/notifications/user')).status).toBe(401)
    expect((await h().request('PATCH', '/proxy/api/notifications?user=true', { body: { notifications: [] } })).status).toBe(401)
  })
})
