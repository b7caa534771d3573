// One migration source serves SQLite and Postgres: after all migrations both must have the same
// tables, columns, (normalised) types, nullability, indexes and foreign keys.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { patientTests, postgresAvailable } from '../testing/harness'
import { createSchema } from '../testing/postgres'
import { diffShapes, postgresShape, type SchemaShape, sqliteShape } from '../testing/schema-shape'
import { type DatabaseHandle, openDatabase } from './database'
import { migrateToLatest } from './migrate'

patientTests()
// reading both schemas table by table takes a while with 60-odd tables (seconds idle, more under load)
const SHAPE_MS = 120_000

describe.if(postgresAvailable())('migrations give the same schema on SQLite and Postgres', () => {
  let dir: string
  let lite: DatabaseHandle
  let pgHandle: DatabaseHandle
  let pg: Awaited<ReturnType<typeof createSchema>>
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'einlass-parity-'))
    lite = await openDatabase({ dialect: 'sqlite', path: join(dir, 'p.sqlite') })
    pg = await createSchema()
    pgHandle = await openDatabase({ dialect: 'postgres', url: pg.url.replace(/\?.*$/, ''), schema: pg.schema })
    await migrateToLatest(lite.db)
    await migrateToLatest(pgHandle.db)
  }, SHAPE_MS)
  afterAll(async () => {
    await lite?.close()
    await pgHandle?.close()
    await pg?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('tables, columns, types, nullability, indexes and foreign keys match', async () => {
    const a = await sqliteShape(lite.db)
    const b = await postgresShape(pgHandle.db, pg.schema)
    expect(Object.keys(a.columns).length).toBeGreaterThan(5)
    expect(a.indexes.length).toBeGreaterThan(5)
    expect(diffShapes(a, b)).toEqual([])
  }, SHAPE_MS)

  test('a migration that diverges is caught', async () => {
    const a = await sqliteShape(lite.db)
    const b = await postgresShape(pgHandle.db, pg.schema)
    // what a dialect branch gone wrong would produce
    const diverged: SchemaShape = structuredClone(b)
    diverged.columns.event.max_visitors = 'integer not null'
    diverged.columns.event.extra = 'text null'
    diverged.indexes = diverged.indexes.filter((i) => !i.startsWith('event_visitor(event_id,email)'))
    delete diverged.columns.task
    expect(diffShapes(a, diverged)).toEqual([
      'event.max_visitors: sqlite integer null, postgres integer not null',
      'event.extra: sqlite missing, postgres text null',
      'table task only in sqlite',
      'index event_visitor(event_id,email) unique only in sqlite',
    ])
    // and on the real databases: a column added on one side only
    await sql`alter table event add column diverged_only_here text`.execute(lite.db)
    try {
      expect(diffShapes(await sqliteShape(lite.db), b)).toEqual(['event.diverged_only_here: sqlite text null, postgres missing'])
    } finally {
      await sql`alter table event drop column diverged_only_here`.execute(lite.db)
    }
  }, SHAPE_MS)
})
