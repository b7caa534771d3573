// The einlass command, run as a subprocess the way an operator runs it.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pkg from '../package.json'
import { SETTINGS } from './config/config'
import { migrations } from '../migrations'
import { patientTests, postgresAvailable } from './testing/harness'
import { testLicenseText } from './testing/license-test-key'
import { createSchema } from './testing/postgres'
import { runCli, startServerProcess } from './testing/process'

patientTests()

const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'einlass-cli-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const lines = (s: string) => s.trim().split('\n').filter(Boolean)

describe('einlass --help / --version / unknown commands', () => {
  test('--help lists every command and every setting', () => {
    const r = runCli(['--help'])
    expect(r.code).toBe(0)
    for (const c of ['serve', 'migrate', 'create-admin', 'license show', 'license verify FILE', 'backup FILE', 'health', '--help', '--version']) expect(r.stdout).toContain(c)
    for (const s of SETTINGS) {
      expect(r.stdout).toContain(s.flag)
      expect(r.stdout).toContain(s.env)
    }
    expect(runCli(['help']).stdout).toBe(r.stdout)
  })

  test('--version prints the version', () => {
    const r = runCli(['--version'])
    expect(r.code).toBe(0)
    expect(r.stdout.trim()).toBe(pkg.version)
  })

  test('an unknown command fails with one line', () => {
    const r = runCli(['frobnicate'])
    expect(r.code).toBe(2)
    expect(lines(r.stderr)).toEqual(['einlass: unknown command "frobnicate" (see einlass --help)'])
  })
})

describe('einlass serve with a bad configuration', () => {
  test('exits non-zero with one line naming the setting and the problem', () => {
    const cwd = tmp()
    const r = runCli(['serve'], { cwd, env: { EINLASS_DATA_DIR: cwd, DATABASE_URL: 'mysql://root@localhost/einlass' } })
    expect(r.code).toBe(2)
    expect(lines(r.stderr)).toEqual(['einlass: configuration error: DATABASE_URL: unsupported scheme "mysql"'])
    expect(r.stdout).toBe('')
  })

  test('a bad port or time zone likewise', () => {
    const cwd = tmp()
    let r = runCli([], { cwd, env: { EINLASS_DATA_DIR: cwd, PORT: 'http' } })
    expect(r.code).toBe(2)
    expect(lines(r.stderr)).toEqual(['einlass: configuration error: PORT: not a whole number: "http"'])
    r = runCli(['serve', '--timezone', 'Europe/Atlantis'], { cwd, env: { EINLASS_DATA_DIR: cwd } })
    expect(r.code).toBe(2)
    expect(lines(r.stderr)).toEqual(['einlass: configuration error: --timezone: unknown time zone'])
  })
})

describe('einlass migrate', () => {
  const all = Object.keys(migrations)

  test('applies every migration to a fresh SQLite database, then has nothing to do', () => {
    const dataDir = tmp()
    const env = { EINLASS_DATA_DIR: dataDir }
    let r = runCli(['migrate'], { env })
    expect(r.code).toBe(0)
    expect(r.stdout.trim()).toBe(`applied: ${all.join(', ')}`)
    const db = new Database(join(dataDir, 'einlass.sqlite'), { readonly: true })
    expect((db.query('select name from einlass_migration order by name').all() as { name: string }[]).map((m) => m.name)).toEqual(all)
    db.close()
    r = runCli(['migrate'], { env })
    expect(r.code).toBe(0)
    expect(r.stdout.trim()).toBe('database is up to date')
  })

  test.if(postgresAvailable())('applies every migration to a Postgres schema', async () => {
    const pg = await createSchema()
    try {
      const env = { EINLASS_DATA_DIR: tmp(), DATABASE_URL: pg.url }
      expect(runCli(['migrate'], { env }).stdout.trim()).toBe(`applied: ${all.join(', ')}`)
      expect(runCli(['migrate'], { env }).stdout.trim()).toBe('database is up to date')
    } finally {
      await pg.drop()
    }
  })

  test('a database migrated by a newer einlass: migrate and serve refuse with one line, nothing applied', async () => {
    const dataDir = tmp()
    const env = { EINLASS_DATA_DIR: dataDir }
    expect(runCli(['migrate'], { env }).code).toBe(0)
    const db = new Database(join(dataDir, 'einlass.sqlite'))
    db.run("insert into einlass_migration (name, timestamp) values ('2027-01-01-000_future', '2027-01-01T00:00:00.000Z')")
    db.close()
    const line = 'einlass: the database was migrated by a newer einlass (unknown migration 2027-01-01-000_future); start that version or restore a backup'
    let r = runCli(['migrate'], { env })
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toEqual([line])
    r = runCli(['serve'], { env, timeoutMs: 20_000 })
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toContain(line)
    expect(r.stdout).not.toContain('listening')
  })

  test('an unreachable database fails with one line', () => {
    const r = runCli(['migrate'], { env: { EINLASS_DATA_DIR: tmp(), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } })
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toHaveLength(1)
    expect(r.stderr).toStartWith('einlass: ')
  })
})

