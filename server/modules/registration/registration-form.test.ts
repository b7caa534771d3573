// Registration through an event's configured form on both dialects: field values stored, escorts,
// conditions, defined-value capacity, waiting list, admin mode, lockBasicData, confirmation mail.
import { expect, test } from 'bun:test'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'

forEachDialect('registration with a form', (h) => {
  async function setup(event: Record<string, unknown> = {}) {
    const admin = await h().admin()
    const ev = await admin.post('/proxy/api/events', eventBody(event))
    expect(ev.status).toBe(201)
    const eventId = ev.body.id as number
    const add = async (f: Record<string, unknown>) => {
      const r = await admin.post(`/proxy/api/events/${eventId}/fields`, f)
      expect(r.status).toBe(201)
      return r.body
    }
    const fields = async () => (await admin.get(`/proxy/api/events/${eventId}/fields`)).body.fields as any[]
    return { admin, eventId, add, fields }
  }
  const basics = (email = uniqueEmail('form')) => ({ salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email })
  /** delivers the outbox until the guest's mail arrived (other tests queue many mails) */
  async function mailTo(email: string) {
    for (let i = 0; i < 50 && !h().smtp.mails.some((m) => m.to.includes(email)); i++) await h().deliverMail()
    return h().smtp.waitFor((m) => m.to.includes(email))
  }
  /** the concurrency tests queue many confirmations nobody reads */
  const dropPendingMail = () => h().ctx.db.deleteFrom('mail_outbox').where('status', '=', 'PENDING').execute()
  const registerAt = (eventId: number, body: unknown) => h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body })

  test('field values are stored per field and readable by the organiser; the mail lists the answers', async () => {
    const { admin, eventId, add } = await setup()
    const phone = await add({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'PHONE_NUMBER', displayName: 'Telefon', appearance: 'REQUIRED' })
    const company = await add({ type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'COMPANY', displayName: 'Firma' })
    const country = await add({ type: 'COUNTRY', displayName: 'Land' })
    const diet = await add({ type: 'LIST', displayName: 'Essen', values: ['Fleisch', 'Vegetarisch'], customValue: true })
    const email = uniqueEmail('answers')
    const r = await registerAt(eventId, {
      ...basics(email),
      fields: { [phone.id]: '030 1234567', [company.id]: ' ACME ', [country.id]: 'AUT', [diet.id]: { selected: ['Vegetarisch'], custom: null } },
    })
    expect(r.status).toBe(201)
    const v = await h().ctx.db.selectFrom('event_visitor').selectAll().where('id', '=', r.body.visitorId).executeTakeFirstOrThrow()
    expect(v).toMatchObject({ phone_number: '+49301234567', company: 'ACME', first_name: 'Grete' })
    const read = await admin.get(`/proxy/api/events/${eventId}/visitors/${r.body.visitorId}/fields`)
    expect(read.status).toBe(200)
    expect(read.body.map((x: any) => [x.eventField, x.data])).toEqual([
      [phone.id, '+49301234567'],
      [company.id, 'ACME'],
      [country.id, 'Österreich'],
      [diet.id, 'Vegetarisch'],
    ])
    const mail = await mailTo(email)
    expect(mail.text).toContain('Land: Österreich')
    expect(mail.text).toContain('Essen: Vegetarisch')
  })

  test('FIELD_ERROR lists the missing fields by key and display name; nothing is stored', async () => {
    const { eventId, add } = await setup()
    const q = await add({ type: 'TEXT', displayName: 'Lieblingsfarbe', appearance: 'REQUIRED' })
    const r = await registerAt(eventId, { ...basics(), firstName: '', fields: {} })
    expect(r.status).toBe(400)
    expect(r.body.errorType).toBe('FIELD_ERROR')
    expect(r.body.errorMessage).toBe('Die Daten konnten nicht gespeichert werden. Bitte füllen Sie alle Pflichtfelder aus.')
    expect(r.body.errorFields).toEqual([
      { field: 'firstName', errorType: 'FIRST_NAME_REQUIRED' },
      { field: `fields.${q.id}`, errorType: 'REQUIRED' },
    ])
    expect(r.body.missingFields.map((m: any) => [m.id, m.displayName])).toEqual([
      [expect.any(Number), 'Vorname'],
      [q.id, 'Lieblingsfarbe'],
    ])
    const count = await h().ctx.db.selectFrom('event_visitor').select((eb) => eb.fn.countAll<number>().as('n')).where('event_id', '=', eventId).executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(0)
  })

  test('conditional fields: validated only when shown, stored only when shown', async () => {
    const { eventId, add } = await setup()
    const hotel = await add({ type: 'YES_NO', displayName: 'Hotel?', appearance: 'REQUIRED' })
    const nights = await add({ type: 'NUMBER', displayName: 'Nächte', appearance: 'REQUIRED', conditions: [{ fieldId: hotel.id, operator: 'IS_TRUE' }] })
    const no = await registerAt(eventId, { ...basics(), fields: { [hotel.id]: false, [nights.id]: 3 } })
    expect(no.status).toBe(201)
    const stored = await h().ctx.db.selectFrom('visitor_field_value').select('field_id').where('visitor_id', '=', no.body.visitorId).execute()
    expect(stored.map((s) => s.field_id)).toEqual([hotel.id])
    const yes = await registerAt(eventId, { ...basics(), fields: { [hotel.id]: true } })
    expect(yes.body.errorFields).toEqual([{ field: `fields.${nights.id}`, errorType: 'NUMBER_REQUIRED' }])
  })

  test('escort persons: their properties by appearance, maxVisitorPerSubscription, seats per person', async () => {
    const { admin, eventId, fields } = await setup({ maxVisitorPerSubscription: 3 })
    const f = await fields()
    const esc = f.find((x) => x.defaultField === 'ESCORT_ADDRESS')
    expect((await admin.put(`/proxy/api/events/${eventId}/fields/${esc.id}`, { ...esc, appearance: 'REQUIRED' })).status).toBe(200)
    const missing = await registerAt(eventId, { ...basics(), escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] })
    expect(missing.body.errorFields).toEqual([{ field: 'escortPersons.0.address', errorType: 'REQUIRED' }])
    const address = { street: 'Weg', streetNumber: '1', postCode: '10115', city: 'Berlin', country: 'DEU' }
    const tooMany = await registerAt(eventId, { ...basics(), escortPersons: [1, 2, 3].map((i) => ({ firstName: `E${i}`, lastName: 'X', address })) })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body).toMatchObject({ errorType: 'TOO_MANY_PERSONS', errorMessage: 'Pro Anmeldung sind höchstens 3 Personen erlaubt.' })
    const ok = await registerAt(eventId, { ...basics(), escortPersons: [{ firstName: 'Eva', lastName: 'Escort', address }, { firstName: 'Emil', lastName: 'Escort', address }] })
    expect(ok.status).toBe(201)
    expect(ok.body.visitorCount).toBe(3)
    const escorts = await h().ctx.db.selectFrom('escort_person').selectAll().where('visitor_id', '=', ok.body.visitorId).orderBy('number').execute()
    expect(escorts.map((e) => [e.number, e.first_name, e.city])).toEqual([
      [1, 'Eva', 'Berlin'],
      [2, 'Emil', 'Berlin'],
    ])
    const e = await h().ctx.db.selectFrom('event').select('seats_taken').where('id', '=', eventId).executeTakeFirstOrThrow()
    expect(e.seats_taken).toBe(3)
  })

  test('defined values: capacity taken at registration, sold out refused with VALUE_UNAVAILABLE', async () => {
    const { eventId, add } = await setup()
    const ws = await add({ type: 'SMARTLIST', displayName: 'Workshop', appearance: 'REQUIRED', definedValues: [{ displayName: 'Töpfern', capacity: 1 }] })
    const valueId = ws.definedValues[0].id
    expect((await registerAt(eventId, { ...basics(), fields: { [ws.id]: [{ fieldValueId: valueId, amount: 1 }] } })).status).toBe(201)
    const pub = await h().request('GET', `/proxy/api/public/events/${eventId}/form`)
    expect(pub.body.fields.find((f: any) => f.id === ws.id).definedValues[0].freeValue).toBe(0)
    const late = await registerAt(eventId, { ...basics(), fields: { [ws.id]: [{ fieldValueId: valueId, amount: 1 }] } })
    expect(late.status).toBe(409)
    expect(late.body.errorType).toBe('FIELD_ERROR')
    expect(late.body.errorFields).toEqual([{ field: `fields.${ws.id}`, errorType: 'VALUE_UNAVAILABLE' }])
    const e = await h().ctx.db.selectFrom('event').select('seats_taken').where('id', '=', eventId).executeTakeFirstOrThrow()
    expect(e.seats_taken).toBe(1)
  })

  test('100 concurrent registrations for 20 places of a defined value: exactly 20', async () => {
    const { eventId, add } = await setup({ maxVisitors: null })
    const ws = await add({ type: 'SMARTLIST', displayName: 'Workshop', appearance: 'REQUIRED', definedValues: [{ displayName: 'Töpfern', capacity: 20 }] })
    const valueId = ws.definedValues[0].id
    const results = await Promise.all(Array.from({ length: 100 }, () => registerAt(eventId, { ...basics(), fields: { [ws.id]: [{ fieldValueId: valueId, amount: 1 }] } })))
    expect(results.filter((r) => r.status === 201).length).toBe(20)
    const v = await h().ctx.db.selectFrom('field_value').select('taken').where('id', '=', valueId).executeTakeFirstOrThrow()
    expect(v.taken).toBe(20)
    await dropPendingMail()
  })

  test('100 concurrent registrations for 30 event places: exactly 30', async () => {
    const { eventId } = await setup({ maxVisitors: 30 })
    const results = await Promise.all(Array.from({ length: 100 }, () => registerAt(eventId, basics())))
    expect(results.filter((r) => r.status === 201).length).toBe(30)
    expect(results.filter((r) => r.status === 409).every((r) => r.body.errorType === 'EVENT_FULL')).toBe(true)
    await dropPendingMail()
  })

  test('waiting list when full: WAITING_LIST without a place, its own mail and text', async () => {
    const { admin, eventId } = await setup({ maxVisitors: 1 })
    await admin.put(`/proxy/api/events/${eventId}/form-settings`, { waitingList: true })
    expect((await registerAt(eventId, basics())).body.status).toBe('CONFIRMED')
    const email = uniqueEmail('wait')
    const w = await registerAt(eventId, basics(email))
    expect(w.status).toBe(201)
    expect(w.body.status).toBe('WAITING_LIST')
    const v = await h().ctx.db.selectFrom('event_visitor').select(['status', 'seats_held']).where('id', '=', w.body.visitorId).executeTakeFirstOrThrow()
    expect(v).toEqual({ status: 'WAITING_LIST', seats_held: 0 })
    const mail = await mailTo(email)
    expect(mail.subject).toBe('Sie stehen auf der Warteliste: Sommerfest')
    const list = await admin.get(`/proxy/api/events/${eventId}/visitors`)
    expect(list.body.items.map((i: any) => i.status).sort()).toEqual(['CONFIRMED', 'WAITING_LIST'])
  })

  test('REQUIRE_APPROVAL events hold the place and say so', async () => {
    const { eventId } = await setup({ requireApproval: true })
    const r = await registerAt(eventId, basics())
    expect(r.body.status).toBe('REQUIRE_APPROVAL')
  })

  test('admin mode: no reservations, incomplete data saved with FIELD_ERROR_WARN_BUT_SAVED, VIP conditions', async () => {
    const { admin, eventId, add } = await setup()
    const slot = await add({ type: 'TIMESLOT', displayName: 'Slot', appearance: 'REQUIRED', timeslots: [{ displayName: 'A', capacity: 1 }] })
    const vipOnly = await add({ type: 'TEXT', displayName: 'Chauffeur', appearance: 'REQUIRED', conditions: [{ fieldId: 'VIP', operator: 'IS_TRUE' }] })
    const r = await admin.post(`/proxy/api/events/${eventId}/registrations`, { firstName: 'Viktor', lastName: 'Vip', vip: true, sendMail: false, fields: { [slot.id]: [{ timeslotId: slot.timeslots[0].id, amount: 1 }] } })
    expect(r.status).toBe(202)
    expect(r.body).toMatchObject({ errorType: 'FIELD_ERROR_WARN_BUT_SAVED', errorMessage: 'Die Daten wurden gespeichert, aber einige Angaben sind unvollständig.', status: 202, visitorStatus: 'CONFIRMED' })
    expect(r.body.errorFields).toEqual([
      { field: 'salutation', errorType: 'SALUTATION_REQUIRED' },
      { field: 'email', errorType: 'REQUIRED' },
      { field: `fields.${vipOnly.id}`, errorType: 'REQUIRED' },
    ])
    const v = await h().ctx.db.selectFrom('event_visitor').select(['vip', 'source', 'email']).where('id', '=', r.body.visitorId).executeTakeFirstOrThrow()
    expect(v).toEqual({ vip: 1, source: 'ADMIN', email: null })
    // the slot's place is taken without a timed reservation; the next one is refused
    const held = await h().ctx.db.selectFrom('timeslot_reservation').select(['fixed', 'visitor_id']).where('timeslot_id', '=', slot.timeslots[0].id).execute()
    expect(held).toEqual([{ fixed: 1, visitor_id: r.body.visitorId }])
    const full = await admin.post(`/proxy/api/events/${eventId}/registrations`, { ...basics(), fields: { [slot.id]: [{ timeslotId: slot.timeslots[0].id, amount: 1 }] } })
    expect(full.status).toBe(409)
    expect(full.body.errorFields).toEqual([{ field: `fields.${slot.id}`, errorType: 'TIMESLOT_NOT_AVAILABLE' }])
    // invalid values still refuse in admin mode
    const bad = await admin.post(`/proxy/api/events/${eventId}/registrations`, { ...basics(), email: 'kaputt' })
    expect(bad.status).toBe(400)
    // a guest cannot use the admin call
    expect((await h().request('POST', `/proxy/api/events/${eventId}/registrations`, { body: basics() })).status).toBe(401)
  })

  test('admin mode works while public registration is closed', async () => {
    const { admin, eventId } = await setup({ registrationUntil: new Date(Date.now() - 60_000).toISOString() })
    expect((await registerAt(eventId, basics())).body.errorType).toBe('REGISTRATION_CLOSED')
    expect((await admin.post(`/proxy/api/events/${eventId}/registrations`, { ...basics(), sendMail: false })).status).toBe(201)
  })

  test('registration windows: not open yet', async () => {
    const { eventId } = await setup({ useDate: true, registrationFrom: new Date(Date.now() + 86400_000).toISOString() })
    const r = await registerAt(eventId, basics())
    expect(r.status).toBe(409)
    expect(r.body).toMatchObject({ errorType: 'REGISTRATION_NOT_OPEN', errorMessage: 'Die Anmeldung ist noch nicht geöffnet.' })
  })

  test('lockBasicData: a known guest\'s valid account data wins over what the form sends', async () => {
    const { admin, eventId } = await setup()
    const email = uniqueEmail('known')
    // the guest registers once elsewhere and gets an access link
    const first = await admin.post('/proxy/api/events', eventBody({ displayName: 'Vorher' }))
    expect((await registerAt(first.body.id, basics(email))).status).toBe(201)
    const mail = await mailTo(email)
    const token = new URL(/https?:\/\/\S+token=[^\s"<]+/.exec(mail.text)![0]).searchParams.get('token')!
    const user = await h().ctx.db.selectFrom('app_user').select('id').where('email', '=', email).executeTakeFirstOrThrow()
    await h().ctx.db.insertInto('account').values({ user_id: user.id, agency_id: admin.agencyId, user_role: 'CP_PERSOO_VISITOR_GUEST', first_name: 'Konto', last_name: 'Name', salutation: 'Herr' }).execute()
    await h().ctx.db.updateTable('event').set({ lock_basic_data: true }).where('id', '=', eventId).execute()
    const pre = await h().request('GET', `/proxy/api/public/events/${eventId}/prefill`, { headers: { 'x-guest-token': token } })
    expect(pre.status).toBe(200)
    expect(pre.body.locked.sort()).toEqual(['email', 'firstName', 'lastName', 'salutation'])
    const r = await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: { ...basics('other@example.org'), firstName: 'Anders' }, headers: { 'x-guest-token': token } })
    expect(r.status).toBe(201)
    const v = await h().ctx.db.selectFrom('event_visitor').select(['first_name', 'last_name', 'salutation', 'email']).where('id', '=', r.body.visitorId).executeTakeFirstOrThrow()
    expect(v).toEqual({ first_name: 'Konto', last_name: 'Name', salutation: 'Herr', email })
    expect((await h().request('GET', `/proxy/api/public/events/${eventId}/prefill`)).body).toEqual({ values: {}, locked: [] })
  })
})
