// A corrected invoice address (issue 21, docs/invoices.md "Corrected invoices"): the organiser opens a
// paid order, changes the buyer's invoice address in the dialog; the page then lists the invoice, its
// credit note and the new invoice, and the buyer's mail (SMTP sink) carries the credit note and the
// new invoice with the new address (PDF and XRechnung).
import { expect, setupAdmin, shot, startServer, test } from './fixtures'
import { SELLER } from './shop-helpers'

test('the organiser changes the invoice address on the order page: credit note and new invoice, listed and mailed', async ({ page }) => {
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
    const o = `/proxy/api/guest/ticketOrder/${(await reg.json()).ticketOrderId}`
    await req.post(u(`${o}/proceed/invoiceAddress`), { data: { invoiceAddress: { receiver: 'Tom Überweiser', street: 'Ringstraße', streetNumber: '5', postCode: '04109', city: 'Leipzig' } } })
    await req.post(u(`${o}/proceed/paymentPay`), { data: { paymentMethod: 'TRANSFER' } })

    await page.goto(u(`/events/${ev.id}/tickets`))
    await page.getByRole('row', { name: /Tom/ }).locator('.order-link').click()
    await expect(page.getByRole('heading', { name: /^Bestellung / })).toBeVisible()
    await page.getByRole('button', { name: 'Als bezahlt markieren' }).click()
    const pay = page.getByRole('dialog', { name: /Zahlung erfassen/ })
    await pay.getByRole('button', { name: 'Als bezahlt erfassen' }).click()
    await expect(pay).toHaveCount(0)
    const invoices = page.locator('table.order-invoices')
    await expect(invoices.getByRole('row', { name: /RE-00001/ })).toBeVisible()

    // the buyer's company should be on the invoice: the organiser changes the address
    await page.getByRole('button', { name: 'Rechnungsadresse ändern' }).click()
    const dialog = page.getByRole('dialog', { name: /Rechnungsadresse der Bestellung .* ändern/ })
    await expect(dialog.getByLabel(/^Straße/)).toHaveValue('Ringstraße')
    await dialog.getByLabel('Rechnungsempfänger', { exact: true }).fill('Überweiser Consulting GmbH')
    await dialog.getByLabel(/^Ort/).fill('')
    await dialog.getByRole('button', { name: 'Adresse speichern' }).click()
    await expect(dialog.locator('.field-error')).toHaveCount(1)
    await dialog.getByLabel(/^Ort/).fill('Dresden')
    await dialog.getByLabel(/^PLZ/).fill('01067')
    await dialog.getByLabel(/^Straße/).fill('Prager Straße')
    await dialog.getByLabel(/^Hausnummer/).fill('2')
    await shot(page, 'corrected-invoice-01-dialog')
    await dialog.getByRole('button', { name: 'Adresse speichern' }).click()
    await expect(dialog).toHaveCount(0)

    // three documents: the invoice, its credit note, the new invoice
    await expect(invoices.getByRole('row')).toHaveCount(4)
    await expect(invoices.getByRole('row', { name: /RE-00002/ })).toContainText('RE-00001')
    await expect(invoices.getByRole('row', { name: /RE-00003/ })).toContainText('Rechnung')
    await expect(page.locator('.order-address')).toContainText('Überweiser Consulting GmbH')
    await expect(page.locator('.order-address')).toContainText('01067 Dresden')
    await expect(page.locator('.order-history')).toContainText('Rechnungsadresse geändert')
    await shot(page, 'corrected-invoice-02-three-documents')

    // the buyer's mail: the credit note and the new invoice with the new address
    await expect.poll(() => server.smtp.mails.filter((m) => m.to.includes('tom@example.org') && /Korrigierte Rechnung/.test(m.subject)).length, { timeout: 30_000 }).toBe(1)
    const mail = server.smtp.mails.find((m) => m.to.includes('tom@example.org') && /Korrigierte Rechnung/.test(m.subject))!
    expect(mail.parsed.attachments.map((a) => a.filename)).toEqual(['Stornorechnung-RE-00002.pdf', 'XRechnung-RE-00002.xml', 'Rechnung-RE-00003.pdf', 'XRechnung-RE-00003.xml'])
    const xml = mail.parsed.attachments.find((a) => a.filename === 'XRechnung-RE-00003.xml')!.content.toString('utf8')
    expect(xml).toContain('Überweiser Consulting GmbH')
    expect(xml).toContain('Prager Straße')
  } finally {
    await server.stop()
  }
})
