// Helpers of the door journeys (issue 20 D): from the public page to the check-in desk for every
// payment method. The organiser's setup goes through the API (its screens have journeys of their
// own); everything the guest and the desk do is clicked in Chromium: the purchase on the public page,
// the pay page, the order mail's link opened in a new browser context, the dashboard's ticket PDF
// (rendered with pdftoppm, its QR decoded with zbarimg) and the desk's camera, a fake video device
// made from that rendered image.
import { type Browser, type BrowserContext, type Page, test as base } from '@playwright/test'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { linkIn, type ReceivedMail } from '../server/testing/smtp-sink'
import { launchWithCamera, writeCameraFile, y4m } from './fake-camera'
import { expect, type Server, SHOTS, setupAdmin, shot, startServer, watchCsp } from './fixtures'
import { type Fakes, startPaymentFakes } from './shop-helpers'

export { expect, shot }
export const PHONE = { locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, acceptDownloads: true }

export type Method = 'TRANSFER' | 'INVOICE' | 'LOCATION' | 'COUPON' | 'STRIPE' | 'PAYPAL' | 'MOLLIE'

/** One server per test (fresh database) that talks to the provider fakes; the fakes live per worker. */
export const test = base.extend<{ server: Server }, { fakes: Fakes }>({
  fakes: [
    async ({}, use) => {
      const f = await startPaymentFakes()
      await use(f.urls)
      f.stop()
    },
    { scope: 'worker' },
  ],
  server: async ({ fakes }, use) => {
    const s = await startServer({
      EINLASS_STRIPE_API_URL: fakes.stripe,
      EINLASS_STRIPE_JS_URL: `${fakes.control}/stripe.js`,
      EINLASS_MOLLIE_API_URL: `${fakes.mollie}/v2/`,
      EINLASS_PAYPAL_SANDBOX_API_URL: fakes.paypal,
      EINLASS_PAYPAL_JS_URL: `${fakes.control}/paypal.js`,
    })
    await use(s)
    await s.stop()
  },
  page: async ({ page }, use) => {
    const violations = watchCsp(page)
    await use(page)
    expect(violations, 'CSP violations').toEqual([])
  },
})

