// Holds are fair to people behind one address and refuse hoarding by one client: each visit (its
// identification) holds no more than one registration may take; one client address holds no more
// than a generous ceiling per event (EINLASS_HOLD_ADDRESS_PLACES: a company office or a mobile
// carrier puts a crowd behind one address), and makes new holds no faster than a crowd would
// (HOLD_ADDRESS, derived from the ceiling). The same for timeslots and chairs. Concurrent requests on
// both dialects: every bound is checked inside the one transaction that takes the places.
import { expect, test } from 'bun:test'
import { holdRateLimit } from '../modules/reservations/service'
import { eventBody, forEachDialect, type Harness } from '../testing/harness'
import { createEvent } from '../testing/organiser'

let n = 0
const ident = () => `madeup${Date.now().toString(36)}x${(n++).toString(36)}`

/** One area of `count` single chairs. */
const chairPlan = (count: number) => ({
  priceCategories: [{ key: 'p', displayName: 'Parkett', color: '#d9480f' }],
  areas: [{ displayName: 'Saal', chairs: Array.from({ length: count }, (_, i) => ({ label: `R${Math.floor(i / 10) + 1} ${(i % 10) + 1}`, priceCategory: 'p', percentX: (i % 10) * 9 + 1, percentY: Math.floor(i / 10) * 9 + 1, percentWidth: 2, percentHeight: 3 })) }],
})

function helpers(h: () => Harness) {
  async function slotField(field: Record<string, unknown>) {
    const admin = await h().admin()
    const ev = await admin.post('/proxy/api/events', eventBody({ maxVisitors: null }))
    const f = await admin.post(`/proxy/api/events/${ev.body.id}/fields`, { type: 'TIMESLOT', displayName: 'Zeitfenster', ...field })
    expect(f.status).toBe(201)
    return { eventId: ev.body.id as number, slots: f.body.timeslots.map((s: any) => s.id) as number[] }
  }
  async function chairs(count: number) {
    const admin = await h().admin()
    const event = await createEvent(admin, { maxVisitors: null })
    const saved = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, chairPlan(count))
    expect(saved.status).toBe(200)
    return { eventId: event.id as number, chairs: saved.body.areas[0].chairs.map((c: any) => c.id) as number[] }
  }
  const reserve = (from: string, body: Record<string, unknown>) => h().request('POST', '/api/public/reservation/timeslot', { body, headers: { 'x-forwarded-for': from } })
  const reserveChair = (from: string, eventId: number, body: Record<string, unknown>) =>
    h().request('POST', `/api/public/events/${eventId}/seatingplan/reservation/chair`, { body: { amount: 1, ...body }, headers: { 'x-forwarded-for': from } })
  const taken = async (id: number) => (await h().ctx.db.selectFrom('timeslot').select('taken').where('id', '=', id).executeTakeFirstOrThrow()).taken
  const chairsTaken = async (eventId: number) => (await h().ctx.db.selectFrom('seating_chair').select('taken').where('event_id', '=', eventId).execute()).reduce((s, c) => s + c.taken, 0)
  return { slotField, chairs, reserve, reserveChair, taken, chairsTaken }
}

forEachDialect('holds: a crowd behind one address, a scripted client', (h) => {
  const { slotField, chairs, reserve, reserveChair, taken, chairsTaken } = helpers(h)

  test('80 guests behind one office address reserve 50 timeslot places at once: all 50 are held', async () => {
    const { slots } = await slotField({ timeslots: [{ displayName: '10:00', capacity: 50 }] })
    const results = await Promise.all(Array.from({ length: 80 }, () => reserve('198.51.100.5', { timeslotId: slots[0], identification: ident(), amount: 1 })))
    expect(results.filter((r) => r.status === 200).length).toBe(50)
    const refused = results.filter((r) => r.status !== 200)
    expect(refused.every((r) => r.status === 409 && r.body.errorType === 'TIMESLOT_NOT_AVAILABLE' && r.body.freeSlots === 0)).toBe(true)
    expect(await taken(slots[0])).toBe(50)
  })

  test('a crowd behind one address holds every chair of a 70-chair plan', async () => {
    const { eventId, chairs: ids } = await chairs(70)
    const results = await Promise.all(ids.map((chairId) => reserveChair('198.51.100.6', eventId, { chairId, identification: ident() })))
    expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([])
    expect(await chairsTaken(eventId)).toBe(70)
  })

  test('one scripted client (one identification) holds one place of a single-choice field, however many requests it sends at once', async () => {
    const { slots } = await slotField({ timeslots: [{ displayName: 'A', capacity: 40 }, { displayName: 'B', capacity: 40 }] })
    const me = ident()
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => reserve('203.0.113.7', { timeslotId: slots[i % 2], identification: me, amount: 1 })))
    expect(results.filter((r) => r.status === 200).length).toBe(1)
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.errorType === 'TIMESLOT_NOT_RESERVED')).toBe(true)
    expect((await taken(slots[0])) + (await taken(slots[1]))).toBe(1)
  })

  test('one identification holds at most maxPerGuest over the slots of a field', async () => {
    const { slots } = await slotField({ multiple: true, amountSelection: true, maxPerGuest: 3, timeslots: [{ displayName: 'A', capacity: 50 }, { displayName: 'B', capacity: 50 }] })
    const me = ident()
    await Promise.all(Array.from({ length: 30 }, (_, i) => reserve('203.0.113.9', { timeslotId: slots[i % 2], identification: me, amount: 1 + (i % 2) })))
    const held = (await taken(slots[0])) + (await taken(slots[1]))
    expect(held).toBeLessThanOrEqual(3)
    expect(held).toBeGreaterThanOrEqual(1)
  })

  test('one identification holds at most the chairs one registration may take (10 without maxVisitorPerSubscription)', async () => {
    const { eventId, chairs: ids } = await chairs(30)
    const me = ident()
    const results = await Promise.all(ids.map((chairId) => reserveChair('203.0.113.10', eventId, { chairId, identification: me })))
    expect(results.filter((r) => r.status === 200).length).toBe(10)
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.errorType === 'SEAT_MAX_REACHED')).toBe(true)
    expect(await chairsTaken(eventId)).toBe(10)
  })
})

