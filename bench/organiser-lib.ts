// Shared by the organiser benchmarks: start the compiled binary on a fresh data dir, set up an agency,
// log in, seed guests straight into its SQLite file (WAL lets the bench write while the server runs).
import { Database } from 'bun:sqlite'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { testLicenseText } from '../server/testing/license-test-key'

export const BINARY = process.env.EINLASS_BINARY ?? resolve(import.meta.dir, '..', 'e2e', '.artifacts', 'einlass')

export async function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => res(port))
    })
  })
}

export interface Running {
  url: string
  dataDir: string
  proc: ChildProcess
  cookie: string
  accountId: string
  headers: Record<string, string>
  stop(): Promise<void>
  rssMb(): number
}

/**
 * `license`: a license file signed with the test key (the binary must be built with --test-license-key),
 * for more than the community edition's 5 events. `setup`: the first process, when this one is a second
 * process on the same database (Postgres, DATABASE_URL in env): no setup call, its session is shared.
 */
export async function startBinary(env: Record<string, string> = {}, opts: { license?: boolean; setup?: Running } = {}): Promise<Running> {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'einlass-bench-'))
  if (opts.license) writeFileSync(join(dataDir, 'license.json'), testLicenseText({ limits: { events: 1000, guestAccounts: 1_000_000, agencyUsers: 25, storageMb: 10_240 } }))
  // PROFILE_DIR: the server from source under the runtime's CPU profiler instead of the binary (same
  // trust of the test license key); the .cpuprofile lands there at exit — bench/profile-summary.ts reads it
  const profile = process.env.PROFILE_DIR
  const [cmd, args] = profile
    ? [resolve(import.meta.dir, '..', 'node_modules', '.bin', 'bun'), ['--cpu-prof', `--cpu-prof-dir=${resolve(profile)}`, '--define', '__EINLASS_TRUST_TEST_LICENSE_KEY__=true', resolve(import.meta.dir, '..', 'server', 'main.ts'), 'serve']]
    : [BINARY, ['serve']]
  const proc = spawn(cmd, args, {
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), EINLASS_HOST: '127.0.0.1', EINLASS_DATA_DIR: dataDir, EINLASS_BASE_URL: `http://127.0.0.1:${port}`, EINLASS_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/ready`)).ok) break
    } catch {}
    if (i > 150) throw new Error('binary did not start')
    await Bun.sleep(100)
  }
  const running = (cookie: string, accountId: string, headers: Record<string, string>): Running => ({
    url,
    dataDir,
    proc,
    cookie,
    accountId,
    headers,
    rssMb() {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))
      return m ? Number(m[1]) / 1024 : 0
    },
    async stop() {
      proc.kill('SIGTERM')
      await new Promise((r) => (proc.exitCode !== null ? r(null) : proc.once('exit', r)))
      rmSync(dataDir, { recursive: true, force: true })
    },
  })
  if (opts.setup) return running(opts.setup.cookie, opts.setup.accountId, opts.setup.headers)
  const r = await fetch(`${url}/proxy/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agencyName: 'Bench', email: 'bench@example.org', password: 'Geheim123!', firstName: 'B', lastName: 'Ench' }),
  })
  if (!r.ok) throw new Error(`setup failed: ${r.status} ${await r.text()}`)
  const body = (await r.json()) as { accountId: number }
  const cookie = r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  const headers = { cookie, 'x-account-id': String(body.accountId), 'content-type': 'application/json' }
  return running(cookie, String(body.accountId), headers)
}

export async function createEventVia(s: Running, extra: Record<string, unknown> = {}): Promise<number> {
  const start = new Date(Date.now() + 86400_000).toISOString()
  const end = new Date(Date.now() + 2 * 86400_000).toISOString()
  const r = await fetch(`${s.url}/proxy/api/events`, { method: 'POST', headers: s.headers, body: JSON.stringify({ displayName: 'Bench-Event', startDate: start, endDate: end, locationName: 'Halle', city: 'Berlin', ...extra }) })
  if (r.status !== 201) throw new Error(`event: ${r.status} ${await r.text()}`)
  return ((await r.json()) as { id: number }).id
}

const FIRST = ['Anna', 'Bernd', 'Carla', 'Dieter', 'Eva', 'Frank', 'Greta', 'Hans', 'Ina', 'Jonas', 'Klara', 'Lukas', 'Mia', 'Noah', 'Olga', 'Paul']
const LAST = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Koch', 'Richter', 'Klein', 'Wolf', 'Neumann', 'Schwarz']
const STATUSES = ['CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'INVITED', 'ADDED', 'REQUIRE_APPROVAL', 'DECLINED', 'PENDING']

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
function crockford(n: number) {
  let s = ''
  do {
    s = ALPHABET[n % 32] + s
    n = Math.floor(n / 32)
  } while (n > 0)
  return s
}

/** Inserts n guests of an event (numbered from `from`, default 0); returns their ticket codes (all CONFIRMED when `confirmed`). */
export function seedGuests(dataDir: string, eventId: number, n: number, opts: { confirmed?: boolean; from?: number } = {}): string[] {
  const db = new Database(join(dataDir, 'einlass.sqlite'))
  db.exec('pragma busy_timeout = 10000')
  const codes: string[] = []
  const now = new Date().toISOString()
  const insert = db.prepare(
    `insert into event_visitor (event_id, status, vip, salutation, first_name, last_name, email, company, visitor_count, seats_held, event_token, download_token, ticket_code, source, registered_at, created_at, updated_at, mail_error)
     values (?, ?, ?, 'Frau', ?, ?, ?, ?, 1, ?, ?, ?, ?, 'IMPORT', ?, ?, ?, ?)`,
  )
  const tx = db.transaction(() => {
    for (let i = opts.from ?? 0; i < (opts.from ?? 0) + n; i++) {
      const status = opts.confirmed ? 'CONFIRMED' : STATUSES[i % STATUSES.length]
      const code = `B${crockford(i).padStart(9, '0')}`
      codes.push(code)
      insert.run(
        eventId,
        status,
        i % 17 === 0 ? 1 : 0,
        FIRST[i % FIRST.length],
        `${LAST[(i * 7) % LAST.length]}${i % 100}`,
        `gast${i}@bench.example`,
        i % 3 === 0 ? `Firma ${i % 50}` : null,
        ['CONFIRMED', 'REQUIRE_APPROVAL', 'PENDING'].includes(status) ? 1 : 0,
        `et${i}-${eventId}`,
        `dt${i}-${eventId}`,
        code,
        status === 'CONFIRMED' ? now : null,
        now,
        now,
        i % 101 === 0 ? 1 : 0,
      )
    }
  })
  tx()
  db.close()
  return codes
}

/** Runs fn(0 … count-1) with at most `concurrency` at a time (set-up work that is not measured). */
export async function pool(count: number, concurrency: number, fn: (i: number) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await fn(next++)
    }),
  )
}

export function percentile(sorted: number[], p: number) {
  if (!sorted.length) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}
