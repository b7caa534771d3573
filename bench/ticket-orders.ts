// Ticket orders against the compiled binary on SQLite at 64 connections (wrk, bench/lua/orders.lua),
// the targets of issue 12 (figures in docs/benchmarks.md):
//  1. sustained: buyers for an event with tickets enough for the whole run, every request a new
//     person buying one ticket → orders created per second, p99, server CPU per order; then the same
//     load against the raw Bun + bun:sqlite baseline (bench/baseline-server.ts) → the ratio, as
//     bench/registration.ts reports it for registrations;
//  2. sell-out: exactly 10,000 buyers for 1,000 tickets: exactly 1,000 sold (orders, registrations,
//     the category's and the event's counters read back from the database), the 9,000 others refused
//     with 409 in the spec's error shape (counted by errorType), orders/s while they were sold, p99.
//   node_modules/.bin/bun build.ts --test-license-key --outfile e2e/.artifacts/einlass
//   node_modules/.bin/bun bench/ticket-orders.ts   # SECONDS=10 CONNECTIONS=64 BUYERS=10000 TICKETS=1000
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BUN, ROOT, cpuSeconds, start, stop } from './lib'
import { createEventVia, freePort, startBinary } from './organiser-lib'
import { fmt, perSecond, runWrk, summary, verdicts } from './wrk'

const SECONDS = Number(process.env.SECONDS ?? 10)
const WARMUP = Number(process.env.WARMUP ?? Math.min(3, SECONDS))
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64)
const BUYERS = Number(process.env.BUYERS ?? 10_000)
const TICKETS = Number(process.env.TICKETS ?? 1_000)

const TRANSFER = { method: 'TRANSFER', accountHolder: 'Agentur GmbH', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', bank: 'Commerzbank', transferReferencePrefix: 'SF-' }

const s = await startBinary({}, { license: true })
let methodIds: number[] | null = null
async function paidEvent(quota: number | null, maxVisitors: number | null) {
  const eventId = await createEventVia(s, { maxVisitors, displayName: `Tickets ${quota ?? 'ohne Grenze'}` })
  const c = await fetch(`${s.url}/proxy/api/events/${eventId}/ticketCategories`, { method: 'POST', headers: s.headers, body: JSON.stringify({ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota }) })
  if (c.status !== 201) throw new Error(`category: ${c.status} ${await c.text()}`)
  const categoryId = ((await c.json()) as { id: number }).id
  if (!methodIds) {
    methodIds = []
    for (const m of [TRANSFER, { method: 'INVOICE' }]) {
      const r = await fetch(`${s.url}/proxy/api/agency/paymentMethods`, { method: 'POST', headers: s.headers, body: JSON.stringify(m) })
      if (r.status !== 201) throw new Error(`payment method: ${r.status} ${await r.text()}`)
      methodIds.push(((await r.json()) as { id: number }).id)
    }
  }
  const pm = await fetch(`${s.url}/proxy/api/events/${eventId}/paymentMethods`, { method: 'PUT', headers: s.headers, body: JSON.stringify({ ids: methodIds }) })
  if (pm.status !== 200) throw new Error(`event payment methods: ${pm.status} ${await pm.text()}`)
  return { eventId, categoryId }
}

const rows: Parameters<typeof verdicts>[0] = []
const dbFile = join(s.dataDir, 'einlass.sqlite')
let sustained: { rate: number; p99: number; cpuMs: number }
try {
  // 1. sustained
  const big = await paidEvent(null, null)
  const path = `/proxy/api/public/events/${big.eventId}/registrations`
  const probe = await fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ salutation: 'Frau', firstName: 'P', lastName: 'Probe', email: 'probe@bench.example', tickets: [{ categoryId: big.categoryId, amount: 1 }] }) })
  if (probe.status !== 201) throw new Error(`a ticket order was refused: ${probe.status} ${await probe.text()}`)
  if (WARMUP > 0) await runWrk({ url: s.url, script: 'orders.lua', connections: CONNECTIONS, seconds: WARMUP, args: { path, category: big.categoryId, tag: 'warm' } })
  const cpu0 = cpuSeconds(s.proc.pid!)
  const run = await runWrk({ url: s.url, script: 'orders.lua', connections: CONNECTIONS, seconds: SECONDS, args: { path, category: big.categoryId, tag: 'run' } })
  const cpuMs = ((cpuSeconds(s.proc.pid!) - cpu0) * 1000) / Math.max(1, run.ok)
  const rate = perSecond(run, run.ok)
  sustained = { rate, p99: run.latencyMs.p99, cpuMs }
  console.log(`sustained orders: ${summary(run)}`)
  console.log(`→ ${fmt(rate)} orders/s created, server CPU ${cpuMs.toFixed(3)} ms per order`)
  {
    const db = new Database(dbFile, { readonly: true })
    const o = db.query("select count(*) as n from ticket_order where event_id = ? and email like 'run.%'").get(big.eventId) as { n: number }
    const v = db.query("select count(*) as n, count(distinct email) as d from event_visitor where event_id = ? and email like 'run.%'").get(big.eventId) as { n: number; d: number }
    db.close()
    console.log(`stored: ${o.n} orders, ${v.n} registrations (${v.d} distinct e-mails) for ${run.ok} answered 201`)
    // a run ends on a timer: up to one request per connection may be stored without its answer counted
    rows.push({ what: 'sustained: every answered order stored once', measured: `${o.n} orders, ${v.n} registrations, ${v.d} e-mails for ${run.ok} × 201`, target: `answered ≤ stored ≤ answered + ${CONNECTIONS}, no duplicate`, pass: o.n >= run.ok && o.n <= run.ok + CONNECTIONS && v.n === o.n && v.d === v.n })
  }

  // 2. sell-out
  const few = await paidEvent(TICKETS, null)
  const out = await runWrk({ url: s.url, script: 'orders.lua', connections: CONNECTIONS, limit: BUYERS, args: { path: `/proxy/api/public/events/${few.eventId}/registrations`, category: few.categoryId, tag: 'sellout' } })
  const sellRate = out.okWindowS > 0 ? out.ok / out.okWindowS : 0
  console.log(`sell-out, ${fmt(BUYERS)} buyers for ${fmt(TICKETS)} tickets: ${summary(out)}`)
  console.log(`→ ${out.ok} sold in ${(out.okWindowS * 1000).toFixed(0)} ms (${fmt(sellRate)} orders/s); all ${out.received} answered in ${out.windowS.toFixed(2)} s`)
  const db = new Database(dbFile, { readonly: true })
  const sold = (db.query('select sold from ticket_category where id = ?').get(few.categoryId) as { sold: number }).sold
  const orders = (db.query('select count(*) as n from ticket_order where event_id = ?').get(few.eventId) as { n: number }).n
  const visitors = (db.query('select count(*) as n from event_visitor where event_id = ?').get(few.eventId) as { n: number }).n
  const taken = (db.query('select seats_taken from event where id = ?').get(few.eventId) as { seats_taken: number }).seats_taken
  db.close()
  console.log(`database: category sold ${sold}, orders ${orders}, registrations ${visitors}, event seats_taken ${taken}`)
  const refused = out.errorTypes.TICKETS_SOLD_OUT ?? 0
  rows.push(
    { what: `sell-out: tickets sold`, measured: `${out.ok} × 201; sold ${sold}, orders ${orders}, registrations ${visitors}, seats ${taken}`, target: `exactly ${TICKETS}`, pass: out.ok === TICKETS && sold === TICKETS && orders === TICKETS && visitors === TICKETS && taken === TICKETS },
    { what: 'sell-out: the rest refused cleanly', measured: `${out.status['409'] ?? 0} × 409 (${JSON.stringify(out.errorTypes)}), ${out.badShape} not in the error shape, ${out.received} of ${BUYERS} answered`, target: `${BUYERS - TICKETS} × 409 TICKETS_SOLD_OUT`, pass: refused === BUYERS - TICKETS && out.badShape === 0 && out.received === BUYERS },
    { what: 'sell-out: orders created per second (first request → last 201)', measured: `${fmt(sellRate)}/s`, target: '≥ 1,000/s', pass: sellRate >= 1000 },
    { what: 'sell-out: latency of all buyers', measured: `p50 ${out.latencyMs.p50.toFixed(1)} ms, p99 ${out.latencyMs.p99.toFixed(1)} ms`, target: 'p99 < 100 ms', pass: out.latencyMs.p99 < 100 },
    { what: `sustained: orders created per second, ${CONNECTIONS} connections`, measured: `${fmt(sustained.rate)}/s, p99 ${sustained.p99.toFixed(1)} ms, CPU ${sustained.cpuMs.toFixed(3)} ms/order`, target: '≥ 1,000/s, p99 < 100 ms', pass: sustained.rate >= 1000 && sustained.p99 < 100 },
  )
} finally {
  await s.stop()
}

