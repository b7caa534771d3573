// Issue 20, items 19 and 22: every order mail carries the guest's portal link (a real access link that
// logs in from a fresh client), and a pay-at-location order has no due date and no invoice asking
// for money the desk already took: its invoice is issued when the desk takes the payment and says so.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { type ReceivedMail, linkIn } from '../../testing/smtp-sink'
import { address, buy, buyer, paidEvent, pay } from './testing'

const SELLER = { name: 'Agentur GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-', contactName: 'Ada Admin', phone: '+49 30 123456', email: 'rechnung@agentur.example' }

function pdfText(bytes: Buffer): string {
  const p = Bun.spawnSync(['pdftotext', '-layout', '-', '-'], { stdin: bytes })
  expect(p.exitCode).toBe(0)
  return p.stdout.toString()
}
const attachment = (m: ReceivedMail, name: RegExp) => m.parsed.attachments.find((a) => name.test(a.filename ?? ''))?.content as Buffer | undefined

forEachDialect('order mails: the guest portal link', (h) => {
  test('received, paid, cancelled and refunded mails each carry a dashboard link that logs a fresh client in', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const email = 'portal.kauf@example.org'
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email }))
    expect(r.status).toBe(201)
    expect(await pay(h(), r.body.ticketOrderId, 'TRANSFER')).toMatchObject({ step: 100, status: 'OPEN' })
    const oid = (await admin.post(`/proxy/api/events/${event.id}/orders/search`, { page: 0, perPage: 10 })).body.items[0].id
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${oid}/markPaid`, { amount: 2500, paidAt: new Date().toISOString() })).status).toBe(200)
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${oid}/refund`)).status).toBe(200)
    // a second order, cancelled by the organiser
    const r2 = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email: 'portal.storno@example.org' }))
    expect(await pay(h(), r2.body.ticketOrderId, 'TRANSFER')).toMatchObject({ step: 100 })
    const oid2 = (await admin.post(`/proxy/api/events/${event.id}/orders/search`, { search: 'portal.storno', page: 0, perPage: 10 })).body.items[0].id
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${oid2}/cancel`)).status).toBe(200)
    for (let i = 0; i < 10; i++) await h().deliverMail()

    const mails = [...h().smtp.to(email), ...h().smtp.to('portal.storno@example.org')].filter((m) => m.subject.includes('Bestellung') || m.subject.includes('Zahlung') || m.subject.includes('storniert') || m.subject.includes('erstattet'))
    expect(mails.length).toBeGreaterThanOrEqual(4)
    for (const m of mails) {
      expect(m.text).toContain('/guest/dashboard?token=')
      // a fresh client (no cookie, no session) opens the link: the token logs the guest in
      const token = new URL(linkIn(m, '/guest/dashboard?token=')).searchParams.get('token')!
      const fresh = h().agent()
      fresh.headers['x-guest-token'] = token
      const me = await fresh.get('/userDetails/guest')
      expect(me.status).toBe(200)
      expect(JSON.stringify(me.body)).toContain(m.to[0])
    }
  })
})

forEachDialect('pay at the location: no due date, an invoice that says it was paid there', (h) => {
  test('confirmed LOCATION order: no payment_due_at, no invoice yet; the desk takes it: the invoice says "vor Ort bezahlt" and asks for nothing', async () => {
    const admin = await h().admin()
    expect((await admin.put('/proxy/api/agency/sellerSettings', SELLER)).status).toBe(200)
    const { event, categories } = await paidEvent(admin, { methods: [{ method: 'LOCATION' }] })
    const email = 'vorort@example.org'
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email }))
    const o = `/proxy/api/guest/ticketOrder/${r.body.ticketOrderId}`
    expect((await h().request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step).toBe(40)
    expect((await h().request('POST', `${o}/proceed/paymentPay`, { body: { paymentMethod: 'LOCATION' } })).body).toMatchObject({ step: 100, status: 'CONFIRMED' })
    const db = h().ctx.db
    const row = await db.selectFrom('ticket_order').select(['id', 'payment_due_at']).where('public_id', '=', r.body.ticketOrderId).executeTakeFirstOrThrow()
    expect(row.payment_due_at).toBeNull()
    expect(await db.selectFrom('invoice').select('id').where('order_ref', '=', String(row.id)).execute()).toEqual([])
    for (let i = 0; i < 5; i++) await h().deliverMail()
    const received = h().smtp.to(email)[0]
    expect(attachment(received, /^Rechnung/)).toBeUndefined()
    expect(received.text).not.toContain('14 Tagen')

    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${row.id}/takeLocationPayment`)).body).toMatchObject({ status: 'PAID' })
    for (let i = 0; i < 5; i++) await h().deliverMail()
    const paid = h().smtp.to(email).find((m) => attachment(m, /^Rechnung/))!
    expect(paid).toBeTruthy()
    const text = pdfText(attachment(paid, /^Rechnung/)!)
    expect(text).toContain('vor Ort bezahlt')
    expect(text).not.toContain('Bitte bezahlen')
    expect(text).not.toContain('Zahlbar innerhalb')
    expect(text).not.toContain('Fälligkeit')
  })

  test('the paid /pay page does not repeat the transfer instructions of the method after it is paid', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { methods: [{ method: 'TRANSFER', accountHolder: 'Agentur GmbH', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', confirmationText: 'Bitte überweisen Sie den Betrag innerhalb von 14 Tagen.' }] })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    await pay(h(), r.body.ticketOrderId, 'TRANSFER')
    const o = `/proxy/api/guest/ticketOrder/${r.body.ticketOrderId}`
    expect((await h().request('GET', o)).body.confirmationText).toBe('Bitte überweisen Sie den Betrag innerhalb von 14 Tagen.')
    const oid = (await admin.post(`/proxy/api/events/${event.id}/orders/search`, { page: 0, perPage: 10 })).body.items[0].id
    await admin.post(`/proxy/api/events/${event.id}/orders/${oid}/markPaid`, { amount: 2500, paidAt: new Date().toISOString() })
    const info = (await h().request('GET', o)).body
    expect(info.ticketOrder.status).toBe('PAID')
    expect(info.confirmationText).toBeNull()
  })
})
