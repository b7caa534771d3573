// Money on the organiser's screens (issue 20): made-up provider keys are refused with a German
// message naming the provider, a payment method is edited, the Tickets tab warns when an event sells
// tickets without a payment method, and "Als bezahlt markieren" asks for amount and day and can be
// undone the same day (a counter-entry in the history).
import { expect, setupAdmin, shot, startServer, test } from './fixtures'
import { startPaymentFakes } from './shop-helpers'

const TRANSFER = { method: 'TRANSFER', accountHolder: 'Kulturverein Leipzig e.V.', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', bank: 'Commerzbank', transferReferencePrefix: 'JAZZ-' }

test('provider keys checked, a payment method edited, the no-method warning, mark paid with amount and day, undone the same day', async ({ page }) => {
  test.setTimeout(120_000)
  const fakes = await startPaymentFakes()
  const server = await startServer({ EINLASS_STRIPE_API_URL: fakes.urls.stripe, EINLASS_MOLLIE_API_URL: `${fakes.urls.mollie}/v2/`, EINLASS_PAYPAL_SANDBOX_API_URL: fakes.urls.paypal })
  try {
    await setupAdmin(page, server)
    const req = page.request
    // made-up Stripe keys: Stripe refuses them, the page says so in German and nothing is saved
    await page.goto(`${server.url}/agency/sales`)
    await page.getByRole('combobox', { name: 'Zahlungsart', exact: true }).selectOption('STRIPE')
    await page.getByLabel('Veröffentlichbarer Schlüssel (pk_…)').fill('pk_test_einlass')
    await page.getByLabel('Geheimer Schlüssel (sk_…)').fill('sk_test_ausgedacht123')
    await page.getByLabel('Webhook-Signaturgeheimnis (whsec_…)').fill('whsec_test_einlass')
    await page.getByRole('button', { name: 'Zahlungsart anlegen' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Stripe hat die Zugangsdaten abgelehnt.' })).toBeVisible()
    await shot(page, 'money-01-stripe-keys-refused')
    expect(await (await req.get(`${server.url}/proxy/api/agency/paymentMethods`)).json()).toEqual([])
    // the real (test) key: saved
    await page.getByLabel('Geheimer Schlüssel (sk_…)').fill('sk_test_einlass')
    await page.getByRole('button', { name: 'Zahlungsart anlegen' }).click()
    await expect(page.getByText('Die Zahlungsart wurde angelegt.')).toBeVisible()
    await expect(page.getByText('Stripe hat die Zugangsdaten abgelehnt.')).toHaveCount(0)

    // edit it: the confirmation text changes, the secret stays (left empty)
    const methodForm = page.locator('form').filter({ has: page.getByLabel('Hinweis nach der Bestellung') })
    await page.getByRole('button', { name: 'Bearbeiten: Karte / SEPA (Stripe) (EURO)' }).click()
    await expect(page.getByRole('heading', { name: /Zahlungsart bearbeiten/ })).toBeVisible()
    await expect(page.getByLabel('Veröffentlichbarer Schlüssel (pk_…)')).toHaveValue('pk_test_einlass')
    await expect(page.getByText('Leer lassen, um den gespeicherten Schlüssel zu behalten.')).toBeVisible()
    await page.getByLabel('Hinweis nach der Bestellung').fill('Danke, wir haben Ihre Kartenzahlung erhalten.')
    await shot(page, 'money-02-method-edit')
    await methodForm.getByRole('button', { name: 'Speichern' }).click()
    await expect(page.getByText('Die Zahlungsart wurde gespeichert.')).toBeVisible()
    const methods = (await (await req.get(`${server.url}/proxy/api/agency/paymentMethods`)).json()) as Array<{ id: number; method: string; confirmationText: string | null; hasSecretKey: boolean }>
    expect(methods).toMatchObject([{ method: 'STRIPE', confirmationText: 'Danke, wir haben Ihre Kartenzahlung erhalten.', hasSecretKey: true }])
    // editing with a made-up key is refused too; the stored one stays
    await page.getByRole('button', { name: 'Bearbeiten: Karte / SEPA (Stripe) (EURO)' }).click()
    await page.getByLabel('Geheimer Schlüssel (sk_…)').fill('sk_test_falsch999')
    await methodForm.getByRole('button', { name: 'Speichern' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Stripe hat die Zugangsdaten abgelehnt.' })).toBeVisible()
    await methodForm.getByRole('button', { name: 'Abbrechen' }).click()

    // an event selling tickets without a payment method: the Tickets tab warns
    const transfer = (await (await req.post(`${server.url}/proxy/api/agency/paymentMethods`, { data: TRANSFER })).json()).id as number
    const start = new Date(Date.now() + 21 * 86400_000)
    start.setUTCHours(17, 0, 0, 0)
    const ev = await req.post(`${server.url}/proxy/api/events`, { data: { displayName: 'Jazznacht', visibility: 'OFFLINE', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kulturhalle', city: 'Leipzig', maxVisitors: 200 } })
    const eventId = (await ev.json()).id as number
    const cat = await (await req.post(`${server.url}/proxy/api/events/${eventId}/ticketCategories`, { data: { displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_7' } })).json()
    await page.goto(`${server.url}/events/${eventId}/tickets`)
    const warning = page.getByText('Diese Veranstaltung verkauft Tickets, aber es ist keine Zahlungsart aktiviert')
    await expect(warning).toBeVisible()
    await shot(page, 'money-03-tickets-no-method-warning')
    // the server refuses to put it online
    const online = await req.put(`${server.url}/proxy/api/events/${eventId}`, { data: { displayName: 'Jazznacht', visibility: 'PUBLIC', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kulturhalle', city: 'Leipzig', maxVisitors: 200 } })
    expect(online.status()).toBe(409)
    expect((await online.json()).errorMessage).toContain('keine Zahlungsart')
    // … also from the event's own form, with the reason at the field
    await page.goto(`${server.url}/events/${eventId}/edit`)
    await page.getByLabel('Sichtbarkeit').selectOption('PUBLIC')
    await page.getByRole('button', { name: 'Speichern' }).click()
    await expect(page.getByText('Diese Veranstaltung verkauft Tickets, hat aber keine Zahlungsart.').first()).toBeVisible()
    await shot(page, 'money-03b-event-online-refused')
    await page.goto(`${server.url}/events/${eventId}/tickets`)
    await page.getByRole('checkbox', { name: /^Überweisung/ }).check()
    await expect(warning).toHaveCount(0)
    expect(transfer).toBeGreaterThan(0)

    // a guest orders and chooses the transfer; the organiser records the money: amount and day asked first
    const online2 = await req.put(`${server.url}/proxy/api/events/${eventId}`, { data: { displayName: 'Jazznacht', visibility: 'PUBLIC', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kulturhalle', city: 'Leipzig', maxVisitors: 200 } })
    expect(online2.status()).toBe(200)
    const bought = await req.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, { data: { salutation: 'Frau', firstName: 'Paula', lastName: 'Musterfrau', email: 'paula@example.org', tickets: [{ categoryId: cat.id, amount: 1 }] } })
    expect(bought.status()).toBe(201)
    const oid = (await bought.json()).ticketOrderId as string
    const o = `${server.url}/proxy/api/guest/ticketOrder/${oid}`
    expect((await req.post(`${o}/proceed/invoiceAddress`, { data: { invoiceAddress: { receiver: 'Paula Musterfrau', street: 'Markt', streetNumber: '1', postCode: '04109', city: 'Leipzig' } } })).status()).toBe(200)
    expect((await (await req.post(`${o}/proceed/paymentPay`, { data: { paymentMethod: 'TRANSFER' } })).json()).step).toBe(100)
    const number = ((await (await req.get(o)).json()).ticketOrder.number as string)

    await page.reload()
    const row = page.getByRole('row', { name: new RegExp(number) })
    await expect(row).toContainText('25,00 €')
    await row.getByRole('button', { name: 'Als bezahlt markieren' }).click()
    const ask = page.getByRole('dialog', { name: `Zahlung erfassen: Bestellung ${number}` })
    await expect(ask.getByText('Offen sind 25,00 €.')).toBeVisible()
    await expect(ask.getByLabel('Eingegangener Betrag in €')).toHaveValue('25,00')
    const today = await page.evaluate(() => {
      const d = new Date()
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
    })
    await expect(ask.getByLabel('Zahlungsdatum')).toHaveValue(today)
    // not a price: said at the field, nothing sent
    await ask.getByLabel('Eingegangener Betrag in €').fill('zwanzig')
    await ask.getByRole('button', { name: 'Als bezahlt erfassen' }).click()
    await expect(ask.getByText('Bitte prüfen Sie diese Eingabe.')).toBeVisible()
    await ask.getByLabel('Eingegangener Betrag in €').fill('20,00')
    await shot(page, 'money-04-mark-paid-dialog')
    await ask.getByRole('button', { name: 'Als bezahlt erfassen' }).click()
    await expect(page.getByText('Die Zahlung wurde erfasst.')).toBeVisible()
    await expect(row).toContainText('Bezahlt')
    await shot(page, 'money-05-marked-paid-undo-offered')

    // undone the same day: asked first, then the order is open again; both entries stay in the history
    await row.getByRole('button', { name: 'Zahlung rückgängig' }).click()
    const undo = page.getByRole('dialog', { name: `Zahlung rückgängig machen: Bestellung ${number}` })
    await expect(undo).toContainText('20,00 €')
    await shot(page, 'money-06-undo-ask')
    await undo.getByRole('button', { name: 'Rückgängig machen' }).click()
    await expect(page.getByText('Die Zahlung wurde rückgängig gemacht.')).toBeVisible()
    await expect(row.getByRole('button', { name: 'Als bezahlt markieren' })).toBeVisible()
    await expect(row.getByRole('button', { name: 'Zahlung rückgängig' })).toHaveCount(0)
    await shot(page, 'money-07-undone-open-again')
    const list = await (await req.post(`${server.url}/proxy/api/events/${eventId}/orders/search`, { data: {} })).json()
    const detail = await (await req.get(`${server.url}/proxy/api/events/${eventId}/orders/${list.items[0].id}`)).json()
    expect(detail.history.slice(-2).map((h: { kind: string; data: { amount: number } }) => [h.kind, h.data.amount])).toEqual([
      ['MARKED_PAID', 2000],
      ['MARKED_PAID_UNDONE', -2000],
    ])
  } finally {
    await server.stop()
    fakes.stop()
  }
})
