import { expect, test } from 'bun:test'
import { type Agent, type Harness, forEachDialect, uniqueEmail } from '../../testing/harness'
import { addGuest, createEvent, licenseWith } from '../../testing/organiser'
import { linkIn } from '../../testing/smtp-sink'

async function seats(h: Harness, eventId: number) {
  const e = await h.ctx.db.selectFrom('event').select('seats_taken').where('id', '=', eventId).executeTakeFirstOrThrow()
  const held = await h.ctx.db.selectFrom('event_visitor').select((eb) => eb.fn.sum<number>('seats_held').as('n')).where('event_id', '=', eventId).executeTakeFirst()
  // the invariant every transition keeps
  expect(Number(held?.n ?? 0)).toBe(e.seats_taken)
  return e.seats_taken
}

forEachDialect('guest list: add, edit, statuses, seats', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin()
  })

  test('add as ADDED (no places) or CONFIRMED (takes places, EVENT_FULL when gone); e-mail unique per event', async () => {
    const e = await createEvent(admin, { maxVisitors: 3 })
    const a = await addGuest(admin, e.id, { email: 'anna@example.org' })
    expect(a).toMatchObject({ status: 'ADDED', seatsHeld: 0, visitorCount: 1, source: 'ADMIN' })
    const b = await addGuest(admin, e.id, { status: 'CONFIRMED', escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] })
    expect(b).toMatchObject({ status: 'CONFIRMED', seatsHeld: 2, visitorCount: 2 })
    expect(b.escortPersons).toMatchObject([{ number: 1, firstName: 'Eva', lastName: 'Escort', checkState: 'OPEN' }])
    expect(await seats(h(), e.id)).toBe(2)
    const full = await admin.post(`/proxy/api/events/${e.id}/visitors`, { firstName: 'X', lastName: 'Y', status: 'CONFIRMED', escortPersons: [{ firstName: 'Z', lastName: 'Z' }] })
    expect(full.status).toBe(409)
    expect(full.body).toMatchObject({ errorType: 'EVENT_FULL', errorMessage: 'Die Veranstaltung ist leider ausgebucht.' })
    const dup = await admin.post(`/proxy/api/events/${e.id}/visitors`, { firstName: 'X', lastName: 'Y', email: 'ANNA@example.org' })
    expect(dup.status).toBe(409)
    expect(dup.body.errorFields).toEqual([{ field: 'email', errorType: 'ALREADY_REGISTERED' }])
    const bad = await admin.post(`/proxy/api/events/${e.id}/visitors`, { firstName: '', lastName: 'Y', email: 'nope', escortPersons: [{ firstName: 'A' }] })
    expect(bad.status).toBe(400)
    expect(bad.body.errorFields).toEqual(
      expect.arrayContaining([
        { field: 'firstName', errorType: 'REQUIRED' },
        { field: 'email', errorType: 'INVALID_EMAIL' },
        { field: 'escortPersons.0.lastName', errorType: 'REQUIRED' },
      ]),
    )
    expect(await seats(h(), e.id)).toBe(2)
  })

  test('editing escorts of a confirmed guest takes and releases the difference; keeps escorts by id', async () => {
    const e = await createEvent(admin, { maxVisitors: 4 })
    const g = await addGuest(admin, e.id, { status: 'CONFIRMED', escortPersons: [{ firstName: 'Eva', lastName: 'Eins' }] })
    const keep = g.escortPersons[0]
    const body = { firstName: 'Grete', lastName: 'Gast', email: g.email, status: 'CONFIRMED' }
    const grow = await admin.put(`/proxy/api/events/${e.id}/visitors/${g.id}`, { ...body, escortPersons: [{ id: keep.id, firstName: 'Eva', lastName: 'Eins' }, { firstName: 'Zwei', lastName: 'Z' }, { firstName: 'Drei', lastName: 'D' }] })
    expect(grow.status).toBe(200)
    expect(grow.body).toMatchObject({ visitorCount: 4, seatsHeld: 4 })
    expect(grow.body.escortPersons.map((x: any) => [x.id === keep.id, x.number])).toEqual([
      [true, 1],
      [false, 2],
      [false, 3],
    ])
    expect(await seats(h(), e.id)).toBe(4)
    const over = await admin.put(`/proxy/api/events/${e.id}/visitors/${g.id}`, { ...body, escortPersons: [...grow.body.escortPersons, { firstName: 'Vier', lastName: 'V' }] })
    expect(over.status).toBe(409)
    expect(over.body.errorType).toBe('EVENT_FULL')
    const shrink = await admin.put(`/proxy/api/events/${e.id}/visitors/${g.id}`, { ...body, escortPersons: [] })
    expect(shrink.body).toMatchObject({ visitorCount: 1, seatsHeld: 1, escortPersons: [] })
    expect(await seats(h(), e.id)).toBe(1)
  })

  test('transitions: approve keeps the places of REQUIRE_APPROVAL, decline releases, delete and restore; others refused', async () => {
    const e = await createEvent(admin, { maxVisitors: 10 })
    const g = await addGuest(admin, e.id)
    await h().ctx.db.updateTable('event_visitor').set({ status: 'REQUIRE_APPROVAL', seats_held: 1 }).where('id', '=', g.id).execute()
    await h().ctx.db.updateTable('event').set({ seats_taken: 1 }).where('id', '=', e.id).execute()
    const ok = await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/approve`, {})
    expect(ok.body).toMatchObject({ status: 'CONFIRMED', seatsHeld: 1 })
    expect(await seats(h(), e.id)).toBe(1)
    const again = await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/approve`, {})
    expect(again.status).toBe(409)
    expect(again.body.errorType).toBe('STATUS_TRANSITION_NOT_ALLOWED')
    expect(again.body.errorMessage).toBe('Diese Aktion ist im Status „CONFIRMED“ nicht möglich.')
    const no = await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/decline`, { reason: 'Zu spät' })
    expect(no.body).toMatchObject({ status: 'DECLINED', seatsHeld: 0, declineReason: 'Zu spät' })
    expect(await seats(h(), e.id)).toBe(0)
    const yes = await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/approve`, { notify: false })
    expect(yes.body).toMatchObject({ status: 'CONFIRMED', seatsHeld: 1 })
    const del = await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/delete`)
    expect(del.body).toMatchObject({ status: 'DELETED', seatsHeld: 0 })
    expect(await seats(h(), e.id)).toBe(0)
    expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/restore`)).body.status).toBe('ADDED')
    await h().deliverMail()
    const mails = h().smtp.to(g.email)
    expect(mails.map((m) => m.subject)).toEqual(['Ihre Anmeldung ist bestätigt: Sommerfest', 'Ihre Anmeldung: Sommerfest'])
    expect(mails[1].text).toContain('Hinweis des Veranstalters: Zu spät')
  })

  test('approve when full is refused and changes nothing', async () => {
    const e = await createEvent(admin, { maxVisitors: 1 })
    await addGuest(admin, e.id, { status: 'CONFIRMED' })
    const g = await addGuest(admin, e.id)
    const r = await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/approve`, {})
    expect(r.status).toBe(409)
    expect(r.body.errorType).toBe('EVENT_FULL')
    expect((await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)).body.status).toBe('ADDED')
    expect(await seats(h(), e.id)).toBe(1)
  })

  test('invite mails a link that opens the dashboard; re-invite counts; reservePlace holds a place (PENDING); the guest confirms or declines', async () => {
    const e = await createEvent(admin, { maxVisitors: 5, displayName: 'Gala' })
    const email = uniqueEmail('invitee')
    const g = await addGuest(admin, e.id, { email })
    const inv = await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/invite`, {})
    expect(inv.body).toMatchObject({ status: 'INVITED', invitationCount: 1, seatsHeld: 0 })
    const re = await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/invite`, { reservePlace: true })
    expect(re.body).toMatchObject({ status: 'PENDING', invitationCount: 2, seatsHeld: 1 })
    expect(await seats(h(), e.id)).toBe(1)
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(email) && m.text.includes('reserviert'))
    expect(mail.subject).toBe('Einladung: Gala')
    const token = new URL(linkIn(mail, '/guest/dashboard?token=')).searchParams.get('token')!
    const guest = h().agent()
    guest.headers['x-guest-token'] = token
    const dash = await guest.get('/proxy/api/guest/events')
    expect(dash.body.pendingEvents.map((x: any) => x.id)).toEqual([g.id])
    const act = await guest.post(`/proxy/api/guest/events/${e.id}/activate`, { visitor: g.id })
    expect(act.body).toEqual({ id: g.id, status: 'CONFIRMED' })
    expect(await seats(h(), e.id)).toBe(1)
    expect((await guest.post(`/proxy/api/guest/events/${e.id}/activate`, { visitor: g.id })).status).toBe(409)
    const rej = await guest.post(`/proxy/api/guest/events/${e.id}/reject`, { visitor: g.id, reason: 'Krank' })
    expect(rej.body.status).toBe('VISITOR_DECLINED')
    expect(await seats(h(), e.id)).toBe(0)
    // someone else's registration is not found
    const other = await addGuest(admin, e.id)
    expect((await guest.post(`/proxy/api/guest/events/${e.id}/activate`, { visitor: other.id })).status).toBe(404)
    expect((await h().request('POST', `/proxy/api/guest/events/${e.id}/activate`, { body: { visitor: g.id } })).status).toBe(401)
  })

  test('an invited guest activating takes places; full → EVENT_FULL; hideDeclineButton refuses rejects', async () => {
    const e = await createEvent(admin, { maxVisitors: 1, hideDeclineButton: true })
    const g = await addGuest(admin, e.id)
    await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/invite`, {})
    await addGuest(admin, e.id, { status: 'CONFIRMED' })
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(g.email))
    const guest = h().agent()
    guest.headers['x-guest-token'] = new URL(linkIn(mail, '/guest/dashboard?token=')).searchParams.get('token')!
    expect((await guest.post(`/proxy/api/guest/events/${e.id}/activate`, { visitor: g.id })).body.errorType).toBe('EVENT_FULL')
    const rej = await guest.post(`/proxy/api/guest/events/${e.id}/reject`, { visitor: g.id })
    expect(rej.status).toBe(409)
    expect(rej.body.errorType).toBe('DECLINE_NOT_ALLOWED')
  })

  test('invite without e-mail is refused; VIP and note by PATCH', async () => {
    const e = await createEvent(admin)
    const g = await addGuest(admin, e.id, { email: null })
    const r = await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/invite`, {})
    expect(r.body.errorType).toBe('NO_EMAIL')
    const p = await admin.patch(`/proxy/api/events/${e.id}/visitors/${g.id}`, { vip: true, note: 'Sponsor' })
    expect(p.body).toMatchObject({ vip: true, note: 'Sponsor' })
  })

  test('other agencies get 404; the checkin role cannot change the list', async () => {
    const e = await createEvent(admin)
    const g = await addGuest(admin, e.id)
    const other = await h().admin()
    expect((await other.get(`/proxy/api/events/${e.id}/visitors`)).status).toBe(404)
    expect((await other.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)).status).toBe(404)
    expect((await other.post(`/proxy/api/events/${e.id}/visitors/${g.id}/approve`, {})).status).toBe(404)
    const oe = await createEvent(other)
    expect((await other.get(`/proxy/api/events/${oe.id}/visitors/${g.id}`)).status).toBe(404)
    await h().ctx.db.updateTable('account').set({ user_role: 'AGENCY_CHECKIN' }).where('id', '=', other.accountId).execute()
    expect((await other.post(`/proxy/api/events/${oe.id}/visitors`, { firstName: 'A', lastName: 'B' })).status).toBe(403)
    expect((await other.get(`/proxy/api/events/${oe.id}/visitors`)).status).toBe(200)
  })
}, { license: licenseWith([], { events: -1 }) })

forEachDialect('guest list: filter, search, sort, paging', (h) => {
  test('guest filter, search, sort and paging (body and query)', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const tag = (await admin.post('/proxy/api/tags', { displayName: 'Presse' })).body
    const camp = (await admin.post('/proxy/api/campaigns', { displayName: 'Mailing' })).body
    const a = await addGuest(admin, e.id, { firstName: 'Anna', lastName: 'Adler', company: 'ACME', vip: true, tags: [tag.id] })
    const b = await addGuest(admin, e.id, { firstName: 'Bernd', lastName: 'Bär', campaigns: [camp.id], status: 'CONFIRMED' })
    const c = await addGuest(admin, e.id, { firstName: 'Carla', lastName: 'Clausen' })
    const d = await addGuest(admin, e.id, { firstName: 'Dora', lastName: 'Dach' })
    await h().ctx.db.updateTable('event_visitor').set({ status: 'REQUIRE_APPROVAL' }).where('id', '=', c.id).execute()
    await h().ctx.db.updateTable('event_visitor').set({ mail_error: true }).where('id', '=', d.id).execute()
    await admin.post(`/proxy/api/events/${e.id}/visitors/${d.id}/delete`)
    const names = async (body: Record<string, unknown>) => {
      const r = await admin.post(`/proxy/api/events/${e.id}/visitors/search`, body)
      expect(r.status).toBe(200)
      return (r.body.items as any[]).map((v) => v.firstName)
    }
    expect(await names({})).toEqual(['Anna', 'Bernd', 'Carla'])
    expect(await names({ filter: { showPending: true } })).toEqual(['Carla'])
    expect(await names({ filter: { vipFilter: 'ONLY_VIP' } })).toEqual(['Anna'])
    expect(await names({ filter: { showVip: true } })).toEqual(['Anna'])
    expect(await names({ filter: { vipFilter: 'NO_VIP' } })).toEqual(['Bernd', 'Carla'])
    expect(await names({ filter: { showMailError: true, statuses: ['DELETED'] } })).toEqual(['Dora'])
    expect(await names({ filter: { showMailError: true } })).toEqual([])
    expect(await names({ filter: { tags: [tag.id] } })).toEqual(['Anna'])
    expect(await names({ filter: { campaigns: [camp.id] } })).toEqual(['Bernd'])
    expect(await names({ filter: { statuses: ['CONFIRMED', 'REQUIRE_APPROVAL'] } })).toEqual(['Bernd', 'Carla'])
    expect(await names({ search: 'acme' })).toEqual(['Anna'])
    expect(await names({ search: 'bernd bär' })).toEqual(['Bernd'])
    expect(await names({ search: b.email.toUpperCase() })).toEqual(['Bernd'])
    expect(await names({ sort: { field: 'firstName', direction: 'desc' } })).toEqual(['Carla', 'Bernd', 'Anna'])
    expect(await names({ sort: { field: 'status', direction: 'asc' } })).toEqual(['Anna', 'Bernd', 'Carla'])
    const page = await admin.post(`/proxy/api/events/${e.id}/visitors/search`, { page: 1, perPage: 2 })
    expect(page.body).toMatchObject({ total: 3, page: 1, perPage: 2 })
    expect(page.body.items.map((v: any) => v.firstName)).toEqual(['Carla'])
    const q = await admin.get(`/proxy/api/events/${e.id}/visitors?vipFilter=NO_VIP&sort=firstName&direction=desc&perPage=1`)
    expect(q.body.items.map((v: any) => v.firstName)).toEqual(['Carla'])
    expect(q.body.total).toBe(2)
    const tagged = await admin.get(`/proxy/api/events/${e.id}/visitors?tags=${tag.id}`)
    expect(tagged.body.items[0].tags).toMatchObject([{ id: tag.id, displayName: 'Presse' }])
    const bad = await admin.get(`/proxy/api/events/${e.id}/visitors?vipFilter=SOMETIMES`)
    expect(bad.status).toBe(400)
    expect(bad.body.errorFields).toEqual([{ field: 'filter.vipFilter', errorType: 'INVALID' }])
    expect(a.id && b.id).toBeTruthy()
  })
})

forEachDialect('guest list: status changes and the form choices', (h) => {
  test('decline gives a registration\'s defined-value place back, approve takes it again, a taken value refuses', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin, { displayName: 'Workshops' })
    const ws = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'SMARTLIST', displayName: 'Workshop', definedValues: [{ displayName: 'Töpfern', capacity: 1 }] })
    expect(ws.status).toBe(201)
    const valueId = ws.body.definedValues[0].id
    const register = (email: string) =>
      h().request('POST', `/api/public/events/${e.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email, identification: `browser${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`, fields: { [ws.body.id]: [{ fieldValueId: valueId, amount: 1 }] } } })
    const r = await register(uniqueEmail('choice'))
    expect(r.status === 201 ? 201 : r.text).toBe(201)
    const taken = async () => (await h().ctx.db.selectFrom('field_value').select('taken').where('id', '=', valueId).executeTakeFirstOrThrow()).taken
    expect(await taken()).toBe(1)
    expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${r.body.visitorId}/decline`, { notify: false })).body.status).toBe('DECLINED')
    expect(await taken()).toBe(0)
    expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${r.body.visitorId}/approve`, { notify: false })).body.status).toBe('CONFIRMED')
    expect(await taken()).toBe(1)
    await admin.post(`/proxy/api/events/${e.id}/visitors/${r.body.visitorId}/delete`)
    expect(await taken()).toBe(0)
    expect((await register(uniqueEmail('other'))).status).toBe(201)
    await admin.post(`/proxy/api/events/${e.id}/visitors/${r.body.visitorId}/restore`)
    const back = await admin.post(`/proxy/api/events/${e.id}/visitors/${r.body.visitorId}/approve`, { notify: false })
    expect(back.status).toBe(409)
    expect(back.body.errorType).toBe('FIELD_ERROR')
    expect(await taken()).toBe(1)
    expect(await seats(h(), e.id)).toBe(1)
  })
})
