// Stripe webhook handling against the compiled binary, with the re-fetch from the local Stripe fake
// (server/testing/fakes/stripe.ts, in this process): ORDERS ticket orders are paid by card (set-up:
// order, invoice address, pay, the fake confirms the PaymentIntent), then EVENTS signed webhook
// deliveries, each a different event id spread over those PaymentIntents, are sent by wrk
// (bench/lua/webhooks.lua). Each is verified with the endpoint's secret, looked up, re-fetched from the
// fake and stored once: the first per order pays it (PAID), the later ones find it paid (ALREADY).
// Afterwards: one payment_event row per event, every order PAID, one re-fetch per event.
// On SQLite and on Postgres (a schema of its own). Target (issue 13): ≥ 500 events/s.
//   node_modules/.bin/bun build.ts --test-license-key --outfile e2e/.artifacts/einlass
//   node_modules/.bin/bun bench/webhooks.ts   # EVENTS=10000 ORDERS=200 CONNECTIONS=32 DIALECTS=sqlite,postgres
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { startStripeFake } from '../server/testing/fakes/stripe'
import { createSchema } from '../server/testing/postgres'
import { type Running, createEventVia, pool, startBinary } from './organiser-lib'
import { fmt, runWrk, summary, verdicts } from './wrk'

const EVENTS = Number(process.env.EVENTS ?? 10_000)
const ORDERS = Number(process.env.ORDERS ?? 200)
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32)
const DIALECTS = (process.env.DIALECTS ?? 'sqlite,postgres').split(',')
const WHSEC = 'whsec_bench_einlass'
const STRIPE = { method: 'STRIPE', publicKey: 'pk_test_bench', secretKey: 'sk_test_bench', webhookSecret: WHSEC, paymentTypes: ['CARD'] }
const ADDRESS = { receiver: 'Berta Käuferin', street: 'Lindenweg', streetNumber: '7', postCode: '04109', city: 'Leipzig', country: 'DEU' }

const fake = startStripeFake(WHSEC)
const tmp = mkdtempSync(join(tmpdir(), 'einlass-webhooks-'))
const rows: Parameters<typeof verdicts>[0] = []
const json = async (r: Response, want: number, what: string) => {
  if (r.status !== want) throw new Error(`${what}: ${r.status} ${await r.text()}`)
  return r.json() as Promise<any>
}

