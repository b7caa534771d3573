// Two desks on two server processes of one installation (one Postgres) scan the same tickets at
// once: every ticket is checked in exactly once. The check-in is a conditional update whose row
// count decides, so it holds across processes as it does inside one.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import pg from 'pg'
import { eventBody, postgresAvailable } from '../../testing/harness'
import { createSchema } from '../../testing/postgres'
import { type ServerProcess, startServerProcess } from '../../testing/process'

describe.if(postgresAvailable())('check-in with two server processes on one Postgres', () => {
  let db: Awaited<ReturnType<typeof createSchema>>
  let one: ServerProcess
  let two: ServerProcess
  beforeAll(async () => {
    db = await createSchema()
    ;[one, two] = await Promise.all([startServerProcess({ env: { DATABASE_URL: db.url } }), startServerProcess({ env: { DATABASE_URL: db.url } })])
  })
  afterAll(async () => {
    await one?.stop()
    await two?.stop()
    await db?.drop()
  })

  test('100 scans of each of 5 tickets spread over both processes: each ticket checked in once', async () => {
    let cookie = ''
    const call = async (base: string, method: string, path: string, body?: unknown) => {
      const r = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) })
      return { status: r.status, headers: r.headers, body: await r.json() }
    }
    const setup = await call(one.url, 'POST', '/proxy/api/setup', { agencyName: 'Zwei Schalter', email: 'desk@example.org', password: 'Geheim123!', firstName: 'D', lastName: 'D' })
    expect(setup.status).toBe(200)
    cookie = setup.headers.getSetCookie()[0].split(';')[0]
    const event = await call(two.url, 'POST', '/proxy/api/events', eventBody({ maxVisitors: 100 }))
    expect(event.status).toBe(201)
    const eventId = event.body.id as number
    const tickets: Array<{ id: number; code: string }> = []
    for (let i = 0; i < 5; i++) {
      const g = await call(one.url, 'POST', `/proxy/api/events/${eventId}/visitors`, { firstName: 'Gast', lastName: `Nr${i}`, status: 'CONFIRMED', escortPersons: [{ firstName: 'Eva', lastName: 'Begleitung' }] })
      expect(g.status).toBe(201)
      const d = await call(two.url, 'GET', `/proxy/api/events/${eventId}/visitors/${g.body.id}`)
      tickets.push({ id: g.body.id, code: d.body.ticketCode })
    }

    let seq = 0
    const scans = tickets.flatMap((t) => Array.from({ length: 100 }, (_, i) => ({ t, base: i % 2 ? one.url : two.url })))
    const results = await Promise.all(scans.map(({ t, base }) => call(base, 'POST', `/proxy/api/events/${eventId}/checkin`, { code: t.code, checkinGuests: 'ALL', nonce: `scan-${Date.now()}-${seq++}` }).then((r) => ({ ...r, t, base }))))

    for (const t of tickets) {
      const mine = results.filter((r) => r.t === t)
      expect(mine.filter((r) => r.status === 200)).toHaveLength(1)
      const refused = mine.filter((r) => r.status !== 200)
      expect(refused).toHaveLength(99)
      expect(refused.every((r) => r.status === 409 && ['ALL_CHECKED_IN', 'ALREADY_CHECKED_IN'].includes(r.body.errorType))).toBe(true)
    }
    // both processes answered every scan sent to them (which one wins is up to scheduling)
    for (const base of [one.url, two.url]) expect(results.filter((r) => r.base === base)).toHaveLength(250)

    const c = new pg.Client({ connectionString: db.url.replace(/\?.*$/, ''), options: `-c search_path=${db.schema}` })
    await c.connect()
    try {
      const presence = await c.query('select visitor_id, count(*)::int as n from presence where visitor_id = any($1) group by visitor_id order by visitor_id', [tickets.map((t) => t.id)])
      // main guest and escort: one presence row each, per ticket
      expect(presence.rows).toEqual(tickets.map((t) => ({ visitor_id: t.id, n: 2 })).sort((a, b) => a.visitor_id - b.visitor_id))
      const status = await c.query('select distinct status from event_visitor where id = any($1)', [tickets.map((t) => t.id)])
      expect(status.rows).toEqual([{ status: 'APPEARED' }])
      const desk = await call(one.url, 'GET', `/proxy/api/events/${eventId}/checkin/counts`)
      expect(desk.body).toMatchObject({ checkedIn: 10 })
    } finally {
      await c.end()
    }
  })
})
