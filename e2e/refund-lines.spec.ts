// Refunds per line (issue 21, docs/ticketing.md "Refunds per line"): a guest accepts the organiser's
// terms and buys three tickets (herself and two escorts), paying by card (Stripe fake). The organiser
// opens the order, sees when and which terms were accepted, refunds one ticket — Emil's — through
// Stripe; the line shows it refunded, Emil leaves the persons, a credit note for exactly that ticket
// is listed and mailed to the guest with its XRechnung.
import { expect, setupAdmin, shot, startServer, test } from './fixtures'
import { SELLER, startPaymentFakes } from './shop-helpers'

test('an organiser refunds one of three tickets through Stripe on the order page; the terms accepted are shown; the guest receives the credit note for that ticket', async ({ page, browser }) => {
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
    const cat = await (await req.post(u(`/proxy/api/events/${ev.id}/ticketCategories`), { data: { displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 50 } })).json()
    const method = await (await req.post(u('/proxy/api/agency/paymentMethods'), { data: { method: 'STRIPE', publicKey: 'pk_test_einlass', secretKey: 'sk_test_einlass', webhookSecret: 'whsec_test_einlass' } })).json()
    expect((await req.put(u(`/proxy/api/events/${ev.id}/paymentMethods`), { data: { ids: [method.id] } })).status()).toBe(200)
    expect((await req.put(u(`/proxy/api/events/${ev.id}/ticketTerms`), { data: { termsText: 'Tickets sind vom Umtausch ausgeschlossen.\nEinlass ab 18 Uhr.' } })).status()).toBe(200)
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
    await g.getByLabel(/Ich akzeptiere die Geschäftsbedingungen/).check()
    await g.getByLabel(/Name des Karten/).fill('Paula Musterfrau')
    await g.getByLabel('Kartennummer').fill('4242 4242 4242 4242')
    await g.getByRole('button', { name: /Zahlungspflichtig bestellen/ }).click()
    await expect(g.getByRole('heading', { name: /bezahlt|Zahlung erhalten|Vielen Dank/ })).toBeVisible()

    await page.goto(u(`/events/${ev.id}/tickets`))
    const row = page.getByRole('row', { name: /Paula/ })
    const number = (await row.locator('.order-link').innerText()).trim()
    await row.getByRole('link', { name: number }).click()
    await expect(page.getByRole('heading', { name: `Bestellung ${number}` })).toBeVisible()
    // the terms the buyer accepted: when, which version, the text as accepted
    const terms = page.getByTestId('terms-accepted')
    await expect(terms).toContainText('Bedingungen akzeptiert')
    await expect(terms).toContainText(/Fassung text:[0-9a-f]{16}/)
    await terms.getByText('Text, wie er akzeptiert wurde').click()
    await expect(terms).toContainText('Tickets sind vom Umtausch ausgeschlossen.')
    await shot(page, 'refund-lines-01-order-with-terms')

    // one ticket goes back, Emil's
    await page.getByRole('button', { name: 'Tickets einzeln erstatten', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: /Tickets erstatten: Bestellung/ })
    await dialog.getByLabel('Stehplatz: Anzahl (von 3)').fill('1')
    await dialog.getByLabel('Emil Begleiter').check()
    await expect(dialog.getByTestId('refund-lines-amount')).toHaveText('Erstattung: 25,00 €')
    await shot(page, 'refund-lines-02-dialog')
    await dialog.getByRole('button', { name: 'Ausgewählte Tickets erstatten', exact: true }).click()
    await expect(dialog).toHaveCount(0)
    await expect(page.getByText('Teilweise erstattet')).toBeVisible()
    await expect(page.getByTestId('amount-left')).toHaveText('50,00 €')
    await expect(page.locator('table.order-lines').getByRole('row', { name: /Stehplatz/ })).toContainText('davon erstattet: 1')
    await expect(page.locator('.order-persons li')).toHaveCount(2)
    await expect(page.locator('.order-persons')).not.toContainText('Emil')
    await expect(page.locator('table.order-payments').getByRole('row', { name: /Erstattung Stripe/ })).toContainText(/re_/)
    await expect(page.locator('table.order-invoices').getByRole('row', { name: /RE-00002/ })).toContainText('-25,00 €')
    await shot(page, 'refund-lines-03-refunded')

    // the guest receives the credit note for exactly that ticket
    await expect.poll(() => server.smtp.mails.filter((m) => m.to.includes('paula@example.org') && /Teilerstattung/.test(m.subject)).length, { timeout: 30_000 }).toBe(1)
    const mail = server.smtp.mails.find((m) => m.to.includes('paula@example.org') && /Teilerstattung/.test(m.subject))!
    expect(mail.parsed.attachments.map((a) => a.filename)).toEqual(['Stornorechnung-RE-00002.pdf', 'XRechnung-RE-00002.xml'])
    const xml = mail.parsed.attachments.find((a) => a.filename === 'XRechnung-RE-00002.xml')!.content.toString('utf8')
    expect(xml).toContain('Jazznacht – Stehplatz')
    expect(xml).toMatch(/<ram:GrandTotalAmount>-25\.00<\/ram:GrandTotalAmount>/)

    // the buyer's company goes on the invoice after the refund: the old invoice's rest is credited and
    // the new invoice states what is still owed — the two tickets kept
    await page.getByRole('button', { name: 'Rechnungsadresse ändern' }).click()
    const address = page.getByRole('dialog', { name: /Rechnungsadresse der Bestellung .* ändern/ })
    await address.getByLabel('Rechnungsempfänger', { exact: true }).fill('Musterfrau Consulting GmbH')
    await address.getByRole('button', { name: 'Adresse speichern' }).click()
    await expect(address).toHaveCount(0)
    const invoices = page.locator('table.order-invoices')
    await expect(invoices.getByRole('row', { name: /RE-00003/ })).toContainText('-50,00 €')
    await expect(invoices.getByRole('row', { name: /RE-00003/ })).toContainText('RE-00001')
    await expect(invoices.getByRole('row', { name: /RE-00004/ })).toContainText('50,00 €')
    await shot(page, 'refund-lines-04-corrected-after-refund')
    await expect.poll(() => server.smtp.mails.filter((m) => m.to.includes('paula@example.org') && /Korrigierte Rechnung/.test(m.subject)).length, { timeout: 30_000 }).toBe(1)
    const corrected = server.smtp.mails.find((m) => m.to.includes('paula@example.org') && /Korrigierte Rechnung/.test(m.subject))!
    expect(corrected.parsed.attachments.map((a) => a.filename)).toEqual(['Stornorechnung-RE-00003.pdf', 'XRechnung-RE-00003.xml', 'Rechnung-RE-00004.pdf', 'XRechnung-RE-00004.xml'])
    const owed = corrected.parsed.attachments.find((a) => a.filename === 'XRechnung-RE-00004.xml')!.content.toString('utf8')
    expect(owed).toContain('Musterfrau Consulting GmbH')
    expect(owed).toMatch(/<ram:BilledQuantity unitCode="[A-Z0-9]+">2(\.0+)?<\/ram:BilledQuantity>/)
    expect(owed).toMatch(/<ram:GrandTotalAmount>50\.00<\/ram:GrandTotalAmount>/)
  } finally {
    await server.stop()
    fakes.stop()
  }
})
