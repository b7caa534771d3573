// Issue 10 item 10: leaving the form keeps no stale holds. The form's pagehide beacon reaches the
// POST alias of the DELETE reservation call; a registration refused for good (here: the e-mail is
// already registered) gives this visit's timed holds back at once.
import { expect, test } from 'bun:test'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'

let n = 0
const ident = () => `leave${Date.now().toString(36)}${(n++).toString(36)}`

forEachDialect('releasing holds when the form is left or refused', (h) => {
  async function setup() {
    const admin = await h().admin()
    const ev = (await admin.post('/proxy/api/events', eventBody())).body
    const f = (await admin.post(`/proxy/api/events/${ev.id}/fields`, { type: 'TIMESLOT', displayName: 'Führung', appearance: 'REQUIRED', timeslots: [{ displayName: '10:00', capacity: 1 }] })).body
    return { eventId: ev.id as number, field: f, slot: f.timeslots[0].id as number }
  }
  const reserve = (timeslotId: number, identification: string) => h().request('POST', '/api/public/reservation/timeslot', { body: { timeslotId, identification, amount: 1 } })
  const free = async (eventId: number, slot: number) => (await h().request('POST', '/api/public/reservation/availabilities', { body: { eventId } })).body[slot]

  test('the beacon alias releases every timed hold of the visit (and only those)', async () => {
    const { eventId, slot } = await setup()
    const id = ident()
    expect((await reserve(slot, id)).status).toBe(200)
    expect(await free(eventId, slot)).toBe(0)
    const other = await h().request('POST', '/proxy/api/public/reservation/timeslot/release', { body: { deleteAllTimed: true, identification: ident() } })
    expect(other.body).toEqual({ deleted: 0 })
    expect(await free(eventId, slot)).toBe(0)
    const r = await h().request('POST', '/proxy/api/public/reservation/timeslot/release', { body: { deleteAllTimed: true, identification: id } })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ deleted: 1 })
    expect(await free(eventId, slot)).toBe(1)
    const bad = await h().request('POST', '/proxy/api/public/reservation/timeslot/release', { body: { deleteAllTimed: true } })
    expect(bad.status).toBe(400)
  })

  test('a refused duplicate registration gives its hold back; a fixable refusal keeps it', async () => {
    const { eventId, field, slot } = await setup()
    const email = uniqueEmail('twice')
    const body = (identification: string, token: string) => ({ salutation: 'Frau', firstName: 'Anna', lastName: 'Becker', email, identification, fields: { [field.id]: [{ timeslotId: slot, amount: 1, reservationToken: token }] } })
    // a first registration without the slot would be refused (required): the hold stays for the retry
    const id1 = ident()
    const hold1 = await reserve(slot, id1)
    const missing = await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: { ...body(id1, hold1.body.reservationToken), firstName: '' } })
    expect(missing.status).toBe(400)
    expect(await free(eventId, slot)).toBe(0)
    expect((await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: body(id1, hold1.body.reservationToken) })).status).toBe(201)

    // the slot has one more place now; the same e-mail again (another visit) is refused and releases
    await h().ctx.db.updateTable('timeslot').set({ capacity: 2 }).where('id', '=', slot).execute()
    const id2 = ident()
    const hold2 = await reserve(slot, id2)
    expect(hold2.status).toBe(200)
    expect(await free(eventId, slot)).toBe(0)
    const dup = await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: body(id2, hold2.body.reservationToken) })
    expect(dup.status).toBe(409)
    expect(dup.body.errorType).toBe('ALREADY_REGISTERED')
    expect(await free(eventId, slot)).toBe(1)
  })
})