// the raw baseline under the same load (its registrations: one conditional UPDATE and one INSERT)
const dir = mkdtempSync(join(tmpdir(), 'einlass-baseline-'))
const port = await freePort()
const b = start([BUN, join(ROOT, 'bench', 'baseline-server.ts'), String(port), join(dir, 'baseline.sqlite'), '100000000'], {}, ROOT)
try {
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/`, { method: 'POST', body: JSON.stringify({ email: 'probe@bench.example', firstName: 'p', lastName: 'p' }) })).status === 201) break
    } catch {}
    if (i > 500) throw new Error('baseline did not start')
    await Bun.sleep(20)
  }
  if (WARMUP > 0) await runWrk({ url, script: 'orders.lua', connections: CONNECTIONS, seconds: WARMUP, args: { path: '/', tag: 'warm' } })
  const cpu0 = cpuSeconds(b.pid!)
  const base = await runWrk({ url, script: 'orders.lua', connections: CONNECTIONS, seconds: SECONDS, args: { path: '/', tag: 'run' } })
  const baseRate = perSecond(base, base.ok)
  const baseCpu = ((cpuSeconds(b.pid!) - cpu0) * 1000) / Math.max(1, base.ok)
  console.log(`baseline (Bun + bun:sqlite): ${summary(base)}`)
  console.log(`→ ${fmt(baseRate)} registrations/s, server CPU ${baseCpu.toFixed(3)} ms each`)
  const ratio = baseRate ? sustained!.rate / baseRate : 0
  rows.push({ what: 'ratio einlass orders / raw SQLite baseline (per second; by CPU in brackets)', measured: `${ratio.toFixed(2)} (${(baseCpu / sustained!.cpuMs).toFixed(2)})`, target: 'reported (registrations: ≥ 0.2)', pass: true })
} finally {
  await stop(b)
  rmSync(dir, { recursive: true, force: true })
}
process.exitCode = verdicts(rows) ? 0 : 1
