// Migrations on a Postgres shared by several installs or test runs, each in its own schema: what the
// migrator reads of the catalogue stays in the install's schema (own-schema-introspector.ts), so a
// schema another run drops meanwhile cannot fail our start. Kysely's own introspector read every
// schema and failed now and then with errors naming a schema that was not ours.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import pg from 'pg'
import { patientTests, postgresAvailable } from '../testing/harness'
import { TEST_POSTGRES_URL, createSchema } from '../testing/postgres'
import { type DatabaseHandle, openDatabase } from './database'
import { migrateToLatest, migrationsApplied } from './migrate'

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
