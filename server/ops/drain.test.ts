// Graceful drain behind nginx and behind Caddy (docs/operations.md "Graceful drain"): two einlass
// processes on one Postgres behind deploy/nginx/einlass.conf (then deploy/caddy/Caddyfile), a steady
// storm of registrations and page reads through the proxy, and SIGTERM to one process
// (EINLASS_DRAIN_SECONDS as in the systemd unit, shorter). Its
// /ready turns 503 at once while /health still answers; the proxy stops sending it requests; a request
// that was in flight when its port closed still completes; it exits 0; and no request of the
// storm fails: every answer is 201/200, every 201 stored once.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { request as httpRequest } from 'node:http'
import { eventBody, postgresAvailable } from '../testing/harness'
import { CADDYFILE, haveCaddy, startCaddy } from '../testing/caddy'
import { haveNginx, startNginx } from '../testing/nginx'
import { freePort, ROOT } from '../testing/process'
import { processesOnPostgres } from '../testing/two-processes'

const DRAIN_SECONDS = 5 // above the config's upstream keepalive_timeout (4 s), as the unit's 6 s
interface Proxy {
  base: string
  accessLog?(): string[]
  stop(): Promise<void>
}
const PROXIES: Array<{ name: string; have: boolean; start(port: number, upstreams: number[]): Promise<Proxy> }> = [
  { name: 'nginx', have: haveNginx(), start: startNginx },
  { name: 'Caddy', have: haveCaddy(), start: startCaddy },
]
if (!postgresAvailable()) console.warn('drain: skipped, needs Postgres on 127.0.0.1:5432')
for (const p of PROXIES) if (!p.have) console.warn(`drain: ${p.name} skipped, not installed (scripts/ensure-test-tools.sh installs it)`)

/** whether a new TCP connection to the port is accepted */
const accepts = (port: number) =>
  new Promise<boolean>((res) => {
    const s = connect(port, '127.0.0.1')
    s.once('connect', () => (s.destroy(), res(true)))
    s.once('error', () => res(false))
  })

