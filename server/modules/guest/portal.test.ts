// The guest portal's calls on both dialects: details, escort edits, withdraw, resend, sendInvitation,
// data changes with places moving in one transaction (and never oversold), passing a place on.
import { expect, test } from 'bun:test'
import { type Agent, type Harness, eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { addGuest, licenseWith } from '../../testing/organiser'
import { linkIn } from '../../testing/smtp-sink'

async function seats(h: Harness, eventId: number) {
  const e = await h.ctx.db.selectFrom('event').select('seats_taken').where('id', '=', eventId).executeTakeFirstOrThrow()
  const held = await h.ctx.db.selectFrom('event_visitor').select((eb) => eb.fn.sum<number>('seats_held').as('n')).where('event_id', '=', eventId).executeTakeFirst()
  expect(Number(held?.n ?? 0)).toBe(e.seats_taken)
  return e.seats_taken
}

forEachDialect('guest portal', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin()
  })
  const event = async (overrides: Record<string, unknown> = {}) => {
    const r = await admin.post('/proxy/api/events', eventBody(overrides))
    expect(r.status).toBe(201)
    return r.body as { id: number; [k: string]: any }
  }
  async function mailTo(email: string, match: (m: { subject: string; text: string }) => boolean = () => true) {
    for (let i = 0; i < 50 && !h().smtp.mails.some((m) => m.to.includes(email) && match(m)); i++) await h().deliverMail()
    return h().smtp.waitFor((m) => m.to.includes(email) && match(m))
  }
  /** registers on the public page and opens the confirmation mail's link: the guest's agent */
  async function registered(eventId: number, body: Record<string, unknown> = {}) {
    const email = uniqueEmail('portal')
    const r = await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email, ...body } })
    expect(r.status).toBe(201)
    const mail = await mailTo(email)
    const guest = h().agent()
    guest.headers['x-guest-token'] = new URL(linkIn(mail, '/guest/dashboard?token=')).searchParams.get('token')!
    return { guest, visitorId: r.body.visitorId as number, email }
  }

  test('details: name, event, status, registered against checked-in persons, escorts, master data and event fields; another guest gets 404', async () => {
    const e = await event({ displayName: 'Gala' })
    const company = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'COMPANY', displayName: 'Firma' })
    const diet = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'TEXT', displayName: 'Essenswunsch' })
    const secret = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'TEXT', displayName: 'Interne Notiz', appearance: 'HIDDEN' })
    const { guest, visitorId } = await registered(e.id, { fields: { [company.body.id]: 'ACME', [diet.body.id]: 'vegan' }, escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] })
    const d = await guest.get(`/proxy/api/guest/events/visitors/${visitorId}/details`)
    expect(d.status).toBe(200)
    expect(d.body).toMatchObject({ id: visitorId, name: 'Frau Grete Gast', status: 'CONFIRMED', visitorCount: 2, checkinCount: 0, registrationExpired: false, canEditEscorts: true, canEditRegistrationData: false })
    expect(d.body.event.displayName).toBe('Gala')
    expect(d.body.escortPersons).toMatchObject([{ number: 1, firstName: 'Eva', lastName: 'Escort' }])
    expect(d.body.defaultFields.find((f: any) => f.key === 'COMPANY')).toMatchObject({ displayName: 'Firma', data: 'ACME' })
    expect(d.body.visitorFields).toEqual([{ eventField: diet.body.id, displayName: 'Essenswunsch', type: 'TEXT', data: 'vegan' }])
    expect(JSON.stringify(d.body)).not.toContain(String(secret.body.displayName))
    // another guest's registration, a made-up id, and no token at all
    const other = await registered(e.id)
    expect((await other.guest.get(`/proxy/api/guest/events/visitors/${visitorId}/details`)).status).toBe(404)
    expect((await guest.get('/proxy/api/guest/events/visitors/99999999/details')).status).toBe(404)
    expect((await h().request('GET', `/proxy/api/guest/events/visitors/${visitorId}/details`)).status).toBe(401)
  })

  test('escorts: add, change, remove; places follow (EVENT_FULL, TOO_MANY_PERSONS); escort rules; 404 for others', async () => {
    const e = await event({ maxVisitors: 3, maxVisitorPerSubscription: 3 })
    const { guest, visitorId } = await registered(e.id, { escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] })
    expect(await seats(h(), e.id)).toBe(2)
    const before = (await guest.get(`/proxy/api/guest/events/visitors/${visitorId}/details`)).body
    const eva = before.escortPersons[0]
    const add = await guest.patch(`/proxy/api/guest/events/visitors/${visitorId}`, { escortPersons: [{ id: eva.id, firstName: 'Eva', lastName: 'Neu' }, { firstName: 'Max', lastName: 'Muster' }] })
    expect(add.status).toBe(200)
    expect(add.body.escortPersons).toMatchObject([
      { id: eva.id, number: 1, lastName: 'Neu' },
      { number: 2, firstName: 'Max' },
    ])
    expect(add.body.visitorCount).toBe(3)
    expect(await seats(h(), e.id)).toBe(3)
    const tooMany = await guest.patch(`/proxy/api/guest/events/visitors/${visitorId}`, { escortPersons: [{ firstName: 'A', lastName: 'A' }, { firstName: 'B', lastName: 'B' }, { firstName: 'C', lastName: 'C' }] })
    expect(tooMany.body.errorType).toBe('TOO_MANY_PERSONS')
    const missing = await guest.patch(`/proxy/api/guest/events/visitors/${visitorId}`, { escortPersons: [{ firstName: 'Eva', lastName: '' }] })
    expect(missing.status).toBe(400)
    expect(missing.body).toMatchObject({ errorType: 'FIELD_ERROR', errorFields: [{ field: 'escortPersons.0.lastName', errorType: 'ESCORT_LAST_NAME_REQUIRED' }] })
    // someone else takes the last place: adding again is EVENT_FULL and changes nothing
    const removed = await guest.patch(`/proxy/api/guest/events/visitors/${visitorId}`, { escortPersons: [] })
    expect(removed.body.visitorCount).toBe(1)
    expect(await seats(h(), e.id)).toBe(1)
    await addGuest(admin, e.id, { status: 'CONFIRMED', escortPersons: [{ firstName: 'X', lastName: 'Y' }] })
    const full = await guest.patch(`/proxy/api/guest/events/visitors/${visitorId}`, { escortPersons: [{ firstName: 'Max', lastName: 'Muster' }] })
    expect(full.status).toBe(409)
    expect(full.body).toMatchObject({ errorType: 'EVENT_FULL', errorMessage: 'Die Veranstaltung ist leider ausgebucht.' })
    expect((await guest.get(`/proxy/api/guest/events/visitors/${visitorId}/details`)).body.escortPersons).toEqual([])
    expect(await seats(h(), e.id)).toBe(3)
    // an escort id of another registration is refused; another guest's registration is 404
    const other = await registered((await event()).id, { escortPersons: [{ firstName: 'O', lastName: 'O' }] })
    const otherEscort = (await other.guest.get(`/proxy/api/guest/events/visitors/${other.visitorId}/details`)).body.escortPersons[0]
    const stolen = await guest.patch(`/proxy/api/guest/events/visitors/${visitorId}`, { escortPersons: [{ id: otherEscort.id, firstName: 'O', lastName: 'O' }] })
    expect(stolen.status).toBe(400)
    expect((await other.guest.patch(`/proxy/api/guest/events/visitors/${visitorId}`, { escortPersons: [] })).status).toBe(404)
  })

  test('escorts cannot change once the registration has expired (REGISTRATION_EXPIRED), nor remove a checked-in escort', async () => {
    const until = new Date(h().clock.now().getTime() + 3600_000).toISOString()
    const e = await event({ registrationUntil: until })
    const { guest, visitorId } = await registered(e.id, { escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] })
    const eva = (await guest.get(`/proxy/api/guest/events/visitors/${visitorId}/details`)).body.escortPersons[0]
    await h().ctx.db.updateTable('escort_person').set({ checked_in: true }).where('id', '=', eva.id).execute()
    const out = await guest.patch(`/proxy/api/guest/events/visitors/${visitorId}`, { escortPersons: [] })
    expect(out.status).toBe(409)
    expect(out.body).toMatchObject({ errorType: 'ESCORT_CHECKED_IN', errorMessage: 'Eine Begleitperson, die bereits eingecheckt wurde, kann nicht entfernt werden.' })
    expect((await guest.get(`/proxy/api/guest/events/visitors/${visitorId}/details`)).body.checkinCount).toBe(1)
    h().clock.advance(2 * 3600_000)
    const d = await guest.get(`/proxy/api/guest/events/visitors/${visitorId}/details`)
    expect(d.body).toMatchObject({ registrationExpired: true, canEditEscorts: false })
    const late = await guest.patch(`/proxy/api/guest/events/visitors/${visitorId}`, { escortPersons: [{ id: eva.id, firstName: 'Eva', lastName: 'Escort' }] })
    expect(late.status).toBe(409)
    expect(late.body).toMatchObject({ errorType: 'REGISTRATION_EXPIRED', errorMessage: 'Die Anmeldefrist ist abgelaufen. Die Anmeldung kann nicht mehr geändert werden.' })
    h().clock.advance(-2 * 3600_000)
  })

  test('withdraw (reject) gives back event places, defined values and timeslots at once; the dashboard moves the event', async () => {
    const e = await event({ maxVisitors: 10 })
    const ws = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'SMARTLIST', displayName: 'Workshop', definedValues: [{ displayName: 'Töpfern', capacity: 2 }] })
    // a value and a slot hold a place per person (guest and escort: 2)
    const slotField = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'TIMESLOT', displayName: 'Zeitfenster', timeslots: [{ displayName: '10:00', capacity: 2 }] })
    const slotId = slotField.body.timeslots[0].id
    const identification = `browser${Date.now().toString(36)}`
    const res = await h().request('POST', '/api/public/reservation/timeslot', { body: { timeslotId: slotId, identification, amount: 1, registrationChange: false } })
    expect(res.status).toBe(200)
    const valueId = ws.body.definedValues[0].id
    const { guest, visitorId } = await registered(e.id, {
      identification,
      escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }],
      fields: { [ws.body.id]: [{ fieldValueId: valueId, amount: 1 }], [slotField.body.id]: [{ timeslotId: slotId, amount: 1, reservationToken: res.body.reservationToken }] },
    })
    expect(await seats(h(), e.id)).toBe(2)
    const taken = async () => ({
      value: (await h().ctx.db.selectFrom('field_value').select('taken').where('id', '=', valueId).executeTakeFirstOrThrow()).taken,
      slot: (await h().ctx.db.selectFrom('timeslot').select('taken').where('id', '=', slotId).executeTakeFirstOrThrow()).taken,
    })
    expect(await taken()).toEqual({ value: 2, slot: 2 })
    const rej = await guest.post(`/proxy/api/guest/events/${e.id}/reject`, { visitor: visitorId })
    expect(rej.body.status).toBe('VISITOR_DECLINED')
    expect(await seats(h(), e.id)).toBe(0)
    expect(await taken()).toEqual({ value: 0, slot: 0 })
    const dash = (await guest.get('/proxy/api/guest/events')).body
    expect(dash.confirmedEvents).toEqual([])
    expect(dash.declinedEvents.map((x: any) => x.id)).toEqual([visitorId])
  })

  test('leaving the waiting list (no place given back, the others move up in line) and withdrawing a request awaiting approval (its place is free again)', async () => {
    const e = await event({ maxVisitors: 1 })
    expect((await admin.put(`/proxy/api/events/${e.id}/form-settings`, { waitingList: true })).status).toBe(200)
    const first = await registered(e.id)
    const second = await registered(e.id)
    const third = await registered(e.id)
    expect(await seats(h(), e.id)).toBe(1)
    const status = async (id: number) => (await h().ctx.db.selectFrom('event_visitor').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
    expect([await status(first.visitorId), await status(second.visitorId), await status(third.visitorId)]).toEqual(['CONFIRMED', 'WAITING_LIST', 'WAITING_LIST'])
    const position = async (g: Agent) => (await g.get('/proxy/api/guest/events')).body.openEvents[0]?.waitingListPosition
    expect([await position(second.guest), await position(third.guest)]).toEqual([1, 2])
    // another guest's registration: not theirs
    expect((await third.guest.post(`/proxy/api/guest/events/${e.id}/reject`, { visitor: second.visitorId })).status).toBe(404)
    const left = await second.guest.post(`/proxy/api/guest/events/${e.id}/reject`, { visitor: second.visitorId })
    expect(left.status).toBe(200)
    expect(left.body.status).toBe('VISITOR_DECLINED')
    // the confirmed guest keeps the one place; nothing was given back that the waiting guest never held
    expect(await seats(h(), e.id)).toBe(1)
    expect(await position(third.guest)).toBe(1)
    const dash = (await second.guest.get('/proxy/api/guest/events')).body
    expect(dash.openEvents).toEqual([])
    expect(dash.declinedEvents.map((x: { id: number }) => x.id)).toEqual([second.visitorId])
    // a second time: the registration is declined already
    const again = await second.guest.post(`/proxy/api/guest/events/${e.id}/reject`, { visitor: second.visitorId })
    expect(again.status).toBe(409)
    expect(again.body.errorType).toBe('STATUS_TRANSITION_NOT_ALLOWED')
    // a request that awaits the organiser's approval (it holds its place) is withdrawn the same way
    const approval = await event({ maxVisitors: 5, requireApproval: true })
    const asked = await registered(approval.id)
    expect(await status(asked.visitorId)).toBe('REQUIRE_APPROVAL')
    expect(await seats(h(), approval.id)).toBe(1)
    const withdrawn = await asked.guest.post(`/proxy/api/guest/events/${approval.id}/reject`, { visitor: asked.visitorId })
    expect(withdrawn.status).toBe(200)
    expect(withdrawn.body.status).toBe('VISITOR_DECLINED')
    expect(await seats(h(), approval.id)).toBe(0)
  })

  test('resendMail sends the confirmation again (own registration only, 3 an hour); sendInvitation mails an open invitation again', async () => {
    const e = await event({ displayName: 'Sommerabend' })
    const { guest, visitorId, email } = await registered(e.id)
    const before = h().smtp.mails.filter((m) => m.to.includes(email)).length
    const r = await guest.post(`/proxy/api/public/events/${e.id}/visitor/resendMail`, { visitorId })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ sent: true })
    await mailTo(email, () => h().smtp.mails.filter((m) => m.to.includes(email)).length > before)
    expect(h().smtp.mails.filter((m) => m.to.includes(email)).at(-1)!.subject).toBe('Ihre Anmeldung: Sommerabend')
    const other = await registered(e.id)
    expect((await other.guest.post(`/proxy/api/public/events/${e.id}/visitor/resendMail`, { visitorId })).status).toBe(404)
    expect((await guest.post(`/proxy/api/public/events/${e.id + 1000000}/visitor/resendMail`, { visitorId })).status).toBe(404)
    expect((await guest.post(`/proxy/api/public/events/${e.id}/visitor/resendMail`, {})).body.errorFields).toEqual([{ field: 'visitorId', errorType: 'REQUIRED' }])
    await guest.post(`/proxy/api/public/events/${e.id}/visitor/resendMail`, { visitorId })
    await guest.post(`/proxy/api/public/events/${e.id}/visitor/resendMail`, { visitorId })
    const limited = await guest.post(`/proxy/api/public/events/${e.id}/visitor/resendMail`, { visitorId })
    expect(limited.status).toBe(429)
    expect(limited.body.errorType).toBe('RATE_LIMITED')
    // the invitation: only while it is open
    const invitedEmail = uniqueEmail('invited')
    const g = await addGuest(admin, e.id, { email: invitedEmail })
    await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/invite`, {})
    const inv = await mailTo(invitedEmail)
    const invited = h().agent()
    invited.headers['x-guest-token'] = new URL(linkIn(inv, '/guest/dashboard?token=')).searchParams.get('token')!
    const again = await invited.post(`/proxy/api/guest/${g.id}/sendInvitation`, {})
    expect(again.body).toEqual({ sent: true })
    await mailTo(invitedEmail, () => h().smtp.mails.filter((m) => m.to.includes(invitedEmail) && m.subject === 'Einladung: Sommerabend').length >= 2)
    expect((await guest.post(`/proxy/api/guest/${g.id}/sendInvitation`, {})).status).toBe(404)
    const notOpen = await guest.post(`/proxy/api/guest/${visitorId}/sendInvitation`, {})
    expect(notOpen.status).toBe(409)
    expect(notOpen.body.errorType).toBe('STATUS_TRANSITION_NOT_ALLOWED')
  })

  test('data change (CAN_EDIT_REGISTRATION_DATA): same rules as registering; defined values and timeslots move in one transaction', async () => {
    const closed = await event()
    const c = await registered(closed.id)
    const refused = await c.guest.put(`/proxy/api/guest/events/visitors/${c.visitorId}/data`, { fields: {} })
    expect(refused.status).toBe(409)
    expect(refused.body.errorType).toBe('DATA_CHANGE_NOT_ALLOWED')

    const e = await event({ options: ['CAN_EDIT_REGISTRATION_DATA'] })
    const diet = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'TEXT', displayName: 'Essenswunsch', appearance: 'REQUIRED' })
    const hidden = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'TEXT', displayName: 'Intern', appearance: 'HIDDEN' })
    const ws = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'SMARTLIST', displayName: 'Workshop', definedValues: [{ displayName: 'A', capacity: 1 }, { displayName: 'B', capacity: 1 }] })
    const [a, b] = ws.body.definedValues.map((x: any) => x.id)
    const slotField = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'TIMESLOT', displayName: 'Zeit', timeslots: [{ displayName: '10', capacity: 1 }, { displayName: '11', capacity: 1 }] })
    const [s10, s11] = slotField.body.timeslots.map((x: any) => x.id)
    const ident = `browser${Date.now().toString(36)}`
    const res10 = await h().request('POST', '/api/public/reservation/timeslot', { body: { timeslotId: s10, identification: ident, amount: 1, registrationChange: false } })
    const { guest, visitorId } = await registered(e.id, {
      identification: ident,
      fields: { [diet.body.id]: 'vegan', [ws.body.id]: [{ fieldValueId: a, amount: 1 }], [slotField.body.id]: [{ timeslotId: s10, amount: 1, reservationToken: res10.body.reservationToken }] },
    })
    await h().ctx.db.insertInto('visitor_field_value').values({ visitor_id: visitorId, event_id: e.id, field_id: hidden.body.id, data: 'VIP-Tisch', value: '"VIP-Tisch"', asset_id: null }).execute()
    const form = await guest.get(`/proxy/api/guest/events/visitors/${visitorId}/data`)
    expect(form.status).toBe(200)
    expect(form.body.values.fields[String(diet.body.id)]).toBe('vegan')
    expect(form.body.fields.some((f: any) => f.id === hidden.body.id)).toBe(false)
    expect(form.body.values.fields[String(hidden.body.id)]).toBeUndefined()
    const taken = async (table: 'field_value' | 'timeslot', id: number) => (await h().ctx.db.selectFrom(table).select('taken').where('id', '=', id).executeTakeFirstOrThrow()).taken

    // required fields as when registering
    const missing = await guest.put(`/proxy/api/guest/events/visitors/${visitorId}/data`, { fields: { [ws.body.id]: [{ fieldValueId: a, amount: 1 }] } })
    expect(missing.status).toBe(400)
    expect(missing.body.errorType).toBe('FIELD_ERROR')
    expect(missing.body.errorFields).toEqual([{ field: `fields.${diet.body.id}`, errorType: 'REQUIRED' }])
    // a new timeslot without the guest's registrationChange reservation is refused, nothing moves
    const noRes = await guest.put(`/proxy/api/guest/events/visitors/${visitorId}/data`, { fields: { [diet.body.id]: 'vegan', [slotField.body.id]: [{ timeslotId: s11, amount: 1 }] } })
    expect(noRes.body).toMatchObject({ errorType: 'FIELD_ERROR', errorFields: [{ field: `fields.${slotField.body.id}`, errorType: 'REGISTRATION_VALID_UNTIL_EXPIRED' }] })
    expect([await taken('timeslot', s10), await taken('timeslot', s11)]).toEqual([1, 0])
    // switch the workshop from A to B and the slot from 10 to 11 (reserved with registrationChange)
    const ident2 = `change${Date.now().toString(36)}`
    const res11 = await h().request('POST', '/api/public/reservation/timeslot', { body: { timeslotId: s11, identification: ident2, amount: 1, registrationChange: true } })
    expect(res11.status).toBe(200)
    const ok = await guest.put(`/proxy/api/guest/events/visitors/${visitorId}/data`, {
      fields: { [diet.body.id]: 'Fisch', [ws.body.id]: [{ fieldValueId: b, amount: 1 }], [slotField.body.id]: [{ timeslotId: s11, amount: 1, reservationToken: res11.body.reservationToken }] },
    })
    expect(ok.status).toBe(200)
    expect(ok.body.visitorFields.find((f: any) => f.eventField === diet.body.id).data).toBe('Fisch')
    expect([await taken('field_value', a), await taken('field_value', b)]).toEqual([0, 1])
    expect([await taken('timeslot', s10), await taken('timeslot', s11)]).toEqual([0, 1])
    // the organiser's hidden value stays
    const kept = await h().ctx.db.selectFrom('visitor_field_value').select('data').where('visitor_id', '=', visitorId).where('field_id', '=', hidden.body.id).executeTakeFirst()
    expect(kept?.data).toBe('VIP-Tisch')
    // keeping a full value and slot works (they are given back and taken again in one transaction)
    const same = await guest.put(`/proxy/api/guest/events/visitors/${visitorId}/data`, { fields: { [diet.body.id]: 'Fisch', [ws.body.id]: [{ fieldValueId: b, amount: 1 }], [slotField.body.id]: [{ timeslotId: s11, amount: 1 }] } })
    expect(same.status).toBe(200)
    expect([await taken('field_value', b), await taken('timeslot', s11)]).toEqual([1, 1])
    // another guest takes A; switching back is refused and nothing is lost
    await registered(e.id, { fields: { [diet.body.id]: 'x', [ws.body.id]: [{ fieldValueId: a, amount: 1 }] } })
    const gone = await guest.put(`/proxy/api/guest/events/visitors/${visitorId}/data`, { fields: { [diet.body.id]: 'Fisch', [ws.body.id]: [{ fieldValueId: a, amount: 1 }], [slotField.body.id]: [{ timeslotId: s11, amount: 1 }] } })
    expect(gone.status).toBe(409)
    expect(gone.body.errorFields).toEqual([{ field: `fields.${ws.body.id}`, errorType: 'VALUE_UNAVAILABLE' }])
    expect([await taken('field_value', a), await taken('field_value', b)]).toEqual([1, 1])
    // another guest's registration
    expect((await c.guest.put(`/proxy/api/guest/events/visitors/${visitorId}/data`, { fields: {} })).status).toBe(404)
  })

  test('data change under concurrency: 20 guests switching to a value with 5 places end with exactly 5', async () => {
    const e = await event({ options: ['CAN_EDIT_REGISTRATION_DATA'], maxVisitors: null })
    const ws = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'SMARTLIST', displayName: 'Workshop', definedValues: [{ displayName: 'A', capacity: 100 }, { displayName: 'B', capacity: 5 }] })
    const [a, b] = ws.body.definedValues.map((x: any) => x.id)
    const guests = []
    for (let i = 0; i < 20; i++) guests.push(await registered(e.id, { fields: { [ws.body.id]: [{ fieldValueId: a, amount: 1 }] } }))
    const results = await Promise.all(guests.map((g) => g.guest.put(`/proxy/api/guest/events/visitors/${g.visitorId}/data`, { fields: { [ws.body.id]: [{ fieldValueId: b, amount: 1 }] } })))
    expect(results.filter((r) => r.status === 200).length).toBe(5)
    expect(results.filter((r) => r.status !== 200).every((r) => r.body.errorFields?.[0]?.errorType === 'VALUE_UNAVAILABLE')).toBe(true)
    const row = (id: number) => h().ctx.db.selectFrom('field_value').select('taken').where('id', '=', id).executeTakeFirstOrThrow()
    expect((await row(b)).taken).toBe(5)
    expect((await row(a)).taken).toBe(15)
  })

  test('escort edits under concurrency: 12 guests adding an escort for 5 free places end with exactly 5 more persons', async () => {
    const e = await event({ maxVisitors: 17 })
    const guests = []
    for (let i = 0; i < 12; i++) guests.push(await registered(e.id))
    expect(await seats(h(), e.id)).toBe(12)
    const results = await Promise.all(guests.map((g) => g.guest.patch(`/proxy/api/guest/events/visitors/${g.visitorId}`, { escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] })))
    expect(results.filter((r) => r.status === 200).length).toBe(5)
    expect(results.filter((r) => r.status !== 200).every((r) => r.body.errorType === 'EVENT_FULL')).toBe(true)
    expect(await seats(h(), e.id)).toBe(17)
    const escorts = await h().ctx.db.selectFrom('escort_person').innerJoin('event_visitor', 'event_visitor.id', 'escort_person.visitor_id').select('escort_person.id').where('event_visitor.event_id', '=', e.id).execute()
    expect(escorts.length).toBe(5)
  })

  test('data change with an upload: only the guest’s own upload of this visit is claimed', async () => {
    const e = await event({ options: ['CAN_EDIT_REGISTRATION_DATA'] })
    const photo = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'IMAGE', displayName: 'Foto' })
    const { guest, visitorId } = await registered(e.id)
    const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
    const upload = async (identification: string) => {
      const f = new FormData()
      const bytes = await new Bun.Image(pixel).resize(40, 40).png().bytes()
      f.append('file', new File([bytes as Uint8Array<ArrayBuffer>], 'me.png'))
      f.append('fileName', 'me.png')
      f.append('type', 'EVENT_GUEST')
      f.append('event', String(e.id))
      const r = await h().request('POST', '/api/asset', { form: f, headers: { 'x-guest-identification': identification } })
      expect(r.body).toMatchObject({ secure: true })
      return r.body.id as number
    }
    const theirs = await upload('someone-else-visit-1')
    const stolen = await guest.put(`/proxy/api/guest/events/visitors/${visitorId}/data`, { identification: 'my-change-visit-1', fields: { [photo.body.id]: { assetId: theirs, fileName: 'me.png' } } })
    expect(stolen.status).toBe(400)
    expect(stolen.body.errorFields).toEqual([{ field: `fields.${photo.body.id}`, errorType: 'INVALID' }])
    const mine = await upload('my-change-visit-1')
    const ok = await guest.put(`/proxy/api/guest/events/visitors/${visitorId}/data`, { identification: 'my-change-visit-1', fields: { [photo.body.id]: { assetId: mine, fileName: 'me.png' } } })
    expect(ok.status).toBe(200)
    const a = await h().ctx.db.selectFrom('asset').select('visitor_id').where('id', '=', mine).executeTakeFirstOrThrow()
    expect(a.visitor_id).toBe(visitorId)
  })

  test('every guest portal call is in the OpenAPI document', async () => {
    const r = await h().request('GET', '/proxy/api/openapi.json')
    const paths = Object.keys(r.body.paths)
    for (const p of [
      '/proxy/api/guest/events/visitors/{vid}/details',
      '/proxy/api/guest/events/visitors/{vid}',
      '/proxy/api/guest/events/visitors/{vid}/data',
      '/proxy/api/guest/events/visitors/{vid}/transfer',
      '/proxy/api/public/events/{id}/visitor/resendMail',
      '/proxy/api/guest/{id}/sendInvitation',
      '/proxy/api/guest/events/{id}/reject',
      '/proxy/api/guest/events/{id}/activate',
    ]) {
      expect(paths).toContain(p)
    }
  })

  test('passing a place on: only where allowed and before the deadline; new tokens and ticket code; both get a mail; the organiser sees the history', async () => {
    const notAllowed = await event()
    const n = await registered(notAllowed.id)
    const refused = await n.guest.post(`/proxy/api/guest/events/visitors/${n.visitorId}/transfer`, { firstName: 'Tom', lastName: 'Neu', email: uniqueEmail('tom') })
    expect(refused.body).toMatchObject({ errorType: 'TRANSFER_NOT_ALLOWED', errorMessage: 'Diese Anmeldung kann nicht weitergegeben werden.' })

    const deadline = new Date(h().clock.now().getTime() + 3600_000).toISOString()
    const e = await event({ displayName: 'Konzert', allowTransfer: true, transferUntil: deadline })
    expect((await admin.get(`/proxy/api/events/${e.id}`)).body).toMatchObject({ allowTransfer: true, transferUntil: deadline })
    const { guest, visitorId, email } = await registered(e.id)
    const dash = (await guest.get('/proxy/api/guest/events')).body
    expect(dash.confirmedEvents[0]).toMatchObject({ canTransfer: true, transferUntil: deadline })
    const ticket = await guest.get(`/proxy/api/guest/events/visitors/${visitorId}/ticket`)
    const oldRow = await h().ctx.db.selectFrom('event_visitor').selectAll().where('id', '=', visitorId).executeTakeFirstOrThrow()
    expect((await guest.post(`/proxy/api/guest/events/visitors/${visitorId}/transfer`, { firstName: 'Tom', lastName: 'Neu', email })).body.errorFields).toEqual([{ field: 'email', errorType: 'TRANSFER_SAME_PERSON' }])
    expect((await guest.post(`/proxy/api/guest/events/visitors/${visitorId}/transfer`, { firstName: '', lastName: 'Neu', email: 'kaputt' })).body.errorFields).toEqual([
      { field: 'firstName', errorType: 'REQUIRED' },
      { field: 'email', errorType: 'INVALID_EMAIL' },
    ])
    const other = await registered(e.id)
    expect((await other.guest.post(`/proxy/api/guest/events/visitors/${visitorId}/transfer`, { firstName: 'Tom', lastName: 'Neu', email: uniqueEmail('x') })).status).toBe(404)
    expect((await guest.post(`/proxy/api/guest/events/visitors/${visitorId}/transfer`, { firstName: 'Tom', lastName: 'Neu', email: other.email })).body.errorType).toBe('ALREADY_REGISTERED')

    const tom = uniqueEmail('tom')
    const t = await guest.post(`/proxy/api/guest/events/visitors/${visitorId}/transfer`, { firstName: 'Tom', lastName: 'Neu', email: tom })
    expect(t.status).toBe(200)
    expect(t.body).toEqual({ id: visitorId, firstName: 'Tom', lastName: 'Neu', email: tom })
    const row = await h().ctx.db.selectFrom('event_visitor').selectAll().where('id', '=', visitorId).executeTakeFirstOrThrow()
    expect(row.download_token).not.toBe(oldRow.download_token)
    expect(row.event_token).not.toBe(oldRow.event_token)
    expect(row.ticket_code).toBeNull()
    expect(await seats(h(), e.id)).toBe(2)
    // the old guest no longer reaches it; the old ticket code no longer exists
    expect((await guest.get(`/proxy/api/guest/events/visitors/${visitorId}/details`)).status).toBe(404)
    expect((await guest.get('/proxy/api/guest/events')).body.confirmedEvents).toEqual([])
    const oldCode = ticket.status === 200 ? String(ticket.body.ticketCode).replace('-', '') : null
    if (oldCode) expect(await h().ctx.db.selectFrom('event_visitor').select('id').where('ticket_code', '=', oldCode).executeTakeFirst()).toBeUndefined()
    // both get a mail; the new guest's link opens the registration with a new ticket
    const away = await mailTo(email, (m) => m.subject === 'Ihr Platz bei „Konzert“ wurde weitergegeben')
    expect(away.text).toContain('an Tom Neu weitergegeben')
    const to = await mailTo(tom, (m) => m.subject === 'Ein Platz bei „Konzert“ für Sie')
    expect(to.text).toContain('Grete Gast hat Ihnen einen Platz')
    // issue 20 item 22: both open with a greeting, never with a raw catalogue key
    expect(away.text).toMatch(/(Guten Tag|Sehr geehrte) .*Gast,/)
    expect(to.text).toContain('Guten Tag Tom Neu,')
    for (const m of [away, to]) expect(m.text).not.toContain('registration.mail.greeting')
    const tomAgent = h().agent()
    tomAgent.headers['x-guest-token'] = new URL(linkIn(to, '/guest/dashboard?token=')).searchParams.get('token')!
    expect((await tomAgent.get(`/proxy/api/guest/events/visitors/${visitorId}/details`)).body).toMatchObject({ name: 'Tom Neu', status: 'CONFIRMED' })
    const newTicket = await tomAgent.get(`/proxy/api/guest/events/visitors/${visitorId}/ticket`)
    if (oldCode) expect(String(newTicket.body.ticketCode).replace('-', '')).not.toBe(oldCode)
    // the organiser's history
    const detail = await admin.get(`/proxy/api/events/${e.id}/visitors/${visitorId}`)
    expect(detail.body.transfers).toMatchObject([{ from: { firstName: 'Grete', lastName: 'Gast', email }, to: { firstName: 'Tom', lastName: 'Neu', email: tom } }])
    // after the deadline: TRANSFER_CLOSED
    h().clock.advance(2 * 3600_000)
    const late = await tomAgent.post(`/proxy/api/guest/events/visitors/${visitorId}/transfer`, { firstName: 'Ida', lastName: 'Spät', email: uniqueEmail('ida') })
    expect(late.body).toMatchObject({ errorType: 'TRANSFER_CLOSED', errorMessage: 'Die Frist zum Weitergeben des Platzes ist abgelaufen.' })
    h().clock.advance(-2 * 3600_000)
  })

  test('a place cannot be passed on to an address of an organiser account (any agency): 409 USER_HAS_ACCOUNT like the access link; nothing changes, nobody is mailed', async () => {
    const e = await event({ displayName: 'Firmenfeier', allowTransfer: true })
    const { guest, visitorId, email } = await registered(e.id)
    const staff = await h().admin({ agency: 'Andere Agentur' })
    const own = (admin as unknown as { email: string }).email
    for (const to of [own, staff.email, staff.email.toUpperCase()]) {
      const r = await guest.post(`/proxy/api/guest/events/visitors/${visitorId}/transfer`, { firstName: 'Olga', lastName: 'Orga', email: to })
      expect(r.status).toBe(409)
      expect(r.body).toMatchObject({ errorType: 'USER_HAS_ACCOUNT', errorMessage: 'Zu dieser E-Mail-Adresse gibt es ein Benutzerkonto. Bitte melden Sie sich mit Ihrem Passwort an.', errorFields: [{ field: 'email', errorType: 'USER_HAS_ACCOUNT' }] })
    }
    // the access link answers the same for that address
    expect((await h().request('POST', '/proxy/api/public/visitor/resendMail', { body: { email: staff.email } })).body.errorType).toBe('USER_HAS_ACCOUNT')
    const row = await h().ctx.db.selectFrom('event_visitor').select(['email', 'user_id']).where('id', '=', visitorId).executeTakeFirstOrThrow()
    expect(row.email).toBe(email)
    expect(await h().ctx.db.selectFrom('visitor_transfer').select('id').where('visitor_id', '=', visitorId).execute()).toEqual([])
    expect(await h().ctx.db.selectFrom('mail_outbox').select('id').where('to_address', 'in', [own, staff.email]).where('kind', '=', 'VISITOR_TRANSFERRED_TO').execute()).toEqual([])
  })
}, { license: licenseWith([], { events: -1 }) })
