// Selling rules (issue 21, docs/ticketing.md "Selling rules"): the organiser sets, in the Tickets tab,
// a category's description, sale periods, a hidden category with a code, minimum and maximum, a
// category sold only with another, and the terms; a buyer sees "ab …" and "beendet", opens the
// hidden category with the code, is refused a child ticket alone, accepts the terms and pays.
import { type APIRequestContext, type Page } from '@playwright/test'
import { expect, type Server, setupAdmin, shot, test } from './fixtures'

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 } }

/** A datetime-local value in Berlin time. */
const berlin = (d: Date) => d.toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' }).replace(' ', 'T').slice(0, 16)

async function paidEvent(page: Page, server: Server, start: Date) {
  const req: APIRequestContext = page.request
  const ev = await req.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Sommerkonzert', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Parkbühne', city: 'Leipzig', maxVisitors: 300, maxVisitorPerSubscription: 8 },
  })
  expect(ev.status()).toBe(201)
  const id = (await ev.json()).id as number
  expect((await req.post(`${server.url}/proxy/api/events/${id}/ticketCategories`, { data: { displayName: 'Erwachsene', grossPrice: 3200, taxCode: 'TAX_7', sortOrder: 1 } })).status()).toBe(201)
  const m = await req.post(`${server.url}/proxy/api/agency/paymentMethods`, {
    data: { method: 'TRANSFER', accountHolder: 'Kulturverein Leipzig e.V.', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', bank: 'Commerzbank', transferReferencePrefix: 'SK-' },
  })
  expect((await req.put(`${server.url}/proxy/api/events/${id}/paymentMethods`, { data: { ids: [(await m.json()).id] } })).status()).toBe(200)
  await req.put(`${server.url}/proxy/api/agency/sellerSettings`, { data: { name: 'Kulturverein Leipzig e.V.', imprintUrl: 'https://example.org/impressum', privacyUrl: 'https://example.org/datenschutz' } })
  return id
}