for (const proxy of PROXIES) {
describe.if(proxy.have && postgresAvailable())(`graceful drain: SIGTERM to one of two processes behind ${proxy.name} under a storm`, () => {
  const env: Record<string, string> = { EINLASS_DRAIN_SECONDS: String(DRAIN_SECONDS), EINLASS_LOG_LEVEL: 'info' }
  let port = 0
  beforeAll(async () => {
    port = await freePort()
    env.EINLASS_BASE_URL = `http://127.0.0.1:${port}`
  })
  const procs = processesOnPostgres(2, { behindProxy: true, env })
  let front: Proxy | null = null
  beforeAll(async () => {
    front = await proxy.start(port, procs().all.map((s) => s.port))
  }, 30_000)
  afterAll(async () => {
    await front?.stop()
  })

  test('/ready 503 first, the proxy drains it, the request in flight completes, exit 0, no request fails', async () => {
    const p = procs()
    const base = front!.base
    const [stays, leaves] = p.all
    let client = 0
    const via = (method: string, path: string, body?: unknown, cookie?: string) =>
      fetch(`${base}${path}`, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}), 'x-forwarded-for': `10.9.${(client >> 8) & 255}.${client++ & 255}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    const setup = await via('POST', '/proxy/api/setup', { agencyName: 'Drain GmbH', email: 'admin@drain.example', password: 'Geheim123!', firstName: 'Ada', lastName: 'Admin' })
    expect(setup.status).toBe(200)
    const admin = setup.headers.getSetCookie()[0].split(';')[0]
    const created = await via('POST', '/proxy/api/events', eventBody({ displayName: 'Ablauf-Fest', maxVisitors: 5000 }), admin)
    expect(created.status).toBe(201)
    const eventId = (await created.json()).id as number

    const answers: Array<{ kind: string; status: number; email?: string; at: number }> = []
    const t0 = Date.now()
    let seq = 0
    let stormOn = true
    const workers: Promise<void>[] = []
    for (let w = 0; w < 3; w++)
      workers.push(
        (async () => {
          while (stormOn) {
            const email = `drain${seq++}@drain.example`
            const r = await via('POST', `/proxy/api/public/events/${eventId}/registrations`, { salutation: 'Frau', firstName: 'Dora', lastName: `Nr${seq}`, email })
            answers.push({ kind: 'register', status: r.status, email, at: Date.now() - t0 })
            await r.arrayBuffer()
            await Bun.sleep(30)
          }
        })(),
      )
    workers.push(
      (async () => {
        while (stormOn) {
          const r = await via('GET', `/proxy/api/public/events/${eventId}`)
          answers.push({ kind: 'read', status: r.status, at: Date.now() - t0 })
          await r.arrayBuffer()
          await Bun.sleep(30)
        }
      })(),
    )
    await Bun.sleep(1_500)

    // a client of the leaving process that sends its body slowly: in flight across the whole drain
    const slowBody = JSON.stringify({ salutation: 'Herr', firstName: 'Lars', lastName: 'Langsam', email: 'langsam@drain.example' })
    let endSlow = () => {}
    const slow = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${leaves.url}/proxy/api/public/events/${eventId}/registrations`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(slowBody)), host: `127.0.0.1:${port}` } },
        (res) => {
          let text = ''
          res.on('data', (d) => (text += d))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
        },
      )
      req.on('error', reject)
      req.write(slowBody.slice(0, 20))
      endSlow = () => req.end(slowBody.slice(20))
    })
    await Bun.sleep(200)

    const termAt = Date.now() - t0
    leaves.proc.kill('SIGTERM')
    // /ready turns 503 at once, /health still answers, the port still accepts
    let readyStatus = 0
    for (let i = 0; i < 40 && readyStatus !== 503; i++) {
      readyStatus = (await fetch(`${leaves.url}/ready`)).status
      if (readyStatus !== 503) await Bun.sleep(25)
    }
    expect(readyStatus).toBe(503)
    expect((await fetch(`${leaves.url}/health`)).status).toBe(200)
    expect((await fetch(`${stays.url}/ready`)).status).toBe(200)
    // a write sent to it directly during the drain is still served, and its connection closed
    const during = await fetch(`${leaves.url}/proxy/api/public/events/${eventId}/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: `127.0.0.1:${port}` },
      body: JSON.stringify({ salutation: 'Frau', firstName: 'Dina', lastName: 'Direkt', email: 'direkt@drain.example' }),
    })
    expect(during.status).toBe(201)
    expect(during.headers.get('connection')).toBe('close')

    // the port closes after the drain; the slow request is still in flight then
    const portOpen = Date.now()
    while (await accepts(leaves.port)) {
      if (Date.now() - portOpen > (DRAIN_SECONDS + 10) * 1000) throw new Error('the port did not close after the drain')
      await Bun.sleep(50)
    }
    const closedAt = Date.now() - t0
    expect(closedAt - termAt).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000 - 100)
    endSlow()
    const slowAnswer = await slow
    expect(slowAnswer.status).toBe(201)
    expect(await leaves.exited).toBe(0)

    // the storm goes on a moment on the remaining process, then ends
    await Bun.sleep(1_000)
    stormOn = false
    await Promise.all(workers)

    // no request of the storm failed: nginx took the process out before its port closed
    const bad = answers.filter((a) => !(a.kind === 'register' ? a.status === 201 : a.status === 200))
    expect(bad).toEqual([])
    // nginx's log: the leaving process had its share of the storm before the SIGTERM
    const log = front!.accessLog?.() ?? []
    if (front!.accessLog) expect(log.some((l) => l.includes(` 127.0.0.1:${leaves.port} `))).toBe(true)
    // every 201 stored once, plus the slow and the direct one
    const stored = (await p.query('select email from event_visitor where event_id = $1', [eventId])).map((r) => r.email as string)
    const acknowledged = answers.filter((a) => a.kind === 'register').map((a) => a.email!)
    expect(new Set(stored).size).toBe(stored.length)
    expect(stored.sort()).toEqual([...acknowledged, 'langsam@drain.example', 'direkt@drain.example'].sort())
    const msgs = leaves.records().map((r) => r.msg)
    expect(msgs).toContain('draining')
    expect(msgs[msgs.length - 1]).toBe('stopped')
    console.log('drain figures', proxy.name, JSON.stringify({ requests: answers.length, registrations: acknowledged.length, termAt, closedAt, upstreamLines: log.length }))
  }, 60_000)
})
}

test('docs/operations.md "Behind Caddy" shows deploy/caddy/Caddyfile verbatim', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8')
  expect(doc).toContain('```caddy\n' + readFileSync(CADDYFILE, 'utf8') + '```')
})
