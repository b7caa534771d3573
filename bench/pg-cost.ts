// What one registration and one check-in cost Postgres and einlass (docs/scaling.md): a Postgres
// cluster of its own (initdb/pg_ctl, so no other load is counted), one einlass process from source,
// N registrations and N check-ins at a fixed concurrency; per request: transactions, rows written,
// WAL bytes, and the CPU time of einlass and of all Postgres processes.
//   npx bun bench/pg-cost.ts [N=400] [concurrency=16]
import { spawnSync } from 'node:child_process'
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { eventBody } from '../server/testing/harness'
import { freePort, startServerProcess } from '../server/testing/process'

const N = Number(process.argv[2] ?? 400)
const C = Number(process.argv[3] ?? 16)
const BIN = '/usr/lib/postgresql/15/bin'
const root = process.getuid?.() === 0
const uid = root ? Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim()) : 0
const run = (cmd: string, args: string[]) => {
  const r = root ? spawnSync('runuser', ['-u', 'postgres', '--', join(BIN, cmd), ...args], { encoding: 'utf8' }) : spawnSync(join(BIN, cmd), args, { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`${cmd}: ${r.stderr}`)
}
const TICK = 100 // USER_HZ
const cpuOf = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(f[11]) + Number(f[12])) / TICK
}
const pgPids = (postmaster: number) => [postmaster, ...readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((p) => {
  try {
    return Number(readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === postmaster
  } catch {
    return false
  }
})]

const dir = mkdtempSync(join(tmpdir(), 'einlass-pgcost-'))
if (root) chownSync(dir, uid, 0)
const port = await freePort()
run('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
run('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c shared_buffers=256MB`, 'start'])
const url = `postgres://postgres@127.0.0.1:${port}/postgres`
const server = await startServerProcess({ env: { DATABASE_URL: url, EINLASS_LOG_LEVEL: 'error' }, readyTimeoutMs: 90_000 })
const c = new pg.Client({ connectionString: url })
await c.connect()
const postmaster = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0])
try {
  const call = (method: string, path: string, body?: unknown, cookie?: string) =>
    fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) })
  const setup = await call('POST', '/proxy/api/setup', { agencyName: 'Kosten', email: 'admin@kosten.example', password: 'Geheim123!', firstName: 'K', lastName: 'O' })
  const cookie = setup.headers.getSetCookie()[0].split(';')[0]
  const eventId = (await (await call('POST', '/proxy/api/events', eventBody({ maxVisitors: 100_000 }), cookie)).json()).id

  async function measure(name: string, one: (i: number) => Promise<Response>) {
    // warm up, then count
    await Promise.all(Array.from({ length: 20 }, (_, i) => one(-1 - i)))
    const stats = async () => (await c.query("select xact_commit, tup_inserted, tup_updated, tup_deleted, tup_fetched, pg_current_wal_lsn() as lsn from pg_stat_database where datname = 'postgres'")).rows[0]
    await c.query('select pg_stat_clear_snapshot()')
    const a = await stats()
    const cpuA = cpuOf(server.proc.pid!)
    const pgA = pgPids(postmaster).reduce((s, p) => s + cpuOf(p), 0)
    const t0 = performance.now()
    let next = 0
    const statuses: number[] = []
    await Promise.all(Array.from({ length: C }, async () => {
      while (next < N) statuses.push((await one(next++)).status)
    }))
    const secs = (performance.now() - t0) / 1000
    await Bun.sleep(600) // pg_stat_database is updated at most every 500 ms
    await c.query('select pg_stat_clear_snapshot()')
    const b = await stats()
    const wal = Number((await c.query('select pg_wal_lsn_diff($1, $2)::bigint as d', [b.lsn, a.lsn])).rows[0].d)
    const cpu = cpuOf(server.proc.pid!) - cpuA
    const pgCpu = pgPids(postmaster).reduce((s, p) => s + cpuOf(p), 0) - pgA
    const per = (x: number) => (x / N).toFixed(1)
    console.log(
      `${name}: ${N} at ${C} in ${secs.toFixed(1)} s (${(N / secs).toFixed(0)}/s), ok ${statuses.filter((s) => s < 300).length}; per request: ` +
        `${per(b.xact_commit - a.xact_commit)} commits (incl. monitoring), ${per(b.tup_inserted - a.tup_inserted)} rows inserted, ${per(b.tup_updated - a.tup_updated)} updated, ` +
        `${per(b.tup_fetched - a.tup_fetched)} fetched, ${(wal / N / 1024).toFixed(1)} KB WAL, einlass CPU ${((cpu / N) * 1000).toFixed(2)} ms, Postgres CPU ${((pgCpu / N) * 1000).toFixed(2)} ms`,
    )
  }

  await measure('registration', (i) => call('POST', `/proxy/api/public/events/${eventId}/registrations`, { salutation: 'Frau', firstName: 'Kosten', lastName: 'Gast', email: `g${i}@kosten.example` }))
  const visitors = (await c.query('select id from event_visitor where event_id = $1 order by id', [eventId])).rows.map((r) => r.id as number)
  // the desk checks each registration in by its id (a scan resolves the code to it first)
  let k = 0
  await measure('check-in', () => call('POST', `/proxy/api/events/${eventId}/checkin`, { visitorId: visitors[k++ % visitors.length], checkinGuests: 'ALL', nonce: `bench-${k}-${Date.now()}` }, cookie))
} finally {
  await c.end()
  await server.stop()
  run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', 'stop'])
  rmSync(dir, { recursive: true, force: true })
}
