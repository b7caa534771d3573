// Integrity after a crash: a CSV import whose server process is killed with SIGKILL in the middle is
// taken again (here: once its lease is made to run out) by a new process, and ends with every row
// imported exactly once. Before, the second run started from the first row again: the rows without
// e-mail came twice, and the rows with one counted as "already registered" and failed the run.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import pg from 'pg'
import { patientTests, postgresAvailable } from '../testing/harness'
import { createSchema } from '../testing/postgres'
import { type ServerProcess, startServerProcess } from '../testing/process'

patientTests()

const ROWS = 4000 // eight batches of 500
/** half the rows carry an e-mail address, every other row an escort and tags */
function csv(): string {
  const lines = ['Vorname;Nachname;E-Mail;Tags;Begleitung 1 Vorname;Begleitung 1 Nachname']
  for (let i = 1; i <= ROWS; i++) lines.push(`Gast${i};Nummer${i};${i % 2 ? `gast${i}@example.org` : ''};${i % 2 ? 'Presse|Nord' : ''};${i % 2 ? '' : `Begleitung${i}`};${i % 2 ? '' : 'B'}`)
  return `${lines.join('\n')}\n`
}

type Query = (text: string, params?: unknown[]) => Promise<any[]>

interface Setup {
  env: Record<string, string>
  dataDir?: string
  query(): Query
  close(): Promise<void>
}

async function api(s: ServerProcess, cookie: string, accountId: string, method: string, path: string, body?: unknown | FormData) {
  const headers: Record<string, string> = { cookie, 'x-account-id': accountId, origin: s.url }
  if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json'
  const r = await fetch(`${s.url}${path}`, { method, headers, body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body) })
  return { status: r.status, body: await r.json().catch(() => null) }
}

async function crashAndResume(setup: Setup) {
  let first: ServerProcess | null = await startServerProcess({ env: setup.env, dataDir: setup.dataDir, cleanup: setup.dataDir ? false : undefined })
  let second: ServerProcess | null = null
  try {
    const email = 'admin@crash.example'
    const st = await fetch(`${first.url}/proxy/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: first.url },
      body: JSON.stringify({ agencyName: 'Absturz', email, password: 'Geheim123!', firstName: 'Ada', lastName: 'Admin' }),
    })
    expect(st.status).toBe(200)
    const login = await fetch(`${first.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: first.url }, body: JSON.stringify({ email, password: 'Geheim123!' }) })
    expect(login.status).toBe(200)
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
    const q = setup.query()
    const [account] = await q('select id from account')
    const accountId = String(account.id)
    const start = new Date(Date.now() + 14 * 86400_000).toISOString()
    const end = new Date(Date.now() + 14 * 86400_000 + 4 * 3600_000).toISOString()
    const ev = await api(first, cookie, accountId, 'POST', '/proxy/api/events', { displayName: 'Absturzfest', startDate: start, endDate: end, timezone: 'Europe/Berlin', locationName: 'Halle', city: 'Berlin', maxVisitors: null })
    expect(ev.status).toBe(201)
    const form = new FormData()
    form.append('file', new File([csv()], 'gaeste.csv', { type: 'text/csv' }))
    const up = await api(first, cookie, accountId, 'POST', `/proxy/api/events/${ev.body.id}/imports`, form)
    expect(up.status).toBe(201)
    expect(up.body.rowCount).toBe(ROWS)
    const run = await api(first, cookie, accountId, 'POST', `/proxy/api/events/${ev.body.id}/imports/${up.body.id}/run`, { mapping: up.body.suggestedMapping })
    expect(run.status).toBe(202)
    const taskId = run.body.id

    // kill -9 once some batches are committed and others are not
    const imported = async () => Number((await q('select count(*) as n from event_visitor where import_task_id = $1', [taskId]))[0].n)
    const deadline = Date.now() + 20_000
    let seen = 0
    while (Date.now() < deadline) {
      seen = await imported()
      if (seen > 0) break
      await Bun.sleep(2)
    }
    first.proc.kill('SIGKILL')
    await first.exited
    first = null
    seen = await imported()
    expect(seen).toBeGreaterThan(0)
    expect(seen).toBeLessThan(ROWS) // really in the middle
    const [task] = await q('select status from task where id = $1', [taskId])
    expect(task.status).toBe('RUNNING')

    // the lease runs out (5 minutes; here moved into the past), a new process takes the task again
    await q(`update task set locked_until = $1 where id = $2`, ['2000-01-01T00:00:00.000Z', taskId])
    second = await startServerProcess({ env: setup.env, dataDir: setup.dataDir, cleanup: setup.dataDir ? false : undefined })
    const until = Date.now() + 60_000
    let status = ''
    while (Date.now() < until) {
      status = (await q('select status from task where id = $1', [taskId]))[0].status
      if (status === 'FINISHED' || status === 'ERROR') break
      await Bun.sleep(100)
    }
    const [done] = await q('select status, state, result from task where id = $1', [taskId])
    expect({ status: done.status, state: done.state }).toEqual({ status: 'FINISHED', state: `IMPORTED:${ROWS}:0` })
    expect(JSON.parse(done.result).imported).toBe(ROWS)
    // every row exactly once
    const [counts] = await q(`select count(*) as n, count(distinct first_name) as names from event_visitor where event_id = $1`, [ev.body.id])
    expect({ n: Number(counts.n), names: Number(counts.names) }).toEqual({ n: ROWS, names: ROWS })
    const [escorts] = await q('select count(*) as n from escort_person e join event_visitor v on v.id = e.visitor_id where v.event_id = $1', [ev.body.id])
    expect(Number(escorts.n)).toBe(ROWS / 2)
    const [tags] = await q('select count(*) as n from visitor_tag t join event_visitor v on v.id = t.visitor_id where v.event_id = $1', [ev.body.id])
    expect(Number(tags.n)).toBe(ROWS) // two tags on every other row
  } finally {
    first?.proc.kill('SIGKILL')
    await second?.stop()
    await setup.close()
  }
}

describe('a CSV import killed with SIGKILL in the middle ends with every row exactly once', () => {
  test('SQLite', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const dir = mkdtempSync(join(tmpdir(), 'einlass-crash-'))
    let db: Database | null = null
    await crashAndResume({
      env: {},
      dataDir: dir,
      query: () => async (text, params = []) => {
        db ??= new Database(join(dir, 'einlass.sqlite'))
        db.exec('pragma busy_timeout = 5000')
        return db.query(text.replace(/\$\d+/g, '?')).all(...(params as any[]))
      },
      close: async () => {
        db?.close()
        rmSync(dir, { recursive: true, force: true })
      },
    })
  }, 120_000)

  test.if(postgresAvailable())('Postgres', async () => {
    const schema = await createSchema()
    const client = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' })
    await client.connect()
    await client.query(`set search_path to ${schema.schema}`)
    await crashAndResume({
      env: { DATABASE_URL: schema.url },
      query: () => async (text, params = []) => (await client.query(text, params as any[])).rows,
      close: async () => {
        await client.end()
        await schema.drop()
      },
    })
  }, 120_000)
})
