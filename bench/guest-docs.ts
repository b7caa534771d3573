// Guest documents and pages against the compiled binary on SQLite (issue 11):
//  - ticket PDF downloads, every request a different guest (DOWNLOADS registrations, each its own
//    download token, each fetched once: the first render, as many guests opening their mail give;
//    wrk at CONNECTIONS, bench/lua/ids.lua). Target ≥ 150/s, p95 < 100 ms. Then the same tokens a
//    second time (repeats) for comparison.
//  - the guest dashboard (GET /proxy/api/guest/events) of a guest registered for 50 events, and the
//    notifications page (POST /proxy/api/guest/notifications, pages across 10,000 notifications),
//    REQUESTS sequential requests each. Target p95 < 20 ms.
//   node_modules/.bin/bun build.ts --test-license-key --outfile e2e/.artifacts/einlass
//   node_modules/.bin/bun bench/guest-docs.ts   # DOWNLOADS=3000 CONNECTIONS=10 REQUESTS=300
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { downloadToken, guestWithEvents } from './guest-lib'
import { createEventVia, percentile, seedGuests, startBinary } from './organiser-lib'
import { fmt, runWrk, summary, verdicts } from './wrk'

const DOWNLOADS = Number(process.env.DOWNLOADS ?? 3000)
// 10 connections: a closed loop of 64 would wait 64 / throughput (≈ 310 ms at 200/s) by itself, so the
// p95 target is read at a load that still gives ≥ 150/s (docs/benchmarks.md)
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10)
const REQUESTS = Number(process.env.REQUESTS ?? 300)
const NOTIFICATIONS = 10_000

