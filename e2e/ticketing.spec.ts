// Ticket sales on a phone (issue 12): buy two tickets with a coupon and pay by transfer (the GiroCode
// shown on the pay page is decoded from its PNG with jsQR), the organiser marks the order paid; a
// free order with a 100 % coupon; an invoice-address error; an expired order (the server's own task).
import jsQR from 'jsqr'
// @ts-expect-error pngjs ships no types (qrcode's dependency)
import { PNG } from 'pngjs'
import { type APIRequestContext, type Page } from '@playwright/test'
import pg from 'pg'
import { createSchema } from '../server/testing/postgres'
import { linkIn } from '../server/testing/smtp-sink'
import { expect, type Server, setupAdmin, shot, startServer, test } from './fixtures'

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 } }

async function paidEvent(page: Page, server: Server, opts: { quota?: number } = {}) {
  const req: APIRequestContext = page.request
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await req.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Jazznacht', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kulturhalle', city: 'Leipzig', maxVisitors: 200, maxVisitorPerSubscription: 6 },
  })
  expect(ev.status()).toBe(201)
  const id = (await ev.json()).id as number
  for (const c of [
    { displayName: 'Sitzplatz', grossPrice: 3900, taxCode: 'TAX_7', quota: opts.quota ?? 50, maxPerOrder: 4, sortOrder: 1 },
    { displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_7', sortOrder: 2 },
  ]) {
    expect((await req.post(`${server.url}/proxy/api/events/${id}/ticketCategories`, { data: c })).status()).toBe(201)
  }
  const ids: number[] = []
  const have = (await (await req.get(`${server.url}/proxy/api/agency/paymentMethods`)).json()) as Array<{ id: number; method: string }>
  for (const m of [
    { method: 'TRANSFER', accountHolder: 'Kulturverein Leipzig e.V.', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', bank: 'Commerzbank', transferReferencePrefix: 'JAZZ-' },
    { method: 'INVOICE' },
  ]) {
    const existing = have.find((x) => x.method === m.method)
    if (existing) ids.push(existing.id)
    else ids.push((await (await req.post(`${server.url}/proxy/api/agency/paymentMethods`, { data: m })).json()).id)
  }
  expect((await req.put(`${server.url}/proxy/api/events/${id}/paymentMethods`, { data: { ids } })).status()).toBe(200)
  await req.put(`${server.url}/proxy/api/agency/sellerSettings`, { data: { name: 'Kulturverein Leipzig e.V.', imprintUrl: 'https://example.org/impressum', privacyUrl: 'https://example.org/datenschutz' } })
  return id
}

async function fillGuest(g: Page, first: string, email: string) {
  await g.getByLabel('Anrede').selectOption('Frau')
  await g.getByLabel(/^Vorname( \*)?$/).fill(first)
  await g.getByLabel(/^Nachname( \*)?$/).fill('Musterfrau')
  await g.getByLabel('E-Mail-Adresse').fill(email)
}

async function address(g: Page) {
  await g.getByLabel(/^Straße/).fill('Karl-Liebknecht-Straße')
  await g.getByLabel(/^Hausnummer/).fill('12')
  await g.getByLabel(/^PLZ/).fill('04107')
  await g.getByLabel(/^Ort/).fill('Leipzig')
}

test('two tickets with a coupon, paid by transfer with the GiroCode; the organiser marks the order paid', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const eventId = await paidEvent(page, server)
  expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/coupons`, { data: { code: 'FRUEHBUCHER', valueType: 'FIXED', reduction: 800 } })).status()).toBe(201)
  const ctx = await browser.newContext(PHONE)
  try {
    const g = await ctx.newPage()
    await g.goto(`${server.url}/public/event/${eventId}`)
    await expect(g.getByText('Tickets', { exact: true })).toBeVisible()
    await g.getByRole('button', { name: 'Ein Ticket mehr: Sitzplatz' }).click()
    await g.getByRole('button', { name: 'Ein Ticket mehr: Sitzplatz' }).click()
    await expect(g.getByText('78,00 €')).toBeVisible()
    await g.getByLabel('Gutscheincode (optional)').fill('fruehbucher')
    // the total follows the coupon before the guest sends anything (issue 20 item 23)
    await expect(g.locator('.ticket-total strong')).toHaveText('70,00 €')
    await expect(g.locator('.ticket-total s')).toHaveText('78,00 €')
    await fillGuest(g, 'Paula', 'paula@example.org')
    await shot(g, 'ticketing-01-pick-tickets-phone')
    await g.getByRole('button', { name: 'Weiter zur Zahlung' }).click()
    await g.waitForURL(/\/pay\/[a-z2-7]{24}$/)
    await expect(g.getByText('Schritt 1 von 4 · Rechnungsadresse')).toBeVisible()
    // the 30-minute hold counts down (issue 20 item 23)
    await expect(g.getByRole('timer')).toContainText(/noch (29|30):\d\d Minuten/)
    await expect(g.getByText('Gutschein FRUEHBUCHER')).toBeVisible()
    await expect(g.getByRole('row', { name: /Gesamt/ })).toContainText('70,00 €')
    await expect(g.getByRole('link', { name: 'Impressum' })).toHaveAttribute('href', 'https://example.org/impressum')
    await shot(g, 'ticketing-02-pay-invoice-address-phone')
    await address(g)
    await g.getByRole('button', { name: 'Weiter' }).click()
    // two tickets: the second person's name is asked for; Weiter lists what is missing (issue 20)
    await expect(g.getByText('Ihre Bestellung umfasst 1 weitere Person. Bitte nennen Sie ihren Namen.')).toBeVisible()
    await expect(g.getByText('Bitte ergänzen Sie noch diese Angaben:')).toHaveCount(0)
    await g.getByRole('button', { name: 'Weiter' }).click()
    await expect(g.getByText('Begleitperson 1: Vorname')).toBeVisible()
    await shot(g, 'ticketing-03-pay-escort-missing-phone')
    await g.getByLabel(/^Vorname/).fill('Pia')
    await g.getByLabel(/^Nachname/).fill('Begleiterin')
    await g.getByRole('button', { name: 'Weiter' }).click()
    await expect(g.getByText('Schritt 3 von 4 · Zahlungsart')).toBeVisible()
    await g.getByLabel('Überweisung').check()
    await shot(g, 'ticketing-04-pay-method-phone')
    await g.getByRole('button', { name: 'Weiter' }).click()
    await expect(g.getByText('Schritt 4 von 4 · Bestätigung')).toBeVisible()
    await expect(g.getByText('Pia Begleiterin')).toBeVisible()
    await shot(g, 'ticketing-05-pay-confirm-phone')
    await g.getByRole('button', { name: 'Zahlungspflichtig bestellen (70,00 €)' }).click()
    await expect(g.getByRole('heading', { name: 'Vielen Dank für Ihre Bestellung!' })).toBeVisible()
    const img = g.getByRole('img', { name: 'GiroCode für die Überweisung' })
    await expect(img).toBeVisible()
    await shot(g, 'ticketing-06-pay-transfer-girocode-phone')
    const src = (await img.getAttribute('src'))!
    const png = PNG.sync.read(Buffer.from(src.slice(src.indexOf(',') + 1), 'base64'))
    const text = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? ''
    const lines = text.split('\n')
    expect(lines.slice(0, 8)).toEqual(['BCD', '002', '1', 'SCT', 'COBADEFFXXX', 'Kulturverein Leipzig e.V.', 'DE89370400440532013000', 'EUR70.00'])
    expect(lines[10]).toMatch(/^JAZZ-[A-Z2-9]{8}$/)
    await expect(g.getByText(lines[10])).toBeVisible()
    const mail = await server.smtp.waitFor((m) => m.to.includes('paula@example.org'), 15_000)
    expect(mail.text).toContain(lines[10])
    expect(mail.parsed.attachments.some((a) => a.contentType === 'image/png')).toBe(true)

    // the organiser finds the order on the event's Tickets tab and marks it paid
    const number = lines[10].slice('JAZZ-'.length)
    await page.goto(`${server.url}/events/${eventId}/tickets`)
    await expect(page.getByRole('heading', { name: 'Ticketkategorien' })).toBeVisible()
    await page.getByRole('combobox', { name: 'Zahlung' }).selectOption('OPEN')
    const row = page.getByRole('row', { name: new RegExp(number) })
    await expect(row).toContainText('70,00 €')
    await expect(row).toContainText('Überweisung')
    await shot(page, 'ticketing-14-organiser-tickets-tab')
    await row.getByRole('button', { name: 'Als bezahlt markieren' }).click()
    // it asks for the amount (the open amount) and the day (today) first (issue 20)
    const askPaid = page.getByRole('dialog', { name: `Zahlung erfassen: Bestellung ${number}` })
    await expect(askPaid.getByLabel('Eingegangener Betrag in €')).toHaveValue('70,00')
    await askPaid.getByRole('button', { name: 'Als bezahlt erfassen' }).click()
    await expect(page.getByText('Die Zahlung wurde erfasst.')).toBeVisible()
    await expect(page.getByText('Keine Bestellungen gefunden.')).toBeVisible()
    await page.getByRole('combobox', { name: 'Zahlung' }).selectOption('PAID')
    await expect(page.getByRole('row', { name: new RegExp(number) })).toContainText('Bezahlt')
    await shot(page, 'ticketing-15-organiser-marked-paid')
    await page.goto(`${server.url}/events/${eventId}/statistics`)
    await expect(page.getByRole('heading', { name: 'Umsatz nach Ticketkategorie' })).toBeVisible()
    await expect(page.getByText('Bestellt 70,00 €, davon bezahlt 70,00 €')).toBeVisible()
    // revenue per day: our own SVG plot with German axes and the currency format
    const plot = page.getByRole('img', { name: 'Umsatz pro Tag' })
    await expect(plot).toBeVisible()
    await expect(plot).toContainText('Bestelltag')
    await expect(plot).toContainText('Umsatz')
    await expect(plot).toContainText('70,00 €')
    await expect(plot).toContainText('0,00 €')
    await plot.scrollIntoViewIfNeeded()
    await shot(page, 'ticketing-19-statistics-revenue')
    await g.reload()
    await expect(g.getByRole('heading', { name: 'Vielen Dank, Ihre Bestellung ist bezahlt.' })).toBeVisible()
    await shot(g, 'ticketing-07-pay-paid-phone')
    await server.smtp.waitFor((m) => m.to.includes('paula@example.org') && m.subject.startsWith('Zahlung erhalten'), 15_000)

    // the money went back by transfer: the organiser records the refund, asked in a dialog first
    await page.goto(`${server.url}/events/${eventId}/tickets`)
    const paid = page.getByRole('row', { name: new RegExp(number) })
    await paid.getByRole('button', { name: 'Erstatten' }).click()
    const ask = page.getByRole('dialog', { name: new RegExp(`^Bestellung .*${number} erstatten$`) })
    await expect(ask.getByText('Die Tickets werden wieder freigegeben.', { exact: false })).toBeVisible()
    await shot(page, 'ticketing-15b-organiser-refund-ask')
    await ask.getByRole('button', { name: 'Als erstattet erfassen' }).click()
    await expect(page.getByText('Die Erstattung wurde erfasst.')).toBeVisible()
    await expect(ask).toBeHidden()
    await expect(paid).toContainText('Erstattet')
  } finally {
    await ctx.close()
  }
})

test('a 100 % coupon: nothing to pay, confirmation is step 2; an invoice-address error is shown in German', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const eventId = await paidEvent(page, server)
  expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/coupons`, { data: { code: 'EHRENGAST', valueType: 'PERCENT', reduction: 100 } })).status()).toBe(201)
  const ctx = await browser.newContext(PHONE)
  try {
    const g = await ctx.newPage()
    await g.goto(`${server.url}/public/event/${eventId}`)
    await g.getByRole('button', { name: 'Ein Ticket mehr: Stehplatz' }).click()
    await g.getByLabel('Gutscheincode (optional)').fill('FALSCH')
    await fillGuest(g, 'Gerda', 'gerda@example.org')
    await g.getByRole('button', { name: 'Weiter zur Zahlung' }).click()
    await expect(g.getByText('Dieser Gutscheincode ist ungültig oder nicht mehr einlösbar.')).toBeVisible()
    await shot(g, 'ticketing-08-coupon-invalid-phone')
    await g.getByLabel('Gutscheincode (optional)').fill('EHRENGAST')
    await g.getByRole('button', { name: 'Weiter zur Zahlung' }).click()
    await g.waitForURL(/\/pay\//)
    // the confirmation is this free order's only step: no step count (issue 20 item 23)
    await expect(g.getByRole('heading', { name: 'Bestätigung' })).toBeVisible()
    await expect(g.locator('.pay-progress')).toHaveCount(0)
    await shot(g, 'ticketing-09-free-confirm-phone')
    await g.getByRole('button', { name: 'Kostenlos bestellen' }).click()
    await expect(g.getByRole('heading', { name: 'Vielen Dank, Ihre Bestellung ist bezahlt.' })).toBeVisible()
    await shot(g, 'ticketing-10-free-done-phone')

    // another guest leaves the city empty: the German field message, nothing saved
    const g2 = await ctx.newPage()
    await g2.goto(`${server.url}/public/event/${eventId}`)
    await g2.getByRole('button', { name: 'Ein Ticket mehr: Stehplatz' }).click()
    await fillGuest(g2, 'Hanna', 'hanna@example.org')
    await g2.getByRole('button', { name: 'Weiter zur Zahlung' }).click()
    await g2.waitForURL(/\/pay\//)
    await g2.getByLabel(/^Straße/).fill('Ring')
    await g2.getByLabel(/^Hausnummer/).fill('1')
    await g2.getByLabel(/^PLZ/).fill('04109')
    await g2.getByRole('button', { name: 'Weiter' }).click()
    await expect(g2.getByText('Bitte füllen Sie alle Pflichtfelder der Rechnungsadresse aus.')).toBeVisible()
    await expect(g2.getByText('Schritt 1 von 3 · Rechnungsadresse')).toBeVisible()
    await shot(g2, 'ticketing-11-invoice-address-error-phone')

    // the organiser cancels Hanna's open order: "Nicht stornieren" keeps it, "Stornieren" in the dialog ends it
    await page.goto(`${server.url}/events/${eventId}/tickets`)
    const open = page.getByRole('row', { name: /hanna@example\.org/ })
    await expect(open).toContainText('Offen')
    await open.getByRole('button', { name: 'Stornieren' }).click()
    const ask = page.getByRole('dialog', { name: /^Bestellung .+ stornieren$/ })
    await ask.getByRole('button', { name: 'Nicht stornieren' }).click()
    await expect(ask).toBeHidden()
    await expect(open).toContainText('Offen')
    await open.getByRole('button', { name: 'Stornieren' }).click()
    await shot(page, 'ticketing-16b-organiser-cancel-ask')
    await ask.getByRole('button', { name: 'Stornieren', exact: true }).click()
    await expect(page.getByText('Die Bestellung wurde storniert.')).toBeVisible()
    await expect(open).toContainText('Storniert')
    await g2.reload()
    await expect(g2.getByText('Diese Bestellung wurde storniert.', { exact: false })).toBeVisible()
  } finally {
    await ctx.close()
  }
})

