// Check-in throughput against the compiled binary on SQLite at 64 connections (autocannon), each request
// a different ticket with its own nonce; afterwards every ticket is checked in at most once. Then 100
// concurrent requests for ONE ticket: exactly one check-in. Target: ≥ 3,000 check-ins/s, zero doubles.
//   node_modules/.bin/bun build.ts --outfile e2e/.artifacts/einlass && node_modules/.bin/bun bench/organiser-checkin.ts
import { Database } from 'bun:sqlite'
import autocannon from 'autocannon'
import { join } from 'node:path'
import { createEventVia, seedGuests, startBinary } from './organiser-lib'

const SECONDS = Number(process.env.SECONDS ?? 10)
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64)
const TICKETS = Number(process.env.TICKETS ?? 80_000)

const s = await startBinary()
try {
  const eventId = await createEventVia(s, { maxVisitors: null })
  const codes = seedGuests(s.dataDir, eventId, TICKETS, { confirmed: true })
  let next = 0
  const path = `/proxy/api/events/${eventId}/checkin`
  const result = await autocannon({
    url: s.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path,
        headers: s.headers,
        setupRequest: (req: any) => {
          const code = codes[next++ % codes.length]
          return { ...req, body: JSON.stringify({ code, checkinGuests: [0], nonce: `bench-nonce-${next}` }) }
        },
      },
    ],
  })
  const ok = result['2xx']
  console.log(`check-ins: ${ok} ok, ${result.non2xx} refused, ${result.errors} errors in ${SECONDS} s → ${(ok / SECONDS).toFixed(0)} check-ins/s; latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`)
  const db = new Database(join(s.dataDir, 'einlass.sqlite'), { readonly: true })
  const presence = db.query('select count(*) as n, count(distinct visitor_id) as v from presence where event_id = ?').get(eventId) as { n: number; v: number }
  const appeared = db.query("select count(*) as n from event_visitor where event_id = ? and main_guest_checked_in = 1").get(eventId) as { n: number }
  console.log(`presence rows ${presence.n}, distinct guests ${presence.v}, guests checked in ${appeared.n} — doubles: ${presence.n - presence.v}`)
  db.close()

  // 100 concurrent requests for one ticket that is still open
  const one = codes[TICKETS - 1]
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) => fetch(`${s.url}${path}`, { method: 'POST', headers: s.headers, body: JSON.stringify({ code: one, checkinGuests: 'ALL', nonce: `same-ticket-${i}` }) }).then((r) => r.status)),
  )
  const db2 = new Database(join(s.dataDir, 'einlass.sqlite'), { readonly: true })
  const rows = (db2.query('select count(*) as n from presence p join event_visitor v on v.id = p.visitor_id where v.ticket_code = ?').get(one) as { n: number }).n
  db2.close()
  console.log(`100 concurrent requests for one ticket: ${answers.filter((x) => x === 200).length} × 200, ${answers.filter((x) => x === 409).length} × 409; presence rows ${rows}`)
  const rate = ok / SECONDS
  console.log(`target ≥ 3000/s: ${rate >= 3000 ? 'PASS' : 'FAIL'}; zero doubles: ${presence.n === presence.v && rows === 1 ? 'PASS' : 'FAIL'}`)
} finally {
  await s.stop()
}
