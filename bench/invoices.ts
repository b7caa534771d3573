// Issuing invoices with two einlass processes (the compiled binary) on one Postgres (issue 12):
// INVOICES ticket orders are bought and brought to "awaiting transfer" through the guest's API
// (set-up, not measured), then the organiser marks them paid — half through each process, at the
// same time (wrk, bench/lua/ids.lua) — which issues each order's invoice in the paying transaction
// (ticketing/orders/invoicing.ts → invoices/service.ts issueInvoice: the agency's number sequence
// row locked, the snapshot frozen). Then every invoice's PDF and XRechnung (CII) are rendered by
// downloading them, again half through each process. Afterwards SQL checks: one invoice per order,
// numbers 1…N without a gap and without a duplicate, the sequence's next number N + 1.
// Target: PDF + XML ≥ 50 invoices/s (issued, PDF and XML, over both phases), no gap, no duplicate.
//   node_modules/.bin/bun build.ts --test-license-key --outfile e2e/.artifacts/einlass
//   node_modules/.bin/bun bench/invoices.ts   # INVOICES=10000 CONNECTIONS=16 (per process)
//   Postgres: TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test), a schema of its own
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { createSchema } from '../server/testing/postgres'
import { type Running, createEventVia, pool, startBinary } from './organiser-lib'
import { fmt, runWrk, summary, verdicts } from './wrk'

