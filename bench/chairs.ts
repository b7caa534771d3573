// Seating (issue 14) against the compiled binary on SQLite:
//  - chair holds at 64 connections (wrk, bench/lua/chairs.lua), every request a different visit
//    (identification) holding one place; the chairs are CHAIRS tables of 100 places in an area of
//    their own, so the run does not run out of places. Afterwards, per chair: places held = `taken`
//    ≤ places. Target ≥ 3,000 holds/s.
//  - POST …/seatingplanArea for an area of 5,000 chairs (REQUESTS sequential requests): the hall
//    with nothing held, and the tables' area after the run, asked by a visit that holds a place
//    there. Target p95 < 50 ms.
//   node_modules/.bin/bun build.ts --test-license-key --outfile e2e/.artifacts/einlass
//   node_modules/.bin/bun bench/chairs.ts   # SECONDS=10 CONNECTIONS=64 CHAIRS=5000 REQUESTS=200
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { createEventVia, percentile, startBinary } from './organiser-lib'
import { fmt, perSecond, runWrk, summary, verdicts } from './wrk'

const SECONDS = Number(process.env.SECONDS ?? 10)
const WARMUP = Number(process.env.WARMUP ?? Math.min(2, SECONDS))
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64)
const CHAIRS = Number(process.env.CHAIRS ?? 5000)
const REQUESTS = Number(process.env.REQUESTS ?? 200)

/** An area of n chairs in rows of 100 (a hall), or tables of 100 places. */
function area(name: string, n: number, places: number) {
  const perRow = 100
  const rowsN = Math.ceil(n / perRow)
  return {
    displayName: name,
    chairs: Array.from({ length: n }, (_, i) => {
      const row = Math.floor(i / perRow)
      const col = i % perRow
      return {
        label: places > 1 ? `Tisch ${i + 1}` : `${row + 1}-${col + 1}`,
        priceCategory: row < rowsN / 2 ? 'parkett' : 'rang',
        percentX: (col / perRow) * 100,
        percentY: (row / rowsN) * 100,
        percentWidth: 0.8,
        percentHeight: Math.max(0.01, 80 / rowsN / 100),
        places,
        ...(places > 1 ? { viewType: 'RECTANGLE', maxAmount: 10 } : {}),
      }
    }),
  }
}

const s = await startBinary({}, { license: true })
const rows: Parameters<typeof verdicts>[0] = []
try {
  const eventId = await createEventVia(s, { maxVisitors: null, displayName: 'Großer Saal' })
  const saved = await fetch(`${s.url}/proxy/api/events/${eventId}/seatingplan`, {
    method: 'PUT',
    headers: s.headers,
    body: JSON.stringify({
      priceCategories: [
        { key: 'parkett', displayName: 'Parkett', color: '#d9480f' },
        { key: 'rang', displayName: 'Rang', color: '#1971c2' },
      ],
      areas: [area('Saal', 5000, 1), area('Tische', CHAIRS, 100)],
    }),
  })
  if (saved.status !== 200) throw new Error(`plan: ${saved.status} ${(await saved.text()).slice(0, 500)}`)
  const plan = (await saved.json()) as { areas: Array<{ id: number; chairs: Array<{ id: number }> }> }
  const [hall, tables] = plan.areas
  const ids = tables.chairs.map((c) => c.id).sort((a, b) => a - b)
  if (ids[ids.length - 1] - ids[0] !== ids.length - 1) throw new Error('the tables do not have consecutive ids')
  console.log(`plan: ${hall.chairs.length} chairs in '${'Saal'}', ${tables.chairs.length} tables of 100 places`)

  const areaTimes = async (areaId: number, identification?: string) => {
    const times: number[] = []
    let chairs = 0
    for (let i = 0; i < REQUESTS; i++) {
      const t = performance.now()
      const r = await fetch(`${s.url}/proxy/api/public/events/${eventId}/seatingplanArea`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ areaId, ...(identification ? { identification } : {}) }) })
      const body = (await r.json()) as { chairs: unknown[] }
      times.push(performance.now() - t)
      if (r.status !== 200) throw new Error(`seatingplanArea: ${r.status}`)
      chairs = body.chairs.length
    }
    times.sort((a, b) => a - b)
    return { chairs, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) }
  }
  const empty = await areaTimes(hall.id)
  console.log(`seatingplanArea, ${empty.chairs} chairs, nothing held: p50 ${empty.p50.toFixed(1)} ms, p95 ${empty.p95.toFixed(1)} ms, p99 ${empty.p99.toFixed(1)} ms`)

  const args = { event: eventId, first: ids[0], count: ids.length, tag: 'run' }
  if (WARMUP > 0) await runWrk({ url: s.url, script: 'chairs.lua', connections: CONNECTIONS, seconds: WARMUP, args: { ...args, tag: 'warm' } })
  const run = await runWrk({ url: s.url, script: 'chairs.lua', connections: CONNECTIONS, seconds: SECONDS, args })
  const rate = perSecond(run, run.kinds.held ?? 0)
  console.log(`chair holds: ${summary(run)}`)
  console.log(`→ ${fmt(rate)} holds/s`)

  const db = new Database(join(s.dataDir, 'einlass.sqlite'), { readonly: true })
  const bad = db
    .query(
      `select count(*) as n from seating_chair c left join (select chair_id, sum(amount) as held from chair_reservation group by chair_id) r on r.chair_id = c.id
        where c.event_id = ? and (coalesce(r.held, 0) <> c.taken or c.taken > c.places)`,
    )
    .get(eventId) as { n: number }
  const held = db.query('select count(*) as n, count(distinct identification) as v, coalesce(sum(amount), 0) as p from chair_reservation where event_id = ?').get(eventId) as { n: number; v: number; p: number }
  const visit = (db.query('select identification from chair_reservation where event_id = ? limit 1').get(eventId) as { identification: string } | null)?.identification
  db.close()
  console.log(`database: ${held.n} holds by ${held.v} visits, ${held.p} places; chairs whose taken differs from their holds or exceeds their places: ${bad.n}`)

  const after = await areaTimes(tables.id, visit)
  console.log(`seatingplanArea, ${after.chairs} tables after the run, asked by a visit that holds one: p50 ${after.p50.toFixed(1)} ms, p95 ${after.p95.toFixed(1)} ms, p99 ${after.p99.toFixed(1)} ms`)
  rows.push(
    { what: `chair holds, ${CONNECTIONS} connections, a different visit each`, measured: `${fmt(rate)}/s, p99 ${run.latencyMs.p99.toFixed(1)} ms`, target: '≥ 3,000/s', pass: rate >= 3000 },
    { what: 'places held = chairs taken, never above places', measured: `${held.n} holds (answered: ${run.kinds.held ?? 0} in the run), ${bad.n} chairs off`, target: '0 chairs off, one hold per visit', pass: bad.n === 0 && held.v === held.n },
    { what: `seatingplanArea, ${empty.chairs} chairs, nothing held`, measured: `p95 ${empty.p95.toFixed(1)} ms`, target: 'p95 < 50 ms', pass: empty.p95 < 50 && empty.chairs === 5000 },
    { what: `seatingplanArea, ${after.chairs} tables with holds, a visit's own`, measured: `p95 ${after.p95.toFixed(1)} ms`, target: 'p95 < 50 ms', pass: after.p95 < 50 },
  )
} finally {
  await s.stop()
}
process.exitCode = verdicts(rows) ? 0 : 1
