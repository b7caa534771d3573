// Self check-in throughput against the compiled binary on SQLite at 64 connections (autocannon): each
// request checks in a different registration through POST /api/guest/checkInOut (no login, the
// registration's token); afterwards every guest is checked in at most once. Then 100 concurrent
// requests for ONE guest: exactly one check-in. Target: ≥ 3,000 check-ins/s, zero doubles.
//   node_modules/.bin/bun build.ts --outfile e2e/.artifacts/einlass && node_modules/.bin/bun bench/self-checkin.ts
import { Database } from 'bun:sqlite'
import autocannon from 'autocannon'
import { join } from 'node:path'
import { createEventVia, seedGuests, startBinary } from './organiser-lib'

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
  let next = 0
  const headers = { 'content-type': 'application/json', origin: s.url }
  const result = await autocannon({
    url: s.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/proxy/api/guest/checkInOut',
        headers,
        setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ token: token(10 + (next % (GUESTS - 11))), checkinGuests: [0], origin: 'selfcheckin', nonce: `bench-nonce-${next++}` }) }),
      },
    ],
  })
  const ok = result['2xx']
  console.log('status codes', JSON.stringify((result as any).statusCodeStats))
  console.log(`self check-ins: ${ok} ok, ${result.non2xx} refused, ${result.errors} errors in ${SECONDS} s → ${(ok / SECONDS).toFixed(0)} check-ins/s; latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`)
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
  const rate = ok / SECONDS
  console.log(`target ≥ 3000/s: ${rate >= 3000 ? 'PASS' : 'FAIL'}; zero doubles: ${presence.n === presence.v && rows === 1 ? 'PASS' : 'FAIL'}`)
} finally {
  await s.stop()
}
