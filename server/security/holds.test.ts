// One client cannot hold every place of a timeslot by making up identifications: holds are limited
// per identification AND per client address to what one registration may take, and hold creation is
// rate limited per address (counted in the transaction that makes the hold). Concurrent requests on
// both dialects: the limits are checked inside the one transaction that takes the places.
import { expect, test } from 'bun:test'
import { RATE_LIMITS } from '../modules/identity/rate-limit'
import { eventBody, forEachDialect } from '../testing/harness'

let n = 0
const ident = () => `madeup${Date.now().toString(36)}x${(n++).toString(36)}`

forEachDialect('holds per client', (h) => {
  async function slotField(field: Record<string, unknown>) {
    const admin = await h().admin()
    const ev = await admin.post('/proxy/api/events', eventBody({ maxVisitors: null }))
    const f = await admin.post(`/proxy/api/events/${ev.body.id}/fields`, { type: 'TIMESLOT', displayName: 'Zeitfenster', ...field })
    expect(f.status).toBe(201)
    return { eventId: ev.body.id as number, slots: f.body.timeslots.map((s: any) => s.id) as number[] }
  }
  const reserve = (from: string, body: Record<string, unknown>) => h().request('POST', '/api/public/reservation/timeslot', { body, headers: { 'x-forwarded-for': from } })
  const taken = async (id: number) => (await h().ctx.db.selectFrom('timeslot').select('taken').where('id', '=', id).executeTakeFirstOrThrow()).taken

  test('single choice: 40 made-up identifications from one address at once hold one place; another client still gets one', async () => {
    const { slots } = await slotField({ timeslots: [{ displayName: '10:00', capacity: 20 }] })
    const results = await Promise.all(Array.from({ length: 40 }, () => reserve('198.51.100.5', { timeslotId: slots[0], identification: ident(), amount: 1 })))
    expect(results.filter((r) => r.status === 200).length).toBe(1)
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.errorType === 'TIMESLOT_NOT_RESERVED')).toBe(true)
    expect(await taken(slots[0])).toBe(1)
    expect((await reserve('198.51.100.6', { timeslotId: slots[0], identification: ident(), amount: 1 })).status).toBe(200)
    expect(await taken(slots[0])).toBe(2)
  })

  test('amounts: one address holds at most maxPerGuest over all its identifications and slots', async () => {
    const { slots } = await slotField({ multiple: true, amountSelection: true, maxPerGuest: 3, timeslots: [{ displayName: 'A', capacity: 50 }, { displayName: 'B', capacity: 50 }] })
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => reserve('203.0.113.9', { timeslotId: slots[i % 2], identification: ident(), amount: 1 + (i % 2) })))
    const held = (await taken(slots[0])) + (await taken(slots[1]))
    expect(held).toBeLessThanOrEqual(3)
    expect(held).toBeGreaterThanOrEqual(1)
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(2)
  })

  test(`hold creation is rate limited per address (${RATE_LIMITS.HOLD_ADDRESS.max} per ${RATE_LIMITS.HOLD_ADDRESS.windowMs / 60_000} minutes)`, async () => {
    // multiple choice without a bound: one registration may take a place in every slot
    const count = RATE_LIMITS.HOLD_ADDRESS.max + 1
    const { slots } = await slotField({ multiple: true, timeslots: Array.from({ length: count }, (_, i) => ({ displayName: `S${i}`, capacity: 5 })) })
    const statuses: number[] = []
    for (const id of slots) statuses.push((await reserve('192.0.2.44', { timeslotId: id, identification: ident(), amount: 1 })).status)
    expect(statuses.slice(0, RATE_LIMITS.HOLD_ADDRESS.max).every((s) => s === 200)).toBe(true)
    expect(statuses[RATE_LIMITS.HOLD_ADDRESS.max]).toBe(429)
    expect(await taken(slots[RATE_LIMITS.HOLD_ADDRESS.max])).toBe(0)
    // the limit is the address's, not everyone's
    expect((await reserve('192.0.2.45', { timeslotId: slots[RATE_LIMITS.HOLD_ADDRESS.max], identification: ident(), amount: 1 })).status).toBe(200)
  })
})
