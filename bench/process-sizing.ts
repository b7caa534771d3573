// What one einlass process costs the machine it runs on (docs/scaling.md "Sizing 1, 3 and 10
// processes"): N processes from source on one Postgres schema (the test database), memory (RSS from
// /proc) after start and after a registration load spread round-robin over them, and the Postgres
// connections they hold then (pg_stat_activity, by the processes' client ports).
//   npx bun bench/process-sizing.ts [processes=3] [registrations=300] [concurrency=16]
// EINLASS_BENCH_BINARY=e2e/.artifacts/einlass runs the compiled binary instead of the source (which
// carries Bun's transpiler and the sources in memory too).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { resolve } from 'node:path'
import pg from 'pg'
import { eventBody } from '../server/testing/harness'
import { createSchema } from '../server/testing/postgres'
import { startServerProcess } from '../server/testing/process'

const N = Number(process.argv[2] ?? 3)
const R = Number(process.argv[3] ?? 300)
const C = Number(process.argv[4] ?? 16)
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
const socketsOf = (pid: number) => {
  // the TCP ports this process has open towards Postgres (5432): /proc/<pid>/net/tcp is per network
  // namespace, so match the socket inodes of the process's fds
  const inodes = new Set<string>()
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const l = readlinkSync(`/proc/${pid}/fd/${fd}`)
      const m = /^socket:\[(\d+)\]$/.exec(l)
      if (m) inodes.add(m[1])
    } catch {}
  }
  const lines = readFileSync('/proc/net/tcp', 'utf8').trim().split('\n').slice(1)
  return lines.map((l) => l.trim().split(/\s+/)).filter((f) => inodes.has(f[9]) && f[2].endsWith(':1538')).length // 0x1538 = 5432
}

const schema = await createSchema()
const t0 = performance.now()
const binary = process.env.EINLASS_BENCH_BINARY ? resolve(process.env.EINLASS_BENCH_BINARY) : null
const servers = await Promise.all(
  Array.from({ length: N }, () => startServerProcess({ env: { DATABASE_URL: schema.url, EINLASS_LOG_LEVEL: 'error' }, readyTimeoutMs: 180_000, ...(binary ? { command: [binary] } : {}) })),
)
const started = performance.now() - t0
try {
  const idle = servers.map((s) => rssMb(s.proc.pid!))
  const call = (i: number, method: string, path: string, body?: unknown, cookie?: string) =>
    fetch(`${servers[i % N].url}${path}`, { method, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) })
  const setup = await call(0, 'POST', '/proxy/api/setup', { agencyName: 'Groesse', email: 'admin@groesse.example', password: 'Geheim123!', firstName: 'G', lastName: 'R' })
  const cookie = setup.headers.getSetCookie()[0].split(';')[0]
  const eventId = (await (await call(0, 'POST', '/proxy/api/events', eventBody({ maxVisitors: 100_000 }), cookie)).json()).id
  let next = 0
  let ok = 0
  const tl = performance.now()
  await Promise.all(
    Array.from({ length: C }, async () => {
      for (let i = next++; i < R; i = next++) {
        const r = await call(i, 'POST', `/proxy/api/public/events/${eventId}/registrations`, { salutation: 'Frau', firstName: 'G', lastName: `Nr${i}`, email: `g${i}@groesse.example` })
        if (r.status === 201) ok++
        await r.arrayBuffer()
      }
    }),
  )
  const loadS = (performance.now() - tl) / 1000
  const busy = servers.map((s) => rssMb(s.proc.pid!))
  const conns = servers.map((s) => socketsOf(s.proc.pid!))
  const c = new pg.Client({ connectionString: schema.url.replace(/\?.*$/, '') })
  await c.connect()
  const maxConn = (await c.query('show max_connections')).rows[0].max_connections
  await c.end()
  const r1 = (a: number[]) => a.map((x) => Math.round(x))
  console.log(
    JSON.stringify({
      processes: N,
      run: binary ? 'binary' : 'source',
      startedAllSeconds: Math.round(started / 100) / 10,
      rssIdleMb: r1(idle),
      registrations: R,
      stored201: ok,
      concurrency: C,
      loadSeconds: Math.round(loadS * 10) / 10,
      rssAfterLoadMb: r1(busy),
      postgresConnectionsPerProcess: conns,
      postgresMaxConnections: Number(maxConn),
      loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    }),
  )
} finally {
  await Promise.all(servers.map((s) => s.stop()))
  await schema.drop()
}
