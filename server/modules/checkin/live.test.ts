// The live stream (docs/checkin-offline.md "Live"): a check-in at one desk reaches a desk listening
// on the event's stream; on Postgres also when the check-in happens on another process, and a sync
// key sent to two processes at once counts once.
import { describe, expect, test } from 'bun:test'
import { type Agent, eventBody, forEachDialect, postgresAvailable } from '../../testing/harness'
import { addGuest, createEvent, licenseWith } from '../../testing/organiser'
import { processesOnPostgres } from '../../testing/two-processes'

/** reads server-sent events until `match` finds one (or the stream ends / the wait gives up) */
async function waitForEvent(res: Response, match: (event: string, data: any) => boolean, giveUpMs = 8000): Promise<{ event: string; data: any } | null> {
  const reader = res.body!.getReader()
  const dec = new TextDecoder()
  let buf = ''
  const deadline = Date.now() + giveUpMs
  try {
    while (Date.now() < deadline) {
      const r = await Promise.race([reader.read(), new Promise<null>((ok) => setTimeout(() => ok(null), Math.max(1, deadline - Date.now())))])
      if (!r || r.done) return null
      buf += dec.decode(r.value, { stream: true })
      let i: number
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i)
        buf = buf.slice(i + 2)
        const ev = /^event: (.*)$/m.exec(block)?.[1] ?? 'message'
        const data = /^data: (.*)$/m.exec(block)?.[1]
        if (data && match(ev, JSON.parse(data))) return { event: ev, data: JSON.parse(data) }
      }
    }
    return null
  } finally {
    await reader.cancel().catch(() => {})
  }
}

forEachDialect(
  'live check-in stream',
  (h) => {
    let admin: Agent & { accountId: number }
    test('setup', async () => {
      admin = await h().admin()
    })
    const open = (eventId: number, who: Agent) => {
      const headers: Record<string, string> = { ...who.headers, cookie: [...who.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
      return h().app.handle(new Request(`http://localhost/proxy/api/events/${eventId}/checkin/live`, { headers }))
    }

    test('a check-in at another desk arrives as a change with the counts', async () => {
      const e = await createEvent(admin)
      const g = await addGuest(admin, e.id, { status: 'CONFIRMED' })
      const other = await addGuest(admin, e.id, { status: 'CONFIRMED' })
      const res = await open(e.id, admin)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain('text/event-stream')
      const got = waitForEvent(res, (ev, d) => ev === 'change' && d.changes.some((c: any) => c.v === g.id && c.p[0][3] === 1))
      await new Promise((ok) => setTimeout(ok, 50))
      expect((await admin.post(`/proxy/api/events/${e.id}/checkin`, { visitorId: g.id, checkinGuests: [0] })).status).toBe(200)
      const change = await got
      expect(change).not.toBeNull()
      expect(change!.data.counts).toMatchObject({ checkedIn: 1 })
      // only the changed registration, never an e-mail address
      expect(change!.data.changes.map((c: any) => c.v)).not.toContain(other.id)
      expect(JSON.stringify(change!.data)).not.toContain('@')
    })

    test('another agency cannot listen', async () => {
      const e = await createEvent(admin)
      const b = await h().admin()
      expect((await open(e.id, b)).status).toBe(404)
      expect((await h().app.handle(new Request(`http://localhost/proxy/api/events/${e.id}/checkin/live`))).status).toBe(401)
    })
  },
  { license: licenseWith([], { events: -1 }) },
)

describe.if(postgresAvailable())('offline desk across two processes on one Postgres', () => {
  const procs = processesOnPostgres(2)

  test('one sync key sent to both processes at once counts once; a check-in on one reaches the stream of the other', async () => {
    const [p1, p2] = procs().all
    const cookie = await procs().setupAgency('admin@zwei-desks.example')
    const send = async (p: { url: string }, method: string, path: string, body?: unknown) => {
      const r = await fetch(`${p.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
      return { status: r.status, body: (await r.json().catch(() => null)) as any }
    }
    const e = await send(p1, 'POST', '/proxy/api/events', eventBody())
    expect(e.status).toBe(201)
    const guests: number[] = []
    for (const n of ['Anna', 'Bert']) {
      const g = await send(p1, 'POST', `/proxy/api/events/${e.body.id}/visitors`, { salutation: 'Frau', firstName: n, lastName: 'Gast', email: `${n.toLowerCase()}@gast.example`, status: 'CONFIRMED' })
      expect(g.status).toBe(201)
      guests.push(g.body.id as number)
    }
    const desk = await send(p1, 'POST', `/proxy/api/events/${e.body.id}/checkin/desks`, { name: 'Nord' })
    const at = new Date(Date.now() - 30_000).toISOString()
    const item = { key: 'same-key-1', visitorId: guests[0], person: 0, action: 'IN', at }
    const rs = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i % 2 ? p2 : p1, 'POST', `/proxy/api/events/${e.body.id}/checkin/sync`, { deskId: desk.body.deskId, items: [item] })))
    expect(rs.map((r) => r.status)).toEqual(Array(10).fill(200))
    expect(rs.map((r) => r.body.results[0].result).sort()).toEqual(['APPLIED', ...Array(9).fill('DUPLICATE')])
    expect((await send(p2, 'GET', `/proxy/api/events/${e.body.id}/checkin/counts`)).body).toMatchObject({ checkedIn: 1 })

    const live = await fetch(`${p1.url}/proxy/api/events/${e.body.id}/checkin/live`, { headers: { cookie } })
    expect(live.status).toBe(200)
    const got = waitForEvent(live, (ev, d) => ev === 'change' && d.changes.some((c: any) => c.v === guests[1]))
    await new Promise((ok) => setTimeout(ok, 100))
    expect((await send(p2, 'POST', `/proxy/api/events/${e.body.id}/checkin`, { visitorId: guests[1], checkinGuests: [0] })).status).toBe(200)
    const change = await got
    expect(change?.data.counts).toMatchObject({ checkedIn: 2 })
  }, 120_000)
})
