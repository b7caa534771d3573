// einlass through pgbouncer in transaction pooling (docs/operations.md "pgbouncer"): the test starts
// its own pgbouncer (Debian's package) on a free port in front of the shared Postgres, two einlass
// processes start at once through it on a fresh schema (so the migration at start, one transaction
// under a transaction-scoped advisory lock, runs through the pooler) and then serve a registration
// storm over a pool of 3 server connections: capacity exact, every answer in the database.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eventBody, postgresAvailable } from '../testing/harness'
import { createSchema, TEST_POSTGRES_URL } from '../testing/postgres'
import { freePort, type ServerProcess, startServerProcess } from '../testing/process'
import pg from 'pg'

const PGBOUNCER = '/usr/sbin/pgbouncer'

describe.if(postgresAvailable() && existsSync(PGBOUNCER))('einlass through pgbouncer in transaction pooling [postgres]', () => {
  let schema: Awaited<ReturnType<typeof createSchema>>
  let bouncer: ChildProcess
  let dir = ''
  let procs: ServerProcess[] = []
  let url = ''
  const bouncerLog: string[] = []

  beforeAll(async () => {
    schema = await createSchema()
    const pgUrl = new URL(TEST_POSTGRES_URL)
    const port = await freePort()
    dir = mkdtempSync(join(tmpdir(), 'einlass-pgbouncer-'))
    chmodSync(dir, 0o755)
    // the schema through connect_query: a transaction pooler cannot pass einlass's per-connection
    // search_path (the startup parameter "options"), so it is ignored and set per server connection
    writeFileSync(
      join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `einlass = host=${pgUrl.hostname} port=${pgUrl.port || 5432} dbname=${pgUrl.pathname.slice(1)} user=${pgUrl.username || 'postgres'} connect_query='set search_path to ${schema.schema}'`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(dir, 'users.txt')}`,
        'pool_mode = transaction',
        'default_pool_size = 3',
        'max_client_conn = 200',
        'ignore_startup_parameters = extra_float_digits,options',
        '',
      ].join('\n'),
    )
    writeFileSync(join(dir, 'users.txt'), `"${pgUrl.username || 'postgres'}" ""\n`)
    for (const f of ['pgbouncer.ini', 'users.txt']) chmodSync(join(dir, f), 0o644)
    // pgbouncer refuses to run as root: as nobody then
    const asRoot = process.getuid?.() === 0
    bouncer = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'nobody'] : []), join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] })
    bouncer.stdout!.on('data', (d) => bouncerLog.push(String(d)))
    bouncer.stderr!.on('data', (d) => bouncerLog.push(String(d)))
    url = `postgres://${pgUrl.username || 'postgres'}@127.0.0.1:${port}/einlass?schema=${schema.schema}`
    for (let i = 0; ; i++) {
      const c = new pg.Client({ connectionString: url.replace(/\?.*$/, '') })
      try {
        await c.connect()
        await c.query('select 1')
        await c.end()
        break
      } catch {
        await c.end().catch(() => {})
        if (i > 100) throw new Error(`pgbouncer did not start:\n${bouncerLog.join('')}`)
        await Bun.sleep(100)
      }
    }
    procs = await Promise.all([0, 1].map(() => startServerProcess({ env: { DATABASE_URL: url }, readyTimeoutMs: 90_000 })))
  }, 180_000)

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()))
    bouncer?.kill('SIGTERM')
    await schema?.drop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('two processes migrated at once through the pooler: every migration once, in the right schema', async () => {
    const direct = new pg.Client({ connectionString: TEST_POSTGRES_URL })
    await direct.connect()
    try {
      const { migrations } = await import('../../migrations')
      const rows = await direct.query(`select name from ${schema.schema}.einlass_migration`)
      expect(rows.rows.length).toBe(Object.keys(migrations).length)
      expect((await direct.query(`select count(*)::int as n from ${schema.schema}.install_state where name = 'secrets'`)).rows[0].n).toBe(1)
    } finally {
      await direct.end()
    }
  })

  test('a registration storm over 2 processes and 3 server connections: exactly the capacity, every 201 stored', async () => {
    const call = (p: ServerProcess, method: string, path: string, body?: unknown, cookie?: string) =>
      fetch(`${p.url}${path}`, { method, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) })
    const setup = await call(procs[0], 'POST', '/proxy/api/setup', { agencyName: 'Pooler', email: 'admin@pooler.example', password: 'Geheim123!', firstName: 'P', lastName: 'B' })
    expect(setup.status).toBe(200)
    const cookie = setup.headers.getSetCookie()[0].split(';')[0]
    const e = await call(procs[1], 'POST', '/proxy/api/events', eventBody({ maxVisitors: 40 }), cookie)
    expect(e.status).toBe(201)
    const eventId = (await e.json()).id
    const emails = Array.from({ length: 120 }, (_, i) => `sturm${i}@pooler.example`)
    const answers = await Promise.all(emails.map((email, i) => call(procs[i % 2], 'POST', `/proxy/api/public/events/${eventId}/registrations`, { salutation: 'Frau', firstName: 'Sturm', lastName: `Nr${i}`, email })))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 201).length).toBe(40)
    expect(statuses.filter((s) => s === 409).length).toBe(80)
    const direct = new pg.Client({ connectionString: TEST_POSTGRES_URL })
    await direct.connect()
    try {
      const rows = await direct.query(`select email from ${schema.schema}.event_visitor where event_id = $1`, [eventId])
      expect(rows.rows.map((r) => r.email).sort()).toEqual(emails.filter((_, i) => statuses[i] === 201).sort())
      expect((await direct.query(`select seats_taken from ${schema.schema}.event where id = $1`, [eventId])).rows[0].seats_taken).toBe(40)
    } finally {
      await direct.end()
    }
    // the login's session and the organiser's list work through the pooler too
    const list = await call(procs[0], 'GET', `/proxy/api/events/${eventId}/visitors`, undefined, cookie)
    expect(list.status).toBe(200)
  }, 120_000)
})
