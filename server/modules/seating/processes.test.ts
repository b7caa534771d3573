// Chairs are never double-booked by two server processes on one Postgres: places move only through
// the conditional update on seating_chair, whose row count is checked.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eventBody, patientTests, postgresAvailable } from '../../testing/harness'
import { createSchema } from '../../testing/postgres'
import { type ServerProcess, startServerProcess } from '../../testing/process'

patientTests()

describe.if(postgresAvailable())('chair holds with two server processes on one Postgres', () => {
  let pg: Awaited<ReturnType<typeof createSchema>>
  let one: ServerProcess
  let two: ServerProcess
  let cookie = ''
  let clients = 0
  const send = (method: string, base: string, path: string, body: unknown) =>
    fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.40.${(++clients >> 8) & 255}.${clients & 255}`, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) })
  const query = async (sql: string, params: unknown[]) => {
    const c = new (await import('pg')).default.Client({ connectionString: pg.url.replace(/\?.*$/, ''), options: `-c search_path=${pg.schema}` })
    await c.connect()
    try {
      return (await c.query(sql, params)).rows
    } finally {
      await c.end()
    }
  }
  beforeAll(async () => {
    pg = await createSchema()
    one = await startServerProcess({ env: { DATABASE_URL: pg.url, EINLASS_TRUSTED_PROXIES: '127.0.0.1, ::1' } })
    two = await startServerProcess({ env: { DATABASE_URL: pg.url, EINLASS_TRUSTED_PROXIES: '127.0.0.1, ::1' } })
    const setup = await send('POST', one.url, '/proxy/api/setup', { agencyName: 'Zwei Säle', email: 'chairs@example.org', password: 'Geheim123!', firstName: 'P', lastName: 'P' })
    expect(setup.status).toBe(200)
    cookie = setup.headers.getSetCookie()[0].split(';')[0]
  })
  afterAll(async () => {
    await one?.stop()
    await two?.stop()
    await pg?.drop()
  })

  test('200 guests over both processes for one seat and a table of 8: one winner, never more than 8 places', async () => {
    const event = await (await send('POST', two.url, '/proxy/api/events', eventBody({ maxVisitors: null, maxVisitorPerSubscription: 8 }))).json()
    const saved = await send('PUT', one.url, `/proxy/api/events/${event.id}/seatingplan`, {
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
      send('POST', i % 2 ? one.url : two.url, `/proxy/api/public/events/${event.id}/seatingplan/reservation/chair`, { chairId, identification: `two-proc-${chairId}-${i}-visit`, amount }).then(async (r) => ({ status: r.status, body: await r.json() }))
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
