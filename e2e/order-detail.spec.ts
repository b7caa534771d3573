// The organiser's order page (issue 21, docs/ticketing.md "Order detail"): a guest buys three
// tickets and pays by card (Stripe fake); the organiser opens the order from the orders list and
// sees lines, payment and invoice, refunds one of the three tickets through Stripe, and the guest
// receives the credit note (PDF and XRechnung, read back from the SMTP sink). The same page opens
// from the search by invoice number and by e-mail, and from the guest detail.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, setupAdmin, shot, startServer, test } from './fixtures'
import { SELLER, startPaymentFakes } from './shop-helpers'

test('an organiser opens an order from the list, refunds one of three tickets through Stripe; the guest receives the credit note; search by invoice number and e-mail; from the guest detail', async ({ page, browser }) => {
  test.setTimeout(180_000)
  const fakes = await startPaymentFakes()
  const server = await startServer({ EINLASS_STRIPE_API_URL: fakes.urls.stripe, EINLASS_STRIPE_JS_URL: `${fakes.urls.control}/stripe.js` })
  try {
    await setupAdmin(page, server)
    const req = page.request
    const u = (p: string) => `${server.url}${p}`
    expect((await req.put(u('/proxy/api/agency/sellerSettings'), { data: SELLER })).status()).toBe(200)
    const start = new Date(Date.now() + 21 * 86400_000)
    start.setUTCHours(17, 0, 0, 0)
    const ev = await (await req.post(u('/proxy/api/events'), { data: { displayName: 'Jazznacht', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kulturhalle', city: 'Leipzig', maxVisitors: 200, maxVisitorPerSubscription: 6 } })).json()
    const cat = await (await req.post(u(`/proxy/api/events/${ev.id}/ticketCategories`), { data: { displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19' } })).json()
    const method = await (await req.post(u('/proxy/api/agency/paymentMethods'), { data: { method: 'STRIPE', publicKey: 'pk_test_einlass', secretKey: 'sk_test_einlass', webhookSecret: 'whsec_test_einlass' } })).json()
    expect((await req.put(u(`/proxy/api/events/${ev.id}/paymentMethods`), { data: { ids: [method.id] } })).status()).toBe(200)
    // the guest orders three tickets (herself and two escorts) and pays by card on her phone
    const reg = await req.post(u(`/proxy/api/public/events/${ev.id}/registrations`), {
      data: { salutation: 'Frau', firstName: 'Paula', lastName: 'Musterfrau', email: 'paula@example.org', tickets: [{ categoryId: cat.id, amount: 3 }], escortPersons: [{ firstName: 'Eva', lastName: 'Begleiterin' }, { firstName: 'Emil', lastName: 'Begleiter' }] },
    })
    expect(reg.status()).toBe(201)
    const publicId = (await reg.json()).ticketOrderId as string
    const g = await (await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })).newPage()
    await g.goto(u(`/pay/${publicId}`))
    await g.getByLabel(/^Straße/).fill('Karl-Liebknecht-Straße')
    await g.getByLabel(/^Hausnummer/).fill('12')
    await g.getByLabel(/^PLZ/).fill('04107')
    await g.getByLabel(/^Ort/).fill('Leipzig')
    await g.getByRole('button', { name: 'Weiter' }).click()
    await g.getByLabel(/Name des Karten/).fill('Paula Musterfrau')
    await g.getByLabel('Kartennummer').fill('4242 4242 4242 4242')
    await g.getByRole('button', { name: /Zahlungspflichtig bestellen/ }).click()
    await expect(g.getByRole('heading', { name: /bezahlt|Zahlung erhalten|Vielen Dank/ })).toBeVisible()

    // the organiser opens the order from the orders list
    await page.goto(u(`/events/${ev.id}/tickets`))
    const row = page.getByRole('row', { name: /Paula/ })
    const number = (await row.locator('.order-link').innerText()).trim()
    await row.getByRole('link', { name: number }).click()
    await expect(page).toHaveURL(new RegExp(`/events/${ev.id}/orders/\\d+$`))
    await expect(page.getByRole('heading', { name: `Bestellung ${number}` })).toBeVisible()
    const lines = page.locator('table.order-lines')
    await expect(lines.getByRole('row', { name: /Stehplatz/ })).toContainText('3')
    await expect(lines.getByRole('row', { name: /Stehplatz/ })).toContainText('75,00 €')
    await expect(lines.getByRole('row', { name: /Stehplatz/ })).toContainText('19')
    const payments = page.locator('table.order-payments')
    await expect(payments.getByRole('row', { name: /Zahlung Stripe/ })).toContainText(/pi_/)
    await expect(payments.getByRole('row', { name: /Zahlung Stripe/ })).toContainText('75,00 €')
    const invoices = page.locator('table.order-invoices')
    await expect(invoices.getByRole('row', { name: /RE-00001/ })).toContainText('Rechnung')
    await expect(invoices.getByRole('row', { name: /RE-00001/ }).getByRole('link', { name: 'PDF' })).toHaveAttribute('href', /\/proxy\/api\/invoices\/\d+\/pdf$/)
    await expect(page.getByText('Karl-Liebknecht-Straße 12')).toBeVisible()
    await expect(page.locator('.order-persons li')).toHaveCount(3)
    await expect(page.locator('.order-persons')).toContainText('Eva Begleiterin')
    await expect(page.locator('.order-persons')).toContainText('nicht eingecheckt')
    await expect(page.locator('.order-history')).toContainText('Online bezahlt')
    await shot(page, 'order-detail-01-paid')

    // one of the three tickets goes back through Stripe: 25,00 €
    await page.getByRole('button', { name: 'Über Zahlungsdienst erstatten' }).click()
    const refund = page.getByRole('dialog', { name: /Über Zahlungsdienst erstatten: Bestellung/ })
    await refund.getByLabel('Betrag in €').fill('25,00')
    await shot(page, 'order-detail-02-refund-dialog')
    await refund.getByRole('button', { name: 'Erstatten' }).click()
    await expect(refund).toHaveCount(0)
    await expect(page.getByText('Teilweise erstattet')).toBeVisible()
    await expect(page.getByTestId('amount-left')).toHaveText('50,00 €')
    await expect(payments.getByRole('row', { name: /Erstattung Stripe/ })).toContainText(/re_/)
    await expect(payments.getByRole('row', { name: /Erstattung Stripe/ })).toContainText('−25,00 €')
    await expect(invoices.getByRole('row', { name: /RE-00002/ })).toContainText('Gutschrift / Storno zu RE-00001')
    await expect(invoices.getByRole('row', { name: /RE-00002/ })).toContainText('-25,00 €')
    await expect(page.locator('.order-history')).toContainText('Teilerstattung (25,00 €) von Ada Admin')
    await shot(page, 'order-detail-03-partly-refunded')

    // the guest receives the credit note: its PDF and XRechnung attached, read back
    await expect.poll(() => server.smtp.mails.filter((m) => m.to.includes('paula@example.org') && /Teilerstattung/.test(m.subject)).length, { timeout: 30_000 }).toBe(1)
    const mail = server.smtp.mails.find((m) => m.to.includes('paula@example.org') && /Teilerstattung/.test(m.subject))!
    expect(mail.text).toContain('25,00 €')
    const files = mail.parsed.attachments.map((a) => a.filename)
    expect(files).toEqual(['Stornorechnung-RE-00002.pdf', 'XRechnung-RE-00002.xml'])
    const xml = mail.parsed.attachments.find((a) => a.filename === 'XRechnung-RE-00002.xml')!.content.toString('utf8')
    expect(xml).toContain('<ram:TypeCode>381</ram:TypeCode>')
    expect(xml).toMatch(/<ram:InvoiceReferencedDocument>\s*<ram:IssuerAssignedID>RE-00001<\/ram:IssuerAssignedID>/)
    expect(xml).toMatch(/<ram:GrandTotalAmount>-25\.00<\/ram:GrandTotalAmount>/)
    const dir = mkdtempSync(join(tmpdir(), 'einlass-order-detail-'))
    const pdfFile = join(dir, 'credit.pdf')
    writeFileSync(pdfFile, mail.parsed.attachments.find((a) => a.filename === 'Stornorechnung-RE-00002.pdf')!.content)
    const pdfText = spawnSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' }).stdout
    expect(pdfText).toContain('RE-00002')
    expect(pdfText).toMatch(/Stornorechnung zur Rechnung\s+RE-00001/)
    expect(pdfText).toMatch(/-25,00 €/)

    // the search on the orders list: by the invoice number, by the credit note's, by the e-mail (another order is left out)
    const other = await req.post(u(`/proxy/api/public/events/${ev.id}/registrations`), { data: { salutation: 'Herr', firstName: 'Otto', lastName: 'Anders', email: 'otto@example.org', tickets: [{ categoryId: cat.id, amount: 1 }] } })
    expect(other.status()).toBe(201)
    await page.goto(u(`/events/${ev.id}/tickets`))
    await expect(page.locator('.order-link')).toHaveCount(2)
    await expect(page.getByRole('row', { name: /Paula/ })).toContainText('Teilweise erstattet')
    await expect(page.getByRole('row', { name: /Paula/ })).toContainText('verbleiben 50,00 €')
    const search = page.getByRole('searchbox', { name: 'Bestell- oder Rechnungsnummer, E-Mail oder Name' })
    await search.fill('RE-00001')
    await expect(page.locator('.order-link')).toHaveCount(1)
    await expect(page.locator('.order-link')).toHaveText(number)
    await search.fill('RE-00002')
    await expect(page.locator('.order-link')).toHaveCount(1)
    await expect(page.locator('.order-link')).toHaveText(number)
    await shot(page, 'order-detail-04-search-invoice-number')
    await page.getByRole('link', { name: number }).click()
    await expect(page.getByRole('heading', { name: `Bestellung ${number}` })).toBeVisible()
    await page.goBack()
    await search.fill('paula@example.org')
    await expect(page.locator('.order-link')).toHaveCount(1)
    await expect(page.locator('.order-link')).toHaveText(number)
    await page.getByRole('link', { name: number }).click()
    await expect(page.getByRole('heading', { name: `Bestellung ${number}` })).toBeVisible()

    // from the guest detail
    await page.goto(u(`/events/${ev.id}/guests`))
    await page.getByRole('button', { name: 'Musterfrau' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog.locator('.guest-orders')).toContainText(number)
    await shot(page, 'order-detail-05-guest-detail')
    await dialog.getByRole('link', { name: number }).click()
    await expect(page.getByRole('heading', { name: `Bestellung ${number}` })).toBeVisible()
    await expect(page.getByRole('dialog')).toHaveCount(0)
  } finally {
    await server.stop()
    fakes.stop()
  }
})

test('a transfer order on its page: marked paid with amount and date, then a part given back by hand is recorded with its credit note', async ({ page }) => {
  test.setTimeout(120_000)
  const server = await startServer()
  try {
    await setupAdmin(page, server)
    const req = page.request
    const u = (p: string) => `${server.url}${p}`
    expect((await req.put(u('/proxy/api/agency/sellerSettings'), { data: SELLER })).status()).toBe(200)
    const start = new Date(Date.now() + 21 * 86400_000)
    start.setUTCHours(17, 0, 0, 0)
    const ev = await (await req.post(u('/proxy/api/events'), { data: { displayName: 'Jazznacht', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kulturhalle', city: 'Leipzig', maxVisitors: 200, maxVisitorPerSubscription: 6 } })).json()
    const cat = await (await req.post(u(`/proxy/api/events/${ev.id}/ticketCategories`), { data: { displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19' } })).json()
    const method = await (await req.post(u('/proxy/api/agency/paymentMethods'), { data: { method: 'TRANSFER', accountHolder: 'Agentur Sonnenschein GmbH', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', bank: 'Commerzbank' } })).json()
    expect((await req.put(u(`/proxy/api/events/${ev.id}/paymentMethods`), { data: { ids: [method.id] } })).status()).toBe(200)
    const reg = await req.post(u(`/proxy/api/public/events/${ev.id}/registrations`), { data: { salutation: 'Herr', firstName: 'Tom', lastName: 'Überweiser', email: 'tom@example.org', tickets: [{ categoryId: cat.id, amount: 2 }], escortPersons: [{ firstName: 'Tina', lastName: 'Überweiser' }] } })
    expect(reg.status()).toBe(201)
    const oid = (await reg.json()).ticketOrderId as string
    const o = `/proxy/api/guest/ticketOrder/${oid}`
    await req.post(u(`${o}/proceed/invoiceAddress`), { data: { invoiceAddress: { receiver: 'Tom Überweiser', street: 'Ringstraße', streetNumber: '5', postCode: '04109', city: 'Leipzig' } } })
    await req.post(u(`${o}/proceed/paymentPay`), { data: { paymentMethod: 'TRANSFER' } })

    await page.goto(u(`/events/${ev.id}/tickets`))
    await page.getByRole('row', { name: /Tom/ }).locator('.order-link').click()
    await expect(page.getByRole('heading', { name: /^Bestellung / })).toBeVisible()
    await expect(page.getByText('Noch keine Zahlung eingegangen.')).toBeVisible()
    await page.getByRole('button', { name: 'Als bezahlt markieren' }).click()
    const pay = page.getByRole('dialog', { name: /Zahlung erfassen/ })
    await pay.getByRole('button', { name: 'Als bezahlt erfassen' }).click()
    await expect(pay).toHaveCount(0)
    await expect(page.locator('table.order-payments').getByRole('row', { name: /Zahlung von Hand erfasst/ })).toContainText('50,00 €')
    await expect(page.locator('.order-history')).toContainText('Als bezahlt markiert (50,00 €) von Ada Admin')
    await expect(page.locator('table.order-invoices').getByRole('row', { name: /RE-00001/ })).toBeVisible()

    // a part given back by hand: recorded with its credit note, the order stays paid with what is left
    await page.getByRole('button', { name: 'Erstattung erfassen' }).click()
    const refund = page.getByRole('dialog', { name: /Erstattung erfassen: Bestellung/ })
    await refund.getByLabel('Betrag in €').fill('80,00')
    await refund.getByRole('button', { name: 'Erstattung erfassen' }).click()
    await expect(refund.getByText('Der Betrag ist höher als der noch erstattbare Betrag.')).toBeVisible()
    await refund.getByLabel('Betrag in €').fill('25,00')
    await shot(page, 'order-detail-06-offline-refund-dialog')
    await refund.getByRole('button', { name: 'Erstattung erfassen' }).click()
    await expect(refund).toHaveCount(0)
    await expect(page.getByText('Teilweise erstattet')).toBeVisible()
    await expect(page.getByTestId('amount-left')).toHaveText('25,00 €')
    await expect(page.locator('table.order-payments').getByRole('row', { name: /Erstattung von Hand erfasst/ })).toContainText('−25,00 €')
    await expect(page.locator('table.order-invoices').getByRole('row', { name: /RE-00002/ })).toContainText('-25,00 €')
    await shot(page, 'order-detail-07-offline-partly-refunded')
    await expect.poll(() => server.smtp.mails.filter((m) => m.to.includes('tom@example.org') && /Teilerstattung/.test(m.subject)).length, { timeout: 30_000 }).toBe(1)
    const mail = server.smtp.mails.find((m) => m.to.includes('tom@example.org') && /Teilerstattung/.test(m.subject))!
    expect(mail.parsed.attachments.map((a) => a.filename)).toEqual(['Stornorechnung-RE-00002.pdf', 'XRechnung-RE-00002.xml'])
  } finally {
    await server.stop()
  }
})
