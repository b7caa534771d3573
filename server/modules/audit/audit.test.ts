// The audit log (issue 22): entries with before/after for event changes, user and role changes,
// exports and imports, logins and failed attempts; only the agency's administrators read it, filtered
// and as CSV; the database keeps it append-only on both dialects; retention deletes only old rows.
import { expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import { sql } from 'kysely'
import { type Agent, eventBody, forEachDialect, TEST_PASSWORD } from '../../testing/harness'
import { sweepAudit } from './service'

forEachDialect('audit log', (h) => {
  let admin: Agent & { email: string; agencyId: number }
  let eventId: number

  test('an event created and changed: who, when, which fields before and after, the request id', async () => {
    admin = await h().admin()
    const ev = await admin.post('/proxy/api/events', eventBody({ displayName: 'Sommerfest' }))
    eventId = ev.body.id
    const full = (await admin.get(`/proxy/api/events/${eventId}`)).body
    const changed = await admin.request('PUT', `/proxy/api/events/${eventId}`, { body: { ...eventBody({ displayName: 'Herbstfest', maxVisitors: 80 }) }, headers: { 'x-request-id': 'req-audit-1' } })
    expect(changed.status).toBe(200)
    expect(full.displayName).toBe('Sommerfest')
    const log = await admin.get('/proxy/api/agency/audit')
    expect(log.status).toBe(200)
    const update = log.body.items.find((i: any) => i.action === 'event.update')
    expect(update).toMatchObject({ actorEmail: admin.email, actionLabel: 'Veranstaltung geändert', eventId, eventName: 'Herbstfest', requestId: 'req-audit-1', entityType: 'event', entityId: String(eventId) })
    expect(update.changes.display_name).toEqual(['Sommerfest', 'Herbstfest'])
    expect(update.changes.max_visitors).toEqual([100, 80])
    // unchanged fields are not listed
    expect(update.changes.timezone).toBeUndefined()
    expect(log.body.items.find((i: any) => i.action === 'event.create')).toMatchObject({ eventId, changes: expect.objectContaining({ display_name: [null, 'Sommerfest'] }) })
    expect(log.body.items.find((i: any) => i.action === 'auth.login')).toMatchObject({ actorEmail: admin.email })
    expect(log.body.retentionDays).toBe(730)
    // a save that changes nothing writes nothing
    const before = log.body.total
    expect((await admin.put(`/proxy/api/events/${eventId}`, eventBody({ displayName: 'Herbstfest', maxVisitors: 80 }))).status).toBe(200)
    expect((await admin.get('/proxy/api/agency/audit')).body.total).toBe(before)
  })

  test('deleting, restoring and archiving an event; exporting its guests', async () => {
    expect((await admin.request('DELETE', `/proxy/api/events/${eventId}`)).status).toBe(200)
    const restored = await admin.post(`/proxy/api/events/${eventId}/restore`, {})
    expect(restored.status).toBe(200)
    const exported = await admin.get(`/proxy/api/events/${eventId}/visitors/export?search=Gast`)
    expect(exported.status).toBe(200)
    const actions = (await admin.get(`/proxy/api/agency/audit?eventId=${eventId}`)).body.items.map((i: any) => i.action)
    expect(actions).toEqual(expect.arrayContaining(['event.delete', 'event.restore', 'guests.export']))
    const exp = (await admin.get('/proxy/api/agency/audit?action=guests.export')).body.items[0]
    expect(exp.detail.filter).toMatchObject({ search: 'Gast' })
  })

  test('a colleague invited and given another role; a failed login of a colleague', async () => {
    const email = `kollege.${Date.now()}@example.org`
    const invited = await admin.post('/proxy/api/agency/users', { email, userRole: 'AGENCY_EDITOR', firstName: 'K', lastName: 'K' })
    expect(invited.status).toBe(201)
    const role = await admin.request('PATCH', `/proxy/api/agency/users/${invited.body.id}`, { body: { userRole: 'AGENCY_MANAGER' } })
    expect(role.status).toBe(200)
    const items = (await admin.get('/proxy/api/agency/audit')).body.items
    expect(items.find((i: any) => i.action === 'user.invite')).toMatchObject({ detail: { email, userRole: 'AGENCY_EDITOR' } })
    expect(items.find((i: any) => i.action === 'user.role')).toMatchObject({ changes: { user_role: ['AGENCY_EDITOR', 'AGENCY_MANAGER'] }, detail: { email } })
    // the administrator's own wrong password: recorded for the agency, with no actor signed in
    const wrong = await h().agent().post('/auth/login', { email: admin.email, password: `${TEST_PASSWORD}x` })
    expect(wrong.status).toBe(401)
    const failed = (await admin.get('/proxy/api/agency/audit?action=auth.login.failed')).body.items
    expect(failed).toHaveLength(1)
    expect(failed[0]).toMatchObject({ actorEmail: admin.email, actionLabel: 'Anmeldung fehlgeschlagen' })
  })

  test('a guest declined, a form field changed, the imprint saved, a guest checked out at the desk', async () => {
    const added = await admin.post(`/proxy/api/events/${eventId}/visitors`, { firstName: 'Greta', lastName: 'Gast', email: 'greta@example.org', status: 'CONFIRMED' })
    expect(added.status).toBe(201)
    const vid = added.body.id
    expect((await admin.post(`/proxy/api/events/${eventId}/checkin`, { visitorId: vid, checkinGuests: [0] })).status).toBe(200)
    expect((await admin.post(`/proxy/api/events/${eventId}/checkin`, { visitorId: vid, checkoutGuests: [0], note: 'versehentlich eingecheckt' })).status).toBe(200)
    const other = (await admin.post(`/proxy/api/events/${eventId}/visitors`, { firstName: 'Greta', lastName: 'Gast', email: 'greta2@example.org', status: 'CONFIRMED' })).body.id
    expect((await admin.post(`/proxy/api/events/${eventId}/visitors/${other}/decline`, { reason: 'Doppelt angemeldet' })).status).toBe(200)
    const fields = (await admin.get(`/proxy/api/events/${eventId}/fields`)).body
    const escortMail = ((fields.fields ?? fields) as Array<{ id: number; defaultField: string | null; appearance: string }>).find((f) => f.defaultField === 'ESCORT_EMAIL')!
    expect((await admin.put(`/proxy/api/events/${eventId}/fields/${escortMail.id}`, { ...escortMail, appearance: 'REQUIRED' })).status).toBe(200)
    expect((await admin.put('/proxy/api/agency/imprint', { imprintUrl: 'https://agentur.example.org/impressum' })).status).toBe(200)
    const items = (await admin.get(`/proxy/api/agency/audit?size=200`)).body.items
    const byAction = (a: string) => items.filter((i: any) => i.action === a)
    expect(byAction('checkin.correct')).toHaveLength(1)
    expect(byAction('checkin.correct')[0]).toMatchObject({ eventId, detail: { checkout: [0], note: 'versehentlich eingecheckt' } })
    expect(byAction('guest.status')[0]).toMatchObject({ entityId: String(other), changes: { status: ['CONFIRMED', 'DECLINED'] }, detail: { action: 'decline', guest: 'Greta Gast', reason: 'Doppelt angemeldet' } })
    expect(byAction('form.change')[0]).toMatchObject({ entityId: String(escortMail.id), changes: { appearance: [escortMail.appearance, 'REQUIRED'] }, detail: { op: 'update' } })
    expect(byAction('settings.change')[0]).toMatchObject({ entityType: 'imprint', changes: { imprintUrl: [null, 'https://agentur.example.org/impressum'] } })
    // a check-in is the desk's everyday work: not in the log
    expect(items.some((i: any) => i.action === 'checkin.correct' && !i.detail.checkout)).toBe(false)
  })

  test('filters: who, what, event, time; the CSV of a selection; exporting is recorded', async () => {
    expect((await admin.get(`/proxy/api/agency/audit?actor=${encodeURIComponent(admin.email.slice(0, 8).toUpperCase())}`)).body.total).toBeGreaterThan(3)
    expect((await admin.get('/proxy/api/agency/audit?actor=nobody-like-this')).body.total).toBe(0)
    const today = h().clock.now().toISOString().slice(0, 10)
    expect((await admin.get(`/proxy/api/agency/audit?from=${today}&to=${today}`)).body.total).toBeGreaterThan(3)
    expect((await admin.get('/proxy/api/agency/audit?to=2000-01-01')).body.total).toBe(0)
    const paged = await admin.get('/proxy/api/agency/audit?size=2&page=1')
    expect(paged.body.items).toHaveLength(2)
    expect((await admin.get('/proxy/api/agency/audit?action=nonsense')).status).toBe(400)
    const csv = await admin.get(`/proxy/api/agency/audit/export?eventId=${eventId}`)
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toStartWith('text/csv')
    const rows = parse(csv.text.replace(/^\ufeff/, ''), { delimiter: ';', columns: true }) as Array<Record<string, string>>
    expect(rows.map((r) => r.Aktion)).toEqual(expect.arrayContaining(['event.create', 'event.update', 'event.delete', 'guests.export']))
    const update = rows.find((r) => r.Aktion === 'event.update')!
    expect(update.Wer).toBe(admin.email)
    expect(update.Was).toBe('Veranstaltung geändert')
    expect(update['Änderungen']).toContain('display_name: Sommerfest → Herbstfest')
    expect(update.Zeit).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/)
    expect((await admin.get('/proxy/api/agency/audit?action=audit.export')).body.total).toBe(1)
  })

  test('only the agency’s administrators read it; another agency sees nothing of it', async () => {
    const other = await h().admin()
    const theirs = (await other.get('/proxy/api/agency/audit')).body.items
    expect(theirs.every((i: any) => i.actorEmail === other.email)).toBe(true)
    expect(theirs.some((i: any) => i.eventId === eventId)).toBe(false)
    expect((await h().agent().get('/proxy/api/agency/audit')).status).toBe(401)
  })

  test('append-only: the database refuses every update and the deletion of a recent entry', async () => {
    const db = h().ctx.db
    const one = await db.selectFrom('audit_log').select('id').where('agency_id', '=', admin.agencyId).executeTakeFirstOrThrow()
    await expect(db.updateTable('audit_log').set({ action: 'event.create' }).where('id', '=', one.id).execute()).rejects.toThrow(/append-only/)
    await expect(db.deleteFrom('audit_log').where('id', '=', one.id).execute()).rejects.toThrow(/kept at least 30 days/)
    await expect(sql`update audit_log set actor_email = 'someone@else' where agency_id = ${admin.agencyId}`.execute(db)).rejects.toThrow(/append-only/)
    if (h().dialect === 'postgres') await expect(sql`truncate audit_log`.execute(db)).rejects.toThrow(/append-only/)
    expect((await db.selectFrom('audit_log').select('actor_email').where('id', '=', one.id).executeTakeFirstOrThrow()).actor_email).not.toBe('someone@else')
  })

  test('retention: the sweep deletes what is past it and nothing younger', async () => {
    const db = h().ctx.db
    const now = h().clock.now().getTime()
    const at = (days: number) => new Date(now - days * 86400_000).toISOString()
    await db
      .insertInto('audit_log')
      .values([
        { agency_id: admin.agencyId, created_at: at(800), action: 'event.update', actor_email: 'old@example.org' },
        { agency_id: admin.agencyId, created_at: at(700), action: 'event.update', actor_email: 'kept@example.org' },
      ] as never)
      .execute()
    const n = await sweepAudit(h().ctx)
    expect(n).toBe(1)
    const emails = (await db.selectFrom('audit_log').select('actor_email').where('agency_id', '=', admin.agencyId).execute()).map((r) => r.actor_email)
    expect(emails).toContain('kept@example.org')
    expect(emails).not.toContain('old@example.org')
    expect(await sweepAudit(h().ctx)).toBe(0) // safe to run twice
  })
})

forEachDialect(
  'audit log for non-administrators',
  (h) => {
    test('an editor may not read it (403)', async () => {
      const admin = await h().admin()
      const email = `editor.${Date.now()}@example.org`
      const inv = await admin.post('/proxy/api/agency/users', { email, userRole: 'AGENCY_EDITOR', firstName: 'E', lastName: 'E' })
      expect(inv.status).toBe(201)
      // the editor's own session: set a password through the service the invitation link uses
      const { hashPassword } = await import('../identity/passwords')
      await h().ctx.db.updateTable('app_user').set({ password_hash: await hashPassword(TEST_PASSWORD), status: 'OK' }).where('email', '=', email).execute()
      await h().ctx.db.updateTable('account').set({ status: 'OK' }).where('id', '=', inv.body.id).execute()
      const editor = h().agent()
      expect((await editor.post('/auth/login', { email, password: TEST_PASSWORD })).status).toBe(200)
      editor.headers['x-account-id'] = String(inv.body.id)
      const r = await editor.get('/proxy/api/agency/audit')
      expect(r.status).toBe(403)
    })
  },
)
