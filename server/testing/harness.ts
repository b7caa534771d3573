// Test harness: a migrated database per test file (SQLite file or fresh Postgres schema), the real
// app behind app.handle(), a real SMTP sink, a movable clock and a cookie-keeping agent.
//
//   forEachDialect('events', (h) => {
//     test('creates', async () => { const admin = await h().admin(); ... })
//   })
import { afterAll, beforeAll, describe, setDefaultTimeout } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type App, createApp } from '../app'
import { bootstrap } from '../bootstrap'
import { TestClock } from '../clock'
import { loadConfig } from '../config/config'
import type { AppContext } from '../context'
import type { Dialect } from '../db/database'
import { type Logger, silentLogger } from '../logger'
import { COMMUNITY, type LicenseState } from '../modules/license/license'
import { type MailWorker, startMailWorker } from '../modules/mail/worker'
import { type TaskRunner, startTaskRunner } from '../modules/tasks/runner'
import { createSchema } from './postgres'
import { SmtpSink } from './smtp-sink'

export const postgresAvailable = () => (globalThis as any).__EINLASS_PG__ === true

export function dialects(): Dialect[] {
  return postgresAvailable() ? ['sqlite', 'postgres'] : ['sqlite']
}

export interface HarnessOptions {
  license?: LicenseState
  env?: Record<string, string>
  /** start an SMTP sink and point the mail worker at it (default true) */
  smtp?: boolean
  /** where the app logs (default: nowhere) */
  log?: Logger
}

export interface Harness {
  dialect: Dialect
  ctx: AppContext
  app: App
  clock: TestClock
  smtp: SmtpSink
  mail: MailWorker
  tasks: TaskRunner
  dataDir: string
  request(method: string, path: string, opts?: RequestOptions): Promise<TestResponse>
  agent(): Agent
  /** a logged-in administrator of a fresh agency */
  admin(opts?: { email?: string; agency?: string }): Promise<Agent & { email: string; password: string; agencyId: number; accountId: number }>
  /** delivers the outbox to the SMTP sink */
  deliverMail(): Promise<void>
  close(): Promise<void>
}

export interface RequestOptions {
  body?: unknown
  headers?: Record<string, string>
  form?: FormData
}

export interface TestResponse {
  status: number
  headers: Headers
  body: any
  text: string
}

export const TEST_PASSWORD = 'Geheim123!'
let uniq = 0
export const uniqueEmail = (prefix = 'user') => `${prefix}.${Date.now().toString(36)}${(uniq++).toString(36)}@example.org`

export class Agent {
  cookies = new Map<string, string>()
  headers: Record<string, string> = {}
  constructor(private readonly h: { handle(r: Request): Promise<Response> | Response }) {}

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...this.headers, ...opts.headers }
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    let body: BodyInit | undefined
    if (opts.form) body = opts.form
    else if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json'
      body = JSON.stringify(opts.body)
    }
    const res = await this.h.handle(new Request(`http://localhost${path}`, { method, headers, body, redirect: 'manual' }))
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (!value || attrs.some((a) => /max-age=0/i.test(a.trim()))) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = await res.text()
    let parsed: any = text
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text)
    return { status: res.status, headers: res.headers, body: parsed, text }
  }
  get(path: string, opts?: RequestOptions) {
    return this.request('GET', path, opts)
  }
  post(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request('POST', path, { ...opts, body })
  }
  put(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request('PUT', path, { ...opts, body })
  }
  patch(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request('PATCH', path, { ...opts, body })
  }
  delete(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request('DELETE', path, { ...opts, body })
  }
}

export async function createHarness(dialect: Dialect, opts: HarnessOptions = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'einlass-test-'))
  const smtp = await new SmtpSink().start()
  const pg = dialect === 'postgres' ? await createSchema() : null
  const config = loadConfig({
    argv: [],
    env: {
      EINLASS_DATA_DIR: dataDir,
      DATABASE_URL: pg ? pg.url : 'sqlite:einlass.sqlite',
      SMTP_URL: opts.smtp === false ? '' : smtp.url,
      EINLASS_LOG_LEVEL: 'error',
      EINLASS_BASE_URL: 'http://localhost',
      ...opts.env,
    },
    cwd: dataDir,
  })
  const clock = new TestClock()
  const boot = await bootstrap(config, { log: opts.log ?? silentLogger, clock, license: opts.license ?? COMMUNITY })
  const app = createApp(boot.ctx)
  const mail = startMailWorker(boot.ctx, { autoStart: false })
  const tasks = startTaskRunner(boot.ctx, { autoStart: false })
  // Tests drive the workers explicitly (deliverMail, tasks.runOnce) so results are deterministic.
  boot.wire(() => {}, () => {})

  const h: Harness = {
    dialect,
    ctx: boot.ctx,
    app,
    clock,
    smtp,
    mail,
    tasks,
    dataDir,
    request: (method, path, o) => new Agent(app).request(method, path, o),
    agent: () => new Agent(app),
    async admin(o = {}) {
      const email = o.email ?? uniqueEmail('admin')
      const { createAgencyWithAdmin } = await import('../modules/identity/service')
      const { account } = await createAgencyWithAdmin(boot.ctx, { agencyName: o.agency ?? `Agentur ${uniq++}`, email, password: TEST_PASSWORD, firstName: 'Ada', lastName: 'Admin' }, { onlyIfNoUser: false })
      const agent = new Agent(app) as Agent & { email: string; password: string; agencyId: number; accountId: number }
      const r = await agent.post('/auth/login', { email, password: TEST_PASSWORD })
      if (r.status !== 200) throw new Error(`admin login failed: ${r.status} ${r.text}`)
      agent.headers['x-account-id'] = String(account.id)
      Object.assign(agent, { email, password: TEST_PASSWORD, agencyId: account.agency_id, accountId: account.id })
      return agent
    },
    async deliverMail() {
      await mail.runOnce()
    },
    async close() {
      await mail.stop()
      await tasks.stop()
      await boot.handle.close()
      await smtp.stop()
      if (pg) await pg.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return h
}

/**
 * 5 s per test is too short for tests that start servers or hash passwords on a loaded machine.
 * bunfig.toml cannot set it and setDefaultTimeout() holds for the file that calls it while
 * loading, so every suite calls this (forEachDialect does); `npm test` also passes --timeout.
 */
export const patientTests = () => setDefaultTimeout(30_000)

/** Registers the suite once per available dialect, each with its own harness. */
export function forEachDialect(name: string, fn: (h: () => Harness, dialect: Dialect) => void, opts: HarnessOptions = {}) {
  patientTests()
  for (const dialect of dialects()) {
    describe(`${name} [${dialect}]`, () => {
      let harness: Harness | null = null
      beforeAll(async () => {
        harness = await createHarness(dialect, opts)
      })
      afterAll(async () => {
        await harness?.close()
      })
      fn(() => {
        if (!harness) throw new Error('harness not ready')
        return harness
      }, dialect)
    })
  }
}

/** A valid event body, shifted by days from now. */
export function eventBody(overrides: Record<string, unknown> = {}) {
  const start = new Date(Date.now() + 14 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const end = new Date(start.getTime() + 4 * 3600_000)
  return {
    displayName: 'Sommerfest',
    startDate: start.toISOString(),
    endDate: end.toISOString(),
    timezone: 'Europe/Berlin',
    locationName: 'Halle 7',
    city: 'Berlin',
    maxVisitors: 100,
    ...overrides,
  }
}
