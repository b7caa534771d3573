// Issue 21: every mail that tells the guest about a cancellation or refund that produced a
// cancellation invoice (Stornorechnung / credit note) carries it as PDF and as XRechnung XML, built
// by the mail worker from the stored snapshot. Read back from the SMTP sink: the PDF with pdftotext,
// the XML parsed for its type code (381, credit note) and the invoice it refers to.
import { afterAll, expect, test } from 'bun:test'
import { type Harness, forEachDialect } from '../../testing/harness'
import type { ReceivedMail } from '../../testing/smtp-sink'
import { TRANSFER, address, buy, buyer, paidEvent } from '../ticketing/testing'
import { SELLER, STRIPE, attemptsOf, orderRow, orderUrl, startFakes } from './testing'

const fakes = startFakes()
afterAll(() => fakes.stop())

function pdfText(bytes: Buffer): string {
  const p = Bun.spawnSync(['pdftotext', '-layout', '-', '-'], { stdin: bytes })
  expect(p.exitCode).toBe(0)
  return p.stdout.toString()
}
const files = (m: ReceivedMail) => m.parsed.attachments.map((a) => a.filename)
const file = (m: ReceivedMail, name: RegExp) => m.parsed.attachments.find((a) => name.test(a.filename ?? ''))!.content as Buffer

/** The credit note's XRechnung (CII): type 381, negative total, naming the invoice it cancels. */
function expectCreditNoteXml(xml: string, number: string, original: string) {
  expect(xml).toContain(`<ram:ID>${number}</ram:ID>`)
  expect(xml).toContain('<ram:TypeCode>381</ram:TypeCode>')
  expect(xml).toContain(`Stornorechnung zur Rechnung ${original}`)
  expect(xml).toMatch(/<ram:GrandTotalAmount>-\d+\.\d\d<\/ram:GrandTotalAmount>/)
}

async function transferOrderPaid(h: Harness, admin: any, email: string) {
  const { event, categories } = await paidEvent(admin, { methods: [TRANSFER] })
  const r = await buy(h, event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email }))
  expect(r.status).toBe(201)
  const o = orderUrl(r.body.ticketOrderId)
  await h.request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })
  await h.request('POST', `${o}/proceed/paymentSelection`, { body: { paymentMethod: 'TRANSFER' } })
  expect((await h.request('POST', `${o}/proceed/paymentPay`, { body: { paymentMethod: 'TRANSFER' } })).body.step).toBe(100)
  const row = await orderRow(h, r.body.ticketOrderId)
  const url = `/proxy/api/events/${event.id}/orders/${row.id}`
  expect((await admin.post(`${url}/markPaid`, { amount: row.gross_price, paidAt: '2026-11-24T10:00:00Z' })).body.status).toBe('PAID')
  return { url, row }
}

forEachDialect(
  'cancellation invoices mailed to the guest',
  (h) => {
  for (const action of ['cancel', 'refund'] as const) {
    test(`an invoiced paid order ${action === 'cancel' ? 'cancelled by the organiser' : 'refunded offline'}: the guest's mail carries the Stornorechnung as PDF and XRechnung`, async () => {
      const admin = await h().admin()
      await admin.put('/proxy/api/agency/sellerSettings', { ...SELLER, useInvoiceXML: true })
      const email = `storno-${action}@example.org`
      const { url, row } = await transferOrderPaid(h(), admin, email)
      await h().deliverMail()
      const before = h().smtp.to(email).length
      expect((await admin.post(`${url}/${action}`, {})).status).toBe(200)
      await h().deliverMail()
      const mails = h().smtp.to(email)
      expect(mails.length).toBe(before + 1)
      const mail = mails[before]!
      expect(files(mail)).toEqual(['Stornorechnung-RE-00002.pdf', 'XRechnung-RE-00002.xml'])
      expect(mail.text).toContain('Die Stornorechnung RE-00002 liegt bei.')
      const pdf = pdfText(file(mail, /\.pdf$/))
      expect(pdf).toContain('Stornorechnung')
      expect(pdf).toContain('RE-00001')
      expectCreditNoteXml(file(mail, /\.xml$/).toString(), 'RE-00002', 'RE-00001')
      // the organiser resends the mail: the same Stornorechnung again, no new number
      expect((await admin.post(`${url}/resendMail`, {})).status).toBe(200)
      await h().deliverMail()
      expect(files(h().smtp.to(email)[before + 1]!)).toEqual(['Stornorechnung-RE-00002.pdf', 'XRechnung-RE-00002.xml'])
      expect(await h().ctx.db.selectFrom('invoice').select('number').where('kind', '=', 'CANCELLATION').where('order_ref', '=', String(row.id)).execute()).toHaveLength(1)
    }, 120_000)
  }

  test('a partial Stripe refund: its credit note mailed with the XML; the refund of the rest its own', async () => {
    const admin = await h().admin()
    await admin.put('/proxy/api/agency/sellerSettings', { ...SELLER, useInvoiceXML: true })
    const { event, categories } = await paidEvent(admin, { methods: [STRIPE], categories: [{ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 10 }] })
    const email = 'teil.erstattung@example.org'
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0]!.id, amount: 1 }], { email }))
    const id = r.body.ticketOrderId as string
    await h().request('POST', `${orderUrl(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })
    await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
    const [a] = await attemptsOf(h(), id)
    fakes.stripe.confirm(a!.external_id!, 'ok')
    expect((await h().request('POST', `${orderUrl(id)}/stripe/success`)).body.status).toBe('PAID')
    const o = await orderRow(h(), id)
    await h().deliverMail()
    const before = h().smtp.to(email).length
    const url = `/proxy/api/events/${event.id}/orders/${o.id}`
    expect((await admin.post(`${url}/refundPayment`, { amount: 1000 })).body.status).toBe('PAID')
    await h().deliverMail()
    const partial = h().smtp.to(email)[before]!
    expect(files(partial)).toEqual(['Stornorechnung-RE-00002.pdf', 'XRechnung-RE-00002.xml'])
    expect(pdfText(file(partial, /\.pdf$/))).toContain('Stornorechnung')
    const xml = file(partial, /\.xml$/).toString()
    expectCreditNoteXml(xml, 'RE-00002', 'RE-00001')
    expect(xml).toContain('<ram:GrandTotalAmount>-10.00</ram:GrandTotalAmount>')
    // the rest: REFUNDED, the second credit note in the refunded mail
    expect((await admin.post(`${url}/refundPayment`, {})).body.status).toBe('REFUNDED')
    await h().deliverMail()
    const rest = h().smtp.to(email)[before + 1]!
    expect(files(rest)).toEqual(['Stornorechnung-RE-00003.pdf', 'XRechnung-RE-00003.xml'])
    expectCreditNoteXml(file(rest, /\.xml$/).toString(), 'RE-00003', 'RE-00001')
  }, 120_000)
},
  { env: fakes.env },
)
