// Several einlass processes on one Postgres schema, each with its own empty data dir, for the tests
// that prove a rule holds across processes (capacity, holds, orders, rate limits, shared secrets,
// caches; docs/operations.md "Several processes"). Call inside a describe: it registers the
// beforeAll/afterAll that start and stop the servers and the schema, and answers a getter.
import { afterAll, beforeAll, expect } from 'bun:test'
import pg from 'pg'
import { createSchema } from './postgres'
import { type ServerProcess, startServerProcess } from './process'
import { SmtpSink } from './smtp-sink'

export interface Processes {
  all: ServerProcess[]
  schema: string
  /** the schema's DATABASE_URL */
  url: string
  /** the mail sink every process delivers to (with `smtp: true`) */
  smtp: SmtpSink | null
  /** the server of request i: round-robin over all */
  at(i: number): ServerProcess
  /** SQL on the shared schema ($1 parameters) */
  query(sql: string, params?: unknown[]): Promise<any[]>
  /** a JSON request; with `cookie` as the organiser, with `from` as that client address (needs behindProxy) */
  send(s: ServerProcess, method: string, path: string, body?: unknown, opts?: { cookie?: string; from?: string; headers?: Record<string, string> }): Promise<Response>
  /** the first agency and its administrator (on the first process); answers the session cookie */
  setupAgency(email?: string): Promise<string>
  /** one more process on the same schema (own empty data dir), stopped with the others; `port` to take a stopped one's place */
  start(env?: Record<string, string>, port?: number): Promise<ServerProcess>
}

export interface TwoProcesses extends Processes {
  one: ServerProcess
  two: ServerProcess
  /** the server of request i: alternating, so both serve half */
  either(i: number): ServerProcess
}

export interface ProcessesOptions {
  behindProxy?: boolean
  /** start an SMTP sink and point every process at it */
  smtp?: boolean
  env?: Record<string, string>
}

export function processesOnPostgres(n: number, opts: ProcessesOptions = {}): () => Processes {
  let schema: Awaited<ReturnType<typeof createSchema>>
  let client: pg.Client | null = null
  let p: Processes | null = null
  const extra: ServerProcess[] = []
  let smtp: SmtpSink | null = null
  beforeAll(async () => {
    schema = await createSchema()
    if (opts.smtp) smtp = await new SmtpSink().start()
    // behind a trusted proxy each simulated client may have its own address (X-Forwarded-For)
    const env = {
      DATABASE_URL: schema.url,
      ...(opts.behindProxy ? { EINLASS_TRUSTED_PROXIES: '127.0.0.1, ::1' } : {}),
      ...(smtp ? { SMTP_URL: smtp.url } : {}),
      ...opts.env,
    }
    const all = await Promise.all(Array.from({ length: n }, () => startServerProcess({ env, readyTimeoutMs: 90_000 })))
    const send: Processes['send'] = (s, method, path, body, o = {}) =>
      fetch(`${s.url}${path}`, {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(o.cookie ? { cookie: o.cookie } : {}),
          ...(o.from ? { 'x-forwarded-for': o.from } : {}),
          ...o.headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    p = {
      all,
      schema: schema.schema,
      url: schema.url,
      smtp,
      at: (i) => all[i % all.length],
      async query(sql, params = []) {
        if (!client) {
          client = new pg.Client({ connectionString: schema.url.replace(/\?.*$/, ''), options: `-c search_path=${schema.schema}` })
          await client.connect()
        }
        return (await client.query(sql, params as unknown[])).rows
      },
      send,
      async setupAgency(email = 'admin@zwei-prozesse.example') {
        const r = await send(all[0], 'POST', '/proxy/api/setup', { agencyName: 'Zwei Prozesse', email, password: 'Geheim123!', firstName: 'Ada', lastName: 'Admin' })
        expect(r.status).toBe(200)
        return r.headers.getSetCookie()[0].split(';')[0]
      },
      async start(more = {}, port) {
        const s = await startServerProcess({ env: { ...env, ...more }, port, readyTimeoutMs: 90_000 })
        extra.push(s)
        return s
      },
    }
  }, 180_000)
  afterAll(async () => {
    await client?.end().catch(() => {})
    await Promise.all([...(p?.all ?? []), ...extra].map((s) => s.stop()))
    await smtp?.stop()
    await schema?.drop()
  })
  return () => {
    if (!p) throw new Error('processesOnPostgres: used outside its describe or before beforeAll')
    return p
  }
}

export function twoProcessesOnPostgres(opts: ProcessesOptions = {}): () => TwoProcesses {
  const procs = processesOnPostgres(2, opts)
  return () => {
    const p = procs()
    return { ...p, one: p.all[0], two: p.all[1], either: (i) => (i % 2 ? p.all[0] : p.all[1]) }
  }
}
