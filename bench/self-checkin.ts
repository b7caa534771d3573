// Self check-in throughput against the compiled binary on SQLite at 64 connections (wrk, bench/lua/checkin.lua): each
// request checks in a different registration through POST /api/guest/checkInOut (no login, the
// registration's token); afterwards every guest is checked in at most once. Then 100 concurrent
// requests for ONE guest: exactly one check-in. Target: ≥ 3,000 check-ins/s, zero doubles.
//   node_modules/.bin/bun build.ts --test-license-key --outfile e2e/.artifacts/einlass && node_modules/.bin/bun bench/self-checkin.ts
//   (SECONDS=10 CONNECTIONS=64 GUESTS=80000)
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { createEventVia, seedGuests, startBinary } from './organiser-lib'
import { fmt, perSecond, runWrk, summary, verdicts } from './wrk'

const SECONDS = Number(process.env.SECONDS ?? 10)
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64)
const GUESTS = Number(process.env.GUESTS ?? 80_000)

const s = await startBinary()
try {
  const eventId = await createEventVia(s, { maxVisitors: null })
  seedGuests(s.dataDir, eventId, GUESTS, { confirmed: true })
  const rw = new Database(join(s.dataDir, 'einlass.sqlite'))
  rw.exec('pragma busy_timeout = 10000')
  rw.query('update event set allow_self_checkin = 1, allow_self_checkout = 1 where id = ?').run(eventId)
  rw.close()
  // seedGuests gives registration i the token et{i}-{eventId} (from i = 10 on long enough for the 6-character minimum)
  const token = (i: number) => `et${i}-${eventId}`
  const headers = { 'content-type': 'application/json', origin: s.url }
  const run = await runWrk({ url: s.url, script: 'checkin.lua', connections: CONNECTIONS, seconds: SECONDS, args: { event: eventId, guests: GUESTS, origin: s.url } })
  const ok = run.ok
  const rate = perSecond(run, ok)
  console.log(`self check-ins: ${summary(run)}`)
  console.log(`→ ${fmt(rate)} check-ins/s`)
  const db = new Database(join(s.dataDir, 'einlass.sqlite'), { readonly: true })
  const presence = db.query('select count(*) as n, count(distinct visitor_id) as v from presence where event_id = ?').get(eventId) as { n: number; v: number }
  console.log(`presence rows ${presence.n}, distinct guests ${presence.v} — doubles: ${presence.n - presence.v}`)
  db.close()

  const one = token(GUESTS - 1)
  const answers = await Promise.all(
    Array.from({ length: 100 }, () => fetch(`${s.url}/proxy/api/guest/checkInOut`, { method: 'POST', headers, body: JSON.stringify({ token: one, checkinGuests: [0], origin: 'selfcheckin' }) }).then((r) => r.status)),
  )
  const db2 = new Database(join(s.dataDir, 'einlass.sqlite'), { readonly: true })
  const rows = (db2.query('select count(*) as n from presence p join event_visitor v on v.id = p.visitor_id where v.event_token = ?').get(one) as { n: number }).n
  db2.close()
  console.log(`100 concurrent requests for one guest: ${answers.filter((x) => x === 200).length} × 200, ${answers.filter((x) => x === 409).length} × 409; presence rows ${rows}`)
  const passed = verdicts([
    { what: `self check-ins, ${CONNECTIONS} connections`, measured: `${fmt(rate)}/s, p99 ${run.latencyMs.p99.toFixed(1)} ms`, target: '≥ 3,000/s', pass: rate >= 3000 },
    { what: 'guests checked in during the run', measured: `${presence.n} presence rows, ${presence.v} distinct guests`, target: 'each at most once', pass: presence.n === presence.v },
    { what: '100 concurrent requests for one guest', measured: `${answers.filter((x) => x === 200).length} × 200, presence rows ${rows}`, target: 'exactly one check-in', pass: rows === 1 && answers.filter((x) => x === 200).length === 1 },
  ])
  process.exitCode = passed ? 0 : 1
} finally {
  await s.stop()
}