const s = await startBinary({}, { license: true })
const tmp = mkdtempSync(join(tmpdir(), 'einlass-guest-docs-'))
const rows: Parameters<typeof verdicts>[0] = []
try {
  // ticket PDFs
  const eventId = await createEventVia(s, { maxVisitors: null, displayName: 'Sommerfest' })
  seedGuests(s.dataDir, eventId, DOWNLOADS, { confirmed: true })
  const db = new Database(join(s.dataDir, 'einlass.sqlite'))
  db.exec('pragma busy_timeout = 10000')
  const ids = db.query('select id from event_visitor where event_id = ? order by id').all(eventId) as Array<{ id: number }>
  const set = db.prepare('update event_visitor set download_token = ? where id = ?')
  db.transaction(() => ids.forEach((r, i) => set.run(downloadToken(i), r.id)))()
  db.close()
  const tokens = ids.map((_, i) => downloadToken(i))
  const file = join(tmp, 'tokens.txt')
  writeFileSync(file, tokens.join('\n'))
  const probe = await fetch(`${s.url}/proxy/api/download/${tokens[0]}`)
  const pdf = new Uint8Array(await probe.arrayBuffer())
  if (probe.status !== 200 || new TextDecoder().decode(pdf.slice(0, 5)) !== '%PDF-') throw new Error(`ticket PDF: ${probe.status} ${probe.headers.get('content-type')}`)
  console.log(`ticket PDF: ${fmt(pdf.length)} bytes`)
  const run = await runWrk({ url: s.url, script: 'ids.lua', connections: CONNECTIONS, limit: tokens.length, args: { file, path0: '/proxy/api/download/{id}' } })
  const rate = run.ok / run.windowS
  console.log(`ticket PDFs, ${fmt(tokens.length)} different guests: ${summary(run)}`)
  console.log(`→ ${fmt(rate)} PDFs/s`)
  const again = await runWrk({ url: s.url, script: 'ids.lua', connections: CONNECTIONS, limit: tokens.length, args: { file, path0: '/proxy/api/download/{id}' } })
  console.log(`the same tokens again: ${summary(again)} → ${fmt(again.ok / again.windowS)} PDFs/s`)
  rows.push({ what: `ticket PDF downloads, ${fmt(tokens.length)} different guests, ${CONNECTIONS} connections`, measured: `${fmt(rate)}/s, p95 ${run.latencyMs.p95.toFixed(1)} ms, ${run.received - run.ok} failed`, target: '≥ 150/s, p95 < 100 ms', pass: rate >= 150 && run.latencyMs.p95 < 100 && run.ok === tokens.length })

  // the dashboard of a guest with 50 events, and 10,000 notifications
  const t0 = performance.now()
  const guest = await guestWithEvents(s, 50)
  console.log(`a guest registered for ${guest.eventIds.length} events (${((performance.now() - t0) / 1000).toFixed(1)} s)`)
  {
    const w = new Database(join(s.dataDir, 'einlass.sqlite'))
    w.exec('pragma busy_timeout = 10000')
    const visitor = w.query('select id, event_id from event_visitor where user_id = ? order by id limit 1').get(guest.userId) as { id: number; event_id: number }
    const have = (w.query('select count(*) as n from mail_outbox where user_id = ? and visitor_id is not null').get(guest.userId) as { n: number }).n
    const ins = w.prepare("insert into mail_outbox (kind, to_address, subject, html, text, attachments, user_id, visitor_id, event_id, status) values ('VISITOR_APPROVED', ?, ?, '', '', '[]', ?, ?, ?, 'SENT')")
    w.transaction(() => {
      for (let i = have; i < NOTIFICATIONS; i++) ins.run('gast.viele@bench.example', `Nachricht ${i + 1}`, guest.userId, visitor.id, visitor.event_id)
    })()
    w.exec('analyze')
    w.close()
  }
  const headers = { 'x-guest-token': guest.token, 'content-type': 'application/json' }
  const timed = async (label: string, call: (i: number) => Promise<Response>, check: (body: any) => boolean) => {
    const times: number[] = []
    for (let i = 0; i < REQUESTS; i++) {
      const t = performance.now()
      const r = await call(i)
      const body = await r.json()
      times.push(performance.now() - t)
      if (r.status !== 200 || !check(body)) throw new Error(`${label}: ${r.status} ${JSON.stringify(body).slice(0, 300)}`)
    }
    times.sort((a, b) => a - b)
    const p = { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) }
    console.log(`${label}, ${REQUESTS} requests: p50 ${p.p50.toFixed(1)} ms, p95 ${p.p95.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms`)
    return p
  }
  const count = (b: any) => Object.values(b as Record<string, unknown>).reduce((n: number, v) => n + (Array.isArray(v) ? v.length : 0), 0)
  const first = await (await fetch(`${s.url}/proxy/api/guest/events`, { headers })).json()
  console.log(`dashboard lists: ${Object.entries(first as Record<string, unknown>).map(([k, v]) => `${k} ${Array.isArray(v) ? v.length : typeof v}`).join(', ')}`)
  const dash = await timed('guest dashboard, 50 events', () => fetch(`${s.url}/proxy/api/guest/events`, { headers }), (b) => count(b) >= 50)
  const pages = Math.ceil(NOTIFICATIONS / 20)
  const note = await timed(`notifications page, ${fmt(NOTIFICATIONS)} notifications`, (i) => fetch(`${s.url}/proxy/api/guest/notifications`, { method: 'POST', headers, body: JSON.stringify({ page: (i * 37) % pages }) }), (b) => b.totalElements === NOTIFICATIONS && b.notifications.length === 20)
  rows.push(
    { what: 'guest dashboard with 50 events', measured: `p95 ${dash.p95.toFixed(1)} ms`, target: 'p95 < 20 ms', pass: dash.p95 < 20 },
    { what: `notifications page at ${fmt(NOTIFICATIONS)} notifications`, measured: `p95 ${note.p95.toFixed(1)} ms`, target: 'p95 < 20 ms', pass: note.p95 < 20 },
  )
} finally {
  await s.stop()
  rmSync(tmp, { recursive: true, force: true })
}
process.exitCode = verdicts(rows) ? 0 : 1
