// Issue 20 item 16: the agency's money format (spec §9 "optional currency prefix", set under
// Verkauf): the public ticket picker, the pay page, the organiser's orders, the order mails and the
// invoice PDF all write the amount the same way, "25,00 €" by default, "€ 25,00" with the prefix.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { address, buy, buyer, paidEvent } from './testing'

const SELLER = { name: 'Agentur GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-' }

function pdfText(bytes: Buffer): string {
  const p = Bun.spawnSync(['pdftotext', '-layout', '-', '-'], { stdin: bytes })
  expect(p.exitCode).toBe(0)
  return p.stdout.toString()
}

forEachDialect('money format of the agency', (h) => {
  test('default "25,00 €"; with currencyPrefix "€ 25,00" on the picker, the pay page, the orders, the mail and the invoice', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { methods: [{ method: 'INVOICE' }] })
    expect((await admin.get('/proxy/api/agency/moneyFormat')).body).toEqual({ currencyPrefix: false })
    expect((await h().request('GET', `/proxy/api/public/events/${event.id}/ticketCategories`)).body.items[0].grossPriceText).toBe('25,00 €')

    expect((await admin.put('/proxy/api/agency/sellerSettings', { ...SELLER, currencyPrefix: true })).body.currencyPrefix).toBe(true)
    expect((await admin.get('/proxy/api/agency/moneyFormat')).body).toEqual({ currencyPrefix: true })
    const pub = (await h().request('GET', `/proxy/api/public/events/${event.id}/ticketCategories`)).body
    expect(pub).toMatchObject({ currencyPrefix: true })
    expect(pub.items[0].grossPriceText).toBe('€ 25,00')

    const email = 'praefix@example.org'
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email }))
    const o = `/proxy/api/guest/ticketOrder/${r.body.ticketOrderId}`
    const info = (await h().request('GET', o)).body
    expect(info.currencyPrefix).toBe(true)
    expect(info.ticketOrder.grossPriceText).toBe('€ 25,00')
    expect((await h().request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step).toBe(40)
    expect((await h().request('POST', `${o}/proceed/paymentPay`, { body: { paymentMethod: 'INVOICE' } })).body.step).toBe(100)
    const list = (await admin.post(`/proxy/api/events/${event.id}/orders/search`, { page: 0, perPage: 10 })).body
    expect(list.currencyPrefix).toBe(true)
    expect(list.items[0].grossPriceText).toBe('€ 25,00')

    for (let i = 0; i < 5; i++) await h().deliverMail()
    const mail = h().smtp.to(email)[0]
    expect(mail.text).toContain('€ 25,00')
    expect(mail.text).not.toContain('25,00 €')
    const invoice = mail.parsed.attachments.find((a) => /^Rechnung/.test(a.filename ?? ''))!
    const text = pdfText(invoice.content as Buffer)
    expect(text).toContain('€ 25,00')
    expect(text).not.toContain('25,00 €')
  })

  test('without the prefix the invoice writes "25,00 €" as the screens do', async () => {
    const admin = await h().admin()
    await admin.put('/proxy/api/agency/sellerSettings', SELLER)
    const { event, categories } = await paidEvent(admin, { methods: [{ method: 'INVOICE' }] })
    const email = 'suffix@example.org'
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email }))
    const o = `/proxy/api/guest/ticketOrder/${r.body.ticketOrderId}`
    await h().request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })
    await h().request('POST', `${o}/proceed/paymentPay`, { body: { paymentMethod: 'INVOICE' } })
    for (let i = 0; i < 5; i++) await h().deliverMail()
    const mail = h().smtp.to(email)[0]
    const text = pdfText(mail.parsed.attachments.find((a) => /^Rechnung/.test(a.filename ?? ''))!.content as Buffer)
    expect(text).toContain('25,00 €')
    expect(text).not.toContain('€ 25,00')
  })
})
