// The guest pages' frame on a phone: the agency's logo (set by the organiser in the settings) in the
// header of the public event page (with the event title) and of the guest dashboard, the agency's name
// without a logo; and a guest who follows a mail link straight to an event page gets the form
// pre-filled (the session's readable marker cookie, no dashboard visit needed).
import type { Browser, Page } from '@playwright/test'
import { expect, expectImageLoaded, type Server, setupAdmin, shot, test } from './fixtures'
import { mailLink } from './identity-helpers'

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }

async function createEvent(page: Page, server: Server, body: Record<string, unknown>) {
  const start = new Date(Date.now() + 30 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const r = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Stadthalle', city: 'Musterstadt', maxVisitors: 50, ...body },
  })
  expect(r.status()).toBe(201)
  return (await r.json()) as { id: number }
}

/** A logo as a person would have one: a PNG made from a styled box (the browser renders it). */
async function logoPng(browser: Browser): Promise<Buffer> {
  const p = await browser.newPage({ viewport: { width: 400, height: 200 } })
  await p.setContent('<div id="logo" style="display:inline-flex;align-items:center;gap:12px;padding:16px 24px;background:#fff7d6;font:700 36px sans-serif;color:#b35c00">☀ Sonnenschein</div>')
  const png = await p.locator('#logo').screenshot()
  await p.close()
  return png
}


test('phone: the agency name, then the logo the organiser sets, in the header of the event page and the dashboard', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server, { agency: 'Agentur Sonnenschein' })
  const ev = await createEvent(page, server, { displayName: 'Sommerkonzert im Park' })
  const ctx = await browser.newContext(PHONE)
  const g = await ctx.newPage()
  try {
    // without a logo: the agency's name and the event title
    await g.goto(`${server.url}/public/event/${ev.id}`)
    const header = g.locator('header.public-topbar')
    await expect(header.getByText('Agentur Sonnenschein')).toBeVisible()
    await expect(header.getByText('Sommerkonzert im Park')).toBeVisible()
    await shot(g, 'guest-shell-01-event-page-agency-name')

    // the organiser uploads the logo in the settings
    await page.goto(`${server.url}/account/settings`)
    const card = page.locator('.agency-logo-settings')
    await expect(card.getByRole('heading', { name: 'Logo der Agentur' })).toBeVisible()
    await card.getByLabel('Logo hochladen (PNG oder JPEG)').setInputFiles({ name: 'sonnenschein.png', mimeType: 'image/png', buffer: await logoPng(browser) })
    await expect(page.getByText('Das Logo wurde gespeichert.')).toBeVisible()
    const current = card.getByRole('img', { name: 'Aktuelles Logo' })
    await expectImageLoaded(current)
    await card.scrollIntoViewIfNeeded()
    await shot(page, 'guest-shell-02-settings-agency-logo')

    // the event page: logo and title
    await g.reload()
    const logo = header.getByRole('img', { name: 'Agentur Sonnenschein' })
    await expectImageLoaded(logo)
    await expect(header.getByText('Sommerkonzert im Park')).toBeVisible()
    await shot(g, 'guest-shell-03-event-page-logo')

    // a guest registers and opens the mail's link: the dashboard's header carries the logo too
    await g.getByLabel('Anrede').first().selectOption('Frau')
    await g.getByLabel(/^Vorname( \*)?$/).fill('Greta')
    await g.getByLabel(/^Nachname( \*)?$/).fill('Gast')
    await g.getByLabel(/^E-Mail-Adresse( \*)?$/).fill('greta@example.org')
    await g.getByRole('button', { name: /anmelde|anfragen/i }).click()
    await expect(g.getByRole('status')).toBeVisible()
    await g.goto(await mailLink(server, 'greta@example.org', /.*/, '/guest/dashboard?token='))
    await expect(g.getByRole('heading', { name: 'Sommerkonzert im Park' })).toBeVisible()
    const brand = g.locator('header.topbar a.brand').getByRole('img', { name: 'Agentur Sonnenschein' })
    await expectImageLoaded(brand)
    await shot(g, 'guest-shell-04-dashboard-logo')
  } finally {
    await ctx.close()
  }
})

test('phone: an invited guest follows the mail link straight to the event page and finds the form pre-filled; after logout it is empty', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const ev = await createEvent(page, server, { displayName: 'Stadtfest' })
  const added = await page.request.post(`${server.url}/proxy/api/events/${ev.id}/visitors`, { data: { salutation: 'Frau', firstName: 'Ida', lastName: 'Eingeladen', email: 'ida@example.org' } })
  const ida = (await added.json()).id
  expect((await page.request.post(`${server.url}/proxy/api/events/${ev.id}/visitors/${ida}/invite`, { data: {} })).status()).toBe(200)
  const link = await mailLink(server, 'ida@example.org', /.*/, '/guest/dashboard?token=')
  const ctx = await browser.newContext(PHONE)
  const g = await ctx.newPage()
  try {
    // the link's request alone (no dashboard page ever rendered in this browser): the session starts
    const opened = await ctx.request.get(link, { maxRedirects: 0 })
    expect(opened.status()).toBe(302)
    const cookies = await ctx.cookies()
    expect(cookies.find((c) => c.name === 'einlass_session')?.httpOnly).toBe(true)
    expect(cookies.find((c) => c.name === 'einlass_known')).toMatchObject({ value: '1', httpOnly: false, sameSite: 'Lax', path: '/' })
    await g.goto(`${server.url}/public/event/${ev.id}`)
    await expect(g.getByText('Sie sind eingeladen.', { exact: false })).toBeVisible()
    await expect(g.getByLabel(/^Vorname( \*)?$/)).toHaveValue('Ida')
    await expect(g.getByLabel(/^Nachname( \*)?$/)).toHaveValue('Eingeladen')
    await expect(g.getByLabel(/^E-Mail-Adresse( \*)?$/)).toHaveValue('ida@example.org')
    // the cookie did it, not the dashboard's memory
    expect(await g.evaluate(() => localStorage.getItem('einlass.knownGuest'))).toBeNull()
    await shot(g, 'guest-shell-05-direct-link-prefilled')

    // logout ends both: the form is an anonymous one again
    await g.goto(`${server.url}/logout?redirect=/guest/nopermission`)
    expect((await ctx.cookies()).map((c) => c.name)).not.toContain('einlass_known')
    await g.goto(`${server.url}/public/event/${ev.id}`)
    await expect(g.getByLabel(/^Vorname( \*)?$/)).toHaveValue('')
    await expect(g.getByText('Sie sind eingeladen.', { exact: false })).toHaveCount(0)
    await shot(g, 'guest-shell-06-after-logout-empty')
  } finally {
    await ctx.close()
  }
})
