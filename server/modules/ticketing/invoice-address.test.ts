// The organiser corrects the buyer's invoice address (issue 21, docs/invoices.md "Corrected
// invoices"): a credit note cancelling the invoice and a new invoice, consecutive gapless numbers
// (also with two corrections at once), both mailed with PDF and XRechnung and valid by the official
// rules; later credit notes refer to the new invoice; same address again: nothing; another agency: 404.
import { expect, test } from 'bun:test'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { forEachDialect } from '../../testing/harness'
import type { ReceivedMail } from '../../testing/smtp-sink'
import { address, buy, buyer, paidEvent } from './testing'

const VALIDATE = process.env.EINVOICE_VALIDATE ?? resolve(import.meta.dir, '../../../../shared/einvoice/validate')
const validatorReady = existsSync(VALIDATE) && existsSync('/usr/share/java/Saxon-HE.jar') && Bun.which('java') !== null && Bun.which('xmllint') !== null
if (!validatorReady && process.env.CI === 'true') throw new Error('e-invoice validator cannot run: CI must validate invoices')
if (!validatorReady) console.warn('e-invoice validator not available here: the corrected invoice is not validated')

const SELLER = { name: 'Agentur GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-', contactName: 'Ada Admin', phone: '+49 30 123456', email: 'rechnung@agentur.example' }
const NEW_ADDRESS = { receiver: 'Firma Käufer GmbH', street: 'Neue Straße', streetNumber: '7a', postCode: '50667', city: 'Köln' }
const dir = mkdtempSync(join(tmpdir(), 'einlass-corrected-'))
const order = (id: string) => `/proxy/api/guest/ticketOrder/${id}`
const file = (m: ReceivedMail, name: string) => m.parsed.attachments.find((a) => a.filename === name)!.content as Buffer

async function validate(xml: string, name: string) {
  if (!validatorReady) return
  const path = join(dir, name)
  writeFileSync(path, xml)
  const p = Bun.spawn(['bash', VALIDATE, path], { stdout: 'pipe', stderr: 'pipe' })
  const out = (await new Response(p.stdout).text()) + (await new Response(p.stderr).text())
  expect({ code: await p.exited, out: out.slice(-2000) }).toMatchObject({ code: 0 })
}

async function invoicedOrder(h: any, eventId: number, categoryId: number, email: string) {
  const r = await buy(h, eventId, buyer([{ categoryId, amount: 2 }], { email, escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] }))
  expect(r.status).toBe(201)
  const o = order(r.body.ticketOrderId)
  expect((await h.request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step).toBe(8)
  expect((await h.request('POST', `${o}/proceed/paymentSelection`, { body: { paymentMethod: 'INVOICE' } })).body.step).toBe(40)
  expect((await h.request('POST', `${o}/proceed/paymentPay`, { body: { paymentMethod: 'INVOICE' } })).body.step).toBe(100)
  return (await h.ctx.db.selectFrom('ticket_order').select('id').where('public_id', '=', r.body.ticketOrderId).executeTakeFirstOrThrow()).id as number
}