async function bench(dialect: string) {
  fake.intents.clear()
  fake.calls.length = 0
  const schema = dialect === 'postgres' ? await createSchema() : null
  let s: Running | null = null
  try {
    s = await startBinary({ EINLASS_STRIPE_API_URL: fake.url, ...(schema ? { DATABASE_URL: schema.url } : {}) }, { license: true })
    const h = s.headers
    const eventId = await createEventVia(s, { maxVisitors: null, displayName: 'Kartenzahlung' })
    const category = await json(await fetch(`${s.url}/proxy/api/events/${eventId}/ticketCategories`, { method: 'POST', headers: h, body: JSON.stringify({ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: null }) }), 201, 'category')
    const method = await json(await fetch(`${s.url}/proxy/api/agency/paymentMethods`, { method: 'POST', headers: h, body: JSON.stringify(STRIPE) }), 201, 'payment method')
    await json(await fetch(`${s.url}/proxy/api/events/${eventId}/paymentMethods`, { method: 'PUT', headers: h, body: JSON.stringify({ ids: [method.id] }) }), 200, 'event payment methods')
    const post = (path: string, body: unknown) => fetch(`${s!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    await pool(ORDERS, 16, async (i) => {
      const o = await json(await post(`/proxy/api/public/events/${eventId}/registrations`, { salutation: 'Frau', firstName: 'Berta', lastName: `Karte ${i}`, email: `karte.${i}@bench.example`, tickets: [{ categoryId: category.id, amount: 1 }] }), 201, 'order')
      const step = await json(await post(`/proxy/api/guest/ticketOrder/${o.ticketOrderId}/proceed/invoiceAddress`, { invoiceAddress: ADDRESS }), 200, 'invoice address')
      if (step.step !== 40) throw new Error(`order at step ${step.step}, not 40`)
      await json(await post(`/proxy/api/guest/ticketOrder/${o.ticketOrderId}/proceed/paymentPay`, {}), 200, 'pay')
    })
    const intents = [...fake.intents.keys()]
    if (intents.length !== ORDERS) throw new Error(`${intents.length} PaymentIntents at the fake for ${ORDERS} orders`)
    for (const pi of intents) fake.confirm(pi, 'ok')
    // EVENTS deliveries, each its own event id, the PaymentIntents in turn
    const lines: string[] = []
    for (let i = 0; i < EVENTS; i++) {
      const w = await fake.webhook(intents[i % intents.length], { eventId: `evt_bench_${dialect}_${i}` })
      lines.push(`${w.signature}\t${w.body}`)
    }
    const file = join(tmp, `${dialect}.txt`)
    writeFileSync(file, lines.join('\n'))
    fake.calls.length = 0

    const run = await runWrk({ url: s.url, script: 'webhooks.lua', connections: CONNECTIONS, limit: EVENTS, args: { file, method: method.id } })
    const rate = run.ok / run.windowS
    const refetches = fake.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/v1/payment_intents/')).length
    console.log(`[${dialect}] webhooks: ${summary(run)}; outcomes ${JSON.stringify(run.kinds)}`)
    console.log(`[${dialect}] → ${run.ok} events in ${run.windowS.toFixed(2)} s: ${fmt(rate)} events/s; ${refetches} re-fetches at the fake`)

    let stored: { n: number; d: number }, paid: number
    if (schema) {
      const c = new pg.Client({ connectionString: schema.url.replace(/\?.*$/, ''), options: `-c search_path=${schema.schema}` })
      await c.connect()
      stored = (await c.query(`select count(*)::int as n, count(distinct external_id)::int as d from payment_event where provider = 'STRIPE' and external_id like $1`, [`evt_bench_${dialect}_%`])).rows[0]
      paid = (await c.query(`select count(*)::int as n from ticket_order where event_id = $1 and status = 'PAID'`, [eventId])).rows[0].n
      await c.end()
    } else {
      const db = new Database(join(s.dataDir, 'einlass.sqlite'), { readonly: true })
      stored = db.query(`select count(*) as n, count(distinct external_id) as d from payment_event where provider = 'STRIPE' and external_id like ?`).get(`evt_bench_${dialect}_%`) as { n: number; d: number }
      paid = (db.query(`select count(*) as n from ticket_order where event_id = ? and status = 'PAID'`).get(eventId) as { n: number }).n
      db.close()
    }
    console.log(`[${dialect}] database: ${stored.n} webhook events stored (${stored.d} distinct), ${paid} of ${ORDERS} orders paid`)
    rows.push(
      { what: `[${dialect}] webhook events handled with re-fetch, ${CONNECTIONS} connections`, measured: `${fmt(rate)}/s, p99 ${run.latencyMs.p99.toFixed(1)} ms`, target: '≥ 500/s', pass: rate >= 500 },
      {
        what: `[${dialect}] every event answered, stored once, re-fetched; every order paid once`,
        measured: `${run.ok} × 200 of ${EVENTS} (${JSON.stringify(run.kinds)}), ${stored.n} stored, ${refetches} re-fetches, ${paid} paid`,
        target: `${EVENTS}, ${ORDERS} × PAID`,
        pass: run.ok === EVENTS && stored.n === EVENTS && stored.d === EVENTS && refetches >= EVENTS && paid === ORDERS && run.kinds.PAID === ORDERS,
      },
    )
  } finally {
    await s?.stop()
    await schema?.drop()
  }
}

try {
  for (const d of DIALECTS) await bench(d)
} finally {
  fake.stop()
  rmSync(tmp, { recursive: true, force: true })
}
process.exitCode = verdicts(rows) ? 0 : 1
