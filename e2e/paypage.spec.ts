// The pay page and the order mails as a buyer meets them (issue 20 items 15, 16, 19, 23, 24): the
// organiser sets the money format and the seller's country from lists; the form, framed on another
// site, opens /pay in the top window; the steps count the order's own steps, the hold counts down,
// the country is chosen from a list and named on the confirmation; a settled order goes to the
// organiser's link; the order mail's portal link logs the buyer in from a fresh browser.
import { type Server as HttpServer, createServer } from 'node:http'
import { type APIRequestContext, type Page } from '@playwright/test'
import { linkIn } from '../server/testing/smtp-sink'
import { expect, freePort, type Server, setupAdmin, shot, test } from './fixtures'

/** A page of the organiser's own website (another origin) that frames the registration form. */
async function hostPage(frameUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort()
  const html = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Kulturverein</title></head><body><h1>Kulturverein Leipzig</h1><iframe id="form" src="${frameUrl}" title="Tickets" style="width:100%;height:1500px;border:0"></iframe></body></html>`
  const srv: HttpServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(html)
  })
  await new Promise<void>((r) => srv.listen(port, '127.0.0.1', () => r()))
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((r) => srv.close(() => r())) }
}

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 } }
const DESKTOP = { locale: 'de-DE', viewport: { width: 1280, height: 900 } }

async function paidEvent(page: Page, server: Server) {
  const req: APIRequestContext = page.request
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await req.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Jazznacht', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kulturhalle', city: 'Leipzig', country: 'DEU', maxVisitors: 200, externalConfirmationLink: `${server.url}/support` },
  })
  expect(ev.status()).toBe(201)
  const id = (await ev.json()).id as number
  expect((await req.post(`${server.url}/proxy/api/events/${id}/ticketCategories`, { data: { displayName: 'Sitzplatz', grossPrice: 3900, taxCode: 'TAX_7' } })).status()).toBe(201)
  const ids: number[] = []
  for (const m of [{ method: 'INVOICE' }, { method: 'LOCATION' }]) ids.push((await (await req.post(`${server.url}/proxy/api/agency/paymentMethods`, { data: m })).json()).id)
  expect((await req.put(`${server.url}/proxy/api/events/${id}/paymentMethods`, { data: { ids } })).status()).toBe(200)
  return id
}

test('framed form → /pay in the top window, steps, countdown, country list, money format, redirect; the mail\'s portal link in a fresh browser', async ({ page, server, browser }) => {
  test.setTimeout(150_000)
  await setupAdmin(page, server)
  const eventId = await paidEvent(page, server)

  // the organiser: seller data with the country from a list and the currency sign before the amount
  await page.setViewportSize(DESKTOP.viewport)
  await page.goto(`${server.url}/agency/sales`)
  await page.getByLabel('Name', { exact: true }).fill('Kulturverein Leipzig e.V.')
  await page.getByLabel('Straße', { exact: true }).fill('Ring')
  await page.getByLabel('Hausnummer', { exact: true }).fill('1')
  await page.getByLabel('PLZ', { exact: true }).fill('04109')
  await page.getByLabel('Ort', { exact: true }).fill('Leipzig')
  const country = page.getByLabel('Land', { exact: true })
  await expect(country).toHaveValue('DEU')
  await country.selectOption({ label: 'Österreich' })
  await page.getByLabel(/Währungszeichen vor dem Betrag/).check()
  await shot(page, 'paypage-01-seller-settings-desktop')
  await page.getByRole('button', { name: 'Speichern' }).first().click()
  await expect(page.getByText('Die Verkäuferangaben wurden gespeichert.')).toBeVisible()
  const saved = await (await page.request.get(`${server.url}/proxy/api/agency/sellerSettings`)).json()
  expect(saved).toMatchObject({ country: 'AUT', currencyPrefix: true })

  // another site frames the registration form (no helper script): sending opens /pay in the top window
  const site = await hostPage(`${server.url}/public/event/${eventId}/frame`)
  const ctx = await browser.newContext(DESKTOP)
  try {
    const host = await ctx.newPage()
    await host.goto(site.url)
    const frame = host.frameLocator('#form')
    await expect(frame.getByText('€ 39,00').first()).toBeVisible()
    await frame.getByRole('button', { name: 'Ein Ticket mehr: Sitzplatz' }).click()
    await expect(frame.locator('.ticket-total strong')).toHaveText('€ 39,00')
    await frame.getByLabel('Anrede').selectOption('Frau')
    await frame.getByLabel(/^Vorname( \*)?$/).fill('Clara')
    await frame.getByLabel(/^Nachname( \*)?$/).fill('Musterfrau')
    await frame.getByLabel('E-Mail-Adresse').fill('clara@example.org')
    await shot(host, 'paypage-02-framed-form-desktop')
    await frame.getByRole('button', { name: 'Weiter zur Zahlung' }).click()
    // the top window, not the frame, is the pay page now
    await host.waitForURL(new RegExp(`^${server.url}/pay/[a-z2-7]{24}$`))
    const g = host
    await expect(g.getByText('Schritt 1 von 3 · Rechnungsadresse')).toBeVisible()
    await expect(g.getByRole('timer')).toContainText(/noch (29|30):\d\d Minuten/)
    const select = g.getByLabel('Land *')
    await expect(select).toHaveValue('DEU')
    await expect(select.locator('option').first()).toHaveText('Deutschland')
    await select.selectOption({ label: 'Schweiz' })
    await g.getByLabel(/^Straße/).fill('Bahnhofstrasse')
    await g.getByLabel(/^Hausnummer/).fill('3')
    await g.getByLabel(/^PLZ/).fill('8001')
    await g.getByLabel(/^Ort/).fill('Zürich')
    await expect(g.getByRole('row', { name: /Gesamt/ })).toContainText('€ 39,00')
    await shot(g, 'paypage-03-address-country-desktop')
    await g.getByRole('button', { name: 'Weiter' }).click()
    await expect(g.getByText('Schritt 2 von 3 · Zahlungsart')).toBeVisible()
    await g.getByLabel('Rechnung').check()
    await g.getByRole('button', { name: 'Weiter' }).click()
    await expect(g.getByText('Schritt 3 von 3 · Bestätigung')).toBeVisible()
    await expect(g.getByText('8001 Zürich, Schweiz')).toBeVisible()
    await shot(g, 'paypage-04-confirm-desktop')
    await g.getByRole('button', { name: 'Zahlungspflichtig bestellen (€ 39,00)' }).click()
    // a settled order goes where the organiser's link after registration points
    await g.waitForURL(`${server.url}/support`)
  } finally {
    await ctx.close()
    await site.close()
  }

  // the organiser's orders write money the agency's way too
  await page.goto(`${server.url}/events/${eventId}/tickets`)
  const row = page.getByRole('row', { name: /clara@example\.org/ })
  await expect(row).toContainText('€ 39,00')
  await shot(page, 'paypage-08-organiser-orders-desktop')

  // the order mail names the guest portal; its link logs the buyer in from a fresh browser (a phone)
  const mail = await server.smtp.waitFor((m) => m.to.includes('clara@example.org') && m.text.includes('/guest/dashboard?token='), 20_000)
  expect(mail.text).toContain('Gästeportal')
  expect(mail.text).toContain('€ 39,00')
  const fresh = await browser.newContext(PHONE)
  try {
    const p = await fresh.newPage()
    await p.goto(linkIn(mail, '/guest/dashboard?token='))
    await expect(p.getByText('Jazznacht').first()).toBeVisible()
    await shot(p, 'paypage-05-portal-from-mail-phone')
    // the pay page opened later from the mail: the finished order, its link offered, no redirect
    await p.goto(linkIn(mail, '/pay/'))
    await expect(p.getByRole('heading', { name: 'Vielen Dank für Ihre Bestellung!' })).toBeVisible()
    await expect(p.getByRole('link', { name: 'Weiter' })).toHaveAttribute('href', `${server.url}/support`)
    await expect(p.getByText('€ 39,00').first()).toBeVisible()
    await shot(p, 'paypage-06-finished-phone')
  } finally {
    await fresh.close()
  }
})

test('a phone: the step count, the countdown and the country list of the pay page', async ({ page, server, browser }) => {
  test.setTimeout(90_000)
  await setupAdmin(page, server)
  const eventId = await paidEvent(page, server)
  const r = await page.request.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, { data: { salutation: 'Frau', firstName: 'Ida', lastName: 'Handy', email: 'ida@example.org', tickets: [{ categoryId: (await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/ticketCategories`)).json()).items[0].id, amount: 1 }] } })
  expect(r.status()).toBe(201)
  const ctx = await browser.newContext(PHONE)
  try {
    const g = await ctx.newPage()
    await g.goto(`${server.url}/pay/${(await r.json()).ticketOrderId}`)
    await expect(g.getByText('Schritt 1 von 3 · Rechnungsadresse')).toBeVisible()
    await expect(g.getByRole('timer')).toContainText(/noch (29|30):\d\d Minuten/)
    await g.getByLabel('Land *').selectOption({ label: 'Österreich' })
    await shot(g, 'paypage-07-address-phone')
  } finally {
    await ctx.close()
  }
})
