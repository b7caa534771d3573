// Online payments on a phone (issue 13) against the local provider fakes, run in a Bun process of
// their own (server/testing/fakes/serve.ts) with stand-ins of Stripe.js and the PayPal JS SDK:
// pay by card, a declined card with its German message, PayPal approve, Mollie checkout with the
// wait step and the redirect back, and a refund the guest sees; a Mollie refund that fails later.
import { type Browser, type Page } from '@playwright/test'
import { expect, setupAdmin, shot, startServer, test } from './fixtures'
import { startPaymentFakes } from './shop-helpers'

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 } }

async function onlineEvent(page: Page, url: string, method: Record<string, unknown>) {
  const req = page.request
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await req.post(`${url}/proxy/api/events`, { data: { displayName: 'Jazznacht', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kulturhalle', city: 'Leipzig', maxVisitors: 200 } })
  const id = (await ev.json()).id as number
  const cat = await (await req.post(`${url}/proxy/api/events/${id}/ticketCategories`, { data: { displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_7' } })).json()
  const have = (await (await req.get(`${url}/proxy/api/agency/paymentMethods`)).json()) as Array<{ id: number; method: string }>
  const mid = have.find((x) => x.method === method.method)?.id ?? (await (await req.post(`${url}/proxy/api/agency/paymentMethods`, { data: method })).json()).id
  expect((await req.put(`${url}/proxy/api/events/${id}/paymentMethods`, { data: { ids: [mid] } })).status()).toBe(200)
  return { eventId: id, categoryId: cat.id as number }
}

async function order(page: Page, url: string, ev: { eventId: number; categoryId: number }, first: string) {
  const r = await page.request.post(`${url}/proxy/api/public/events/${ev.eventId}/registrations`, { data: { salutation: 'Frau', firstName: first, lastName: 'Musterfrau', email: `${first.toLowerCase()}@example.org`, tickets: [{ categoryId: ev.categoryId, amount: 1 }] } })
  expect(r.status()).toBe(201)
  return (await r.json()).ticketOrderId as string
}

async function addressStep(g: Page) {
  await g.getByLabel(/^Straße/).fill('Karl-Liebknecht-Straße')
  await g.getByLabel(/^Hausnummer/).fill('12')
  await g.getByLabel(/^PLZ/).fill('04107')
  await g.getByLabel(/^Ort/).fill('Leipzig')
  await g.getByRole('button', { name: 'Weiter' }).click()
  // address and confirmation: the single method is preselected (issue 20 item 23: each shown step its number)
  await expect(g.getByText('Schritt 2 von 2')).toBeVisible()
}

async function phone(browser: Browser) {
  return (await browser.newContext(PHONE)).newPage()
}

test('card by Stripe, a declined card, PayPal and Mollie with the wait step; a refund seen by the guest', async ({ page, browser }) => {
  test.setTimeout(120_000)
  const fakes = await startPaymentFakes()
  const server = await startServer({
    EINLASS_STRIPE_API_URL: fakes.urls.stripe,
    EINLASS_STRIPE_JS_URL: `${fakes.urls.control}/stripe.js`,
    EINLASS_MOLLIE_API_URL: `${fakes.urls.mollie}/v2/`,
    EINLASS_PAYPAL_SANDBOX_API_URL: fakes.urls.paypal,
    EINLASS_PAYPAL_JS_URL: `${fakes.urls.control}/paypal.js`,
  })
  try {
    await setupAdmin(page, server)
    // the organiser sets Stripe up on the sales page: secrets write-only, test mode shown
    await page.goto(`${server.url}/agency/sales`)
    await page.getByRole('combobox', { name: 'Zahlungsart', exact: true }).selectOption('STRIPE')
    await page.getByLabel('Veröffentlichbarer Schlüssel (pk_…)').fill('pk_test_einlass')
    await page.getByLabel('Geheimer Schlüssel (sk_…)').fill('sk_test_einlass')
    await page.getByRole('button', { name: 'Zahlungsart anlegen' }).click()
    await expect(page.getByText('Dieses Feld ist ein Pflichtfeld.').first()).toBeVisible()
    await page.getByLabel('Webhook-Signaturgeheimnis (whsec_…)').fill('whsec_test_einlass')
    await page.getByRole('button', { name: 'Zahlungsart anlegen' }).click()
    await expect(page.getByText('Die Zahlungsart wurde angelegt.')).toBeVisible()
    await expect(page.getByText('Testmodus')).toBeVisible()
    await expect(page.getByText(/Webhook-Adresse für Stripe: .*\/proxy\/api\/payments\/stripe\/webhook\/\d+/)).toBeVisible()
    await expect(page.locator('body')).not.toContainText('sk_test_einlass')
    await shot(page, 'payments-00-sales-stripe')
    // Stripe: card paid
    const stripeEv = await onlineEvent(page, server.url, { method: 'STRIPE', publicKey: 'pk_test_einlass', secretKey: 'sk_test_einlass', webhookSecret: 'whsec_test_einlass' })
    const g = await phone(browser)
    const id = await order(page, server.url, stripeEv, 'Paula')
    await g.goto(`${server.url}/pay/${id}`)
    await addressStep(g)
    await expect(g.getByLabel('Kartennummer')).toBeVisible()
    await g.getByLabel(/Name des Karten/).fill('Pa')
    await g.getByLabel('Kartennummer').fill('4242 4242 4242 4242')
    await g.getByRole('button', { name: /Zahlungspflichtig bestellen/ }).click()
    await expect(g.getByText('Bitte geben Sie mindestens 3 Zeichen ein.')).toBeVisible()
    await g.getByLabel(/Name des Karten/).fill('Paula Musterfrau')
    await shot(g, 'payments-01-stripe-card-phone')
    await g.getByRole('button', { name: /Zahlungspflichtig bestellen/ }).click()
    await expect(g.getByRole('heading', { name: /bezahlt|Zahlung erhalten|Vielen Dank/ })).toBeVisible()
    await shot(g, 'payments-02-stripe-paid-phone')

    // Stripe: declined card → German message and the failed notice with continue
    const id2 = await order(page, server.url, stripeEv, 'Dora')
    await g.goto(`${server.url}/pay/${id2}`)
    await addressStep(g)
    await g.getByLabel(/Name des Karten/).fill('Dora Musterfrau')
    await g.getByLabel('Kartennummer').fill('4000 0000 0000 0002')
    await g.getByRole('button', { name: /Zahlungspflichtig bestellen/ }).click()
    await expect(g.getByText('Ihre Karte wurde abgelehnt. (card_declined)')).toBeVisible()
    await expect(g.getByRole('button', { name: 'Weiter und neu starten' })).toBeVisible()
    await shot(g, 'payments-03-stripe-declined-phone')

    // PayPal through the stand-in buttons
    const ppEv = await onlineEvent(page, server.url, { method: 'PAYPAL', publicKey: 'einlass-client', secretKey: 'einlass-secret', testMode: true })
    const id3 = await order(page, server.url, ppEv, 'Petra')
    await g.goto(`${server.url}/pay/${id3}`)
    await addressStep(g)
    await shot(g, 'payments-04-paypal-phone')
    await g.getByRole('button', { name: 'Mit PayPal bezahlen' }).click()
    await expect(g.getByRole('heading', { name: /bezahlt|Zahlung erhalten|Vielen Dank/ })).toBeVisible()
    // PayPal webhooks: the sales page shows the address to paste at PayPal and takes the webhook id back
    await page.goto(`${server.url}/agency/sales`)
    await expect(page.getByText(/Webhook-Adresse für PayPal: .*\/proxy\/api\/payments\/paypal\/webhook\/\d+/)).toBeVisible()
    await page.getByLabel('PayPal-Webhook-ID (optional)').fill('WH-4HN93184TC889870L')
    await page.getByRole('button', { name: 'Webhook-ID speichern' }).click()
    await expect(page.getByText('Die Webhook-ID wurde gespeichert.')).toBeVisible()
    await shot(page, 'payments-04b-sales-paypal-webhook')

    // Mollie: to the checkout, "later" → wait step (90); then paid at Mollie → the return re-fetches
    const mEv = await onlineEvent(page, server.url, { method: 'MOLLIE', secretKey: 'test_einlassMollieKey0123456789abcd' })
    const id4 = await order(page, server.url, mEv, 'Mia')
    await g.goto(`${server.url}/pay/${id4}`)
    await addressStep(g)
    await g.getByRole('button', { name: 'Weiter zur Zahlung bei Mollie' }).click()
    await expect(g.getByText('Testzahlung 25.00 EUR')).toBeVisible()
    await shot(g, 'payments-05-mollie-checkout-phone')
    await g.getByText('Später bestätigen').click()
    await expect(g.getByText('Wir warten auf die Bestätigung von Mollie')).toBeVisible()
    await shot(g, 'payments-06-mollie-wait-phone')
    const row = await (await page.request.get(`${server.url}/proxy/api/guest/ticketOrder/${id4}`)).json()
    expect(row.ticketOrder.step).toBe(90)
    // resetting asks first in a dialog of the page: "keep waiting" changes nothing, the reset goes back to the confirmation
    await g.getByRole('button', { name: 'Zahlung zurücksetzen' }).click()
    const ask = g.getByRole('dialog', { name: 'Zahlung zurücksetzen' })
    await expect(ask.getByText(/Sie zahlen nie doppelt/)).toBeVisible()
    await ask.getByRole('button', { name: 'Weiter warten' }).click()
    await expect(ask).toBeHidden()
    await expect(g.getByText('Wir warten auf die Bestätigung von Mollie')).toBeVisible()
    await g.getByRole('button', { name: 'Zahlung zurücksetzen' }).click()
    await shot(g, 'payments-06b-mollie-reset-ask-phone')
    await ask.getByRole('button', { name: 'Zahlung zurücksetzen' }).click()
    await expect(g.getByRole('button', { name: 'Weiter zur Zahlung bei Mollie' })).toBeVisible()
    expect((await (await page.request.get(`${server.url}/proxy/api/guest/ticketOrder/${id4}`)).json()).ticketOrder.step).toBe(40)
    // cancelled at Mollie's checkout: PAYMENT_CANCELED (900) with continue-and-reset (issue 20 item 15)
    const id5 = await order(page, server.url, mEv, 'Nora')
    await g.goto(`${server.url}/pay/${id5}`)
    await addressStep(g)
    await g.getByRole('button', { name: 'Weiter zur Zahlung bei Mollie' }).click()
    await expect(g.getByText('Testzahlung 25.00 EUR')).toBeVisible()
    await g.getByRole('link', { name: 'Abbrechen' }).click()
    await expect(g.getByText('Die Zahlung wurde abgebrochen.', { exact: false })).toBeVisible()
    await shot(g, 'payments-06c-mollie-cancelled-continue-phone')
    await g.getByRole('button', { name: 'Weiter und neu starten' }).click()
    await expect(g.getByText('Ok, die Zahlung wurde zurückgesetzt.')).toBeVisible()
    await expect(g.getByRole('button', { name: 'Weiter zur Zahlung bei Mollie' })).toBeVisible()

    // the organiser refunds the card order through Stripe: 10,00 € first, then the rest
    await page.goto(`${server.url}/events/${stripeEv.eventId}/tickets`)
    await page.getByRole('combobox', { name: 'Zahlung' }).selectOption('PAID')
    const paidRow = page.getByRole('row', { name: /Paula/ }).first()
    await paidRow.getByRole('button', { name: 'Über Zahlungsdienst erstatten' }).click()
    const refund = page.getByRole('dialog', { name: /Über Zahlungsdienst erstatten: Bestellung/ })
    const amount = refund.getByLabel('Betrag in €')
    await expect(amount).toBeFocused()
    // not a price, then more than was paid: said at the field, nothing refunded
    await amount.fill('zehn')
    await refund.getByRole('button', { name: 'Erstatten' }).click()
    await expect(refund.getByText('Bitte prüfen Sie diese Eingabe.')).toBeVisible()
    await amount.fill('99,00')
    await refund.getByRole('button', { name: 'Erstatten' }).click()
    await expect(refund.getByText('Der Betrag ist höher als der noch erstattbare Betrag.')).toBeVisible()
    await shot(page, 'payments-08a-refund-dialog-too-much')
    await amount.fill('10,00')
    await refund.getByRole('button', { name: 'Erstatten' }).click()
    await expect(page.getByText('Die Erstattung wurde beim Zahlungsdienst ausgelöst.')).toBeVisible()
    await expect(refund).toHaveCount(0)
    await shot(page, 'payments-08-organiser-partial-refund')
    // the rest: the field left empty
    await page.getByRole('row', { name: /Paula/ }).first().getByRole('button', { name: 'Über Zahlungsdienst erstatten' }).click()
    await refund.getByRole('button', { name: 'Erstatten' }).click()
    await expect(refund).toHaveCount(0)
    await expect(page.getByText('Die Erstattung wurde beim Zahlungsdienst ausgelöst.').last()).toBeVisible()
    await page.getByRole('combobox', { name: 'Zahlung' }).selectOption('')
    await expect(page.getByRole('row', { name: /Paula/ }).first()).toContainText('Erstattet')
    await g.goto(`${server.url}/pay/${id}`)
    await expect(g.getByText(/erstattet/)).toBeVisible()
    await shot(g, 'payments-07-refunded-phone')
  } finally {
    await server.stop()
    fakes.stop()
  }
})

test('a Mollie refund that fails later: the organiser is mailed, sees what is owed on the order and refunds it again', async ({ page }) => {
  test.setTimeout(120_000)
  const fakes = await startPaymentFakes()
  const server = await startServer({ EINLASS_MOLLIE_API_URL: `${fakes.urls.mollie}/v2/` })
  try {
    await setupAdmin(page, server)
    const seller = { name: 'Kulturhalle GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '04107', city: 'Leipzig', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-', contactName: 'Ada Admin', phone: '+49 341 123456', email: 'kasse@kulturhalle.example' }
    expect((await page.request.put(`${server.url}/proxy/api/agency/sellerSettings`, { data: seller })).status()).toBe(200)
    const ev = await onlineEvent(page, server.url, { method: 'MOLLIE', secretKey: 'test_einlassMollieKey0123456789abcd' })
    // Mia buys a ticket and pays at Mollie; Mollie calls einlass' webhook
    const id = await order(page, server.url, ev, 'Mia')
    const guest = `${server.url}/proxy/api/guest/ticketOrder/${id}`
    expect((await page.request.post(`${guest}/proceed/invoiceAddress`, { data: { invoiceAddress: { receiver: 'Mia Musterfrau', street: 'Karl-Liebknecht-Straße', streetNumber: '12', postCode: '04107', city: 'Leipzig' } } })).status()).toBe(200)
    const pay = await (await page.request.post(`${guest}/proceed/paymentPay`, { data: { paymentMethod: 'MOLLIE' } })).json()
    const paymentId = String(pay.redirectUrl).split('/').pop()!
    await page.request.get(`${fakes.urls.control}/mollie/paid?id=${paymentId}`)
    const mollieCalls = () => page.request.post(`${server.url}/proxy/api/payments/mollie/webhook`, { form: { id: paymentId } })
    await mollieCalls()

    // the organiser refunds the whole order through Mollie; Mollie accepts it (pending)
    await page.goto(`${server.url}/events/${ev.eventId}/tickets`)
    const row = page.getByRole('row', { name: /Mia/ }).first()
    await expect(row).toContainText('Bezahlt')
    await row.getByRole('button', { name: 'Über Zahlungsdienst erstatten' }).click()
    await page.getByRole('dialog', { name: /Über Zahlungsdienst erstatten/ }).getByRole('button', { name: 'Erstatten' }).click()
    await expect(page.getByText('Die Erstattung wurde beim Zahlungsdienst ausgelöst.')).toBeVisible()
    await expect(row).toContainText('Erstattet')
    await expect(row.getByRole('button', { name: 'Über Zahlungsdienst erstatten' })).toHaveCount(0)

    // days later Mollie fails it and calls the payment's webhook
    expect((await page.request.get(`${fakes.urls.control}/mollie/refund?payment=${paymentId}&status=failed`)).status()).toBe(200)
    await mollieCalls()
    await expect.poll(() => server.smtp.mails.filter((m) => m.to.includes('kasse@kulturhalle.example') && m.subject.startsWith('Erstattung fehlgeschlagen: Bestellung')).length).toBe(1)
    const mail = server.smtp.mails.find((m) => m.subject.startsWith('Erstattung fehlgeschlagen'))!
    expect(mail.text).toContain('Mollie hat die Erstattung von 25,00 € für die Bestellung')
    expect(mail.text).toContain('Erstatten Sie den Betrag im Verkauf der Veranstaltung erneut')
    await page.reload()
    await expect(row).toContainText('Erstattung fehlgeschlagen: 25,00 € offen')
    await expect(row).toContainText('Erstattet')
    await row.scrollIntoViewIfNeeded()
    await shot(page, 'payments-09-refund-failed-owed')

    // refunded again from the same row: nothing owed any more
    await row.getByRole('button', { name: 'Über Zahlungsdienst erstatten' }).click()
    await page.getByRole('dialog', { name: /Über Zahlungsdienst erstatten/ }).getByRole('button', { name: 'Erstatten' }).click()
    await expect(page.getByText('Die Erstattung wurde beim Zahlungsdienst ausgelöst.')).toBeVisible()
    await expect(row).not.toContainText('Erstattung fehlgeschlagen')
    await expect(row.getByRole('button', { name: 'Über Zahlungsdienst erstatten' })).toHaveCount(0)
    await shot(page, 'payments-10-refunded-again')
    // one credit note for the order's refund, not two
    const invoices = (await (await page.request.get(`${server.url}/proxy/api/invoices?eventId=${ev.eventId}`)).json()) as { content: Array<{ kind: string; grossCents: number }> }
    expect(invoices.content.map((i) => [i.kind, i.grossCents])).toEqual([['CANCELLATION', -2500], ['INVOICE', 2500]])
  } finally {
    await server.stop()
    fakes.stop()
  }
})
