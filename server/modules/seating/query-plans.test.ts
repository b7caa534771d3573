// The visit's live chair holds are read on every chair reservation: SQLite must answer the lookup
// from the visit's index, not by reading every live hold of the event through the expiry index (it
// did, and a reservation's cost grew with the holds: bench/chairs.ts, docs/benchmarks.md).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { type Harness, createHarness } from '../../testing/harness'
import { holdsOfVisitQuery } from './holds'

let h: Harness
beforeAll(async () => {
  h = await createHarness('sqlite')
})
afterAll(async () => {
  await h?.close()
})

test("a visit's live holds are found through the visit's index (identification, event, expiry)", async () => {
  const q = holdsOfVisitQuery(h.ctx.db, 1, 'visit-abc', new Date().toISOString()).compile()
  const db = new Database(join(h.dataDir, 'einlass.sqlite'), { readonly: true })
  const plan = db.query(`explain query plan ${q.sql}`).all(...(q.parameters as never[])) as Array<{ detail: string }>
  db.close()
  expect(plan.map((r) => r.detail).join(' | ')).toContain('USING INDEX chair_reservation_identification (identification=? AND event_id=? AND expires_at>?)')
})
