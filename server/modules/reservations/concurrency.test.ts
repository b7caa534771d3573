// Timeslots and defined values are never oversold by two server processes on one Postgres: places
// move only through conditional updates whose row count is checked.
import { beforeAll, describe, expect, test } from 'bun:test'
import { eventBody, postgresAvailable } from '../../testing/harness'
import type { ServerProcess } from '../../testing/process'
import { twoProcessesOnPostgres } from '../../testing/two-processes'

describe.if(postgresAvailable())('timeslots and defined values with two server processes on one Postgres', () => {
  // behind a trusted proxy, so each simulated guest has its own client address (X-Forwarded-For):
  // one address may hold only what one registration takes
  const procs = twoProcessesOnPostgres({ behindProxy: true })
  let cookie = ''
  let clients = 0
  const post = (s: ServerProcess, path: string, body: unknown) => procs().send(s, 'POST', path, body, { cookie, from: `10.30.${(++clients >> 8) & 255}.${clients & 255}` })
  const query = (sql: string, params: unknown[]) => procs().query(sql, params)
  beforeAll(async () => {
    cookie = await procs().setupAgency('slots@example.org')
  })

  test('200 reservations spread over both processes for 50 free places: exactly 50 succeed', async () => {
    const event = await (await post(procs().two, '/proxy/api/events', eventBody({ maxVisitors: null }))).json()
    const field = await (await post(procs().one, `/proxy/api/events/${event.id}/fields`, { type: 'TIMESLOT', displayName: 'Slot', timeslots: [{ displayName: '10:00', capacity: 50 }] })).json()
    const slotId = field.timeslots[0].id
    cookie = ''
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post(procs().either(i), '/proxy/api/public/reservation/timeslot', { timeslotId: slotId, identification: `two-proc-${i}-visitor`, amount: 1 }).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    )
    expect(results.filter((r) => r.status === 200 && r.body.succeeded).length).toBe(50)
    expect(results.filter((r) => r.status === 409).every((r) => r.body.errorType === 'TIMESLOT_NOT_AVAILABLE' && r.body.freeSlots === 0)).toBe(true)
    // Both processes served their half (a place or TIMESLOT_NOT_AVAILABLE for each request); which one
    // wins the contested places is up to scheduling, so neither has to win any.
    for (const odd of [0, 1]) {
      const served = results.filter((_, i) => i % 2 === odd)
      expect(served.length).toBe(100)
      expect(served.every((r) => (r.status === 200 && r.body.succeeded) || (r.status === 409 && r.body.errorType === 'TIMESLOT_NOT_AVAILABLE'))).toBe(true)
    }
    expect((await query('select taken from timeslot where id = $1', [slotId]))[0].taken).toBe(50)
    expect((await query('select count(*)::int as n from timeslot_reservation where timeslot_id = $1', [slotId]))[0].n).toBe(50)
  })

  test('100 registrations over both processes for 20 places of a defined value: exactly 20', async () => {
    const setup = await post(procs().one, '/auth/login', { email: 'slots@example.org', password: 'Geheim123!' })
    cookie = setup.headers.getSetCookie()[0].split(';')[0]
    const event = await (await post(procs().one, '/proxy/api/events', eventBody({ maxVisitors: null }))).json()
    const field = await (await post(procs().two, `/proxy/api/events/${event.id}/fields`, { type: 'SMARTLIST', displayName: 'Workshop', appearance: 'REQUIRED', definedValues: [{ displayName: 'Töpfern', capacity: 20 }] })).json()
    const valueId = field.definedValues[0].id
    cookie = ''
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        post(procs().either(i), `/proxy/api/public/events/${event.id}/registrations`, { salutation: 'Frau', firstName: 'W', lastName: 'S', email: `w${i}@example.org`, fields: { [field.id]: [{ fieldValueId: valueId, amount: 1 }] } }).then((r) => r.status),
      ),
    )
    expect(results.filter((s) => s === 201).length).toBe(20)
    expect(results.filter((s) => s === 409).length).toBe(80)
    expect((await query('select taken from field_value where id = $1', [valueId]))[0].taken).toBe(20)
    expect((await query('select count(*)::int as n from event_visitor where event_id = $1', [event.id]))[0].n).toBe(20)
  })
})
