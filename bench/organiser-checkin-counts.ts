// The check-in desk's live counts at 50,000 guests: every desk polls them every 5 s. Measures the
// endpoint on the compiled binary (sequential requests, like desks polling) and, on the same SQLite
// file, the full aggregate the endpoint ran before (every registration and escort of the event)
// against the counter row it reads now (migration 601). Checks that both give the same numbers.
//   node_modules/.bin/bun build.ts --outfile e2e/.artifacts/einlass && node_modules/.bin/bun bench/organiser-checkin-counts.ts
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, openSqlite } from '../server/db/database'
import { migrateToLatest } from '../server/db/migrate'
import { createEventVia, percentile, seedGuests, startBinary } from './organiser-lib'

const GUESTS = Number(process.env.GUESTS ?? 50_000)
const REQUESTS = Number(process.env.REQUESTS ?? 500)

const FULL_COUNT = `
  select
    (select coalesce(sum(visitor_count), 0) from event_visitor where event_id = ?1 and status in ('CONFIRMED', 'APPEARED')) as registered,
    (select coalesce(sum(case when main_guest_checked_in = 1 and main_guest_checked_out = 0 then 1 else 0 end), 0) from event_visitor where event_id = ?1 and status in ('CONFIRMED', 'APPEARED'))
      + (select coalesce(sum(case when e.checked_in = 1 and e.checked_out = 0 then 1 else 0 end), 0) from escort_person e join event_visitor v on v.id = e.visitor_id where v.event_id = ?1 and v.status in ('CONFIRMED', 'APPEARED')) as checkedIn,
    (select coalesce(sum(case when main_guest_checked_out = 1 then 1 else 0 end), 0) from event_visitor where event_id = ?1 and status in ('CONFIRMED', 'APPEARED'))
      + (select coalesce(sum(case when e.checked_out = 1 then 1 else 0 end), 0) from escort_person e join event_visitor v on v.id = e.visitor_id where v.event_id = ?1 and v.status in ('CONFIRMED', 'APPEARED')) as checkedOut`
const COUNTER = 'select coalesce(sum(registered), 0) as registered, coalesce(sum(checked_in), 0) as checkedIn, coalesce(sum(checked_out), 0) as checkedOut from event_checkin_count where event_id = ?1'

function time(n: number, f: () => void) {
  const ms: number[] = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    f()
    ms.push(performance.now() - t)
  }
  ms.sort((a, b) => a - b)
  return { p50: percentile(ms, 50), p95: percentile(ms, 95) }
}

/** What the triggers cost a write: inserting confirmed registrations with and without the insert trigger, alternating. */
async function insertCost() {
  const dir = mkdtempSync(join(tmpdir(), 'einlass-bench-trigger-'))
  const path = join(dir, 'einlass.sqlite')
  const h = await openDatabase({ dialect: 'sqlite', path })
  await migrateToLatest(h.db)
  await h.close()
  const db = openSqlite(path)
  db.exec("insert into agency (display_name) values ('Bench')")
  db.exec("insert into event (agency_id, display_name, start_date, end_date) values (1, 'Bench', '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z')")
  const trigger = (db.query("select sql from sqlite_master where name = 'event_visitor_counts_ins'").get() as { sql: string }).sql
  const rounds: Record<'with' | 'without', number[]> = { with: [], without: [] }
  let k = 0
  const round = (label: 'with' | 'without') => {
    const insert = db.prepare("insert into event_visitor (event_id, status, visitor_count, seats_held, event_token, download_token) values (1, 'CONFIRMED', 1, 1, ?, ?)")
    const n = 5000
    const t = performance.now()
    db.transaction(() => {
      for (let i = 0; i < n; i++) insert.run(`e${k}`, `d${k++}`)
    })()
    rounds[label].push(((performance.now() - t) / n) * 1000)
  }
  for (let r = 0; r < 12; r++) {
    round('with')
    db.exec('drop trigger event_visitor_counts_ins')
    round('without')
    db.exec(trigger)
  }
  db.close()
  rmSync(dir, { recursive: true, force: true })
  for (const v of Object.values(rounds)) v.sort((a, b) => a - b)
  return rounds
}

const cost = await insertCost()
console.log(`insert of a confirmed registration (12 alternating rounds of 5,000 in one transaction): with the trigger min ${cost.with[0].toFixed(1)} µs, median ${cost.with[6].toFixed(1)} µs; without min ${cost.without[0].toFixed(1)} µs, median ${cost.without[6].toFixed(1)} µs`)

const s = await startBinary()
try {
  const eventId = await createEventVia(s, { maxVisitors: null })
  seedGuests(s.dataDir, eventId, GUESTS)
  // escorts for every fourth guest, a third of the confirmed guests in, some of them out again (the triggers count)
  const w = new Database(join(s.dataDir, 'einlass.sqlite'))
  w.exec('pragma busy_timeout = 10000')
  w.transaction(() => {
    w.run(`update event_visitor set visitor_count = 2 where event_id = ? and id % 4 = 1`, [eventId])
    w.run(`insert into escort_person (visitor_id, number, first_name, last_name) select id, 1, 'Begleitung', 'Bench' from event_visitor where event_id = ? and id % 4 = 1`, [eventId])
    w.run(`update event_visitor set main_guest_checked_in = 1, status = 'APPEARED' where event_id = ? and status = 'CONFIRMED' and id % 3 = 0`, [eventId])
    w.run(`update escort_person set checked_in = 1 where visitor_id in (select id from event_visitor where event_id = ? and status = 'APPEARED')`, [eventId])
    w.run(`update event_visitor set main_guest_checked_out = 1 where event_id = ? and status = 'APPEARED' and id % 5 = 0`, [eventId])
  })()
  w.close()

  const url = `${s.url}/proxy/api/events/${eventId}/checkin/counts`
  const served: number[] = []
  let answer: unknown = null
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now()
    const r = await fetch(url, { headers: s.headers })
    answer = await r.json()
    served.push(performance.now() - t)
  }
  served.sort((a, b) => a - b)

  const db = new Database(join(s.dataDir, 'einlass.sqlite'), { readonly: true })
  const full = db.query(FULL_COUNT)
  const counter = db.query(COUNTER)
  const before = time(50, () => full.get(eventId))
  const after = time(2000, () => counter.get(eventId))
  const same = JSON.stringify(full.get(eventId)) === JSON.stringify(counter.get(eventId)) && JSON.stringify(counter.get(eventId)) === JSON.stringify(answer)
  db.close()

  console.log(`${GUESTS} guests; counts ${JSON.stringify(answer)}`)
  console.log(`GET …/checkin/counts, ${REQUESTS} sequential requests: p50 ${percentile(served, 50).toFixed(2)} ms, p95 ${percentile(served, 95).toFixed(2)} ms (request round trip)`)
  console.log(`query alone: full aggregate (before) p50 ${before.p50.toFixed(2)} ms, p95 ${before.p95.toFixed(2)} ms; counter rows (now, ≤ 16 shards) p50 ${(after.p50 * 1000).toFixed(1)} µs, p95 ${(after.p95 * 1000).toFixed(1)} µs`)
  console.log(`counters equal the full count and the endpoint: ${same ? 'PASS' : 'FAIL'}`)
} finally {
  await s.stop()
}
