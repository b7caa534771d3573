// Public registration storm at 64 connections against the compiled binary on SQLite, and the same
// storm against a raw Bun + bun:sqlite baseline; afterwards the database is checked: no
// registration lost or duplicated, capacity never exceeded.
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../server/testing/process'
import { BINARY, BUN, ROOT, start, stop, storm, type StormResult, waitFor } from './lib'


export interface RegistrationBench {
  einlass: StormResult
  baseline: StormResult
  ratio: number
  /** the same ratio from server CPU time per registration (independent of other load on the machine) */
  cpuRatio: number | null
  capacityCheck: { capacity: number; created: number; seatsTaken: number; rows: number; refusedFull: number }
  checks: string[]
}

/**
 * Every e-mail answered 201 is stored. A run ends on a timer, so up to one request per connection
 * may have been stored without its answer being counted; more than that would be a phantom.
 */
function noneLost(dbFile: string, table: string, eventId: number, run: StormResult & { createdEmails: Set<string> }, prefix: string, connections: number, checks: string[], label: string) {
  const db = new Database(dbFile, { readonly: true })
  const stored = new Set((db.query(`select email from ${table} where event_id = ? and email like ?`).all(eventId, `${prefix}%`) as { email: string }[]).map((r) => r.email))
  db.close()
  const lost = [...run.createdEmails].filter((e) => !stored.has(e))
  if (lost.length) throw new Error(`${label}: ${lost.length} registrations answered 201 but not stored, e.g. ${lost[0]}`)
  const unanswered = stored.size - run.createdEmails.size
  if (unanswered < 0 || unanswered > connections) throw new Error(`${label}: ${stored.size} stored for ${run.createdEmails.size} answered 201`)
  checks.push(`${label}: all ${run.createdEmails.size} registrations answered 201 are stored (${unanswered} more were in flight when the run ended)`)
}

function verify(dbFile: string, table: string, eventId: number, created: number | null, checks: string[], label: string) {
  const db = new Database(dbFile, { readonly: true })
  const rows = (db.query(`select count(*) as n, count(distinct email) as d from ${table} where event_id = ?`).get(eventId) as { n: number; d: number })
  const seats = (db.query('select seats_taken, max_visitors from event where id = ?').get(eventId) as { seats_taken: number; max_visitors: number | null })
  db.close()
  const problems: string[] = []
  if (created !== null && rows.n !== created) problems.push(`${label}: ${created} answered 201 but ${rows.n} stored`)
  if (rows.d !== rows.n) problems.push(`${label}: ${rows.n - rows.d} duplicate e-mails stored`)
  if (seats.seats_taken !== rows.n) problems.push(`${label}: seats_taken ${seats.seats_taken} but ${rows.n} registrations`)
  if (seats.max_visitors != null && seats.seats_taken > seats.max_visitors) problems.push(`${label}: capacity ${seats.max_visitors} exceeded (${seats.seats_taken})`)
  if (problems.length) throw new Error(problems.join('; '))
  checks.push(`${label}: ${rows.n} rows, ${rows.d} distinct e-mails, seats_taken ${seats.seats_taken}${seats.max_visitors != null ? ` of ${seats.max_visitors}` : ''}`)
  return { rows: rows.n, seatsTaken: seats.seats_taken }
}