test('a field made required after registering is asked on step 5; Weiter lists it as missing until it is filled', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const eventId = await paidEvent(page, server)
  const ctx = await browser.newContext(PHONE)
  try {
    const g = await ctx.newPage()
    await g.goto(`${server.url}/public/event/${eventId}`)
    await g.getByRole('button', { name: 'Ein Ticket mehr: Stehplatz' }).click()
    await fillGuest(g, 'Ilse', 'ilse@example.org')
    await g.getByRole('button', { name: 'Weiter zur Zahlung' }).click()
    await g.waitForURL(/\/pay\//)
    await expect(g.getByText('Schritt 1 von 3 · Rechnungsadresse')).toBeVisible()
    // the organiser asks for the company meanwhile
    expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/fields`, { data: { type: 'TEXT', displayName: 'Firma', appearance: 'REQUIRED' } })).status()).toBe(201)
    await address(g)
    await g.getByRole('button', { name: 'Weiter' }).click()
    await expect(g.getByText(/^Schritt 2 von 4 · /)).toBeVisible()
    // nothing is flagged before the guest tried; Weiter is always there (issue 20 item 23)
    const missing = g.locator('.pay-missing')
    await expect(g.getByLabel('Firma *')).toBeVisible()
    await expect(missing).toHaveCount(0)
    await g.getByRole('button', { name: 'Weiter' }).click()
    await expect(missing).toContainText('Bitte ergänzen Sie noch diese Angaben:')
    await expect(missing.getByText('Firma')).toBeVisible()
    await expect(g.getByText(/^Schritt 2 von 4 · /)).toBeVisible()
    await shot(g, 'ticketing-20-missing-fields-phone')
    await g.getByLabel('Firma *').fill('Kulturbüro Ilse')
    await expect(missing).toHaveCount(0)
    await g.getByRole('button', { name: 'Weiter' }).click()
    await expect(g.getByText('Schritt 2 von 3 · Zahlungsart')).toBeVisible()
    await shot(g, 'ticketing-21-missing-fields-filled-phone')
  } finally {
    await ctx.close()
  }
})

test('an expired order: the server gives the tickets back by itself; the guest continues and starts again', async ({ page, browser }) => {
  test.setTimeout(120_000)
  // this journey's server runs on Postgres, so the test can let the 30-minute hold run out
  const pgSchema = await createSchema()
  const server = await startServer({ DATABASE_URL: pgSchema.url })
  const db = new pg.Client({ connectionString: pgSchema.url.replace(/\?.*$/, ''), options: `-c search_path=${pgSchema.schema}` })
  try {
    await db.connect()
    await setupAdmin(page, server)
    const eventId = await paidEvent(page, server)
    const cats = (await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/ticketCategories`)).json()).items
    const r = await page.request.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, {
      data: { salutation: 'Frau', firstName: 'Erna', lastName: 'Eilig', email: 'erna@example.org', tickets: [{ categoryId: cats[0].id, amount: 1 }] },
    })
    expect(r.status()).toBe(201)
    const { ticketOrderId } = await r.json()
    expect((await db.query('select sold from ticket_category where id = $1', [cats[0].id])).rows[0].sold).toBe(1)
    // half an hour later, as far as the order and its expiry task know
    const past = new Date(Date.now() - 60_000).toISOString()
    await db.query('update ticket_order set hold_until = $1 where public_id = $2', [past, ticketOrderId])
    await db.query(`update task set run_after = $1 where kind = 'ticketing.expire'`, [past])
    await expect.poll(async () => (await db.query('select step from ticket_order where public_id = $1', [ticketOrderId])).rows[0].step, { timeout: 20_000 }).toBe(901)
    expect((await db.query('select sold from ticket_category where id = $1', [cats[0].id])).rows[0].sold).toBe(0)
    await server.smtp.waitFor((m) => m.to.includes('erna@example.org') && m.subject.startsWith('Bestellung abgelaufen'), 15_000)

    const ctx = await browser.newContext(PHONE)
    try {
      const g = await ctx.newPage()
      await g.goto(`${server.url}/pay/${ticketOrderId}`)
      await expect(g.getByText('Die Zeit für diese Bestellung ist abgelaufen; die Tickets wurden freigegeben.')).toBeVisible()
      await shot(g, 'ticketing-12-expired-phone')
      await g.getByRole('button', { name: 'Weiter und neu starten' }).click()
      await expect(g.getByText('Ok, die Zahlung wurde zurückgesetzt.')).toBeVisible()
      await expect(g.getByText('Schritt 1 von 3 · Rechnungsadresse')).toBeVisible()
      await shot(g, 'ticketing-13-expired-reset-phone')
      expect((await db.query('select sold from ticket_category where id = $1', [cats[0].id])).rows[0].sold).toBe(1)
    } finally {
      await ctx.close()
    }
  } finally {
    await db.end()
    await server.stop()
    await pgSchema.drop()
  }
})