forEachDialect(
  'holds: the ceiling of one address (EINLASS_HOLD_ADDRESS_PLACES=6)',
  (h) => {
    const { slotField, chairs, reserve, reserveChair, taken, chairsTaken } = helpers(h)

    test('made-up identifications from one address hold at most the ceiling of an event; another address and another event are not affected', async () => {
      const { slots } = await slotField({ timeslots: [{ displayName: '10:00', capacity: 40 }] })
      const results = await Promise.all(Array.from({ length: 20 }, () => reserve('192.0.2.10', { timeslotId: slots[0], identification: ident(), amount: 1 })))
      expect(results.filter((r) => r.status === 200).length).toBe(6)
      expect(results.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.errorType === 'TIMESLOT_NOT_RESERVED')).toBe(true)
      expect(await taken(slots[0])).toBe(6)
      expect((await reserve('192.0.2.11', { timeslotId: slots[0], identification: ident(), amount: 1 })).status).toBe(200)
      const other = await slotField({ timeslots: [{ displayName: '11:00', capacity: 40 }] })
      expect((await reserve('192.0.2.10', { timeslotId: other.slots[0], identification: ident(), amount: 1 })).status).toBe(200)
    })

    test('amounts count: 2 + 2 + 2 fill the ceiling, a further place is refused', async () => {
      const { slots } = await slotField({ amountSelection: true, timeslots: [{ displayName: 'A', capacity: 40 }] })
      for (let i = 0; i < 3; i++) expect((await reserve('192.0.2.12', { timeslotId: slots[0], identification: ident(), amount: 2 })).status).toBe(200)
      expect((await reserve('192.0.2.12', { timeslotId: slots[0], identification: ident(), amount: 1 })).body.errorType).toBe('TIMESLOT_NOT_RESERVED')
      expect(await taken(slots[0])).toBe(6)
    })

    test('chairs: made-up identifications from one address hold at most the ceiling of a plan', async () => {
      const { eventId, chairs: ids } = await chairs(20)
      const results = await Promise.all(ids.map((chairId) => reserveChair('192.0.2.20', eventId, { chairId, identification: ident() })))
      expect(results.filter((r) => r.status === 200).length).toBe(6)
      expect(results.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.errorType === 'SEAT_NOT_RESERVED')).toBe(true)
      expect(await chairsTaken(eventId)).toBe(6)
      const fromElsewhere = await Promise.all(ids.slice(0, 20).map((chairId) => reserveChair('192.0.2.21', eventId, { chairId, identification: ident() })))
      expect(fromElsewhere.filter((r) => r.status === 200).length).toBe(6)
      expect(await chairsTaken(eventId)).toBe(12)
    })

    test(`new holds per address are rate limited (${holdRateLimit(6).max} per ${holdRateLimit(6).windowMs / 60_000} minutes with this ceiling), for timeslots and chairs together`, async () => {
      const { slots } = await slotField({ timeslots: [{ displayName: 'A', capacity: 40 }] })
      const { max } = holdRateLimit(6)
      const statuses: number[] = []
      // each hold is given back at once: the ceiling never bites, only the rate does
      for (let i = 0; i <= max; i++) {
        const me = ident()
        const r = await reserve('192.0.2.30', { timeslotId: slots[0], identification: me, amount: 1 })
        statuses.push(r.status)
        if (r.status === 200) await h().request('DELETE', '/api/public/reservation/timeslot', { body: { reservationToken: r.body.reservationToken } })
      }
      expect(statuses.slice(0, max).every((s) => s === 200)).toBe(true)
      expect(statuses[max]).toBe(429)
      expect(await taken(slots[0])).toBe(0)
      const { eventId, chairs: ids } = await chairs(2)
      expect((await reserveChair('192.0.2.30', eventId, { chairId: ids[0], identification: ident() })).status).toBe(429)
      // the limit is the address's, not everyone's
      expect((await reserve('192.0.2.31', { timeslotId: slots[0], identification: ident(), amount: 1 })).status).toBe(200)
    })
  },
  { env: { EINLASS_HOLD_ADDRESS_PLACES: '6' } },
)
