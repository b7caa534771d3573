// Upgrades (issue 22): installs made by an earlier release of einlass, kept in server/ops/fixtures/
// (made by fixtures/make.ts run with that release's code: SQLite database, Postgres schema as SQL,
// secrets.json and uploads), are migrated by today's code and served: their events, guests,
// orders, invoices and uploads are all there and work, and new writes succeed. Every migration added
// from now on runs against them here.
import { afterAll, describe, expect, test } from 'bun:test'
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { createApp } from '../app'
import { bootstrap } from '../bootstrap'
import { loadConfig } from '../config/config'
import { migrations } from '../../migrations'
import { silentLogger } from '../logger'
import { COMMUNITY } from '../modules/license/license'
import { Agent, dialects, patientTests } from '../testing/harness'
import { TEST_POSTGRES_URL, createSchema } from '../testing/postgres'

patientTests()
const FIXTURES = join(import.meta.dir, 'fixtures')
const releases = readdirSync(FIXTURES).filter((d) => d.startsWith('v-'))
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

interface Facts {
  commit: string
  admin: { email: string; password: string }
  event: { id: number; displayName: string; guests: string[] }
  ticketEvent: { id: number; displayName: string }
  order: { id: number; number: string; status: string; grossPrice: number }
  invoices: Array<{ number: string; gross_cents: number; kind: string }>
  upload: { id: number; text: string }
}

test('there is at least one fixture, for each dialect', () => {
  expect(releases.length).toBeGreaterThan(0)
  for (const r of releases) for (const d of ['sqlite', 'postgres']) expect(existsSync(join(FIXTURES, r, d, 'facts.json'))).toBe(true)
})

for (const release of releases) {
  for (const dialect of dialects()) {
    describe(`an install made by einlass ${release} [${dialect}]`, () => {
      test('today\'s code migrates it and serves its events, guests, orders, invoices and uploads', async () => {
        const src = join(FIXTURES, release, dialect)
        const facts = JSON.parse(readFileSync(join(src, 'facts.json'), 'utf8')) as Facts
        const dataDir = mkdtempSync(join(tmpdir(), 'einlass-upgrade-'))
        dirs.push(dataDir)
        cpSync(join(src, 'secrets.json'), join(dataDir, 'secrets.json'))
        cpSync(join(src, 'uploads'), join(dataDir, 'uploads'), { recursive: true })
        let databaseUrl = 'sqlite:einlass.sqlite'
        let drop = async () => {}
        const applied = async (): Promise<string[]> => {
          if (dialect === 'sqlite') {
            const { Database } = await import('bun:sqlite')
            const db = new Database(join(dataDir, 'einlass.sqlite'), { readonly: true })
            try {
              return (db.query('select name from einlass_migration order by name').all() as Array<{ name: string }>).map((r) => r.name)
            } finally {
              db.close()
            }
          }
          const c = new pg.Client({ connectionString: TEST_POSTGRES_URL })
          await c.connect()
          try {
            return (await c.query(`select name from ${schema}.einlass_migration order by name`)).rows.map((r) => r.name)
          } finally {
            await c.end()
          }
        }
        let schema = ''
        if (dialect === 'sqlite') {
          writeFileSync(join(dataDir, 'einlass.sqlite'), Bun.gunzipSync(readFileSync(join(src, 'einlass.sqlite.gz'))))
        } else {
          const s = await createSchema()
          schema = s.schema
          databaseUrl = s.url
          drop = s.drop
          // the dump creates its schema itself (under the name it is given here)
          const c = new pg.Client({ connectionString: TEST_POSTGRES_URL })
          await c.connect()
          try {
            await c.query(`drop schema ${schema} cascade`)
            // psql's meta-commands (\restrict of newer pg_dump) are not SQL: left out when sent through pg
            const sql = readFileSync(join(src, 'dump.sql'), 'utf8')
              .split('\n')
              .filter((l) => !l.startsWith('\\'))
              .join('\n')
            await c.query(sql.split('__SCHEMA__').join(schema))
            await c.query('select pg_catalog.set_config(\'search_path\', \'"$user", public\', false)')
          } finally {
            await c.end()
          }
        }
        try {
          const before = await applied()
          const known = Object.keys(migrations).sort()
          expect(before.length).toBeGreaterThan(0)
          expect(before.every((n) => known.includes(n))).toBe(true)
          // the fixture is older than today's code: there is something to migrate
          expect(before.length).toBeLessThan(known.length)

          const config = loadConfig({ argv: [], env: { EINLASS_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SMTP_URL: '', EINLASS_LOG_LEVEL: 'error', EINLASS_BASE_URL: 'http://localhost' }, cwd: dataDir })
          const boot = await bootstrap(config, { log: silentLogger, license: COMMUNITY })
          try {
            expect(await applied()).toEqual(known)
            const app = createApp(boot.ctx)
            const admin = new Agent(app)
            const login = await admin.post('/auth/login', facts.admin)
            expect(login.status).toBe(200)
            const account = await boot.ctx.db
              .selectFrom('account')
              .innerJoin('app_user', 'app_user.id', 'account.user_id')
              .select('account.id')
              .where('app_user.email', '=', facts.admin.email)
              .executeTakeFirstOrThrow()
            admin.headers['x-account-id'] = String(account.id)

            const event = await admin.get(`/proxy/api/events/${facts.event.id}`)
            expect(event.status).toBe(200)
            expect(event.body.displayName).toBe(facts.event.displayName)
            const guests = await admin.get(`/proxy/api/events/${facts.event.id}/visitors`)
            expect(guests.status).toBe(200)
            expect(guests.body.items.map((g: { email: string }) => g.email).sort()).toEqual([...facts.event.guests].sort())

            const order = await admin.get(`/proxy/api/events/${facts.ticketEvent.id}/orders/${facts.order.id}`)
            expect(order.status).toBe(200)
            expect(JSON.stringify(order.body)).toContain(facts.order.number)

            // the accountant's list came after the fixture's release: it serves the old invoices
            const invoices = await admin.get('/proxy/api/invoices/accounting')
            expect(invoices.status).toBe(200)
            expect(invoices.body.content.map((d: { number: string; kind: string }) => [d.number, d.kind])).toEqual(facts.invoices.map((i) => [i.number, i.kind]))
            const pdf = await app.handle(
              new Request(`http://localhost/proxy/api/invoices/${invoices.body.content[0].id}/pdf`, { headers: { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-account-id': String(account.id) } }),
            )
            expect(pdf.status).toBe(200)
            expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-')

            const upload = await admin.get(`/proxy/api/asset/${facts.upload.id}/download`)
            expect(upload.status).toBe(200)
            expect(upload.text).toBe(facts.upload.text)

            // and it keeps working: a new guest, a new invoice number after the old ones
            const added = await admin.post(`/proxy/api/events/${facts.event.id}/visitors`, { salutation: 'Herr', firstName: 'Neu', lastName: 'Nach-Upgrade', email: `neu-${dialect}@fixture.example` })
            expect(added.status).toBe(201)
          } finally {
            await boot.handle.close()
          }
        } finally {
          await drop()
        }
      }, 120_000)
    })
  }
}
