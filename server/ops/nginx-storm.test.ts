// nginx in front of three einlass processes on one Postgres (docs/operations.md "Behind nginx"), with
// the very config admins install (deploy/nginx/einlass.conf, only the ports replaced). A mixed storm of
// public registrations, ticket orders to sell-out, chair holds on a seat plan, check-ins and page
// reads runs through nginx while one process is killed with
// SIGKILL and another is stopped with SIGTERM and started again on its port (as systemd would): only
// requests in flight at those moments may fail, and only with 502/503; the places and the tickets are
// taken exactly, no chair holds more than its places, every 201 is stored, no guest is checked in twice, and afterwards every answer is good again.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { eventBody, postgresAvailable } from '../testing/harness'
import { haveNginx as nginxInstalled, NGINX, NGINX_TEMPLATE, type Nginx, startNginx } from '../testing/nginx'
import { freePort, ROOT } from '../testing/process'
import { processesOnPostgres } from '../testing/two-processes'

const haveNginx = nginxInstalled()
const havePostgres = postgresAvailable()
if (!haveNginx) console.warn(`nginx-storm: skipped, ${NGINX} is missing (Debian package nginx; scripts/ensure-test-tools.sh installs it)`)
if (!havePostgres) console.warn('nginx-storm: skipped, no Postgres on 127.0.0.1:5432')
if (process.env.CI === 'true' && !haveNginx) throw new Error(`nginx-storm: ${NGINX} is missing in CI`)

test('docs/operations.md "Behind nginx" shows deploy/nginx/einlass.conf and the systemd unit verbatim', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8')
  expect(doc).toContain('```nginx\n' + readFileSync(NGINX_TEMPLATE, 'utf8') + '```')
  expect(doc).toContain('```ini\n' + readFileSync(join(ROOT, 'deploy', 'systemd', 'einlass@.service'), 'utf8') + '```')
})

const CAPACITY = 60
const GUESTS_AT_DESK = 40
const STORM_MS = 7_000
const REG_WORKERS = 4
const DESK_WORKERS = 3
const READ_WORKERS = 1
const SHOP_WORKERS = 1
const HOLD_WORKERS = 1
const TICKET_QUOTA = 30
const TABLE_PLACES = 8
const SEATS = 4

interface Answer {
  kind: 'register' | 'checkin' | 'read' | 'buy' | 'hold'
  status: number
  at: number
  email?: string
  code?: string
  errorType?: string
  chairId?: number
  amount?: number
}