test('an organiser sets selling rules and terms; a buyer meets each of them and pays', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const eventId = await paidEvent(page, server, start)

  // the organiser's category editor: sale periods, a child ticket with a description, minimum and
  // maximum and the adult it needs, a hidden category with a code
  await page.goto(`${server.url}/events/${eventId}/tickets`)
  // the first load of the organiser's area on a busy host may take longer than expect's 10 s
  await expect(page.getByRole('heading', { name: 'Ticketkategorien' })).toBeVisible({ timeout: 30_000 })
  const form = page.locator('form.tickets-form').filter({ has: page.getByRole('button', { name: 'Kategorie anlegen' }) })
  const add = async (name: string, price: string, more: (f: typeof form) => Promise<void>) => {
    await form.getByLabel('Bezeichnung').fill(name)
    await form.getByLabel('Preis (brutto)').fill(price)
    await more(form)
    await form.getByRole('button', { name: 'Kategorie anlegen' }).click()
    await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible()
  }
  await add('Frühbucher', '24,00', (f) => f.getByLabel('Verkauf bis').fill(berlin(new Date(Date.now() - 2 * 86400_000))))
  const eveningFrom = new Date(start.getTime() - 86400_000)
  await add('Abendkasse', '38,00', (f) => f.getByLabel('Verkauf ab').fill(berlin(eveningFrom)))
  await add('Kind', '12,00', async (f) => {
    await f.getByLabel('Beschreibung für Käufer').fill('Für Kinder bis 12 Jahre, nur in Begleitung Erwachsener.')
    await f.getByLabel('Mindestens pro Bestellung').fill('1')
    await f.getByLabel('Höchstens pro Bestellung').fill('3')
    await f.getByLabel('Nur zusammen mit').selectOption({ label: 'Erwachsene' })
  })
  // a code of the wrong shape is refused at its field
  await form.getByLabel('Bezeichnung').fill('Sponsoren')
  await form.getByLabel('Preis (brutto)').fill('0,00')
  await form.getByLabel('Zugangscode (versteckte Kategorie)').fill('mit leerzeichen')
  await form.getByRole('button', { name: 'Kategorie anlegen' }).click()
  await expect(form.locator('.field-error')).toHaveCount(1)
  await form.getByLabel('Zugangscode (versteckte Kategorie)').fill('sponsor26')
  await form.getByRole('button', { name: 'Kategorie anlegen' }).click()
  const sponsor = page.getByRole('row', { name: /Sponsoren/ })
  await expect(sponsor).toContainText('versteckt: SPONSOR26')
  await expect(sponsor).toContainText(`/public/event/${eventId}?code=SPONSOR26`)
  await expect(page.getByRole('row', { name: /Frühbucher/ })).toContainText('beendet')
  await expect(page.getByRole('row', { name: /Abendkasse/ })).toContainText('ab ')
  const child = page.getByRole('row', { name: /Kind/ })
  await expect(child).toContainText('nur mit Erwachsene')
  await expect(child).toContainText('pro Bestellung 1–3')
  await expect(child).toContainText('Für Kinder bis 12 Jahre')

  // the terms buyers accept before paying
  const terms = page.locator('section.card, .card').filter({ has: page.getByRole('heading', { name: 'Geschäftsbedingungen und Widerrufsbelehrung' }) })
  await terms.getByLabel('Text der Bedingungen').fill('Tickets sind vom Umtausch ausgeschlossen. Bei Absage erstatten wir den vollen Preis.')
  await terms.getByLabel('Oder Link zu den Bedingungen').fill('https://example.org/agb')
  await terms.getByRole('button', { name: 'Bedingungen übernehmen' }).click()
  await expect(page.getByText('Bedingungen gespeichert.')).toBeVisible()
  await page.getByRole('heading', { name: 'Ticketkategorien' }).scrollIntoViewIfNeeded()
  await shot(page, 'selling-rules-01-organiser-categories')
  await terms.scrollIntoViewIfNeeded()
  await shot(page, 'selling-rules-02-organiser-terms')

  const ctx = await browser.newContext(PHONE)
  try {
    const g = await ctx.newPage()
    await g.goto(`${server.url}/public/event/${eventId}`)
    const row = (name: string) => g.locator('li.ticket-row').filter({ hasText: name })
    await expect(row('Frühbucher')).toContainText('beendet')
    await expect(row('Abendkasse')).toContainText(/ab \d\d\.\d\d\.\d{4}/)
    await expect(g.getByRole('button', { name: 'Ein Ticket mehr: Frühbucher' })).toBeDisabled()
    await expect(g.getByRole('button', { name: 'Ein Ticket mehr: Abendkasse' })).toBeDisabled()
    await expect(row('Kind')).toContainText('Für Kinder bis 12 Jahre, nur in Begleitung Erwachsener.')
    await expect(row('Kind')).toContainText('Nur zusammen mit „Erwachsene“')
    await expect(g.getByText('Sponsoren')).toHaveCount(0)
    // the hidden category with the code (a wrong one first)
    await g.getByRole('button', { name: 'Sie haben einen Zugangscode?' }).click()
    await g.getByLabel('Zugangscode').fill('falsch')
    await g.getByRole('button', { name: 'Einlösen' }).click()
    await expect(g.getByText('Zu diesem Code gibt es keine Tickets.')).toBeVisible()
    await g.getByLabel('Zugangscode').fill('sponsor26')
    await g.getByRole('button', { name: 'Einlösen' }).click()
    await expect(row('Sponsoren')).toContainText('Mit Ihrem Code freigeschaltet')
    await shot(g, 'selling-rules-03-buyer-categories-phone')

    // a child ticket alone: the server refuses it, the chooser says why
    await g.getByRole('button', { name: 'Ein Ticket mehr: Kind' }).click()
    await g.getByLabel('Anrede').selectOption('Frau')
    await g.getByLabel(/^Vorname( \*)?$/).fill('Paula')
    await g.getByLabel(/^Nachname( \*)?$/).fill('Musterfrau')
    await g.getByLabel('E-Mail-Adresse').fill('paula@example.org')
    await g.getByRole('button', { name: 'Weiter zur Zahlung' }).click()
    await expect(row('Kind')).toContainText('Diese Tickets gibt es nur zusammen mit einem Ticket der dafür nötigen Kategorie.')
    await expect(g).toHaveURL(new RegExp(`/public/event/${eventId}`))
    await row('Kind').scrollIntoViewIfNeeded()
    await shot(g, 'selling-rules-04-buyer-child-alone-phone')

    // with an adult and the sponsor ticket it goes through
    await g.getByRole('button', { name: 'Ein Ticket mehr: Erwachsene' }).click()
    // the refusal was for the choice as sent: it goes with the change
    await expect(g.locator('li.ticket-row .field-error')).toHaveCount(0)
    await g.getByRole('button', { name: 'Ein Ticket mehr: Sponsoren' }).click()
    await expect(g.locator('.ticket-total strong')).toHaveText('44,00 €')
    await g.getByRole('button', { name: 'Weiter zur Zahlung' }).click()
    await g.waitForURL(/\/pay\/[a-z2-7]{24}$/)
    await g.getByLabel(/^Straße/).fill('Karl-Liebknecht-Straße')
    await g.getByLabel(/^Hausnummer/).fill('12')
    await g.getByLabel(/^PLZ/).fill('04107')
    await g.getByLabel(/^Ort/).fill('Leipzig')
    await g.getByRole('button', { name: 'Weiter' }).click()
    // three tickets: two more persons are named
    await expect(g.getByText(/Ihre Bestellung umfasst 2 weitere Personen/)).toBeVisible()
    const first = g.getByLabel(/^Vorname/)
    const last = g.getByLabel(/^Nachname/)
    await first.nth(0).fill('Karl')
    await last.nth(0).fill('Musterfrau')
    await first.nth(1).fill('Susi')
    await last.nth(1).fill('Sponsor')
    await g.getByRole('button', { name: 'Weiter' }).click()
    await expect(g.getByText(/Bestätigung/).first()).toBeVisible()
    // paying without the terms is refused at the checkbox
    await g.getByRole('button', { name: 'Zahlungspflichtig bestellen (44,00 €)' }).click()
    await expect(g.getByText('Bitte bestätigen Sie die Bedingungen des Veranstalters.')).toBeVisible()
    await expect(g.getByRole('link', { name: 'Bedingungen lesen' })).toHaveAttribute('href', 'https://example.org/agb')
    await g.getByText('Bedingungen des Veranstalters').first().click()
    await expect(g.getByText('Tickets sind vom Umtausch ausgeschlossen.')).toBeVisible()
    await shot(g, 'selling-rules-05-pay-terms-phone')
    await g.getByLabel('Ich akzeptiere die Geschäftsbedingungen und die Widerrufsbelehrung des Veranstalters.').check()
    await g.getByRole('button', { name: 'Zahlungspflichtig bestellen (44,00 €)' }).click()
    await expect(g.getByRole('heading', { name: 'Vielen Dank für Ihre Bestellung!' })).toBeVisible()
    await shot(g, 'selling-rules-06-paid-phone')
  } finally {
    await ctx.close()
  }

  // the acceptance is kept with the order (its data for the organiser)
  const list = await (await page.request.post(`${server.url}/proxy/api/events/${eventId}/orders/search`, { data: {} })).json()
  expect(list.items.length).toBe(1)
  const oid = list.items[0].id
  const detail = await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/orders/${oid}`)).json()
  expect(detail.termsAccepted.version).toMatch(/^https:\/\/example\.org\/agb text:[0-9a-f]{16}$/)
  expect(detail.termsAccepted.text).toContain('vom Umtausch ausgeschlossen')
  expect(detail.lines.map((l: { displayName: string; amount: number }) => `${l.amount}× ${l.displayName}`)).toEqual(['1× Erwachsene', '1× Kind', '1× Sponsoren'])
})