describe('einlass create-admin', () => {
  test('creates the first agency and administrator, and only while no user exists', () => {
    const env = { EINLASS_DATA_DIR: tmp() }
    const args = ['create-admin', '--email', 'Chefin@Example.org', '--password', 'Geheim123!', '--agency', 'Agentur Nord']
    let r = runCli(args, { env })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout.trim()).toMatch(/^created agency "Agentur Nord" \(id \d+\) with administrator chefin@example.org$/)
    r = runCli(['create-admin', '--email', 'zweite@example.org', '--password', 'Geheim123!', '--agency', 'Agentur Süd'], { env })
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toEqual(['einlass: a user exists already; create further users in the app'])
  })

  test('bad input names the flags', () => {
    const r = runCli(['create-admin', '--email', 'nope', '--password', 'kurz'], { env: { EINLASS_DATA_DIR: tmp() } })
    expect(r.code).toBe(2)
    expect(lines(r.stderr)).toEqual(['einlass: --agency: REQUIRED, --email: INVALID_EMAIL, --password: PASSWORD_TOO_WEAK'])
  })

  test('the administrator can log in to the served app', async () => {
    const dataDir = tmp()
    runCli(['create-admin', '--email', 'ops@example.org', '--password', 'Geheim123!', '--agency', 'Ops'], { env: { EINLASS_DATA_DIR: dataDir } })
    const server = await startServerProcess({ dataDir })
    try {
      const r = await fetch(`${server.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify({ email: 'ops@example.org', password: 'Geheim123!' }) })
      expect(r.status).toBe(200)
      expect((await fetch(`${server.url}/proxy/api/setup`).then((x) => x.json())).required).toBe(false)
    } finally {
      await server.stop()
    }
  })
})

describe('einlass license', () => {
  test('show: community edition without a file', () => {
    const r = runCli(['license', 'show'], { env: { EINLASS_DATA_DIR: tmp() } })
    expect(r.code).toBe(0)
    expect(lines(r.stdout)).toEqual(['community edition: no license file', 'features: (none)', 'limits: events 5, guestAccounts 1000, agencyUsers 3, storageMb 1024'])
  })

  test('show: the license.json in the data dir', () => {
    const dataDir = tmp()
    writeFileSync(join(dataDir, 'license.json'), testLicenseText({ validUntil: '2099-12-31', features: ['MULTI_LANGUAGE', 'MAIL_CUSTOM'], limits: { events: -1, guestAccounts: 500, agencyUsers: 10, storageMb: 2048 } }))
    const r = runCli(['license', 'show'], { env: { EINLASS_DATA_DIR: dataDir } })
    expect(r.code).toBe(0)
    expect(lines(r.stdout)).toEqual([
      `licensed to Testagentur GmbH, valid until 2099-12-31 (${join(dataDir, 'license.json')})`,
      'features: MULTI_LANGUAGE, MAIL_CUSTOM',
      'limits: events unlimited, guestAccounts 500, agencyUsers 10, storageMb 2048',
    ])
  })

  // seven CLI runs from source, each loading the server's modules: more than the default 30 s on a busy machine
  test('verify FILE: valid, tampered, expired, malformed, missing', () => {
    const dir = tmp()
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text)
      return join(dir, name)
    }
    const valid = file('valid.json', testLicenseText({ validUntil: '2099-01-31' }))
    let r = runCli(['license', 'verify', valid])
    expect(r.code).toBe(0)
    expect(lines(r.stdout)[0]).toBe('license valid: Testagentur GmbH, until 2099-01-31')

    const tampered = JSON.parse(readFileSync(valid, 'utf8'))
    tampered.license.limits.events = 9999
    r = runCli(['license', 'verify', file('tampered.json', JSON.stringify(tampered))])
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toEqual(['einlass: license invalid: license signature does not match (file changed or not issued for einlass)'])

    r = runCli(['license', 'verify', file('expired.json', testLicenseText({ validUntil: '2020-06-30' }))])
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toEqual(['einlass: license invalid: license expired on 2020-06-30'])

    r = runCli(['license', 'verify', file('garbage.json', 'not json at all')])
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toEqual(['einlass: license invalid: license file is not valid JSON'])

    r = runCli(['license', 'verify', file('shape.json', JSON.stringify({ license: { licensee: 'X' }, signature: 'abc' }))])
    expect(r.code).toBe(1)
    expect(r.stderr).toStartWith('einlass: license invalid: license file is malformed (license.id:')

    r = runCli(['license', 'verify', join(dir, 'nope.json')])
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toEqual([`einlass: file not found: ${join(dir, 'nope.json')}`])

    r = runCli(['license', 'verify'])
    expect(r.code).toBe(2)
    expect(lines(r.stderr)).toEqual(['einlass: usage: einlass license verify FILE'])
  }, 120_000)

  test('a release build does not trust the test key', () => {
    const dir = tmp()
    writeFileSync(join(dir, 'l.json'), testLicenseText())
    const { BUN, ROOT } = require('./testing/process') as typeof import('./testing/process')
    const r = runCli(['license', 'verify', join(dir, 'l.json')], { command: [BUN, join(ROOT, 'server', 'main.ts')] })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('license signature does not match')
  })
})

describe('einlass health', () => {
  test('exits 0 while the server answers, 1 when nothing listens', async () => {
    const server = await startServerProcess()
    try {
      const r = runCli(['health'], { env: { PORT: String(server.port), EINLASS_DATA_DIR: server.dataDir } })
      expect(r.code).toBe(0)
      expect(r.stdout.trim()).toBe(`healthy: http://127.0.0.1:${server.port}/health`)
    } finally {
      await server.stop()
    }
    const r = runCli(['health'], { env: { PORT: String(server.port), EINLASS_DATA_DIR: tmp() } })
    expect(r.code).toBe(1)
    expect(r.stderr).toStartWith(`einlass: unhealthy: http://127.0.0.1:${server.port}/health:`)
  })
})

