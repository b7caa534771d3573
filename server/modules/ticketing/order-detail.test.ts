// The organiser's order detail (docs/ticketing.md, "Order detail"): lines with tax and seats, online
// payments and refunds with provider and reference, the invoice and its credit notes with working
// download links, the history with who did what, the persons with their check-in state; the order
// found by its number, an invoice or credit note number and the buyer's e-mail; the guest detail
// names the registration's orders; every id checked against the organiser's agency and event.
import { afterAll, expect, test } from 'bun:test'
import { type Harness, forEachDialect } from '../../testing/harness'
import { SELLER, STRIPE, attemptsOf, orderRow, orderUrl, startFakes } from '../payments/testing'
import { TRANSFER, address, buy, buyer, paidEvent, pay } from './testing'

const fakes = startFakes()
afterAll(() => fakes.stop())

async function stripePaidOrderOfThree(h: Harness) {
  const admin = await h.admin()
  await admin.put('/proxy/api/agency/sellerSettings', SELLER)
  const { event, categories } = await paidEvent(admin, { methods: [STRIPE], categories: [{ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 10 }] })
  const b = await buy(h, event.id, buyer([{ categoryId: categories[0]!.id, amount: 3 }], { escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }, { firstName: 'Emil', lastName: 'Escort' }] }))
  expect(b.status).toBe(201)
  const id = b.body.ticketOrderId as string
  expect((await h.request('POST', `${orderUrl(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step).toBe(40)
  await h.request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
  const [a] = await attemptsOf(h, id)
  fakes.stripe.confirm(a!.external_id!, 'ok')
  expect((await h.request('POST', `${orderUrl(id)}/stripe/success`)).body.status).toBe('PAID')
  const o = await orderRow(h, id)
  return { admin, event, categories, order: o, attempt: a! }
}

forEachDialect(
  'organiser order detail',
  (h) => {
    test('lines, Stripe payment and partial refund with references, invoice and credit note with downloads, history with who, persons with check-in', async () => {
      const { admin, event, order, attempt } = await stripePaidOrderOfThree(h())
      const url = `/proxy/api/events/${event.id}/orders/${order.id}`
      h().clock.advance(3600_000)
      expect((await admin.post(`${url}/refundPayment`, { amount: 2500 })).status).toBe(200)
      const d = await admin.get(url)
      expect(d.status).toBe(200)
      expect(d.body).toMatchObject({ id: order.id, number: order.number, status: 'PAID', paidAmount: 7500, refundedAmount: 2500, amountLeft: 5000, partlyRefunded: true })
      expect(d.body.lines).toEqual([expect.objectContaining({ displayName: 'Stehplatz', amount: 3, unitPrice: 2500, grossPrice: 7500, taxCode: 'TAX_19', taxRate: 19, seats: [] })])
      expect(d.body.payments).toEqual([expect.objectContaining({ kind: 'ONLINE', provider: 'Stripe', reference: attempt.external_id, amount: 7500, refundedAmount: 2500 })])
      const listed = (await admin.post(`/proxy/api/events/${event.id}/orders/search`, { page: 0, perPage: 25 })).body.items
      expect(listed).toEqual([expect.objectContaining({ id: order.id, partlyRefunded: true, amountLeft: 5000 })])
      // the payment's time is when the money came in, not the refund's
      expect(d.body.payments[0].at).toBe(d.body.history.find((x: any) => x.kind === 'PAID_ONLINE').at)
      expect(d.body.refunds).toEqual([expect.objectContaining({ kind: 'ONLINE', provider: 'Stripe', amount: 2500, status: 'DONE' })])
      expect(d.body.refunds[0].reference).toMatch(/^re_/)
      expect(d.body.invoices.map((i: any) => [i.kind, i.number, i.grossCents, i.cancelsNumber])).toEqual([
        ['INVOICE', 'RE-00001', 7500, null],
        ['CANCELLATION', 'RE-00002', -2500, 'RE-00001'],
      ])
      for (const inv of d.body.invoices) {
        const pdf = await admin.request('GET', inv.pdfUrl)
        expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf'])
        const xml = await admin.request('GET', inv.xmlUrl)
        expect(xml.status).toBe(200)
        expect(xml.text).toContain(`<ram:ID>${inv.number}</ram:ID>`)
        if (inv.kind === 'CANCELLATION') expect(xml.text).toMatch(/<ram:InvoiceReferencedDocument>\s*<ram:IssuerAssignedID>RE-00001</)
      }
      expect(d.body.invoiceAddress).toMatchObject({ receiver: 'Berta Käuferin', city: 'Berlin' })
      const kinds = d.body.history.map((x: any) => x.kind)
      expect(kinds).toContain('CREATED')
      expect(kinds).toContain('PARTIAL_REFUND')
      expect(d.body.history.find((x: any) => x.kind === 'PARTIAL_REFUND')).toMatchObject({ accountId: admin.accountId, by: 'Ada Admin' })
      expect(d.body.history.find((x: any) => x.kind === 'CREATED')).toMatchObject({ accountId: null, by: null })
      expect(d.body.persons.map((p: any) => [p.kind, p.name, p.checkedIn])).toEqual([
        ['GUEST', 'Berta Käuferin', false],
        ['ESCORT', 'Eva Escort', false],
        ['ESCORT', 'Emil Escort', false],
      ])
      // the check-in shows once a person is in
      await h().ctx.db.updateTable('event_visitor').set({ main_guest_checked_in: true as never, main_guest_checkin_date: new Date().toISOString() }).where('id', '=', order.visitor_id!).execute()
      expect((await admin.get(url)).body.persons[0]).toMatchObject({ kind: 'GUEST', checkedIn: true })
      // the guest detail names the registration's orders (each opens this page)
      const guest = await admin.get(`/proxy/api/events/${event.id}/visitors/${order.visitor_id}`)
      expect(guest.body.ticketOrders).toEqual([expect.objectContaining({ id: order.id, number: order.number, status: 'PAID' })])
    }, 60_000)

    test('search finds the order by its number, its invoice number, a credit note number and the buyer e-mail', async () => {
      const { admin, event, order } = await stripePaidOrderOfThree(h())
      // a second order that must not be found
      const other = await stripePaidOrderOfThree(h())
      expect(other.order.id).not.toBe(order.id)
      await admin.post(`/proxy/api/events/${event.id}/orders/${order.id}/refundPayment`, { amount: 1000 })
      const search = async (term: string) => (await admin.post(`/proxy/api/events/${event.id}/orders/search`, { search: term, page: 0, perPage: 25 })).body.items.map((o: any) => o.id)
      expect(await search(order.number)).toEqual([order.id])
      // the list says the order is partly refunded and what is left
      const listed = (await admin.post(`/proxy/api/events/${event.id}/orders/search`, { page: 0, perPage: 25 })).body.items.find((o: any) => o.id === order.id)
      expect(listed).toMatchObject({ status: 'PAID', partlyRefunded: true, amountLeft: 6500 })
      expect(await search('RE-00001')).toEqual([order.id])
      expect(await search('re-00002')).toEqual([order.id])
      expect(await search(order.email!)).toEqual([order.id])
      expect(await search('RE-09999')).toEqual([])
    }, 60_000)

    test('offline: mark paid and its undo as payments with who and amount (the undo a counter-entry); another agency or event answers 404', async () => {
      const admin = await h().admin()
      await admin.put('/proxy/api/agency/sellerSettings', SELLER)
      const { event, categories } = await paidEvent(admin, { methods: [TRANSFER] })
      const b = await buy(h(), event.id, buyer([{ categoryId: categories[0]!.id, amount: 1 }]))
      await pay(h(), b.body.ticketOrderId, 'TRANSFER')
      const o = await orderRow(h(), b.body.ticketOrderId)
      const url = `/proxy/api/events/${event.id}/orders/${o.id}`
      const paidAt = new Date(h().clock.now().getTime() - 3600_000).toISOString()
      expect((await admin.post(`${url}/markPaid`, { amount: 2500, paidAt })).status).toBe(200)
      expect((await admin.post(`${url}/undoPaid`)).status).toBe(200)
      const d = (await admin.get(url)).body
      expect(d.payments.map((p: any) => [p.kind, p.amount, p.paidAt, p.accountId])).toEqual([
        ['OFFLINE', 2500, paidAt, admin.accountId],
        ['OFFLINE', -2500, paidAt, admin.accountId],
      ])
      expect(d.history.filter((x: any) => x.kind.startsWith('MARKED_PAID')).map((x: any) => x.by)).toEqual(['Ada Admin', 'Ada Admin'])
      expect(d.status).toBe('OPEN')
      // offline refund of a paid order: a refund without provider
      await admin.post(`${url}/markPaid`, { amount: 2500, paidAt })
      expect((await admin.post(`${url}/refund`)).status).toBe(200)
      const r = (await admin.get(url)).body
      expect(r.refunds).toEqual([expect.objectContaining({ kind: 'OFFLINE', provider: null, amount: 2500 })])
      expect(r.invoices.map((i: any) => i.kind)).toEqual(['INVOICE', 'CANCELLATION'])

      // ownership: another agency's organiser, and an event of the same agency that is not the order's
      const stranger = await h().admin()
      expect((await stranger.get(url)).status).toBe(404)
      const { event: second } = await paidEvent(admin, { methods: [TRANSFER] })
      expect((await admin.get(`/proxy/api/events/${second.id}/orders/${o.id}`)).status).toBe(404)
      // the stranger cannot download the order's invoice either
      expect((await stranger.request('GET', r.invoices[0].pdfUrl)).status).toBe(404)
    }, 60_000)

    test('offline partial refunds: a credit note each for exactly the amount, mailed with the guest; the rest ends the order and frees the tickets; never more than paid, also at once; gapless numbers', async () => {
      const admin = await h().admin()
      await admin.put('/proxy/api/agency/sellerSettings', { ...SELLER, useInvoiceXML: true })
      const { event, categories } = await paidEvent(admin, { methods: [TRANSFER], categories: [{ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 10 }] })
      const b = await buy(h(), event.id, buyer([{ categoryId: categories[0]!.id, amount: 3 }], { escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }, { firstName: 'Emil', lastName: 'Escort' }] }))
      expect(b.status).toBe(201)
      await pay(h(), b.body.ticketOrderId, 'TRANSFER')
      const o = await orderRow(h(), b.body.ticketOrderId)
      const url = `/proxy/api/events/${event.id}/orders/${o.id}`
      expect((await admin.post(`${url}/markPaid`, { amount: 7500, paidAt: h().clock.now().toISOString() })).status).toBe(200)
      const sold = async () => (await h().ctx.db.selectFrom('ticket_category').select('sold').where('id', '=', categories[0]!.id).executeTakeFirstOrThrow()).sold
      expect(await sold()).toBe(3)
      // bad input: the spec's error shape, nothing recorded
      const bad = await admin.post(`${url}/refund`, { amount: -5 })
      expect(bad.status).toBe(400)
      const tooMuch = await admin.post(`${url}/refund`, { amount: 7501 })
      expect([tooMuch.status, tooMuch.body.errorType]).toEqual([409, 'REFUND_TOO_LARGE'])

      // one ticket's worth back by hand
      const first = await admin.post(`${url}/refund`, { amount: 2500 })
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({ status: 'PAID', refundedAmount: 2500, amountLeft: 5000, partlyRefunded: true })
      expect(first.body.refunds).toEqual([expect.objectContaining({ kind: 'OFFLINE', amount: 2500, accountId: admin.accountId })])
      expect(first.body.invoices.map((i: any) => [i.number, i.grossCents])).toEqual([
        ['RE-00001', 7500],
        ['RE-00002', -2500],
      ])
      // the guest is mailed the credit note, PDF and XRechnung
      for (let i = 0; i < 5; i++) await h().deliverMail()
      const mail = await h().smtp.waitFor((m) => m.to.includes(o.email!) && /Teilerstattung/.test(m.subject))
      expect(mail.parsed.attachments.map((a) => a.filename)).toEqual(['Stornorechnung-RE-00002.pdf', 'XRechnung-RE-00002.xml'])
      expect(mail.parsed.attachments[1]!.content.toString('utf8')).toMatch(/<ram:GrandTotalAmount>-25\.00<\/ram:GrandTotalAmount>/)

      // five refunds of 9 € at once on the 50 € left: all fit
      const burst = await Promise.all(Array.from({ length: 5 }, () => admin.post(`${url}/refund`, { amount: 900 })))
      expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200])
      // 5 000 − 4 500 = 500 left; three of 300 at once: one fits, two are refused
      const race = await Promise.all(Array.from({ length: 3 }, () => admin.post(`${url}/refund`, { amount: 300 })))
      expect(race.map((r) => r.status).sort()).toEqual([200, 409, 409])
      expect(race.filter((r) => r.status === 409).map((r) => r.body.errorType)).toEqual(['REFUND_TOO_LARGE', 'REFUND_TOO_LARGE'])
      let d = (await admin.get(url)).body
      expect([d.status, d.refundedAmount, d.amountLeft]).toEqual(['PAID', 7300, 200])
      expect(await sold()).toBe(3)
      // the rest (no amount): REFUNDED, tickets back, the last credit note for exactly what was left
      const rest = await admin.post(`${url}/refund`)
      expect(rest.status).toBe(200)
      d = rest.body
      expect([d.status, d.refundedAmount, d.amountLeft, d.partlyRefunded]).toEqual(['REFUNDED', 7500, 0, false])
      expect(await sold()).toBe(0)
      const numbers = d.invoices.map((i: any) => i.number)
      expect(numbers).toEqual(['RE-00001', 'RE-00002', 'RE-00003', 'RE-00004', 'RE-00005', 'RE-00006', 'RE-00007', 'RE-00008', 'RE-00009'])
      expect(d.invoices.slice(1).reduce((s: number, i: any) => s + i.grossCents, 0)).toBe(-7500)
      expect(d.invoices.at(-1).grossCents).toBe(-200)
      // nothing more to give back
      expect((await admin.post(`${url}/refund`, { amount: 100 })).body.errorType).toBe('ORDER_NOT_PAID')
    }, 90_000)
  },
  { env: fakes.env },
)
