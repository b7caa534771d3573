// Shared scaffolding of the crash tests: a real server process on SQLite or Postgres, an agency with
// its admin and an event, a way to read the database beside the server, and "kill -9, let the lease
// run out, start a new process" for a background task.
import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { postgresAvailable } from '../testing/harness'
import { createSchema } from '../testing/postgres'
import { type ServerProcess, startServerProcess } from '../testing/process'

export type Query = (text: string, params?: unknown[]) => Promise<any[]>

export interface Setup {
  env: Record<string, string>
  dataDir?: string
  query: Query
  close(): Promise<void>
}

export interface Admin {
  cookie: string
  accountId: string
  api(method: string, path: string, body?: unknown | FormData): Promise<{ status: number; body: any }>
}

export const start = (setup: Setup) => startServerProcess({ env: setup.env, dataDir: setup.dataDir, cleanup: setup.dataDir ? false : undefined })

/** Sets the agency up, logs its admin in; `api` talks to whichever process is current. */
export async function bootAgency(setup: Setup, current: () => ServerProcess): Promise<Admin> {
  const s = current()
  const email = 'admin@crash.example'
  const st = await fetch(`${s.url}/proxy/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: s.url },
    body: JSON.stringify({ agencyName: 'Absturz', email, password: 'Geheim123!', firstName: 'Ada', lastName: 'Admin' }),
  })
  expect(st.status).toBe(200)
  const login = await fetch(`${s.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: s.url }, body: JSON.stringify({ email, password: 'Geheim123!' }) })
  expect(login.status).toBe(200)
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  const [account] = await setup.query('select id from account')
  const accountId = String(account.id)
  return {
    cookie,
    accountId,
    async api(method, path, body) {
      const p = current()
      const headers: Record<string, string> = { cookie, 'x-account-id': accountId, origin: p.url }
      if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json'
      const r = await fetch(`${p.url}${path}`, { method, headers, body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body) })
      return { status: r.status, body: await r.json().catch(() => null) }
    },
  }
}

export async function createEvent(admin: Admin, displayName: string): Promise<number> {
  const start = new Date(Date.now() + 14 * 86400_000).toISOString()
  const end = new Date(Date.now() + 14 * 86400_000 + 4 * 3600_000).toISOString()
  const ev = await admin.api('POST', '/proxy/api/events', { displayName, startDate: start, endDate: end, timezone: 'Europe/Berlin', locationName: 'Halle', city: 'Berlin', maxVisitors: null })
  expect(ev.status).toBe(201)
  return ev.body.id
}

/** Polls until `check` returns a value other than undefined or the time is up (then the last value). */
export async function waitFor<T>(check: () => Promise<T | undefined>, ms: number, every = 2): Promise<T | undefined> {
  const until = Date.now() + ms
  let v: T | undefined
  while (Date.now() < until) {
    v = await check()
    if (v !== undefined) return v
    await Bun.sleep(every)
  }
  return v
}

/** The task's lease runs out (5 minutes; here moved into the past) so that a new process takes it again. */
export async function expireLease(q: Query, taskId: number) {
  await q('update task set locked_until = $1 where id = $2', ['2000-01-01T00:00:00.000Z', taskId])
}

export async function waitForTaskEnd(q: Query, taskId: number, ms = 60_000) {
  return waitFor(async () => {
    const [t] = await q('select status from task where id = $1', [taskId])
    return t.status === 'FINISHED' || t.status === 'ERROR' ? t.status : undefined
  }, ms, 100)
}

/** One test per dialect: SQLite in a data dir of its own, Postgres in a schema of its own. */
export function onBothDialects(name: string, scenario: (setup: Setup) => Promise<void>, timeout = 120_000) {
  test(`${name} (SQLite)`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'einlass-crash-'))
    let db: Database | null = null
    await scenario({
      env: {},
      dataDir: dir,
      query: async (text, params = []) => {
        db ??= new Database(join(dir, 'einlass.sqlite'))
        db.exec('pragma busy_timeout = 5000')
        return db.query(text.replace(/\$\d+/g, '?')).all(...(params as any[]))
      },
      close: async () => {
        db?.close()
        rmSync(dir, { recursive: true, force: true })
      },
    })
  }, timeout)

  test.if(postgresAvailable())(`${name} (Postgres)`, async () => {
    const schema = await createSchema()
    const client = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' })
    await client.connect()
    await client.query(`set search_path to ${schema.schema}`)
    await scenario({
      env: { DATABASE_URL: schema.url },
      query: async (text, params = []) => (await client.query(text, params as any[])).rows,
      close: async () => {
        await client.end()
        await schema.drop()
      },
    })
  }, timeout)
}
