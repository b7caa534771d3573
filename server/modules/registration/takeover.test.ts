// A guest the organiser put on the list (invited, added …) registers on the public page through
// their own link: the entry becomes the registration (docs/forms.md, "Registering over an existing
// entry"). Strangers who only know the e-mail: server/security/takeover.test.ts.
import { expect, test } from 'bun:test'
import { forEachDialect, uniqueEmail } from '../../testing/harness'
import { addGuest, createEvent } from '../../testing/organiser'
import type { VisitorStatus } from '../visitors/visitors.table'

forEachDialect('registering over an existing entry', (h) => {
  const db = () => h().ctx.db
  const seats = async (eventId: number) => (await db().selectFrom('event').select('seats_taken').where('id', '=', eventId).executeTakeFirstOrThrow()).seats_taken
  const row = (id: number) => db().selectFrom('event_visitor').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const register = (eventId: number, body: Record<string, unknown>, token?: string) =>
    h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', ...body }, headers: token ? { 'x-guest-token': token } : {} })
  /** the entry's own link token (what the guest's invitation carries) */
  const own = async (id: number) => (await row(id)).event_token
  const setStatus = (id: number, status: VisitorStatus) => db().updateTable('event_visitor').set({ status }).where('id', '=', id).execute()
  async function mailTo(email: string, subject: string) {
    const match = (m: { to: string[] | string; subject: string }) => m.to.includes(email) && m.subject === subject
    for (let i = 0; i < 50 && !h().smtp.mails.some(match); i++) await h().deliverMail()
    return h().smtp.waitFor(match)
  }

  test('an invited guest registers: the same entry becomes CONFIRMED with places, escorts, answers and the confirmation mail; the organiser\'s data stays', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin, { maxVisitors: 10, displayName: 'Empfang' })
    const tag = (await admin.post('/api/tags', { displayName: 'Presse' })).body
    const email = uniqueEmail('invited')
    const g = await addGuest(admin, e.id, { email, firstName: 'Alt', lastName: 'Name', tags: [tag.id], note: 'kennt den Chef', vip: true })
    expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/invite`, {})).body.status).toBe('INVITED')
    const company = (await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'COMPANY', displayName: 'Firma' })).body
    const question = (await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'TEXT', displayName: 'Allergien' })).body
    await admin.put(`/proxy/api/events/${e.id}`, { ...e, maxVisitorPerSubscription: 3 })
    expect(await seats(e.id)).toBe(0)

    const r = await register(e.id, { email: email.toUpperCase(), firstName: 'Neu', escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }], fields: { [company.id]: 'ACME', [question.id]: 'Nüsse' } }, await own(g.id))
    expect(r.status === 201 ? 201 : r.text).toBe(201)
    expect(r.body).toMatchObject({ visitorId: g.id, status: 'CONFIRMED' })
    const v = await row(g.id)
    expect(v).toMatchObject({ status: 'CONFIRMED', seats_held: 2, visitor_count: 2, first_name: 'Neu', last_name: 'Gast', company: 'ACME', source: 'PUBLIC', vip: 1, note: 'kennt den Chef', invitation_count: 1 })
    expect(v.registered_at).toBeTruthy()
    expect(v.user_id).toBeTruthy()
    expect(await seats(e.id)).toBe(2)
    expect((await db().selectFrom('escort_person').select('first_name').where('visitor_id', '=', g.id).execute()).map((x) => x.first_name)).toEqual(['Eva'])
    const answers = await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}/fields`)
    expect(answers.body.map((x: any) => x.data).sort()).toEqual(['ACME', 'Nüsse'])
    const detail = await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)
    expect(detail.body.tags.map((t: any) => t.id)).toEqual([tag.id])
    // one entry on the list, no second row
    expect((await db().selectFrom('event_visitor').select('id').where('event_id', '=', e.id).execute()).length).toBe(1)
    const mail = await mailTo(email, 'Ihre Anmeldung: Empfang')
    // the guest's link opens the registration on the dashboard
    const token = new URL(mail.text.match(/https?:\/\/\S+\/guest\/dashboard\?token=\S+/)![0]).searchParams.get('token')!
    const dash = await h().request('GET', '/proxy/api/guest/events', { headers: { 'x-guest-token': token } })
    expect(dash.body.confirmedEvents.map((x: any) => x.event.displayName)).toEqual(['Empfang'])
    // registering again is now refused
    expect((await register(e.id, { email })).body.errorType).toBe('ALREADY_REGISTERED')
    expect(await seats(e.id)).toBe(2)
  })

  test('ADDED, OPEN, VISITOR_DECLINED and DELETED entries are taken over through the own link; registrations holding or waiting for a place stay ALREADY_REGISTERED', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin, { maxVisitors: 100 })
    for (const status of ['ADDED', 'OPEN', 'VISITOR_DECLINED', 'DELETED'] as const) {
      const g = await addGuest(admin, e.id)
      if (status !== 'ADDED') await setStatus(g.id, status)
      const before = await seats(e.id)
      const r = await register(e.id, { email: g.email }, await own(g.id))
      expect([status, r.status, r.body.visitorId]).toEqual([status, 201, g.id])
      expect((await row(g.id)).status).toBe('CONFIRMED')
      expect(await seats(e.id)).toBe(before + 1)
    }
    // PENDING (an invitation with a reserved place) is confirmed by its own guest through the form
    // since issue 10 item 5 (registration/invitation-form.test.ts); the others stay refused
    for (const status of ['CONFIRMED', 'APPEARED', 'REQUIRE_APPROVAL', 'WAITING_LIST'] as const) {
      const g = await addGuest(admin, e.id, status === 'WAITING_LIST' ? {} : { status: 'CONFIRMED' })
      if (status !== 'CONFIRMED') await setStatus(g.id, status)
      const before = await seats(e.id)
      const r = await register(e.id, { email: g.email, firstName: 'Fremd' }, await own(g.id))
      expect([status, r.status, r.body.errorType]).toEqual([status, 409, 'ALREADY_REGISTERED'])
      expect(r.body.errorFields).toEqual([{ field: 'email', errorType: 'ALREADY_REGISTERED' }])
      const v = await row(g.id)
      expect([v.status, v.first_name]).toEqual([status, 'Grete'])
      expect(await seats(e.id)).toBe(before)
    }
  })

  test('the status is what a new registration gets: REQUIRE_APPROVAL, WAITING_LIST without a place, EVENT_FULL leaves the entry as it was', async () => {
    const admin = await h().admin()
    const approval = await createEvent(admin, { requireApproval: true })
    const a = await addGuest(admin, approval.id)
    await admin.post(`/proxy/api/events/${approval.id}/visitors/${a.id}/invite`, {})
    const ra = await register(approval.id, { email: a.email }, await own(a.id))
    expect(ra.body).toMatchObject({ visitorId: a.id, status: 'REQUIRE_APPROVAL' })
    expect((await row(a.id)).seats_held).toBe(1)
    expect(await seats(approval.id)).toBe(1)

    const full = await createEvent(admin, { maxVisitors: 1 })
    expect((await register(full.id, { email: uniqueEmail('first') })).status).toBe(201)
    const f = await addGuest(admin, full.id)
    await admin.post(`/proxy/api/events/${full.id}/visitors/${f.id}/invite`, {})
    const refused = await register(full.id, { email: f.email, firstName: 'Zuspät' }, await own(f.id))
    expect(refused.body.errorType).toBe('EVENT_FULL')
    expect(await row(f.id)).toMatchObject({ status: 'INVITED', first_name: 'Grete', seats_held: 0 })
    await admin.put(`/proxy/api/events/${full.id}/form-settings`, { waitingList: true })
    const waiting = await register(full.id, { email: f.email, firstName: 'Wartend' }, await own(f.id))
    expect(waiting.body).toMatchObject({ visitorId: f.id, status: 'WAITING_LIST' })
    expect(await row(f.id)).toMatchObject({ status: 'WAITING_LIST', first_name: 'Wartend', seats_held: 0 })
    expect(await seats(full.id)).toBe(1)
  })

  test('a declined registration\'s choices were given back; the organiser\'s decline stands (REGISTRATION_DECLINED); after the guest\'s own withdrawal registering again takes exactly the new choices', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const ws = (await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'SMARTLIST', displayName: 'Workshop', amountSelection: true, definedValues: [{ displayName: 'Töpfern', capacity: 5 }, { displayName: 'Malen', capacity: 5 }] })).body
    const [pottery, painting] = ws.definedValues.map((x: any) => x.id)
    const taken = async (id: number) => (await db().selectFrom('field_value').select('taken').where('id', '=', id).executeTakeFirstOrThrow()).taken
    const email = uniqueEmail('again')
    const first = await register(e.id, { email, escortPersons: [{ firstName: 'A', lastName: 'B' }], fields: { [ws.id]: [{ fieldValueId: pottery, amount: 2 }] } })
    expect(first.status === 201 ? 201 : first.text).toBe(201)
    expect([await taken(pottery), await seats(e.id)]).toEqual([2, 2])
    expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${first.body.visitorId}/decline`, { notify: false })).body.status).toBe('DECLINED')
    expect([await taken(pottery), await seats(e.id)]).toEqual([0, 0])
    const token = await own(first.body.visitorId)
    const refused = await register(e.id, { email, fields: { [ws.id]: [{ fieldValueId: painting, amount: 1 }] } }, token)
    expect([refused.status, refused.body.errorType]).toEqual([409, 'REGISTRATION_DECLINED'])
    expect([await taken(painting), await seats(e.id), (await row(first.body.visitorId)).status]).toEqual([0, 0, 'DECLINED'])
    // the guest's own withdrawal (VISITOR_DECLINED) is theirs to undo
    await setStatus(first.body.visitorId, 'VISITOR_DECLINED')
    const second = await register(e.id, { email, fields: { [ws.id]: [{ fieldValueId: painting, amount: 1 }] } }, token)
    expect(second.body).toMatchObject({ visitorId: first.body.visitorId, status: 'CONFIRMED' })
    expect([await taken(pottery), await taken(painting), await seats(e.id)]).toEqual([0, 1, 1])
    expect(await db().selectFrom('escort_person').select('id').where('visitor_id', '=', first.body.visitorId).execute()).toEqual([])
    const stored = await db().selectFrom('visitor_field_value').select('value').where('visitor_id', '=', first.body.visitorId).execute()
    expect(stored.map((x) => JSON.parse(x.value))).toEqual([[{ fieldValueId: painting, amount: 1 }]])
    // declining and approving again settles exactly the new choice
    await admin.post(`/proxy/api/events/${e.id}/visitors/${first.body.visitorId}/decline`, { notify: false })
    expect([await taken(painting), await seats(e.id)]).toEqual([0, 0])
    await admin.post(`/proxy/api/events/${e.id}/visitors/${first.body.visitorId}/approve`, { notify: false })
    expect([await taken(pottery), await taken(painting), await seats(e.id)]).toEqual([0, 1, 1])
  })

  test('the same invited guest registering 10 times at once: one takeover, the others ALREADY_REGISTERED, places counted once', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin, { maxVisitors: 50 })
    const g = await addGuest(admin, e.id)
    await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/invite`, {})
    const token = await own(g.id)
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => register(e.id, { email: g.email, firstName: `Versuch${i}` }, token)))
    expect(results.filter((r) => r.status === 201).length).toBe(1)
    expect(results.filter((r) => r.status !== 201).every((r) => r.status === 409 && r.body.errorType === 'ALREADY_REGISTERED')).toBe(true)
    expect(await seats(e.id)).toBe(1)
    expect((await row(g.id)).seats_held).toBe(1)
    expect((await db().selectFrom('event_visitor').select('id').where('event_id', '=', e.id).execute()).length).toBe(1)
    await db().deleteFrom('mail_outbox').where('status', '=', 'PENDING').execute()
  })

  test('an organiser registering in admin mode does not take over an entry: ALREADY_REGISTERED', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const g = await addGuest(admin, e.id)
    const r = await admin.post(`/proxy/api/events/${e.id}/registrations`, { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: g.email, sendMail: false })
    expect(r.status).toBe(409)
    expect(r.body.errorType).toBe('ALREADY_REGISTERED')
    expect((await row(g.id)).status).toBe('ADDED')
  })
})
