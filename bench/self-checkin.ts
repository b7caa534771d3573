// Self check-in throughput against the compiled binary on SQLite at 64 connections (wrk, bench/lua/checkin.lua): each
// request checks in a different registration through POST /api/guest/checkInOut (no login, the
// registration's token); afterwards every guest is checked in at most once. Then 100 concurrent
// requests for ONE guest: exactly one check-in. Target: ≥ 3,000 check-ins/s, zero doubles. Also prints
// the server's CPU time per check-in (user + system, /proc): on the shared 2-core machine the rate
// moves with the neighbours' load, the CPU per check-in much less.
//   node_modules/.bin/bun build.ts --test-license-key --outfile e2e/.artifacts/einlass && node_modules/.bin/bun bench/self-checkin.ts
//   (SECONDS=10 CONNECTIONS=64 GUESTS=80000 ESCORTS=0; ESCORTS=2: every registration has two escort
//   persons and each request checks in all three — the rate is then registrations per second)
import { Database } from 'bun:sqlite'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createEventVia, seedGuests, startBinary } from './organiser-lib'
import { cpuSeconds } from './lib'
import { fmt, perSecond, runWrk, summary, verdicts } from './wrk'

const SECONDS = Number(process.env.SECONDS ?? 10)
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64)
const GUESTS = Number(process.env.GUESTS ?? 80_000)
const ESCORTS = Number(process.env.ESCORTS ?? 0)

const s = await startBinary()
try {
  const eventId = await createEventVia(s, { maxVisitors: null })
  seedGuests(s.dataDir, eventId, GUESTS, { confirmed: true })
  const rw = new Database(join(s.dataDir, 'einlass.sqlite'))
  rw.exec('pragma busy_timeout = 10000')
  rw.query('update event set allow_self_checkin = 1, allow_self_checkout = 1 where id = ?').run(eventId)
  if (ESCORTS > 0) {
    rw.query('update event_visitor set visitor_count = ? where event_id = ?').run(1 + ESCORTS, eventId)
    for (let n = 1; n <= ESCORTS; n++)
      rw.query(`insert into escort_person (visitor_id, number, first_name, last_name, checked_in, checked_out) select id, ?, 'Begleitung', last_name, 0, 0 from event_visitor where event_id = ?`).run(n, eventId)
  }
  rw.close()
  // seedGuests gives registration i the token et{i}-{eventId} (from i = 10 on long enough for the 6-character minimum)
  const token = (i: number) => `et${i}-${eventId}`
  const headers = { 'content-type': 'application/json', origin: s.url }
  const cpu0 = cpuSeconds(s.proc.pid!)
  const run = await runWrk({ url: s.url, script: 'checkin.lua', connections: CONNECTIONS, seconds: SECONDS, args: { event: eventId, guests: GUESTS, origin: s.url, persons: Array.from({ length: 1 + ESCORTS }, (_, i) => i).join(',') } })
  const ok = run.ok
  const cpuMs = ((cpuSeconds(s.proc.pid!) - cpu0) * 1000) / Math.max(1, ok)
  const busy = (cpuSeconds(s.proc.pid!) - cpu0) / SECONDS
  const rate = perSecond(run, ok)
  console.log(`self check-ins: ${summary(run)}`)
  console.log(`→ ${fmt(rate)} check-ins/s, server CPU ${cpuMs.toFixed(3)} ms per check-in, ${(busy * 100).toFixed(0)} % of a core (load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`)
  const db = new Database(join(s.dataDir, 'einlass.sqlite'), { readonly: true })
  // one presence row per person checked in (main guest and escorts): a second one is a double
  const presence = db.query(`select count(*) as n, count(distinct visitor_id || '-' || person) as v, count(distinct visitor_id) as g from presence where event_id = ?`).get(eventId) as { n: number; v: number; g: number }
  console.log(`presence rows ${presence.n}, distinct persons ${presence.v} of ${presence.g} registrations — doubles: ${presence.n - presence.v}`)
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
    { what: `self check-ins, ${CONNECTIONS} connections`, measured: `${fmt(rate)}/s, p99 ${run.latencyMs.p99.toFixed(1)} ms, CPU ${cpuMs.toFixed(3)} ms each`, target: '≥ 3,000/s', pass: rate >= 3000 },
    { what: 'guests checked in during the run', measured: `${presence.n} presence rows, ${presence.v} distinct persons`, target: 'each at most once', pass: presence.n === presence.v },
    { what: '100 concurrent requests for one guest', measured: `${answers.filter((x) => x === 200).length} × 200, presence rows ${rows}`, target: 'exactly one check-in', pass: rows === 1 && answers.filter((x) => x === 200).length === 1 },
  ])
  process.exitCode = passed ? 0 : 1
} finally {
  await s.stop()
}