const METHODS: Record<Exclude<Method, 'COUPON'>, Record<string, unknown>> = {
  TRANSFER: { method: 'TRANSFER', accountHolder: 'Kulturverein Leipzig e.V.', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', bank: 'Commerzbank', transferReferencePrefix: 'JAZZ-' },
  INVOICE: { method: 'INVOICE' },
  LOCATION: { method: 'LOCATION' },
  STRIPE: { method: 'STRIPE', publicKey: 'pk_test_einlass', secretKey: 'sk_test_einlass', webhookSecret: 'whsec_test_einlass' },
  PAYPAL: { method: 'PAYPAL', publicKey: 'einlass-client', secretKey: 'einlass-secret', testMode: true },
  MOLLIE: { method: 'MOLLIE', secretKey: 'test_einlassMollieKey0123456789abcd' },
}
export const EVENT_NAME = 'Jazznacht'
export const COUPON = 'EHRENGAST'

async function api(page: Page, server: Server, method: 'get' | 'post' | 'put', path: string, data?: unknown) {
  const r = await page.request[method](`${server.url}${path}`, data === undefined ? undefined : { data })
  expect(r.ok(), `${method} ${path}: ${r.status()} ${await r.text()}`).toBe(true)
  return r.json()
}

/**
 * The organiser (logged in on `page`) sells tickets for "Jazznacht": seller data, one category
 * "Stehplatz" at 25,00 €, the given method enabled for the event (a 100 % coupon for COUPON, next to
 * a transfer method: a free order needs none), places may be passed on.
 */
export async function sellingEvent(page: Page, server: Server, method: Method) {
  await setupAdmin(page, server)
  await api(page, server, 'put', '/proxy/api/agency/sellerSettings', {
    name: 'Kulturverein Leipzig e.V.', street: 'Hauptstraße', streetNumber: '1', postCode: '04107', city: 'Leipzig', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-',
    contactName: 'Ada Admin', phone: '+49 341 123456', email: 'kasse@kulturverein.example', imprintUrl: 'https://example.org/impressum', privacyUrl: 'https://example.org/datenschutz',
  })
  const start = new Date(Date.now() + 14 * 86400_000)
  start.setUTCHours(18, 0, 0, 0)
  const event = await api(page, server, 'post', '/proxy/api/events', {
    displayName: EVENT_NAME, startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin',
    locationName: 'Kulturhalle', street: 'Uferstraße', streetNumber: '12', postCode: '04109', city: 'Leipzig', maxVisitors: 200, maxVisitorPerSubscription: 6, allowTransfer: true,
  })
  const category = await api(page, server, 'post', `/proxy/api/events/${event.id}/ticketCategories`, { displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_7' })
  const m = method === 'COUPON' ? METHODS.TRANSFER : METHODS[method]
  const created = await api(page, server, 'post', '/proxy/api/agency/paymentMethods', m)
  await api(page, server, 'put', `/proxy/api/events/${event.id}/paymentMethods`, { ids: [created.id] })
  if (method === 'COUPON') await api(page, server, 'post', `/proxy/api/events/${event.id}/coupons`, { code: COUPON, valueType: 'PERCENT', reduction: 100 })
  return { eventId: event.id as number, categoryId: category.id as number }
}

/** A guest on a phone buys one ticket on the public page and lands on the pay page; answers the order's id. */
export async function buyOnPublicPage(g: Page, server: Server, eventId: number, guest: { first: string; last?: string; email: string; coupon?: string; tickets?: number }) {
  await g.goto(`${server.url}/public/event/${eventId}`)
  for (let i = 0; i < (guest.tickets ?? 1); i++) await g.getByRole('button', { name: 'Ein Ticket mehr: Stehplatz' }).click()
  if (guest.coupon) await g.getByLabel('Gutscheincode (optional)').fill(guest.coupon)
  await g.getByLabel('Anrede').selectOption('Frau')
  await g.getByLabel(/^Vorname( \*)?$/).fill(guest.first)
  await g.getByLabel(/^Nachname( \*)?$/).fill(guest.last ?? 'Musterfrau')
  await g.getByLabel('E-Mail-Adresse').fill(guest.email)
  await g.getByRole('button', { name: 'Weiter zur Zahlung' }).click()
  await g.waitForURL(/\/pay\/[a-z2-7]{24}$/)
  return g.url().split('/').pop()!
}

async function invoiceAddress(g: Page) {
  await expect(g.getByText(/^Schritt 1 von \d · Rechnungsadresse/)).toBeVisible()
  await g.getByLabel(/^Straße/).fill('Karl-Liebknecht-Straße')
  await g.getByLabel(/^Hausnummer/).fill('12')
  await g.getByLabel(/^PLZ/).fill('04107')
  await g.getByLabel(/^Ort/).fill('Leipzig')
  await g.getByRole('button', { name: 'Weiter' }).click()
}

/** The pay page's steps for the method, up to the page that says what happens next. */
export async function payOnPayPage(g: Page, method: Method, shotName?: string) {
  if (method !== 'COUPON') await invoiceAddress(g)
  switch (method) {
    case 'COUPON':
      // a free order of one ticket goes through the confirmation only, so the page shows no
      // "Schritt n von m" line there (docs/ticketing.md, display numbers): wait for its heading
      await expect(g.getByRole('heading', { name: 'Bestätigung', exact: true })).toBeVisible()
      await g.getByRole('button', { name: 'Kostenlos bestellen' }).click()
      await expect(g.getByRole('heading', { name: 'Vielen Dank, Ihre Bestellung ist bezahlt.' })).toBeVisible()
      break
    case 'TRANSFER':
    case 'INVOICE':
    case 'LOCATION':
      await g.getByRole('button', { name: 'Zahlungspflichtig bestellen (25,00 €)' }).click()
      await expect(g.getByRole('heading', { name: 'Vielen Dank für Ihre Bestellung!' })).toBeVisible()
      break
    case 'STRIPE':
      await g.getByLabel(/Name des Karten/).fill('Paula Musterfrau')
      await g.getByLabel('Kartennummer').fill('4242 4242 4242 4242')
      await g.getByRole('button', { name: /Zahlungspflichtig bestellen/ }).click()
      await expect(g.getByRole('heading', { name: 'Vielen Dank, Ihre Bestellung ist bezahlt.' })).toBeVisible()
      break
    case 'PAYPAL':
      await g.getByRole('button', { name: 'Mit PayPal bezahlen' }).click()
      await expect(g.getByRole('heading', { name: 'Vielen Dank, Ihre Bestellung ist bezahlt.' })).toBeVisible()
      break
    case 'MOLLIE':
      await g.getByRole('button', { name: 'Weiter zur Zahlung bei Mollie' }).click()
      await expect(g.getByText('Testzahlung 25.00 EUR')).toBeVisible()
      await g.getByRole('link', { name: 'Bezahlen' }).click()
      await expect(g.getByRole('heading', { name: 'Vielen Dank, Ihre Bestellung ist bezahlt.' })).toBeVisible()
      break
  }
  if (shotName) await shot(g, shotName)
}

/** The newest mail to `to` whose subject matches. */
export async function mailTo(server: Server, to: string, subject: RegExp) {
  await server.smtp.waitFor((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject), 20_000)
  return server.smtp.mails.filter((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject)).at(-1)!
}

/** Every order mail carries the guest's portal link (issue 20, 19): the dashboard, not only /pay. */
export function portalLinkIn(mail: ReceivedMail) {
  return linkIn(mail, '/guest/dashboard?token=')
}

/** A new browser context on a phone (nothing shared with the one that bought) that opens the link. */
export async function openInNewContext(browser: Browser, link: string) {
  const ctx = await browser.newContext(PHONE)
  const g = await ctx.newPage()
  const csp = watchCsp(g)
  await g.goto(link)
  return { ctx, g, csp }
}

/** The dashboard card of the event in the registered section. */
export const registeredCard = (g: Page) => g.getByTestId('section-confirmedEvents').locator('li.guest-event').filter({ hasText: EVENT_NAME })

export interface Ticket {
  pdf: string
  png: string
  codes: string[]
}

/** Renders a ticket PDF's first page (pdftoppm) and reads its QR codes back (zbarimg). */
export function readTicket(pdf: string, name: string): Ticket {
  const base = join(SHOTS, name)
  const r = spawnSync('pdftoppm', ['-png', '-r', '110', '-singlefile', pdf, base])
  expect(r.status, String(r.stderr)).toBe(0)
  const png = `${base}.png`
  const codes = spawnSync('zbarimg', ['-q', '--raw', png], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean)
  return { pdf, png, codes }
}

const SIGNED = /^E1-[0-9A-Z]+-[0-9A-Z]+-[0-9A-Z]+-[0-9A-Z]{4}-[0-9A-Z]{16}$/

/** Taps the card's "Ticket (PDF)", saves the download, renders it and decodes its QR codes (one per person). */
export async function downloadTicket(g: Page, name: string, persons = 1): Promise<Ticket & { code: string }> {
  const link = registeredCard(g).getByRole('link', { name: 'Ticket (PDF)' })
  const [download] = await Promise.all([g.waitForEvent('download'), link.tap()])
  expect(download.suggestedFilename()).toBe(`Ticket ${EVENT_NAME}.pdf`)
  const file = join(mkdtempSync(join(tmpdir(), 'einlass-door-')), download.suggestedFilename())
  await download.saveAs(file)
  const t = readTicket(file, name)
  expect(t.codes).toHaveLength(persons)
  for (const c of t.codes) expect(c).toMatch(SIGNED)
  // in the order of the persons (main guest first): zbarimg reports them in its own order
  t.codes.sort((a, b) => Number.parseInt(a.split('-')[3], 32) - Number.parseInt(b.split('-')[3], 32))
  return { ...t, code: t.codes[0] }
}

/** The ticket PDF attached to a mail, rendered and decoded like the downloaded one. */
export function mailedTicket(mail: ReceivedMail, name: string): Ticket {
  const att = mail.parsed.attachments.find((a) => a.contentType === 'application/pdf' && a.filename?.startsWith('Ticket'))
  expect(att, `ticket PDF attached to "${mail.subject}"`).toBeTruthy()
  const file = join(mkdtempSync(join(tmpdir(), 'einlass-door-')), att!.filename!)
  writeFileSync(file, att!.content)
  return readTicket(file, name)
}

/** The mail that carries the ticket: the order mail of an order settled at once, else the payment's. */
export const TICKET_MAIL: Record<Method, RegExp> = {
  INVOICE: /^Ihre Bestellung /,
  LOCATION: /^Ihre Bestellung /,
  COUPON: /^Ihre Bestellung /,
  TRANSFER: /^Zahlung erhalten: /,
  STRIPE: /^Zahlung erhalten: /,
  PAYPAL: /^Zahlung erhalten: /,
  MOLLIE: /^Zahlung erhalten: /,
}

/**
 * From the mail that carries the ticket to the ticket: the mail's portal link opened in a new phone
 * context, the registered card offering "Ticket (PDF)", the PDF downloaded and its QR decoded; the
 * ticket attached to the mail carries the same code. The dashboard stays open for the caller.
 */
export async function ticketFromMail(browser: Browser, server: Server, email: string, subject: RegExp, slug: string) {
  const mail = await mailTo(server, email, subject)
  const mailed = mailedTicket(mail, `${slug}-02-mailed-ticket`)
  const { ctx, g, csp } = await openInNewContext(browser, portalLinkIn(mail))
  await expect(g).toHaveURL(/\/guest\/dashboard$/)
  await expect(registeredCard(g).getByRole('link', { name: 'Ticket (PDF)' })).toBeVisible()
  await shot(g, `${slug}-03-dashboard-phone`)
  const ticket = await downloadTicket(g, `${slug}-04-ticket-pdf`)
  expect(mailed.codes).toEqual([ticket.code])
  const download = await registeredCard(g).getByRole('link', { name: 'Ticket (PDF)' }).getAttribute('href')
  return { ctx, g, csp, ticket, download: `${server.url}${download}` }
}

/** A guest buys one ticket on the public page on a phone and pays with `method` (its browser closed after). */
export async function buy(browser: Browser, server: Server, eventId: number, method: Method, guest: { first: string; last?: string; email: string }, slug: string) {
  const buyer = await browser.newContext(PHONE)
  const b = await buyer.newPage()
  const csp = watchCsp(b)
  const orderId = await buyOnPublicPage(b, server, eventId, { ...guest, coupon: method === 'COUPON' ? COUPON : undefined })
  await payOnPayPage(b, method, `${slug}-01-paid-phone`)
  expect(csp).toEqual([])
  await buyer.close()
  return orderId
}

/** The organiser records the transfer's money (the back office, not the desk): the order by the guest's e-mail. */
export async function markPaid(page: Page, server: Server, eventId: number, email: string) {
  const found = await api(page, server, 'post', `/proxy/api/events/${eventId}/orders/search`, { search: email, page: 0, perPage: 10 })
  expect(found.items).toHaveLength(1)
  await api(page, server, 'post', `/proxy/api/events/${eventId}/orders/${found.items[0].id}/markPaid`, { amount: found.items[0].grossPrice ?? 2500, paidAt: new Date().toISOString() })
}

// ---------------------------------------------------------------------------------------------
// The desk with a camera: Chromium started with a fake video device whose picture is a file.

/** The desk admits nobody: its count of persons in stays 0 and no check-in was reported. */
export async function expectNobodyIn(d: Page) {
  await expect(d.locator('.desk-in .desk-count')).toHaveText('0')
  await expect(d.getByText(/Personen? eingecheckt\./)).toHaveCount(0)
}

/**
 * The desk found the registration of the scanned ticket and refuses it, saying so: the guest's name,
 * the refusal and no enabled check-in button.
 */
export async function expectRefused(d: Page, name: string, reason: RegExp) {
  await expect(d.getByRole('heading', { name })).toBeVisible()
  // the desk says why
  await expect(d.locator('.desk-guest').getByRole('alert')).toHaveText(reason)
  await expect(d.getByRole('button', { name: `${name} einchecken` })).toBeDisabled()
  await expectNobodyIn(d)
}

export interface Desk {
  page: Page
  /** Shows the image to the desk's camera: opens the camera, which reads the picture and looks up `code` (what zbarimg read). */
  scan(png: string, code: string): Promise<void>
  close(): Promise<void>
}

/**
 * The check-in desk of the event in a Chromium of its own whose camera (e2e/fake-camera.ts) films a
 * Y4M file rewritten before each scan (the fake device reads it when the desk opens the camera),
 * signed in as the organiser of `organiser` (its cookies).
 */
export async function openDesk(organiser: BrowserContext, server: Server, eventId: number): Promise<Desk> {
  const camera = join(mkdtempSync(join(tmpdir(), 'einlass-camera-')), 'camera.y4m')
  writeFileSync(camera, y4m({ width: 640, height: 480, grey: new Uint8Array(640 * 480).fill(255) })) // a white wall until the first scan
  const browser = await launchWithCamera(camera)
  const ctx = await browser.newContext({ locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 1280, height: 900 }, storageState: await organiser.storageState(), permissions: ['camera'] })
  const page = await ctx.newPage()
  const csp = watchCsp(page)
  await page.goto(`${server.url}/events/${eventId}/checkin`)
  await expect(page.getByPlaceholder('Ticket-Code oder Name')).toBeVisible()
  return {
    page,
    async scan(png: string, code: string) {
      expect(writeCameraFile(readFileSync(png), camera).data).toBe(code)
      const asked = page.waitForRequest((r) => r.url().includes(`/proxy/api/events/${eventId}/checkin/lookup?`), { timeout: 20_000 })
      await page.getByRole('button', { name: 'Kamera', exact: true }).click()
      // the camera read the printed code and the desk looked it up; the camera closes itself
      expect(decodeURIComponent((await asked).url())).toContain(code)
      await expect(page.locator('video')).toHaveCount(0)
    },
    async close() {
      expect(csp, 'CSP violations at the desk').toEqual([])
      await browser.close()
    },
  }
}
