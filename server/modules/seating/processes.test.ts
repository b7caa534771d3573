// Chairs are never double-booked by two server processes on one Postgres: places move only through
// the conditional update on seating_chair, whose row count is checked.
import { beforeAll, describe, expect, test } from 'bun:test'
import { eventBody, patientTests, postgresAvailable } from '../../testing/harness'
import type { ServerProcess } from '../../testing/process'
import { twoProcessesOnPostgres } from '../../testing/two-processes'

patientTests()

describe.if(postgresAvailable())('chair holds with two server processes on one Postgres', () => {
  const procs = twoProcessesOnPostgres({ behindProxy: true })
  let cookie = ''
  let clients = 0
  const send = (method: string, s: ServerProcess, path: string, body: unknown) => procs().send(s, method, path, body, { cookie, from: `10.40.${(++clients >> 8) & 255}.${clients & 255}` })
  const query = (sql: string, params: unknown[]) => procs().query(sql, params)
  beforeAll(async () => {
    cookie = await procs().setupAgency('chairs@example.org')
  })

  test('200 guests over both processes for one seat and a table of 8: one winner, never more than 8 places', async () => {
    const event = await (await send('POST', procs().two, '/proxy/api/events', eventBody({ maxVisitors: null, maxVisitorPerSubscription: 8 }))).json()
    const saved = await send('PUT', procs().one, `/proxy/api/events/${event.id}/seatingplan`, {
      priceCategories: [],
      areas: [
        {
          displayName: 'Saal',
          chairs: [
            { label: 'A 1', percentX: 1, percentY: 1, percentWidth: 2, percentHeight: 2 },
            { label: 'Tisch 1', percentX: 10, percentY: 10, percentWidth: 8, percentHeight: 8, places: 8, minAmount: 1, maxAmount: 3 },
          ],
        },
      ],
    })
    expect(saved.status).toBe(200)
    const [seat, table] = (await saved.json()).areas[0].chairs as Array<{ id: number }>
    cookie = ''
    const reserve = (i: number, chairId: number, amount: number) =>
      send('POST', procs().either(i), `/proxy/api/public/events/${event.id}/seatingplan/reservation/chair`, { chairId, identification: `two-proc-${chairId}-${i}-visit`, amount }).then(async (r) => ({ status: r.status, body: await r.json() }))
    const seatResults = await Promise.all(Array.from({ length: 200 }, (_, i) => reserve(i, seat!.id, 1)))
    expect(seatResults.filter((r) => r.status === 200 && r.body.succeeded)).toHaveLength(1)
    expect(seatResults.filter((r) => r.status === 409).every((r) => r.body.errorType === 'SEAT_NOT_AVAILABLE' && r.body.freeChairs === 0)).toBe(true)
    const tableResults = await Promise.all(Array.from({ length: 60 }, (_, i) => reserve(i, table!.id, 1 + (i % 3))))
    const won = tableResults.filter((r) => r.status === 200)
    expect(won.length).toBeGreaterThan(2)
    const held = await query('select coalesce(sum(amount), 0)::int as n from chair_reservation where chair_id = $1', [table!.id])
    const chair = await query('select taken, places from seating_chair where id = $1', [table!.id])
    expect(held[0].n).toBeLessThanOrEqual(8)
    expect(chair[0].taken).toBe(held[0].n)
    expect((await query('select taken from seating_chair where id = $1', [seat!.id]))[0].taken).toBe(1)
  })
})