const INVOICES = Number(process.env.INVOICES ?? 10_000)
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16)
const PRICE = 2500
const TRANSFER = { method: 'TRANSFER', accountHolder: 'Bench Veranstaltungen GmbH', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', bank: 'Commerzbank', transferReferencePrefix: 'RE-' }
const SELLER = { name: 'Bench Veranstaltungen GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin', country: 'DEU', vatId: 'DE123456789', contactName: 'Bea Bench', phone: '+49 30 123456', email: 'rechnung@bench.example', invoiceNumberPrefix: 'RE-', useInvoiceXML: true }
const ADDRESS = { receiver: 'Berta Käuferin', street: 'Lindenweg', streetNumber: '7', postCode: '04109', city: 'Leipzig', country: 'DEU' }

const schema = await createSchema()
const env = { DATABASE_URL: schema.url }
const tmp = mkdtempSync(join(tmpdir(), 'einlass-invoices-'))
const servers: Running[] = []
const sql = async (text: string, params: unknown[] = []) => {
  const c = new pg.Client({ connectionString: schema.url.replace(/\?.*$/, ''), options: `-c search_path=${schema.schema}` })
  await c.connect()
  try {
    return (await c.query(text, params)).rows
  } finally {
    await c.end()
  }
}
const json = async (r: Response, want: number, what: string) => {
  if (r.status !== want) throw new Error(`${what}: ${r.status} ${await r.text()}`)
  return r.json() as Promise<any>
}

try {
  const one = await startBinary(env, { license: true })
  servers.push(one)
  const two = await startBinary(env, { license: true, setup: one })
  servers.push(two)
  const h = one.headers
  await json(await fetch(`${one.url}/proxy/api/agency/sellerSettings`, { method: 'PUT', headers: h, body: JSON.stringify(SELLER) }), 200, 'seller settings')
  const eventId = await createEventVia(one, { maxVisitors: null, displayName: 'Rechnungslauf' })
  const category = await json(await fetch(`${one.url}/proxy/api/events/${eventId}/ticketCategories`, { method: 'POST', headers: h, body: JSON.stringify({ displayName: 'Stehplatz', grossPrice: PRICE, taxCode: 'TAX_19', quota: null }) }), 201, 'category')
  const method = await json(await fetch(`${one.url}/proxy/api/agency/paymentMethods`, { method: 'POST', headers: h, body: JSON.stringify(TRANSFER) }), 201, 'payment method')
  await json(await fetch(`${one.url}/proxy/api/events/${eventId}/paymentMethods`, { method: 'PUT', headers: h, body: JSON.stringify({ ids: [method.id] }) }), 200, 'event payment methods')

  // set-up: INVOICES orders awaiting their transfer, bought through both processes
  const t0 = performance.now()
  await pool(INVOICES, 32, async (i) => {
    const base = (i % 2 ? two : one).url
    const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const o = await json(await post(`/proxy/api/public/events/${eventId}/registrations`, { salutation: 'Frau', firstName: 'Berta', lastName: `Käuferin ${i}`, email: `kauf.${i}@bench.example`, tickets: [{ categoryId: category.id, amount: 1 }] }), 201, 'order')
    const step = await json(await post(`/proxy/api/guest/ticketOrder/${o.ticketOrderId}/proceed/invoiceAddress`, { invoiceAddress: ADDRESS }), 200, 'invoice address')
    if (step.step !== 40) await json(await post(`/proxy/api/guest/ticketOrder/${o.ticketOrderId}/proceed/paymentSelection`, { paymentMethod: 'TRANSFER' }), 200, 'payment selection')
    await json(await post(`/proxy/api/guest/ticketOrder/${o.ticketOrderId}/proceed/paymentPay`, { paymentMethod: 'TRANSFER' }), 200, 'pay')
  })
  const orders = (await sql(`select id from ticket_order where event_id = $1 and status = 'OPEN' order by id`, [eventId])).map((r) => String(r.id))
  console.log(`set-up: ${orders.length} orders awaiting their transfer in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  if (orders.length !== INVOICES) throw new Error(`expected ${INVOICES} open orders, found ${orders.length}`)
  await sql('vacuum analyze')

  const both = async (label: string, ids: string[][], perId: number, args: Record<string, string | number>) => {
    const files = ids.map((list, k) => {
      const f = join(tmp, `${label}-${k}.txt`)
      writeFileSync(f, list.join('\n'))
      return f
    })
    const runs = await Promise.all([one, two].map((s, k) => runWrk({ url: s.url, script: 'ids.lua', connections: CONNECTIONS, timeoutS: 120, limit: ids[k].length * perId, args: { ...args, file: files[k], cookie: one.cookie, account: one.accountId, origin: s.url } })))
    const first = Math.min(...runs.map((r) => r.firstUs))
    const last = Math.max(...runs.map((r) => r.lastUs))
    runs.forEach((r, k) => console.log(`${label}, process ${k + 1}: ${summary(r)}`))
    return { runs, seconds: (last - first) / 1e6, ok: runs.reduce((a, r) => a + r.ok, 0), bad: runs.reduce((a, r) => a + r.received - r.ok, 0) }
  }
  const halves = <T,>(list: T[]) => [list.filter((_, i) => i % 2 === 0), list.filter((_, i) => i % 2 === 1)]

  // phase 1: mark paid → issue
  const paidAt = new Date().toISOString()
  const issue = await both('mark paid (issues the invoice)', halves(orders), 1, { method: 'POST', path0: `/proxy/api/events/${eventId}/orders/{id}/markPaid`, body: JSON.stringify({ amount: PRICE, paidAt }) })
  const issueRate = issue.ok / issue.seconds
  console.log(`→ ${issue.ok} invoices issued in ${issue.seconds.toFixed(2)} s: ${fmt(issueRate, 1)} invoices/s`)

  // phase 2: every invoice's PDF and XML
  const invoices = (await sql('select id from invoice where event_id = $1 order by id', [eventId])).map((r) => String(r.id))
  // one invoice's files alone first (what a single download costs without queueing)
  for (const [what, path] of [['PDF', 'pdf'], ['XRechnung CII', 'xrechnung?syntax=CII'], ['PDF again', 'pdf'], ['XRechnung again', 'xrechnung?syntax=CII']]) {
    const t = performance.now()
    const r = await fetch(`${one.url}/proxy/api/invoices/${invoices[0]}/${path}`, { headers: h })
    const bytes = (await r.arrayBuffer()).byteLength
    console.log(`one invoice, ${what}: ${r.status}, ${fmt(bytes)} bytes in ${(performance.now() - t).toFixed(1)} ms`)
  }
  const render = await both('PDF + XRechnung', halves(invoices), 2, { path0: '/proxy/api/invoices/{id}/pdf', path1: '/proxy/api/invoices/{id}/xrechnung?syntax=CII' })
  const renderRate = render.ok / 2 / render.seconds
  console.log(`→ ${render.ok} files (${invoices.length} invoices) in ${render.seconds.toFixed(2)} s: ${fmt(renderRate, 1)} invoices/s with PDF and XML`)
  const overall = invoices.length / (issue.seconds + render.seconds)

  // the numbers, read back
  const [n] = await sql(
    `select count(*)::int as n, count(distinct number)::int as d, count(distinct order_ref)::int as orders,
            min(substring(number from 4)::int) as lo, max(substring(number from 4)::int) as hi,
            count(*) filter (where number !~ '^RE-[0-9]{5,}$')::int as odd
       from invoice where agency_id = (select agency_id from event where id = $1)`,
    [eventId],
  )
  const [seq] = await sql('select next_number from invoice_sequence where agency_id = (select agency_id from event where id = $1)', [eventId])
  const paid = (await sql(`select count(*)::int as n from ticket_order where event_id = $1 and status = 'PAID'`, [eventId]))[0].n
  console.log(`database: ${n.n} invoices, ${n.d} distinct numbers RE-${String(n.lo).padStart(5, '0')} … RE-${String(n.hi).padStart(5, '0')}, ${n.orders} orders with an invoice, ${paid} orders paid, sequence next ${seq.next_number}`)
  const gapless = n.n === INVOICES && n.d === n.n && n.lo === 1 && n.hi === n.n && n.odd === 0 && Number(seq.next_number) === n.n + 1
  process.exitCode = verdicts([
    { what: 'every order marked paid has its invoice', measured: `${issue.ok} × 200 of ${INVOICES}, ${issue.bad} refused; ${paid} paid, ${n.orders} with an invoice`, target: `${INVOICES}`, pass: issue.ok === INVOICES && paid === INVOICES && n.orders === INVOICES },
    { what: 'invoice numbers, two processes', measured: `${n.n} invoices, ${n.d} distinct, ${n.lo} … ${n.hi}, next ${seq.next_number}`, target: 'no gap, no duplicate', pass: gapless },
    { what: 'issuing (mark paid, two processes)', measured: `${fmt(issueRate, 1)} invoices/s`, target: 'reported', pass: true },
    { what: 'rendering PDF + XRechnung (two processes)', measured: `${fmt(renderRate, 1)} invoices/s, ${render.bad} failed`, target: 'reported', pass: render.bad === 0 },
    { what: 'invoices issued with PDF + XML, both phases', measured: `${fmt(overall, 1)} invoices/s`, target: '≥ 50/s', pass: overall >= 50 },
  ])
    ? 0
    : 1
} finally {
  for (const s of servers.reverse()) await s.stop()
  await schema.drop()
  rmSync(tmp, { recursive: true, force: true })
}
