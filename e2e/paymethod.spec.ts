// Changing the payment method of an unpaid order (issue 21, docs/ticketing.md "Changing the payment
// method"), on a phone against the local Stripe fake (server/testing/fakes/serve.ts): the guest
// orders by transfer, sees the bank details, changes to Stripe on the pay page, pays by card: PAID.
import { linkIn } from '../server/testing/smtp-sink'
import { expect, setupAdmin, shot, startServer, test } from './fixtures'
import { startPaymentFakes } from './shop-helpers'

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 } }

test('transfer ordered, changed to Stripe on the pay page, paid by card', async ({ page, browser }) => {
  test.setTimeout(120_000)
  const fakes = await startPaymentFakes()
  const server = await startServer({ EINLASS_STRIPE_API_URL: fakes.urls.stripe, EINLASS_STRIPE_JS_URL: `${fakes.urls.control}/stripe.js` })
  try {
    await setupAdmin(page, server)
    const req = page.request
    const url = server.url
    const start = new Date(Date.now() + 21 * 86400_000)
    start.setUTCHours(17, 0, 0, 0)
    const ev = await req.post(`${url}/proxy/api/events`, { data: { displayName: 'Jazznacht', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kulturhalle', city: 'Leipzig', maxVisitors: 200 } })
    const eventId = (await ev.json()).id as number
    const cat = await (await req.post(`${url}/proxy/api/events/${eventId}/ticketCategories`, { data: { displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_7' } })).json()
    const transfer = await (await req.post(`${url}/proxy/api/agency/paymentMethods`, { data: { method: 'TRANSFER', accountHolder: 'Agentur Sonnenschein', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', bank: 'Commerzbank', transferReferencePrefix: 'JN-' } })).json()
    const stripe = await (await req.post(`${url}/proxy/api/agency/paymentMethods`, { data: { method: 'STRIPE', publicKey: 'pk_test_einlass', secretKey: 'sk_test_einlass', webhookSecret: 'whsec_test_einlass' } })).json()
    expect((await req.put(`${url}/proxy/api/events/${eventId}/paymentMethods`, { data: { ids: [transfer.id, stripe.id] } })).status()).toBe(200)
    const r = await req.post(`${url}/proxy/api/public/events/${eventId}/registrations`, { data: { salutation: 'Frau', firstName: 'Paula', lastName: 'Musterfrau', email: 'paula@example.org', tickets: [{ categoryId: cat.id, amount: 1 }] } })
    expect(r.status()).toBe(201)
    const id = (await r.json()).ticketOrderId as string

    const g = await (await browser.newContext(PHONE)).newPage()
    await g.goto(`${url}/pay/${id}`)
    await g.getByLabel(/^Straße/).fill('Karl-Liebknecht-Straße')
    await g.getByLabel(/^Hausnummer/).fill('12')
    await g.getByLabel(/^PLZ/).fill('04107')
    await g.getByLabel(/^Ort/).fill('Leipzig')
    await g.getByRole('button', { name: 'Weiter' }).click()
    // the method: by transfer
    await g.getByRole('radio', { name: 'Überweisung' }).check()
    await g.getByRole('button', { name: 'Weiter' }).click()
    await g.getByRole('button', { name: /Zahlungspflichtig bestellen/ }).click()
    await expect(g.getByText('DE89 3704 0044 0532 0130 00')).toBeVisible()
    await expect(g.getByRole('button', { name: 'Zahlungsart ändern' })).toBeVisible()
    await shot(g, 'paymethod-01-transfer-finished-phone')
    // later, from the guest portal: the order card links to the change
    expect((await g.request.post(`${url}/proxy/api/public/visitor/resendMail`, { data: { email: 'paula@example.org' } })).ok()).toBe(true)
    const access = await server.smtp.waitFor((m) => m.to.includes('paula@example.org') && m.text.includes('/guest/dashboard?token='), 15_000)
    await g.goto(linkIn(access, '/guest/dashboard?token='))
    const card = g.locator('.guest-event').filter({ hasText: 'Jazznacht' })
    await expect(card.getByRole('link', { name: 'Zahlungsart ändern' })).toBeVisible()
    await shot(g, 'paymethod-01b-portal-card-phone')
    await card.getByRole('link', { name: 'Zahlungsart ändern' }).click()
    await expect(g).toHaveURL(new RegExp(`/pay/${id}$`))
    // the guest changes to Stripe: back to the method choice, the method cleared
    await g.getByRole('button', { name: 'Zahlungsart ändern' }).click()
    await expect(g.getByRole('radiogroup')).toBeVisible()
    await expect(g.getByRole('radio', { name: 'Überweisung' })).not.toBeChecked()
    await shot(g, 'paymethod-02-method-again-phone')
    await g.getByRole('radio', { name: /Stripe/ }).check()
    await g.getByRole('button', { name: 'Weiter' }).click()
    await expect(g.getByLabel('Kartennummer')).toBeVisible()
    await g.getByLabel(/Name des Karten/).fill('Paula Musterfrau')
    await g.getByLabel('Kartennummer').fill('4242 4242 4242 4242')
    await shot(g, 'paymethod-03-stripe-card-phone')
    await g.getByRole('button', { name: /Zahlungspflichtig bestellen/ }).click()
    await expect(g.getByRole('heading', { name: /bezahlt|Zahlung erhalten|Vielen Dank/ })).toBeVisible()
    await expect(g.getByText('DE89 3704 0044 0532 0130 00')).toHaveCount(0)
    await expect(g.getByRole('button', { name: 'Zahlungsart ändern' })).toHaveCount(0)
    await shot(g, 'paymethod-04-stripe-paid-phone')
    const state = await (await req.get(`${url}/proxy/api/guest/ticketOrder/${id}/orderState`)).json()
    expect(state).toMatchObject({ step: 100, status: 'PAID' })
  } finally {
    await server.stop()
    fakes.stop()
  }
})