forEachDialect('corrected invoice address', (h) => {
  test('credit note and new invoice, consecutive numbers, mailed, valid; later refunds credit the new invoice; idempotent; ownership', async () => {
    const admin = await h().admin()
    await admin.put('/proxy/api/agency/sellerSettings', { ...SELLER, useInvoiceXML: true })
    const { event, categories } = await paidEvent(admin)
    const email = 'korrektur@example.org'
    const oid = await invoicedOrder(h(), event.id, categories[0].id, email)
    const url = `/proxy/api/events/${event.id}/orders/${oid}/invoiceAddress`
    const before = (await admin.get(`/proxy/api/events/${event.id}/orders/${oid}`)).body
    expect(before.invoices.map((i: any) => i.number)).toEqual(['RE-00001'])

    // bad input: the guest's address rules, German messages, no documents
    const bad = await admin.put(url, { ...NEW_ADDRESS, city: '', country: 'XX' })
    expect(bad.status).toBe(400)
    // another agency: 404, nothing changes
    const other = await h().admin()
    expect((await other.put(url, NEW_ADDRESS)).status).toBe(404)

    const r = await admin.put(url, NEW_ADDRESS)
    expect(r.status).toBe(200)
    expect(r.body.invoiceAddress).toMatchObject({ ...NEW_ADDRESS, country: 'DEU' })
    expect(r.body.invoices.map((i: any) => [i.number, i.kind, i.cancelsNumber])).toEqual([
      ['RE-00001', 'INVOICE', null],
      ['RE-00002', 'CANCELLATION', 'RE-00001'],
      ['RE-00003', 'INVOICE', null],
    ])
    expect(r.body.invoices.map((i: any) => i.grossCents)).toEqual([before.invoices[0].grossCents, -before.invoices[0].grossCents, before.invoices[0].grossCents])
    expect(r.body.history.at(-1)).toMatchObject({ kind: 'INVOICE_ADDRESS_CHANGED', data: { creditNote: 'RE-00002', invoice: 'RE-00003' } })

    // the same address again: no new documents, no mail
    expect((await admin.put(url, { ...NEW_ADDRESS, country: 'deu' })).body.invoices.length).toBe(3)

    await h().deliverMail()
    const mails = h().smtp.to(email)
    const mail = mails.find((m) => m.subject.includes('Korrigierte Rechnung'))!
    expect(mails.filter((m) => m.subject.includes('Korrigierte Rechnung')).length).toBe(1)
    expect(mail.parsed.attachments.map((a) => a.filename)).toEqual(['Stornorechnung-RE-00002.pdf', 'XRechnung-RE-00002.xml', 'Rechnung-RE-00003.pdf', 'XRechnung-RE-00003.xml'])
    expect(mail.text).toContain('Die Stornorechnung RE-00002 liegt bei.')
    expect(mail.text).toContain('Die Rechnung RE-00003 liegt bei.')
    const newXml = file(mail, 'XRechnung-RE-00003.xml').toString()
    expect(newXml).toContain('Firma Käufer GmbH')
    expect(newXml).toContain('Neue Straße')
    const creditXml = file(mail, 'XRechnung-RE-00002.xml').toString()
    // the credit note names the invoice it cancels (BT-25) and the old buyer
    expect(creditXml).toContain('RE-00001')
    expect(creditXml).toContain('Berta Käuferin')
    await validate(newXml, `new-${h().dialect}.xml`)
    await validate(creditXml, `credit-${h().dialect}.xml`)

    // a later partial refund credits the NEW invoice
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${oid}/markPaid`, { amount: before.grossPrice ?? 5000, paidAt: '2026-11-24T10:00:00Z' })).status).toBe(200)
    const refunded = await admin.post(`/proxy/api/events/${event.id}/orders/${oid}/refund`, { amount: 1000 })
    expect(refunded.status).toBe(200)
    expect(refunded.body.invoices.at(-1)).toMatchObject({ number: 'RE-00004', kind: 'CANCELLATION', cancelsNumber: 'RE-00003', grossCents: -1000 })
    // the order's mail sends the new invoice
    const db = h().ctx.db
    const orderRow = await db.selectFrom('ticket_order').selectAll().where('id', '=', oid).executeTakeFirstOrThrow()
    const { orderDocuments } = await import('./orders/mails')
    expect((await orderDocuments(h().ctx, orderRow)).files.map((f) => f.filename)).toContain('Rechnung-RE-00003.pdf')
    // after a partial refund the correction states what is still owed: the old invoice's rest credited, a new invoice for it
    await h().deliverMail()
    const mailsBefore = h().smtp.to(email).length
    const afterRefund = await admin.put(url, { ...NEW_ADDRESS, city: 'Bonn' })
    expect(afterRefund.status).toBe(200)
    expect(afterRefund.body.invoices.slice(-2).map((i: any) => [i.number, i.kind, i.grossCents, i.cancelsNumber])).toEqual([
      ['RE-00005', 'CANCELLATION', -4000, 'RE-00003'],
      ['RE-00006', 'INVOICE', 4000, null],
    ])
    const owed = await db.selectFrom('invoice').select(['snapshot']).where('number', '=', 'RE-00006').where('agency_id', '=', admin.agencyId).executeTakeFirstOrThrow()
    const owedSnap = JSON.parse(String(owed.snapshot))
    expect(owedSnap.buyer.city).toBe('Bonn')
    expect(owedSnap.lines.map((l: any) => [l.name, l.quantity, l.unitGrossCents])).toEqual([
      [expect.stringContaining('Stehplatz'), 2, 2500],
      ['Bereits erstattet (Gutschrift RE-00004)', -1, 1000],
    ])
    await h().deliverMail()
    const corrected = h().smtp.to(email).slice(mailsBefore)
    expect(corrected.length).toBe(1)
    const names = corrected[0]!.parsed.attachments.map((a) => a.filename)
    expect(names).toContain('XRechnung-RE-00005.xml')
    expect(names).toContain('XRechnung-RE-00006.xml')
    await validate(file(corrected[0]!, 'XRechnung-RE-00006.xml').toString(), `owed-${h().dialect}.xml`)
    await validate(file(corrected[0]!, 'XRechnung-RE-00005.xml').toString(), `rest-${h().dialect}.xml`)
    // refunding the rest credits the newest invoice; all documents add up to nothing
    const cancelled = await admin.post(`/proxy/api/events/${event.id}/orders/${oid}/refund`)
    expect(cancelled.body.invoices.at(-1)).toMatchObject({ number: 'RE-00007', cancelsNumber: 'RE-00006', grossCents: -4000 })
    expect(cancelled.body.invoices.reduce((sum: number, i: any) => sum + i.grossCents, 0)).toBe(0)
    // nothing left to invoice: the address is no longer corrected by a new invoice
    const refused = await admin.put(url, { ...NEW_ADDRESS, city: 'Essen' })
    expect(refused.status).toBe(409)
    expect(refused.body.errorType).toBe('INVOICE_ALREADY_CREDITED')

    // an order without an invoice: just the address
    const r2 = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email: 'ohne@example.org' }))
    const open = (await db.selectFrom('ticket_order').select('id').where('public_id', '=', r2.body.ticketOrderId).executeTakeFirstOrThrow()).id
    const stored = await admin.put(`/proxy/api/events/${event.id}/orders/${open}/invoiceAddress`, NEW_ADDRESS)
    expect(stored.status).toBe(200)
    expect(stored.body.invoiceAddress).toMatchObject(NEW_ADDRESS)
    expect(stored.body.invoices).toEqual([])
  }, 180_000)

  test('after a refund per line the corrected invoice lists the tickets still held; numbers gapless', async () => {
    const admin = await h().admin()
    await admin.put('/proxy/api/agency/sellerSettings', { ...SELLER, useInvoiceXML: true })
    const { event, categories } = await paidEvent(admin)
    const oid = await invoicedOrder(h(), event.id, categories[0].id, 'zeilen@example.org')
    const detailUrl = `/proxy/api/events/${event.id}/orders/${oid}`
    expect((await admin.post(`${detailUrl}/markPaid`, { amount: 5000, paidAt: '2026-11-24T10:00:00Z' })).status).toBe(200)
    const d = (await admin.get(detailUrl)).body
    const eva = d.persons.find((p: any) => p.kind === 'ESCORT')
    const refunded = await admin.post(`${detailUrl}/refundLines`, { lines: [{ lineId: d.lines[0].id, quantity: 1 }], escortIds: [eva.escortId] })
    expect(refunded.status).toBe(200)
    const r = await admin.put(`${detailUrl}/invoiceAddress`, NEW_ADDRESS)
    expect(r.status).toBe(200)
    expect(r.body.invoices.map((i: any) => [i.number, i.kind, i.grossCents, i.cancelsNumber])).toEqual([
      ['RE-00001', 'INVOICE', 5000, null],
      ['RE-00002', 'CANCELLATION', -2500, 'RE-00001'],
      ['RE-00003', 'CANCELLATION', -2500, 'RE-00001'],
      ['RE-00004', 'INVOICE', 2500, null],
    ])
    const snap = JSON.parse(String((await h().ctx.db.selectFrom('invoice').select('snapshot').where('id', '=', r.body.invoices[3].id).executeTakeFirstOrThrow()).snapshot))
    expect(snap.lines.map((l: any) => [l.quantity, l.unitGrossCents])).toEqual([[1, 2500]])
    expect(snap.buyer.name).toBe(NEW_ADDRESS.receiver)
    const xml = await admin.request('GET', r.body.invoices[3].xmlUrl)
    await validate(xml.text, `lines-owed-${h().dialect}.xml`)
  }, 120_000)

  test('two corrections at once (and the same order twice at once): numbers stay gapless and unique', async () => {
    const admin = await h().admin()
    await admin.put('/proxy/api/agency/sellerSettings', SELLER)
    const { event, categories } = await paidEvent(admin)
    const a = await invoicedOrder(h(), event.id, categories[0].id, 'a@example.org')
    const b = await invoicedOrder(h(), event.id, categories[0].id, 'b@example.org')
    const put = (oid: number, city: string) => admin.put(`/proxy/api/events/${event.id}/orders/${oid}/invoiceAddress`, { ...NEW_ADDRESS, city })
    const results = await Promise.all([put(a, 'Köln'), put(b, 'Köln'), put(a, 'Bonn')])
    expect(results.map((x) => x.status)).toEqual([200, 200, 200])
    const rows = await h().ctx.db.selectFrom('invoice').select(['number', 'kind', 'order_ref', 'cancels_invoice_id', 'id']).where('agency_id', '=', admin.agencyId).orderBy('id').execute()
    expect(rows.map((x) => x.number)).toEqual(['RE-00001', 'RE-00002', 'RE-00003', 'RE-00004', 'RE-00005', 'RE-00006', 'RE-00007', 'RE-00008'])
    // per order: each correction is a credit note followed by its invoice, and the order has exactly one uncancelled invoice
    for (const oid of [a, b]) {
      const mine = rows.filter((x) => x.order_ref === String(oid))
      const invoices = mine.filter((x) => x.kind === 'INVOICE')
      const cancelled = new Set(mine.map((x) => x.cancels_invoice_id).filter((x) => x != null))
      expect(invoices.filter((i) => !cancelled.has(i.id)).length).toBe(1)
    }
    const detailA = (await admin.get(`/proxy/api/events/${event.id}/orders/${a}`)).body
    expect(detailA.invoices.length).toBe(5)
    // the order's invoice (the last one issued) carries the address that was stored last
    const last = await h().ctx.db.selectFrom('invoice').select('snapshot').where('id', '=', detailA.invoices.at(-1).id).executeTakeFirstOrThrow()
    expect(detailA.invoices.at(-1).kind).toBe('INVOICE')
    expect(JSON.parse(String(last.snapshot)).buyer.city).toBe(detailA.invoiceAddress.city)
  }, 180_000)
})