async function einlassServer(dataDir: string, port: number) {
  const proc = start([BINARY, 'serve'], { PORT: String(port), EINLASS_HOST: '127.0.0.1', EINLASS_DATA_DIR: dataDir, EINLASS_BASE_URL: `http://127.0.0.1:${port}`, EINLASS_LOG_LEVEL: 'warn' }, dataDir)
  const url = `http://127.0.0.1:${port}`
  try {
    await waitFor(`${url}/ready`)
  } catch (e) {
    await stop(proc)
    throw e
  }
  const post = (path: string, body: unknown, cookie?: string) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) })
  const setup = await post('/proxy/api/setup', { agencyName: 'Bench GmbH', email: 'bench@example.org', password: 'Geheim123!', firstName: 'B', lastName: 'B' })
  if (setup.status !== 200) {
    await stop(proc)
    throw new Error(`setup failed: ${setup.status} ${await setup.text()}`)
  }
  const cookie = setup.headers.getSetCookie()[0].split(';')[0]
  const event = async (maxVisitors: number) => {
    const start = new Date(Date.now() + 30 * 86400_000)
    const r = await post('/proxy/api/events', { displayName: `Bench ${maxVisitors}`, startDate: start.toISOString(), endDate: new Date(start.getTime() + 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Halle', maxVisitors }, cookie)
    if (r.status !== 201) throw new Error(`event failed: ${r.status} ${await r.text()}`)
    return (await r.json()).id as number
  }
  return { proc, url, event }
}

export async function registrationBench(opts: { connections: number; durationS: number; warmupS: number }): Promise<RegistrationBench> {
  const checks: string[] = []
  const dir = mkdtempSync(join(tmpdir(), 'einlass-bench-'))
  try {
    // einlass
    const e = await einlassServer(dir, await freePort())
    let einlass: Awaited<ReturnType<typeof storm>>
    let capacityCheck: RegistrationBench['capacityCheck']
    try {
      const big = await e.event(1_000_000)
      const path = `${e.url}/proxy/api/public/events/${big}/registrations`
      await storm(path, { connections: opts.connections, durationS: opts.warmupS, tag: 'warm' })
      einlass = await storm(path, { connections: opts.connections, durationS: opts.durationS, tag: 'run', serverPid: e.proc.pid })
      // capacity under the same storm: a small event must fill exactly
      const small = await e.event(500)
      const full = await storm(`${e.url}/proxy/api/public/events/${small}/registrations`, { connections: opts.connections, durationS: 3, tag: 'cap' })
      await stop(e.proc)
      const dbFile = join(dir, 'einlass.sqlite')
      noneLost(dbFile, 'event_visitor', big, einlass, 'run.', opts.connections, checks, 'einlass')
      verify(dbFile, 'event_visitor', big, null, checks, 'einlass storm event')
      const c = verify(dbFile, 'event_visitor', small, full.created, checks, 'einlass capacity 500 event')
      if (c.seatsTaken !== 500) throw new Error(`capacity event not filled: ${c.seatsTaken}`)
      capacityCheck = { capacity: 500, created: full.created, seatsTaken: c.seatsTaken, rows: c.rows, refusedFull: full.statusCounts['409'] ?? 0 }
    } finally {
      await stop(e.proc)
    }

    // raw Bun + bun:sqlite
    const baseFile = join(dir, 'baseline.sqlite')
    const basePort = await freePort()
    const b = start([BUN, join(ROOT, 'bench', 'baseline-server.ts'), String(basePort), baseFile, '10000000'], {}, ROOT)
    let baseline: Awaited<ReturnType<typeof storm>>
    try {
      const url = `http://127.0.0.1:${basePort}/`
      // the baseline has no health route: wait until it takes a registration
      for (let i = 0; ; i++) {
        try {
          if ((await fetch(url, { method: 'POST', body: JSON.stringify({ email: 'probe@bench.example', firstName: 'p', lastName: 'p' }) })).status === 201) break
        } catch {}
        if (i > 500) throw new Error('baseline did not start')
        await Bun.sleep(20)
      }
      await storm(url, { connections: opts.connections, durationS: opts.warmupS, tag: 'warm' })
      baseline = await storm(url, { connections: opts.connections, durationS: opts.durationS, tag: 'run', serverPid: b.pid })
    } finally {
      await stop(b)
    }
    noneLost(baseFile, 'visitor', 1, baseline, 'run.', opts.connections, checks, 'baseline')

    const cpuRatio = einlass.cpuMsPerRegistration && baseline.cpuMsPerRegistration ? Math.round((baseline.cpuMsPerRegistration / einlass.cpuMsPerRegistration) * 100) / 100 : null
    return { einlass, baseline, ratio: Math.round((einlass.createdPerSecond / baseline.createdPerSecond) * 100) / 100, cpuRatio, capacityCheck, checks }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
