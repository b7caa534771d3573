// Invoice numbers under SIGKILL (docs/operations.md "Background work exactly once"): two processes on
// one Postgres confirm ticket orders paid by invoice (each confirmation issues the agency's next
// invoice number in its transaction) from four clients at once; one process is killed with SIGKILL
// in the middle. The orders whose confirmation was cut off are confirmed again through the other
// process. Afterwards the numbers are exactly 1…N: no gap (a cut-off transaction gave its number
// back), no number twice, one invoice per order, and the sequence stands at N + 1.
import { describe, expect, test } from 'bun:test'
import { eventBody, postgresAvailable } from '../testing/harness'
import type { ServerProcess } from '../testing/process'
import { twoProcessesOnPostgres } from '../testing/two-processes'

const ORDERS = 60
const CLIENTS = 4
const SELLER = { name: 'Nummern GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-', contactName: 'Ada Admin', phone: '+49 30 123456', email: 'rechnung@nummern.example' }
const ADDRESS = { receiver: 'Berta Käuferin', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin' }

describe.if(postgresAvailable())('invoice numbers when a process is killed while issuing them', () => {
  const procs = twoProcessesOnPostgres()

  test('SIGKILL mid-run: numbers contiguous from 1, none twice, one invoice per order', async () => {
    const p = procs()
    const { one, two } = p
    const call = async (s: ServerProcess, method: string, path: string, body?: unknown, cookie?: string) => {
      const r = await p.send(s, method, path, body, { cookie })
      return { status: r.status, body: await r.json().catch(() => null) }
    }
    const admin = await p.setupAgency('admin@nummern.example')
    expect((await call(one, 'PUT', '/proxy/api/agency/sellerSettings', SELLER, admin)).status).toBe(200)
    const event = await call(two, 'POST', '/proxy/api/events', eventBody({ displayName: 'Nummern-Fest', maxVisitors: 1000 }), admin)
    expect(event.status).toBe(201)
    const cat = await call(one, 'POST', `/proxy/api/events/${event.body.id}/ticketCategories`, { displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 500 }, admin)
    expect(cat.status).toBe(201)
    const pm = await call(two, 'POST', '/proxy/api/agency/paymentMethods', { method: 'INVOICE' }, admin)
    expect((await call(one, 'PUT', `/proxy/api/events/${event.body.id}/paymentMethods`, { ids: [pm.body.id] }, admin)).status).toBe(200)

    // ORDERS orders brought to their last step (40), half through each process
    const orders: string[] = []
    for (let i = 0; i < ORDERS; i++) {
      const s = p.either(i)
      const r = await call(s, 'POST', `/proxy/api/public/events/${event.body.id}/registrations`, {
        salutation: 'Frau',
        firstName: 'Berta',
        lastName: `Nr${i}`,
        email: `kauf${i}@nummern.example`,
        tickets: [{ categoryId: cat.body.id, amount: 1 }],
      })
      expect(r.status).toBe(201)
      const o = `/proxy/api/guest/ticketOrder/${r.body.ticketOrderId}`
      let step = (await call(s, 'GET', o)).body.ticketOrder.step
      if (step === 1) step = (await call(s, 'POST', `${o}/proceed/invoiceAddress`, { invoiceAddress: ADDRESS })).body.step
      if (step === 8) step = (await call(s, 'POST', `${o}/proceed/paymentSelection`, { paymentMethod: 'INVOICE' })).body.step
      expect(step).toBe(40)
      orders.push(r.body.ticketOrderId)
    }

    // four clients confirm them (each confirmation issues an invoice), alternating processes; process
    // two is killed with SIGKILL once a third is done
    const queue = [...orders]
    const cutOff: string[] = []
    let confirmed = 0
    let killedAt = -1
    let i = 0
    const confirm = (s: ServerProcess, id: string) => p.send(s, 'POST', `/proxy/api/guest/ticketOrder/${id}/proceed/paymentPay`, { paymentMethod: 'INVOICE' })
    const clients = Array.from({ length: CLIENTS }, async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        const s = killedAt >= 0 ? one : p.either(i++)
        try {
          const r = await confirm(s, id)
          expect(r.status).toBe(200)
          expect((await r.json()).step).toBe(100)
          if (++confirmed === Math.floor(ORDERS / 3) && killedAt < 0) {
            killedAt = confirmed
            two.proc.kill('SIGKILL')
          }
        } catch (e) {
          // only the killed process's requests may fail, and only as a cut connection
          expect(s).toBe(two)
          cutOff.push(id)
        }
      }
    })
    await Promise.all(clients)
    expect(killedAt).toBeGreaterThan(0)
    await two.exited

    // the cut-off ones again, through the process that lives (some may have committed before the kill)
    const retried: number[] = []
    for (const id of cutOff) {
      const again = await confirm(one, id)
      const body = await again.json()
      expect([200, 409]).toContain(again.status)
      if (again.status === 200) expect(body.step).toBe(100)
      retried.push(again.status)
    }
    for (const id of orders) expect((await call(one, 'GET', `/proxy/api/guest/ticketOrder/${id}`)).body.ticketOrder.step).toBe(100)

    const agency = (await p.query('select agency_id from event where id = $1', [event.body.id]))[0].agency_id
    const invoices = await p.query("select number, order_ref from invoice where agency_id = $1 and kind = 'INVOICE' order by number", [agency])
    const numbers = invoices.map((r) => Number(String(r.number).replace(/^RE-/, '')))
    expect(numbers).toEqual(Array.from({ length: ORDERS }, (_, k) => k + 1))
    expect(new Set(invoices.map((r) => r.order_ref)).size).toBe(ORDERS)
    expect(Number((await p.query('select next_number from invoice_sequence where agency_id = $1', [agency]))[0].next_number)).toBe(ORDERS + 1)
    console.log('invoice-sigkill figures', JSON.stringify({ orders: ORDERS, killedAfter: killedAt, cutOff: cutOff.length, retried }))
  }, 120_000)
})