describe('einlass backup', () => {
  test('SQLite: a consistent online copy while the server keeps writing', async () => {
    const server = await startServerProcess()
    const post = (path: string, body: unknown, cookie?: string) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) })
    try {
      const setup = await post('/proxy/api/setup', { agencyName: 'Backup GmbH', email: 'b@example.org', password: 'Geheim123!', firstName: 'B', lastName: 'B' })
      const cookie = setup.headers.getSetCookie()[0].split(';')[0]
      const start = new Date(Date.now() + 7 * 86400_000)
      const ev = await post('/proxy/api/events', { displayName: 'Backupfest', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Saal', maxVisitors: 10_000 }, cookie)
      expect(ev.status).toBe(201)
      const eventId = (await ev.json()).id
      const register = (i: number) => post(`/proxy/api/public/events/${eventId}/registrations`, { salutation: 'Frau', firstName: 'G', lastName: `Gast ${i}`, email: `gast${i}@example.org` })
      for (let i = 0; i < 20; i++) expect((await register(i)).status).toBe(201)

      // keep writing while the backup runs
      let writing = true
      let n = 20
      const writer = (async () => {
        while (writing) await register(n++)
      })()
      await new Promise((r) => setTimeout(r, 100))
      const out = join(tmp(), 'copy.sqlite')
      const { spawn } = await import('node:child_process')
      const { SOURCE_COMMAND } = await import('./testing/process')
      const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const p = spawn(SOURCE_COMMAND[0], [...SOURCE_COMMAND.slice(1), 'backup', out], { env: { PATH: process.env.PATH ?? '', EINLASS_DATA_DIR: server.dataDir } })
        let stdout = ''
        let stderr = ''
        p.stdout.on('data', (d) => (stdout += d))
        p.stderr.on('data', (d) => (stderr += d))
        p.on('exit', (code) => resolve({ code, stdout, stderr }))
      })
      writing = false
      await writer
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      expect(r.stdout.trim()).toBe(`backup written to ${out}`)
      expect(n).toBeGreaterThan(20)

      const copy = new Database(out, { readonly: true })
      expect((copy.query('pragma integrity_check').get() as any).integrity_check).toBe('ok')
      const visitors = (copy.query('select count(*) as n from event_visitor').get() as any).n
      const seats = (copy.query('select seats_taken from event where id = ?').get(eventId) as any).seats_taken
      copy.close()
      // every registration committed before the backup is in it, and the copy is consistent in itself
      expect(visitors).toBeGreaterThanOrEqual(20)
      expect(seats).toBe(visitors)

      // refuses to overwrite
      const again = runCli(['backup', out], { env: { EINLASS_DATA_DIR: server.dataDir } })
      expect(again.code).toBe(1)
      expect(lines(again.stderr)).toEqual([`einlass: ${out} exists; choose a new file name`])
    } finally {
      await server.stop()
    }
  })

  test('without a database there is nothing to copy', () => {
    const dataDir = tmp()
    const r = runCli(['backup', join(dataDir, 'x.sqlite')], { env: { EINLASS_DATA_DIR: dataDir } })
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toEqual([`einlass: no database at ${join(dataDir, 'einlass.sqlite')}`])
    expect(existsSync(join(dataDir, 'x.sqlite'))).toBe(false)
  })

  test('Postgres: says to use pg_dump', () => {
    const r = runCli(['backup', '/tmp/never.sqlite'], { env: { EINLASS_DATA_DIR: tmp(), DATABASE_URL: 'postgres://u@127.0.0.1:5432/einlass' } })
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toEqual(['einlass: the database is Postgres; back it up with pg_dump (for example: pg_dump --format=custom --file=einlass.dump "$DATABASE_URL")'])
  })

  test('Postgres in a schema: the pg_dump example names it and leaves ?schema= out (libpq refuses it)', () => {
    const r = runCli(['backup', '/tmp/never.sqlite'], { env: { EINLASS_DATA_DIR: tmp(), DATABASE_URL: 'postgres://u@127.0.0.1:5432/einlass?schema=tickets' } })
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toEqual([
      'einlass: the database is Postgres; back it up with pg_dump (for example: pg_dump --format=custom --schema=tickets --file=einlass.dump "<DATABASE_URL without ?schema=tickets>"); the schema keeps its name',
    ])
    const restore = runCli(['restore', '/tmp/x.dump'], { env: { EINLASS_DATA_DIR: tmp(), DATABASE_URL: 'postgres://u@127.0.0.1:5432/einlass?schema=tickets' } })
    expect(restore.code).toBe(1)
    expect(lines(restore.stderr)).toEqual([
      'einlass: the database is Postgres; restore it with pg_restore (for example: pg_restore --clean --if-exists --no-owner --dbname="<DATABASE_URL without ?schema=tickets>" einlass.dump), see docs/operations.md; the schema keeps its name',
    ])
  })
})
