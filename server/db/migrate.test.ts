// Migrations on a Postgres shared by several installs or test runs, each in its own schema: what the
// migrator reads of the catalogue stays in the install's schema (own-schema-introspector.ts), so a
// schema another run drops meanwhile cannot fail our start. Kysely's own introspector read every
// schema and failed now and then with errors naming a schema that was not ours.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import pg from 'pg'
import { patientTests, postgresAvailable } from '../testing/harness'
import { TEST_POSTGRES_URL, createSchema } from '../testing/postgres'
import { type DatabaseHandle, openDatabase } from './database'
import { migrations } from '../../migrations'
import { MIGRATION_LOCK_KEY, NewerSchemaError, migrateToLatest, migrationsApplied } from './migrate'

patientTests()

describe.if(postgresAvailable())('migrations read only their own schema [postgres]', () => {
  let own: Awaited<ReturnType<typeof createSchema>>
  let other: Awaited<ReturnType<typeof createSchema>>
  let handle: DatabaseHandle
  beforeAll(async () => {
    own = await createSchema()
    other = await createSchema()
    // the other schema holds tables of the same names as ours, and one of its own
    const c = new pg.Client({ connectionString: TEST_POSTGRES_URL })
    await c.connect()
    await c.query(`create table ${other.schema}.einlass_migration (name text primary key, timestamp text not null)`)
    await c.query(`create table ${other.schema}.einlass_migration_lock (id text primary key, is_locked integer not null default 0)`)
    await c.query(`create table ${other.schema}.not_ours (id serial primary key)`)
    await c.end()
    handle = await openDatabase({ dialect: 'postgres', url: TEST_POSTGRES_URL, schema: own.schema })
  })
  afterAll(async () => {
    await handle?.close()
    await own?.drop()
    await other?.drop()
  })

  test('the introspector sees this schema alone: its tables with their columns, no other schema', async () => {
    expect((await handle.db.introspection.getSchemas()).map((s) => s.name)).toEqual([own.schema])
    expect(await handle.db.introspection.getTables()).toEqual([])
    expect(await migrateToLatest(handle.db)).not.toHaveLength(0)
    expect(await migrationsApplied(handle.db)).toBe(true)
    const tables = await handle.db.introspection.getTables()
    expect(tables.every((t) => t.schema === own.schema)).toBe(true)
    expect(tables.map((t) => t.name)).not.toContain('not_ours')
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['einlass_migration', 'einlass_migration_lock', 'event', 'app_user']))
    const user = tables.find((t) => t.name === 'app_user')!
    const id = user.columns.find((c) => c.name === 'id')!
    expect(id).toMatchObject({ isNullable: false, isAutoIncrementing: true, hasDefaultValue: true })
    expect(user.columns.find((c) => c.name === 'email')).toMatchObject({ isNullable: false, isAutoIncrementing: false })
    // a second start finds everything applied and changes nothing
    expect(await migrateToLatest(handle.db)).toEqual([])
  })

  test('another schema dropped while we start does not concern us', async () => {
    const again = await openDatabase({ dialect: 'postgres', url: TEST_POSTGRES_URL, schema: own.schema })
    try {
      const runs = [0, 1, 2, 3, 4, 5, 6, 7].map(() => migrateToLatest(again.db))
      const c = new pg.Client({ connectionString: TEST_POSTGRES_URL })
      await c.connect()
      await c.query(`drop schema ${other.schema} cascade`)
      await c.end()
      for (const applied of await Promise.all(runs)) expect(applied).toEqual([])
    } finally {
      await again.close()
    }
  })
})

describe.if(postgresAvailable())('several processes start at once on a fresh schema [postgres]', () => {
  test('four migrateToLatest at once all succeed; every migration applied once', async () => {
    const s = await createSchema()
    const hs = await Promise.all([0, 1, 2, 3].map(() => openDatabase({ dialect: 'postgres', url: TEST_POSTGRES_URL, schema: s.schema })))
    try {
      const results = await Promise.all(hs.map((h) => migrateToLatest(h.db)))
      const all = Object.keys(migrations)
      expect(results.flat().sort()).toEqual(all)
      const rows = await hs[0].db.selectFrom('einlass_migration' as any).select('name' as any).execute()
      expect(rows).toHaveLength(all.length)
      for (const h of hs) expect(await migrationsApplied(h.db)).toBe(true)
    } finally {
      for (const h of hs) await h.close()
      await s.drop()
    }
  })

  test('a process waits while another holds the migration lock, then finds its work', async () => {
    const s = await createSchema()
    const holder = new pg.Client({ connectionString: TEST_POSTGRES_URL })
    await holder.connect()
    const h = await openDatabase({ dialect: 'postgres', url: TEST_POSTGRES_URL, schema: s.schema })
    try {
      await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`)
      let done = false
      const run = migrateToLatest(h.db).finally(() => {
        done = true
      })
      // the migrating session shows up as waiting for our lock
      for (;;) {
        const r = await holder.query(`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = ${MIGRATION_LOCK_KEY} and not granted`)
        if (r.rows[0].n > 0 || done) break
        await Bun.sleep(20)
      }
      expect(done).toBe(false)
      await holder.query(`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`)
      expect(await run).toEqual(Object.keys(migrations))
    } finally {
      await holder.end()
      await h.close()
      await s.drop()
    }
  })

  test('a schema migrated by a newer einlass is refused, nothing applied', async () => {
    const s = await createSchema()
    const h = await openDatabase({ dialect: 'postgres', url: TEST_POSTGRES_URL, schema: s.schema })
    try {
      await migrateToLatest(h.db)
      await h.db.withSchema(s.schema).insertInto('einlass_migration' as any).values({ name: '2027-01-01-000_future', timestamp: '2027-01-01T00:00:00.000Z' } as any).execute()
      const e = await migrateToLatest(h.db).catch((x) => x)
      expect(e).toBeInstanceOf(NewerSchemaError)
      expect(e.message).toBe('the database was migrated by a newer einlass (unknown migration 2027-01-01-000_future); start that version or restore a backup')
    } finally {
      await h.close()
      await s.drop()
    }
  })
})