describe.if(haveNginx && havePostgres)('nginx in front of three processes: a storm with a SIGKILL and a restart', () => {
  // the proxy's address is the install's base URL (EINLASS_BASE_URL), as in production: chosen
  // before the processes start (this beforeAll runs before the one processesOnPostgres registers)
  const env: Record<string, string> = {}
  let port = 0
  let base = ''
  beforeAll(async () => {
    port = await freePort()
    base = `http://127.0.0.1:${port}`
    env.EINLASS_BASE_URL = base
  })
  const procs = processesOnPostgres(3, { behindProxy: true, env })
  let nginx: Nginx | null = null

  beforeAll(async () => {
    nginx = await startNginx(port, procs().all.map((s) => s.port))
  }, 60_000)

  afterAll(async () => {
    await nginx?.stop()
  })

  test('only requests in flight fail (502/503), places exact, every 201 stored, no guest checked in twice, then all good', async () => {
    const p = procs()
    let client = 0
    // each simulated client has its own address, as nginx reports it (EINLASS_TRUSTED_PROXIES = the proxy)
    const via = (method: string, path: string, body?: unknown, cookie?: string) =>
      fetch(`${base}${path}`, {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(cookie ? { cookie } : {}),
          'x-forwarded-for': `10.7.${(client >> 8) & 255}.${client++ & 255}`,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    const setup = await via('POST', '/proxy/api/setup', { agencyName: 'Sturm GmbH', email: 'admin@nginx-sturm.example', password: 'Geheim123!', firstName: 'Ada', lastName: 'Admin' })
    expect(setup.status).toBe(200)
    const admin = setup.headers.getSetCookie()[0].split(';')[0]
    const created = await via('POST', '/proxy/api/events', eventBody({ displayName: 'Sturm-Fest', maxVisitors: CAPACITY }), admin)
    expect(created.status).toBe(201)
    const regEvent = (await created.json()).id as number
    const desk = await via('POST', '/proxy/api/events', eventBody({ displayName: 'Einlass-Fest', maxVisitors: 100 }), admin)
    expect(desk.status).toBe(201)
    const deskEvent = (await desk.json()).id as number
    const tickets: Array<{ id: number; code: string }> = []
    for (let i = 0; i < GUESTS_AT_DESK; i++) {
      const g = await via('POST', `/proxy/api/events/${deskEvent}/visitors`, { firstName: 'Gast', lastName: `Nr${i}`, status: 'CONFIRMED' }, admin)
      expect(g.status).toBe(201)
      const id = (await g.json()).id as number
      const d = await via('GET', `/proxy/api/events/${deskEvent}/visitors/${id}`, undefined, admin)
      tickets.push({ id, code: (await d.json()).ticketCode })
    }

    // the ticket shop: one category of TICKET_QUOTA tickets, paid at the venue
    const shop = await via('POST', '/proxy/api/events', eventBody({ displayName: 'Laden-Fest', maxVisitors: 1000 }), admin)
    expect(shop.status).toBe(201)
    const shopEvent = (await shop.json()).id as number
    const category = await via('POST', `/proxy/api/events/${shopEvent}/ticketCategories`, { displayName: 'Stehplatz', grossPrice: 1500, taxCode: 'TAX_19', quota: TICKET_QUOTA }, admin)
    expect(category.status).toBe(201)
    const categoryId = (await category.json()).id as number
    const method = await via('POST', '/proxy/api/agency/paymentMethods', { method: 'LOCATION' }, admin)
    expect((await via('PUT', `/proxy/api/events/${shopEvent}/paymentMethods`, { ids: [(await method.json()).id] }, admin)).status).toBe(200)
    // the seat plan: a table of TABLE_PLACES and SEATS single seats, held by guests on the public page
    const plan = await via('POST', '/proxy/api/events', eventBody({ displayName: 'Platz-Fest', maxVisitors: null, maxVisitorPerSubscription: 8 }), admin)
    expect(plan.status).toBe(201)
    const planEvent = (await plan.json()).id as number
    const saved = await via(
      'PUT',
      `/proxy/api/events/${planEvent}/seatingplan`,
      {
        priceCategories: [],
        areas: [
          {
            displayName: 'Saal',
            chairs: [
              { label: 'Tisch 1', percentX: 10, percentY: 10, percentWidth: 8, percentHeight: 8, places: TABLE_PLACES, minAmount: 1, maxAmount: 3 },
              ...Array.from({ length: SEATS }, (_, i) => ({ label: `A ${i + 1}`, percentX: 1 + 3 * i, percentY: 1, percentWidth: 2, percentHeight: 2 })),
            ],
          },
        ],
      },
      admin,
    )
    expect(saved.status).toBe(200)
    const chairs = (await saved.json()).areas[0].chairs as Array<{ id: number; places?: number }>

    const answers: Answer[] = []
    const t0 = Date.now()
    const record = async (a: Omit<Answer, 'status' | 'at'>, r: Promise<Response>) => {
      const res = await r
      const body = res.headers.get('content-type')?.includes('json') ? await res.json().catch(() => null) : await res.text().then(() => null)
      const answer = { ...a, status: res.status, at: Date.now() - t0, errorType: body?.errorType, ...(a.kind === 'hold' && res.status === 200 ? { succeeded: body?.succeeded } : {}) }
      answers.push(answer)
      return answer
    }
    let seq = 0
    const register = () => {
      const email = `sturm${seq++}@nginx-sturm.example`
      return record({ kind: 'register', email }, via('POST', `/proxy/api/public/events/${regEvent}/registrations`, { salutation: 'Frau', firstName: 'Sturm', lastName: `Nr${seq}`, email }))
    }
    // the storm lasts STORM_MS and at least until both processes are back
    let chaosDone = false
    const running = () => !chaosDone || Date.now() - t0 < STORM_MS
    const workers: Promise<unknown>[] = []
    // registrations, paced so that the sell-out falls after the kill
    for (let w = 0; w < REG_WORKERS; w++)
      workers.push(
        (async () => {
          let full = false
          while (running()) {
            full = (await register()).status === 409 || full
            // after the sell-out fewer tries, so the restarts are not starved on 2 cores
            await Bun.sleep(full ? 300 : 40)
          }
        })(),
      )
    // desks: each scans every ticket once, in its own order, over and over
    for (let w = 0; w < DESK_WORKERS; w++)
      workers.push(
        (async () => {
          for (let round = 0; running(); round++) {
            const order = tickets.map((t, i) => tickets[(i * (w + 3) + round) % tickets.length])
            for (const t of order) {
              if (!running()) break
              await record({ kind: 'checkin', code: t.code }, via('POST', `/proxy/api/events/${deskEvent}/checkin`, { code: t.code, checkinGuests: 'ALL', nonce: `sturm-${w}-${seq++}` }, admin))
              await Bun.sleep(round ? 200 : 60)
            }
          }
        })(),
      )
    // the ticket shop, paced so that the sell-out falls after the kill
    const buy = () => {
      const email = `kauf${seq++}@nginx-sturm.example`
      return record({ kind: 'buy', email }, via('POST', `/proxy/api/public/events/${shopEvent}/registrations`, { salutation: 'Herr', firstName: 'Karl', lastName: `Nr${seq}`, email, tickets: [{ categoryId, amount: 1 }] }))
    }
    for (let w = 0; w < SHOP_WORKERS; w++)
      workers.push(
        (async () => {
          let soldOut = false
          while (running()) {
            soldOut = (await buy()).status === 409 || soldOut
            await Bun.sleep(soldOut ? 300 : 120)
          }
        })(),
      )
    // guests holding places on the seat plan: each guest one try at one chair
    for (let w = 0; w < HOLD_WORKERS; w++)
      workers.push(
        (async () => {
          for (let i = 0; running(); i++) {
            const chair = chairs[i % chairs.length]
            const amount = chair.id === chairs[0].id ? 1 + (i % 3) : 1
            await record(
              { kind: 'hold', chairId: chair.id, amount },
              via('POST', `/proxy/api/public/events/${planEvent}/seatingplan/reservation/chair`, { chairId: chair.id, identification: `sturm-halt-${w}-${i}-visit`, amount }),
            )
            await Bun.sleep(150)
          }
        })(),
      )
    // the public page and the desk's counter
    for (let w = 0; w < READ_WORKERS; w++)
      workers.push(
        (async () => {
          for (let i = 0; running(); i++) {
            await record({ kind: 'read' }, i % 2 ? via('GET', `/proxy/api/public/events/${regEvent}`) : via('GET', `/proxy/api/events/${deskEvent}/checkin/counts`, undefined, admin))
            await Bun.sleep(30)
          }
        })(),
      )
    // the chaos: SIGKILL process 2 at 2 s; SIGTERM process 3 at 3.5 s, then a new process on each
    // one's port (as systemd's Restart=on-failure and a `systemctl restart` would), under the storm
    const [killed, restarted] = [p.all[1], p.all[2]]
    const events: Record<string, number> = {}
    const chaos = (async () => {
      await Bun.sleep(2_000)
      killed.proc.kill('SIGKILL')
      events.killed = Date.now() - t0
      await killed.exited
      await Bun.sleep(1_500)
      events.terminated = Date.now() - t0
      expect(await restarted.stop('SIGTERM')).toBe(0)
      events.stopped = Date.now() - t0
      await Promise.all([
        p.start({}, restarted.port).then(() => (events.restarted = Date.now() - t0)),
        p.start({}, killed.port).then(() => (events.killedBack = Date.now() - t0)),
      ])
      chaosDone = true
    })()
    await Promise.all([...workers, chaos])

    // the storm may end before the sell-out: register on until the event says it is full
    for (let i = 0; i < 3 * CAPACITY; i++) {
      const a = await register()
      if (a.status === 409) break
    }

    // and buy on until the shop says sold out
    for (let i = 0; i < 3 * TICKET_QUOTA; i++) {
      const a = await buy()
      if (a.status === 409) break
    }

    const count = (f: (a: Answer) => boolean) => answers.filter(f).length
    const figures = {
      requests: answers.length,
      registrations: count((a) => a.kind === 'register'),
      created201: count((a) => a.status === 201),
      soldOut409: count((a) => a.kind === 'register' && a.status === 409),
      checkins200: count((a) => a.kind === 'checkin' && a.status === 200),
      checkins409: count((a) => a.kind === 'checkin' && a.status === 409),
      reads200: count((a) => a.kind === 'read' && a.status === 200),
      bought201: count((a) => a.kind === 'buy' && a.status === 201),
      soldOutTickets409: count((a) => a.kind === 'buy' && a.status === 409),
      holds200: count((a) => a.kind === 'hold' && a.status === 200),
      holds409: count((a) => a.kind === 'hold' && a.status === 409),
      s502: count((a) => a.status === 502),
      s503: count((a) => a.status === 503),
      ...events,
    }
    console.log('nginx-storm figures', JSON.stringify(figures))

    // 1. the only failures are 502/503, and no more than one per client in flight at each of the two blows
    const failed = answers.filter((a) => a.status >= 500)
    expect(failed.filter((a) => a.status !== 502 && a.status !== 503)).toEqual([])
    expect(failed.length).toBeLessThanOrEqual(2 * (REG_WORKERS + DESK_WORKERS + READ_WORKERS + SHOP_WORKERS + HOLD_WORKERS))
    for (const f of failed) expect(f.at).toBeGreaterThanOrEqual(events.killed - 100)
    // idempotent reads are passed on to another process by nginx: none failed
    expect(failed.filter((a) => a.kind === 'read')).toEqual([])
    // every other answer is what the request asks for
    const unexpected = answers.filter(
      (a) =>
        a.status < 500 &&
        !(a.kind === 'register' && (a.status === 201 || (a.status === 409 && a.errorType === 'EVENT_FULL'))) &&
        !(a.kind === 'checkin' && (a.status === 200 || (a.status === 409 && ['ALL_CHECKED_IN', 'ALREADY_CHECKED_IN'].includes(a.errorType!)))) &&
        !(a.kind === 'read' && a.status === 200) &&
        !(a.kind === 'buy' && (a.status === 201 || (a.status === 409 && a.errorType === 'TICKETS_SOLD_OUT'))) &&
        !(a.kind === 'hold' && (a.status === 200 || (a.status === 409 && ['SEAT_NOT_AVAILABLE', 'SEAT_NOT_RESERVED'].includes(a.errorType!)))),
    )
    expect(unexpected).toEqual([])

    // 2. exactly the places, never more; every 201 stored (a 502'd registration may be stored too: its
    // commit may have happened before the kill, and the guest's retry says "already registered")
    const stored = (await p.query('select email from event_visitor where event_id = $1', [regEvent])).map((r) => r.email as string)
    expect(stored).toHaveLength(CAPACITY)
    expect(new Set(stored).size).toBe(CAPACITY)
    expect((await p.query('select seats_taken from event where id = $1', [regEvent]))[0].seats_taken).toBe(CAPACITY)
    const acknowledged = answers.filter((a) => a.kind === 'register' && a.status === 201).map((a) => a.email!)
    expect(acknowledged.filter((e) => !stored.includes(e))).toEqual([])
    const failedEmails = answers.filter((a) => a.kind === 'register' && a.status >= 500).map((a) => a.email!)
    expect(stored.filter((e) => !acknowledged.includes(e) && !failedEmails.includes(e))).toEqual([])

    // 2b. the shop: exactly the quota sold, one order per ticket, every 201 an order, nothing else
    // stored but what a 502 may have committed
    expect((await p.query('select sold from ticket_category where id = $1', [categoryId]))[0].sold).toBe(TICKET_QUOTA)
    const buyers = (await p.query('select v.email from ticket_order o join event_visitor v on v.id = o.visitor_id where o.event_id = $1', [shopEvent])).map((r) => r.email as string)
    expect(buyers).toHaveLength(TICKET_QUOTA)
    expect(new Set(buyers).size).toBe(TICKET_QUOTA)
    const bought = answers.filter((a) => a.kind === 'buy' && a.status === 201).map((a) => a.email!)
    expect(bought.filter((e) => !buyers.includes(e))).toEqual([])
    const failedBuys = answers.filter((a) => a.kind === 'buy' && a.status >= 500).map((a) => a.email!)
    expect(buyers.filter((e) => !bought.includes(e) && !failedBuys.includes(e))).toEqual([])

    // 2c. the seat plan: no chair holds more than its places, and its count is the holds' sum
    for (const chair of chairs) {
      const held = (await p.query('select coalesce(sum(amount), 0)::int as n from chair_reservation where chair_id = $1', [chair.id]))[0].n as number
      const row = (await p.query('select taken, places from seating_chair where id = $1', [chair.id]))[0]
      expect(held).toBeLessThanOrEqual(row.places)
      expect(row.taken).toBe(held)
      // every hold acknowledged as succeeded is among them
      const won = answers.filter((a) => a.kind === 'hold' && a.chairId === chair.id && a.status === 200 && (a as Answer & { succeeded?: boolean }).succeeded !== false)
      expect(won.reduce((n, a) => n + a.amount!, 0)).toBeLessThanOrEqual(held)
    }

    // 3. no ticket accepted twice: at most one 200 per code, at most one presence per guest
    const accepted = answers.filter((a) => a.kind === 'checkin' && a.status === 200).map((a) => a.code!)
    expect(new Set(accepted).size).toBe(accepted.length)
    const presence = await p.query('select visitor_id, count(*)::int as n from presence where visitor_id = any($1) group by visitor_id', [tickets.map((t) => t.id)])
    expect(presence.filter((r) => r.n !== 1)).toEqual([])
    const present = new Set(presence.map((r) => r.visitor_id as number))
    for (const code of accepted) expect(present.has(tickets.find((t) => t.code === code)!.id)).toBe(true)

    // 4. afterwards every answer through nginx is good again, on every kind of request
    const after: number[] = []
    await Bun.sleep(5_000) // fail_timeout: nginx tries a process it marked down again after 5 s
    for (let i = 0; i < 30; i++) {
      const t = tickets[i % tickets.length]
      after.push((await via('GET', '/ready')).status)
      after.push((await via('GET', `/proxy/api/public/events/${regEvent}`)).status)
      const full = await via('POST', `/proxy/api/public/events/${regEvent}/registrations`, { salutation: 'Herr', firstName: 'Spät', lastName: `Nr${i}`, email: `spaet${i}@nginx-sturm.example` })
      expect(full.status).toBe(409)
      const scan = await via('POST', `/proxy/api/events/${deskEvent}/checkin`, { code: t.code, checkinGuests: 'ALL', nonce: `nachher-${i}` }, admin)
      after.push(scan.status === 409 || scan.status === 200 ? 200 : scan.status)
    }
    expect(after.filter((s) => s !== 200)).toEqual([])
    // and the two new processes serve their share (nginx's access log: status, process, request)
    await Bun.sleep(200)
    const served = nginx!.accessLog().slice(-120)
    for (const s of [killed, restarted]) expect(served.some((l) => l.includes(` 127.0.0.1:${s.port} `))).toBe(true)
    // every ticket is checked in now (one final scan each where the storm had not yet), each once
    for (const t of tickets) {
      const s = await via('POST', `/proxy/api/events/${deskEvent}/checkin`, { code: t.code, checkinGuests: 'ALL', nonce: `letzte-${t.id}` }, admin)
      expect([200, 409]).toContain(s.status)
    }
    const final = await p.query('select count(*)::int as n, count(distinct visitor_id)::int as d from presence where visitor_id = any($1)', [tickets.map((t) => t.id)])
    expect(final[0]).toEqual({ n: GUESTS_AT_DESK, d: GUESTS_AT_DESK })
  }, 90_000)
})