test('a guest with an open order: the dashboard sends them to pay (not to confirm); withdrawing gives the tickets back, bought ones only the organiser cancels', async ({ page, server, browser }) => {
  await setupAdmin(page, server)
  const eventId = await paidEvent(page, server)
  const cats = (await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/ticketCategories`)).json()).items
  const buy = async (email: string, req: APIRequestContext = page.request) => {
    const r = await req.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, { data: { salutation: 'Frau', firstName: 'Paula', lastName: 'Plan', email, tickets: [{ categoryId: cats[0].id, amount: 1 }] } })
    expect(r.status(), await r.text()).toBe(201)
    return (await r.json()).ticketOrderId as string
  }
  const sold = async () => (await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/ticketCategories`)).json()).items[0].sold as number
  const open = await buy('paula@example.org')
  expect(await sold()).toBe(1)
  // the organiser's guest dialog: the registration awaits its order's payment, so it offers no approving
  await page.goto(`${server.url}/events/${eventId}/guests`)
  await page.getByRole('button', { name: 'Plan' }).click()
  const guestDialog = page.getByRole('dialog')
  await expect(guestDialog.getByText(/^Wartet auf die Bezahlung der Bestellung \S+: Die Anmeldung wird mit der Zahlung bestätigt\./)).toBeVisible()
  await expect(guestDialog.getByRole('button', { name: 'Bestätigen', exact: true })).toHaveCount(0)
  await expect(guestDialog.getByRole('button', { name: 'Ablehnen' })).toBeVisible()
  await shot(page, 'ticketing-13b-guest-awaits-payment')
  expect((await page.request.post(`${server.url}/proxy/api/public/visitor/resendMail`, { data: { email: 'paula@example.org' } })).status()).toBe(200)
  const mail = await server.smtp.waitFor((m) => m.to.includes('paula@example.org') && m.text.includes('/guest/dashboard?token='), 15_000)
  const ctx = await browser.newContext(PHONE)
  try {
    const g = await ctx.newPage()
    await g.goto(linkIn(mail, '/guest/dashboard?token='))
    const card = g.getByTestId('section-pendingEvents').locator('li').filter({ hasText: 'Jazznacht' })
    await expect(g.getByText('Bitte schließen Sie Ihre Bestellung ab.')).toBeVisible()
    await expect(card.getByRole('link', { name: 'Zur Bezahlung' })).toBeVisible()
    await expect(card.getByRole('button', { name: 'Teilnahme bestätigen' })).toHaveCount(0)
    await shot(g, 'ticketing-14-dashboard-pay-phone')
    await card.getByRole('link', { name: 'Zur Bezahlung' }).click()
    await expect(g).toHaveURL(new RegExp(`/pay/${open}$`))
    await expect(g.getByText('Schritt 1 von 3 · Rechnungsadresse')).toBeVisible()
    await g.goBack()
    // withdrawing (the pending card's decline) cancels the order: the ticket is free again
    await card.getByRole('button', { name: 'Absagen' }).click()
    await g.getByRole('dialog', { name: 'Teilnahme absagen' }).getByRole('button', { name: 'Absage senden' }).click()
    await expect(g.getByText('Ihre Absage ist eingegangen.')).toBeVisible()
    await g.getByRole('button', { name: 'OK' }).click()
    await expect.poll(sold).toBe(0)
    await expect(g.getByTestId('section-declinedEvents').getByRole('heading', { name: 'Jazznacht' })).toBeVisible()
    await expect(g.getByTestId('section-pendingEvents')).toHaveCount(0)

    // bought on invoice: confirmed, and the card no longer offers to withdraw
    // registering again as the signed-in guest (the session proves them)
    const bought = await buy('paula@example.org', g.request)
    for (const [path, data] of [
      ['invoiceAddress', { invoiceAddress: { receiver: 'Paula Plan', street: 'Markt', streetNumber: '1', postCode: '04109', city: 'Leipzig' } }],
      ['paymentSelection', { paymentMethod: 'INVOICE' }],
      ['paymentPay', { paymentMethod: 'INVOICE' }],
    ] as const) {
      expect((await g.request.post(`${server.url}/proxy/api/guest/ticketOrder/${bought}/proceed/${path}`, { data })).status()).toBe(200)
    }
    await g.reload()
    const confirmed = g.getByTestId('section-confirmedEvents').locator('li').filter({ hasText: 'Jazznacht' })
    await expect(confirmed.getByRole('button', { name: 'Anmeldedetails' })).toBeVisible()
    await expect(confirmed.getByRole('button', { name: 'Teilnahme zurückziehen' })).toHaveCount(0)
    await shot(g, 'ticketing-15-dashboard-bought-phone')
    expect(await sold()).toBe(1)
  } finally {
    await ctx.close()
  }
})

