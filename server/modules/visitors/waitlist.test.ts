// The organiser side of the waiting list on both dialects: moving a guest up takes the event places
// and the registration's choices again or changes nothing, one free place goes to exactly one of two
// concurrent move-ups, decline and delete from the waiting list, positions and the list's hint.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect, uniqueEmail } from '../../testing/harness'
import { createEvent, licenseWith } from '../../testing/organiser'

let n = 0
const ident = () => `browser${Date.now().toString(36)}${(n++).toString(36)}`

forEachDialect('waiting list: the organiser decides', (h) => {
  let admin: Agent & { agencyId: number }
  test('setup', async () => {
    admin = await h().admin()
  })

  /** An event with `places` places and a waiting list, and optionally a defined value and a timeslot of one place each. */
  async function fullEvent(places: number, withChoices = false) {
    const e = await createEvent(admin, { maxVisitors: places, displayName: 'Kochkurs' })
    expect((await admin.put(`/proxy/api/events/${e.id}/form-settings`, { waitingList: true })).status).toBe(200)
    if (!withChoices) return { eventId: e.id as number, valueField: 0, valueId: 0, slotField: 0, slotId: 0 }
    const ws = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'SMARTLIST', displayName: 'Menü', definedValues: [{ displayName: 'Fisch', capacity: 1 }] })
    const ts = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'TIMESLOT', displayName: 'Kochplatz', timeslots: [{ displayName: '10:00', capacity: 1 }] })
    expect([ws.status, ts.status]).toEqual([201, 201])
    return { eventId: e.id as number, valueField: ws.body.id as number, valueId: ws.body.definedValues[0].id as number, slotField: ts.body.id as number, slotId: ts.body.timeslots[0].id as number }
  }
  type Ev = Awaited<ReturnType<typeof fullEvent>>

  /** A public registration; with choices it picks the defined value and reserves the timeslot first. */
  async function register(ev: Ev, opts: { email?: string; choices?: boolean } = {}) {
    const id = ident()
    const fields: Record<string, unknown> = {}
    if (opts.choices) {
      fields[ev.valueField] = [{ fieldValueId: ev.valueId, amount: 1 }]
      const res = await h().request('POST', '/api/public/reservation/timeslot', { body: { timeslotId: ev.slotId, identification: id, amount: 1, registrationChange: false } })
      expect(res.status).toBe(200)
      fields[ev.slotField] = [{ timeslotId: ev.slotId, amount: 1, reservationToken: res.body.reservationToken }]
    }
    const r = await h().request('POST', `/api/public/events/${ev.eventId}/registrations`, {
      body: { salutation: 'Frau', firstName: 'Wanda', lastName: 'Warte', email: opts.email ?? uniqueEmail('wl'), identification: id, fields },
    })
    expect(r.status === 201 ? 201 : r.text).toBe(201)
    return { id: r.body.visitorId as number, status: r.body.status as string }
  }

  const counts = async (ev: Ev) => {
    const db = h().ctx.db
    const e = await db.selectFrom('event').select('seats_taken').where('id', '=', ev.eventId).executeTakeFirstOrThrow()
    const held = await db.selectFrom('event_visitor').select((eb) => eb.fn.sum<number>('seats_held').as('n')).where('event_id', '=', ev.eventId).executeTakeFirst()
    // the invariant every transition keeps
    expect(Number(held?.n ?? 0)).toBe(e.seats_taken)
    const value = ev.valueId ? (await db.selectFrom('field_value').select('taken').where('id', '=', ev.valueId).executeTakeFirstOrThrow()).taken : 0
    const slot = ev.slotId ? (await db.selectFrom('timeslot').select('taken').where('id', '=', ev.slotId).executeTakeFirstOrThrow()).taken : 0
    return { seats: e.seats_taken, value, slot }
  }
  const act = (ev: Ev, vid: number, action: string, body: Record<string, unknown> = {}) => admin.post(`/proxy/api/events/${ev.eventId}/visitors/${vid}/${action}`, body)
  const statusOf = async (vid: number) => (await h().ctx.db.selectFrom('event_visitor').select(['status', 'seats_held']).where('id', '=', vid).executeTakeFirstOrThrow())
  const fixedSlots = async (vid: number) => Number((await h().ctx.db.selectFrom('timeslot_reservation').select((eb) => eb.fn.countAll<number>().as('n')).where('visitor_id', '=', vid).executeTakeFirstOrThrow()).n)
  async function mailTo(email: string, subject: string) {
    for (let i = 0; i < 50 && !h().smtp.mails.some((m) => m.to.includes(email) && m.subject === subject); i++) await h().deliverMail()
    return h().smtp.waitFor((m) => m.to.includes(email) && m.subject === subject)
  }

  test('moving up takes the event place, the defined value and the timeslot again; the guest is told they got a place', async () => {
    const ev = await fullEvent(1, true)
    const first = await register(ev)
    const email = uniqueEmail('nachruecker')
    const w = await register(ev, { email, choices: true })
    expect(w.status).toBe('WAITING_LIST')
    // the waiting guest's choices are stored although they hold nothing
    const stored = await h().ctx.db.selectFrom('visitor_field_value').select('field_id').where('visitor_id', '=', w.id).execute()
    expect(stored.map((s) => s.field_id).sort()).toEqual([ev.valueField, ev.slotField].sort())
    expect(await counts(ev)).toEqual({ seats: 1, value: 0, slot: 0 })
    // no free place yet: refused, nothing changes
    const full = await act(ev, w.id, 'approve')
    expect(full.status).toBe(409)
    expect(full.body).toMatchObject({ errorType: 'EVENT_FULL', errorMessage: 'Die Veranstaltung ist leider ausgebucht.' })
    expect(await statusOf(w.id)).toEqual({ status: 'WAITING_LIST', seats_held: 0 })
    // a place becomes free: nobody moves up on their own
    expect((await act(ev, first.id, 'decline', { notify: false })).body.status).toBe('DECLINED')
    expect(await statusOf(w.id)).toEqual({ status: 'WAITING_LIST', seats_held: 0 })
    const list = await admin.post(`/proxy/api/events/${ev.eventId}/visitors/search`, {})
    expect(list.body.waitingList).toEqual({ count: 1, freePlaces: 1 })
    const up = await act(ev, w.id, 'approve')
    expect(up.status).toBe(200)
    expect(up.body).toMatchObject({ status: 'CONFIRMED', seatsHeld: 1, waitingListPosition: null })
    expect(await counts(ev)).toEqual({ seats: 1, value: 1, slot: 1 })
    expect(await fixedSlots(w.id)).toBe(1)
    const mail = await mailTo(email, 'Ein Platz ist frei geworden: Kochkurs')
    expect(mail.text).toContain('von der Warteliste nachgerückt')
    expect((await admin.post(`/proxy/api/events/${ev.eventId}/visitors/search`, {})).body.waitingList).toEqual({ count: 0, freePlaces: 0 })
    // declining the moved-up guest gives everything back again
    await act(ev, w.id, 'decline', { notify: false })
    expect(await counts(ev)).toEqual({ seats: 0, value: 0, slot: 0 })
  })

  test('a choice no longer free refuses the move-up with FIELD_ERROR; nothing changes, not even the event places', async () => {
    for (const gone of ['value', 'slot'] as const) {
      const ev = await fullEvent(1, true)
      const first = await register(ev)
      const w = await register(ev, { choices: true })
      await act(ev, first.id, 'delete')
      expect(await counts(ev)).toEqual({ seats: 0, value: 0, slot: 0 })
      // someone else (admin mode, event places are free again) takes the value or the slot
      const other = await admin.post(`/proxy/api/events/${ev.eventId}/registrations`, {
        salutation: 'Herr',
        firstName: 'Otto',
        lastName: 'Other',
        email: uniqueEmail('other'),
        sendMail: false,
        fields: gone === 'value' ? { [ev.valueField]: [{ fieldValueId: ev.valueId, amount: 1 }] } : { [ev.slotField]: [{ timeslotId: ev.slotId, amount: 1 }] },
      })
      expect(other.status === 201 ? 201 : other.text).toBe(201)
      // the other took the event's only place too: free one more so only the choice stands in the way
      await h().ctx.db.updateTable('event').set({ max_visitors: 2 }).where('id', '=', ev.eventId).execute()
      const before = await counts(ev)
      const r = await act(ev, w.id, 'approve')
      expect(r.status).toBe(409)
      expect(r.body.errorType).toBe('FIELD_ERROR')
      expect(r.body.errorFields).toEqual([{ field: `fields.${gone === 'value' ? ev.valueField : ev.slotField}`, errorType: gone === 'value' ? 'VALUE_UNAVAILABLE' : 'TIMESLOT_NOT_AVAILABLE' }])
      expect(await counts(ev)).toEqual(before)
      expect(await statusOf(w.id)).toEqual({ status: 'WAITING_LIST', seats_held: 0 })
      expect(await fixedSlots(w.id)).toBe(0)
    }
  })

  test('two concurrent move-ups for one free place: exactly one succeeds', async () => {
    const ev = await fullEvent(1)
    const first = await register(ev)
    const a = await register(ev)
    const b = await register(ev)
    expect([a.status, b.status]).toEqual(['WAITING_LIST', 'WAITING_LIST'])
    await act(ev, first.id, 'delete')
    const results = await Promise.all([act(ev, a.id, 'approve', { notify: false }), act(ev, b.id, 'approve', { notify: false })])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    expect(results.find((r) => r.status === 409)!.body.errorType).toBe('EVENT_FULL')
    expect((await counts(ev)).seats).toBe(1)
    const statuses = [(await statusOf(a.id)).status, (await statusOf(b.id)).status].sort()
    expect(statuses).toEqual(['CONFIRMED', 'WAITING_LIST'])
  })

  test('decline and delete from the waiting list; restore puts the entry back as ADDED; positions follow registration order', async () => {
    const ev = await fullEvent(1)
    await register(ev)
    const email = uniqueEmail('abgelehnt')
    const w1 = await register(ev, { email })
    h().clock.advance(1000)
    const w2 = await register(ev)
    h().clock.advance(1000)
    const w3 = await register(ev)
    const positions = async () => {
      const list = await admin.post(`/proxy/api/events/${ev.eventId}/visitors/search`, { filter: { statuses: ['WAITING_LIST'] }, sort: { field: 'lastName', direction: 'asc' } })
      expect(list.status).toBe(200)
      return Object.fromEntries(list.body.items.map((i: any) => [i.id, i.waitingListPosition]))
    }
    expect(await positions()).toEqual({ [w1.id]: 1, [w2.id]: 2, [w3.id]: 3 })
    // non-waiting rows carry no position; the detail has it too
    const all = await admin.post(`/proxy/api/events/${ev.eventId}/visitors/search`, {})
    expect(all.body.items.filter((i: any) => i.status !== 'WAITING_LIST').every((i: any) => i.waitingListPosition === null)).toBe(true)
    expect(all.body.waitingList).toEqual({ count: 3, freePlaces: 0 })
    expect((await admin.get(`/proxy/api/events/${ev.eventId}/visitors/${w2.id}`)).body.waitingListPosition).toBe(2)

    const no = await act(ev, w1.id, 'decline', { reason: 'Leider kein Platz mehr' })
    expect(no.body).toMatchObject({ status: 'DECLINED', seatsHeld: 0, declineReason: 'Leider kein Platz mehr' })
    const mail = await mailTo(email, 'Ihre Anmeldung: Kochkurs')
    expect(mail.text).toContain('Leider kein Platz mehr')
    expect(await positions()).toEqual({ [w2.id]: 1, [w3.id]: 2 })
    const del = await act(ev, w2.id, 'delete')
    expect(del.body).toMatchObject({ status: 'DELETED', seatsHeld: 0 })
    expect(await positions()).toEqual({ [w3.id]: 1 })
    expect((await act(ev, w2.id, 'restore')).body.status).toBe('ADDED')
    // invite is not a waiting-list action
    const inv = await act(ev, w3.id, 'invite')
    expect(inv.status).toBe(409)
    expect(inv.body.errorType).toBe('STATUS_TRANSITION_NOT_ALLOWED')
    expect((await counts(ev)).seats).toBe(1)
  })

  test("the guest's dashboard shows the waiting-list position", async () => {
    const ev = await fullEvent(1)
    await register(ev)
    await register(ev)
    const email = uniqueEmail('dash')
    const w = await register(ev, { email })
    const mail = await mailTo(email, 'Sie stehen auf der Warteliste: Kochkurs')
    const token = new URL(mail.text.match(/https?:\/\/\S+token=\S+/)![0]).searchParams.get('token')!
    const guest = h().agent()
    guest.headers['x-guest-token'] = token
    const dash = await guest.get('/proxy/api/guest/events')
    expect(dash.status).toBe(200)
    expect(dash.body.openEvents.find((x: any) => x.id === w.id)).toMatchObject({ waitingListPosition: 2, registrationStatus: { status: 'WAITING_LIST' } })
  })
}, { license: licenseWith([], { events: -1 }) })
