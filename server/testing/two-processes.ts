// Two einlass processes on one Postgres schema, for the tests that prove a rule holds across
// processes (capacity, holds, orders, rate limits). Call inside a describe: it registers the
// beforeAll/afterAll that start and stop both servers and the schema, and answers a getter.
import { afterAll, beforeAll, expect } from 'bun:test'
import pg from 'pg'
import { createSchema } from './postgres'
import { type ServerProcess, startServerProcess } from './process'

export interface TwoProcesses {
  one: ServerProcess
  two: ServerProcess
  schema: string
  /** the server of request i: alternating, so both serve half */
  either(i: number): ServerProcess
  /** SQL on the shared schema ($1 parameters) */
  query(sql: string, params?: unknown[]): Promise<any[]>
  /** a JSON request; with `cookie` as the organiser, with `from` as that client address (needs behindProxy) */
  send(s: ServerProcess, method: string, path: string, body?: unknown, opts?: { cookie?: string; from?: string }): Promise<Response>
  /** the first agency and its administrator (on process one); answers the session cookie */
  setupAgency(email?: string): Promise<string>
}

export function twoProcessesOnPostgres(opts: { behindProxy?: boolean } = {}): () => TwoProcesses {
  let schema: Awaited<ReturnType<typeof createSchema>>
  let client: pg.Client | null = null
  let p: TwoProcesses | null = null
  beforeAll(async () => {
    schema = await createSchema()
    // behind a trusted proxy each simulated client may have its own address (X-Forwarded-For)
    const env = { DATABASE_URL: schema.url, ...(opts.behindProxy ? { EINLASS_TRUSTED_PROXIES: '127.0.0.1, ::1' } : {}) }
    const [one, two] = await Promise.all([startServerProcess({ env }), startServerProcess({ env })])
    const send: TwoProcesses['send'] = (s, method, path, body, o = {}) =>
      fetch(`${s.url}${path}`, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(o.cookie ? { cookie: o.cookie } : {}), ...(o.from ? { 'x-forwarded-for': o.from } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    p = {
      one,
      two,
      schema: schema.schema,
      either: (i) => (i % 2 ? one : two),
      async query(sql, params = []) {
        if (!client) {
          client = new pg.Client({ connectionString: schema.url.replace(/\?.*$/, ''), options: `-c search_path=${schema.schema}` })
          await client.connect()
        }
        return (await client.query(sql, params as unknown[])).rows
      },
      send,
      async setupAgency(email = 'admin@zwei-prozesse.example') {
        const r = await send(one, 'POST', '/proxy/api/setup', { agencyName: 'Zwei Prozesse', email, password: 'Geheim123!', firstName: 'Ada', lastName: 'Admin' })
        expect(r.status).toBe(200)
        return r.headers.getSetCookie()[0].split(';')[0]
      },
    }
  }, 60_000)
  afterAll(async () => {
    await client?.end().catch(() => {})
    await Promise.all([p?.one.stop(), p?.two.stop()])
    await schema?.drop()
  })
  return () => {
    if (!p) throw new Error('twoProcessesOnPostgres: used outside its describe or before beforeAll')
    return p
  }
}
