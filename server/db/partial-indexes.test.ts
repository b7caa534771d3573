// Migration 703: indexes on columns a new registration leaves empty are partial (no entry per NULL
// row), and the lookups that need them still use them.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { patientTests, postgresAvailable } from '../testing/harness'
import { createSchema } from '../testing/postgres'
import { type DatabaseHandle, openDatabase } from './database'
import { migrateToLatest } from './migrate'

patientTests()

const PARTIAL = ['event_visitor_import_idx', 'event_visitor_ticket_code_uq', 'timeslot_reservation_visitor_idx']

describe('partial indexes', () => {
  let dir: string
  let lite: DatabaseHandle
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'einlass-partial-'))
    lite = await openDatabase({ dialect: 'sqlite', path: join(dir, 'p.sqlite') })
    await migrateToLatest(lite.db)
  })
  afterAll(async () => {
    await lite?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('SQLite: partial, and used by the lookups', async () => {
    for (const name of PARTIAL) {
      const row = (await sql<{ sql: string }>`select sql from sqlite_master where name = ${name}`.execute(lite.db)).rows[0]
      expect(row.sql).toMatch(/where "\w+" is not null$/i)
    }
    const plan = async (q: string) => (await sql.raw<{ detail: string }>(`explain query plan ${q}`).execute(lite.db)).rows.map((r) => r.detail).join('; ')
    expect(await plan(`select * from event_visitor where ticket_code = 'ABCDE12345'`)).toContain('event_visitor_ticket_code_uq')
    expect(await plan(`select id from event_visitor where event_id = 1 and import_task_id = 7`)).toMatch(/event_visitor_import_idx|event_visitor_event/)
    expect(await plan(`select id from timeslot_reservation where visitor_id = 3`)).toContain('timeslot_reservation_visitor_idx')
  })

  test.if(postgresAvailable())('Postgres: the same indexes are partial', async () => {
    const pg = await createSchema()
    const h = await openDatabase({ dialect: 'postgres', url: pg.url.replace(/\?.*$/, ''), schema: pg.schema })
    try {
      await migrateToLatest(h.db)
      const rows = (await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes where schemaname = ${pg.schema}`.execute(h.db)).rows
      for (const name of PARTIAL) expect(rows.find((r) => r.indexname === name)?.indexdef).toMatch(/WHERE \(\w+ IS NOT NULL\)$/)
    } finally {
      await h.close()
      await pg.drop()
    }
  })
})