test('the organiser sets up sales: seller data, a transfer account (IBAN checked), a category and the event’s method', async ({ page, server }) => {
  test.setTimeout(90_000)
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 30 * 86400_000)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Sommerkonzert', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Park', city: 'Dresden' },
  })
  const eventId = (await ev.json()).id as number
  await page.goto(`${server.url}/agency/sales`)
  await page.getByRole('link', { name: 'Verkauf' }).first().waitFor()
  await page.getByLabel('Name', { exact: true }).fill('Konzertbüro Dresden GmbH')
  await page.getByLabel('Link zum Impressum').fill('https://example.org/impressum')
  // the page has a second card with its own Speichern (Buchhaltung (DATEV)); save the seller's
  const seller = page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'Verkäufer', exact: true }) })
  await seller.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByText('Die Verkäuferangaben wurden gespeichert.')).toBeVisible()
  await page.getByLabel('Kontoinhaber').fill('Konzertbüro Dresden GmbH')
  await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 01')
  await page.getByLabel('BIC').fill('COBADEFFXXX')
  await page.getByRole('button', { name: 'Zahlungsart anlegen' }).click()
  await expect(page.getByText('Bitte geben Sie eine gültige IBAN ein.')).toBeVisible()
  await shot(page, 'ticketing-16-sales-iban-error')
  await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00')
  await page.getByRole('button', { name: 'Zahlungsart anlegen' }).click()
  await expect(page.getByText('Die Zahlungsart wurde angelegt.')).toBeVisible()
  await expect(page.getByText(/DE89370400440532013000/)).toBeVisible()
  await shot(page, 'ticketing-17-sales-settings')

  await page.goto(`${server.url}/events/${eventId}/tickets`)
  await expect(page.getByText('Noch keine Ticketkategorie.', { exact: false })).toBeVisible()
  await page.getByLabel('Bezeichnung').fill('Rasenplatz')
  await page.getByLabel('Preis (brutto)').fill('19,90')
  await page.getByLabel('Steuersatz').selectOption('TAX_7')
  await page.getByLabel('Kontingent').fill('300')
  await page.getByRole('button', { name: 'Kategorie anlegen' }).click()
  await expect(page.getByRole('row', { name: /Rasenplatz/ })).toContainText('19,90 €')
  await page.getByRole('checkbox', { name: /^Überweisung/ }).check()
  await expect(page.getByRole('checkbox', { name: /^Überweisung/ })).toBeChecked()
  await shot(page, 'ticketing-18-event-tickets-setup')
  const pub = await (await page.request.get(`${server.url}/proxy/api/public/events/${eventId}`)).json()
  expect(pub.isPayedEvent).toBe(true)

  // the category is edited in the same form, pre-filled; a server refusal shows under its field
  await page.getByRole('button', { name: '„Rasenplatz“ bearbeiten' }).click()
  await expect(page.getByRole('heading', { name: '„Rasenplatz“ bearbeiten' })).toBeVisible()
  await expect(page.getByLabel('Preis (brutto)')).toHaveValue('19,90')
  await expect(page.getByLabel('Kontingent')).toHaveValue('300')
  await page.getByLabel('Mindestens pro Bestellung').fill('5')
  await page.getByLabel('Höchstens pro Bestellung').fill('2')
  await page.getByRole('button', { name: 'Speichern', exact: true }).click()
  const minError = page.locator('label', { hasText: 'Mindestens pro Bestellung' }).locator('.field-error')
  await expect(minError).toHaveText('Das Minimum darf nicht über dem Maximum liegen.')
  await shot(page, 'ticketing-22-category-edit-error')
  await page.getByLabel('Mindestens pro Bestellung').fill('1')
  await page.getByLabel('Preis (brutto)').fill('24,50')
  await page.getByLabel('Kontingent').fill('250')
  await page.getByRole('button', { name: 'Speichern', exact: true }).click()
  await expect(page.getByText('Die Kategorie wurde gespeichert.').last()).toBeVisible()
  await expect(page.getByRole('row', { name: /Rasenplatz/ })).toContainText('24,50 €')
  await expect(page.getByRole('row', { name: /Rasenplatz/ })).toContainText('0 / 250')
  await expect(page.getByRole('button', { name: 'Kategorie anlegen' })).toBeVisible()

  // a coupon, then changed from 10 % to 15 % on one category (in the coupon editor: the one-use codes'
  // card below has its own Nachlass and Gilt für)
  const couponForm = page.locator('form.tickets-form').filter({ has: page.getByLabel('Code', { exact: true }) })
  await page.getByLabel('Code', { exact: true }).fill('sommer')
  await couponForm.getByLabel('Nachlass').fill('10')
  await page.getByRole('button', { name: 'Gutschein anlegen' }).click()
  await expect(page.getByRole('row', { name: /SOMMER/ })).toContainText('10 %')
  await page.getByRole('button', { name: '„SOMMER“ bearbeiten' }).click()
  await expect(page.getByLabel('Code', { exact: true })).toHaveValue('SOMMER')
  await couponForm.getByLabel('Nachlass').fill('15')
  await couponForm.getByLabel('Gilt für').selectOption({ label: 'Rasenplatz' })
  await shot(page, 'ticketing-23-coupon-edit')
  await page.getByRole('button', { name: 'Speichern', exact: true }).click()
  await expect(page.getByText('Der Gutschein wurde gespeichert.').last()).toBeVisible()
  await expect(page.getByRole('row', { name: /SOMMER/ })).toContainText('15 %')
  await expect(page.getByRole('row', { name: /SOMMER/ })).toContainText('Rasenplatz')
  await shot(page, 'ticketing-24-tickets-edited')
})
