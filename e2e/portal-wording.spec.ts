// Issue 20, items 17, 26 and 30 in Chromium: the guest portal on a phone (an agreement signed on the
// dashboard clears its "Noch zu unterschreiben" line at once; "Angaben ändern" shows the guest's
// fields; after everyone is in, closing is the main button; the footer on two lines; the invitation
// PDF through the download dialog, read back with pdftotext), the organiser's guest detail printing
// an invitation, the one imprint of "Verkauf" and "Impressum und Kontakt", and English salutations.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import type { Browser, Download, Page } from '@playwright/test'
import { type Server, expect, setupAdmin, shot, test, watchCsp } from './fixtures'
import { mailLink } from './identity-helpers'

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }

/** A finger stroke on the signature pad: real touch events through the DevTools protocol. */
async function drawTouch(page: Page, canvas: string) {
  const pts: Array<[number, number]> = [[0.1, 0.7], [0.3, 0.3], [0.5, 0.7], [0.7, 0.35], [0.9, 0.6]]
  const box = (await page.locator(canvas).boundingBox())!
  const cdp = await page.context().newCDPSession(page)
  const at = ([x, y]: [number, number]) => ({ x: box.x + box.width * x, y: box.y + box.height * y })
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at(pts[0])] })
  for (let i = 1; i < pts.length; i++) for (let s = 1; s <= 5; s++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [at([pts[i - 1][0] + ((pts[i][0] - pts[i - 1][0]) * s) / 5, pts[i - 1][1] + ((pts[i][1] - pts[i - 1][1]) * s) / 5])] })
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
  await cdp.detach()
}

async function pdfTextOf(d: Download): Promise<string> {
  const path = await d.path()
  expect(readFileSync(path).subarray(0, 5).toString()).toBe('%PDF-')
  return execFileSync('pdftotext', ['-layout', path, '-']).toString()
}

async function api(page: Page, server: Server, method: 'post' | 'get' | 'put', path: string, data?: unknown) {
  const r = await page.request[method](`${server.url}${path}`, data === undefined ? undefined : { data })
  expect(r.ok(), `${method} ${path}: ${r.status()} ${await r.text()}`).toBe(true)
  return r.json()
}

function eventDates(days: number) {
  const start = new Date(Date.now() + days * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  return { startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin' }
}

async function phone(browser: Browser, link: string) {
  const ctx = await browser.newContext({ ...PHONE, acceptDownloads: true })
  const g = await ctx.newPage()
  const csp = watchCsp(g)
  await g.goto(link)
  return { ctx, g, csp }
}

test('phone: agreement clears its line at once, Angaben ändern with the fields, check-in buttons, footer, invitation PDF', async ({ page, server, browser }) => {
  test.setTimeout(180_000)
  await setupAdmin(page, server)
  const ev = await api(page, server, 'post', '/proxy/api/events', { displayName: 'Sommerkonzert', locationName: 'Stadthalle', city: 'Musterstadt', maxVisitors: 50, allowSelfCheckin: true, options: ['CAN_EDIT_REGISTRATION_DATA'], ...eventDates(20) })
  await api(page, server, 'post', `/proxy/api/events/${ev.id}/fields`, { type: 'TEXT', displayName: 'Essenswunsch' })
  const email = 'greta.gast@example.org'
  const reg = await page.request.post(`${server.url}/proxy/api/public/events/${ev.id}/registrations`, { data: { salutation: 'Frau', firstName: 'Greta', lastName: 'Gast', email } })
  expect(reg.status(), await reg.text()).toBe(201)
  // an agreement the organiser adds after the guest registered: to be signed on the dashboard
  await api(page, server, 'post', '/proxy/api/agreements', { displayName: 'Hausordnung', validity: 'EVENT', eventId: ev.id, appearance: 'REQUIRED', sortOrder: 1, description: '<p>Ich halte mich an die Hausordnung.</p>' })
  // a second event the guest is only invited to (not registered yet): the invitation PDF
  const gala = await api(page, server, 'post', '/proxy/api/events', { displayName: 'Herbstgala', locationName: 'Kurhaus', city: 'Wiesbaden', ...eventDates(40) })
  const invited = await api(page, server, 'post', `/proxy/api/events/${gala.id}/visitors`, { salutation: 'Frau', firstName: 'Greta', lastName: 'Gast', email })
  await api(page, server, 'post', `/proxy/api/events/${gala.id}/visitors/${invited.id}/invite`, {})
  const link = await mailLink(server, email, /Ihre Anmeldung/, '/guest/dashboard?token=')
  const { ctx, g, csp } = await phone(browser, link)
  try {
    const card = g.getByTestId('section-confirmedEvents').locator('li.guest-event').filter({ hasText: 'Sommerkonzert' })
    await expect(card.getByText('Noch zu unterschreiben: Hausordnung')).toBeVisible()
    await expect(card.getByText('Einverständniserklärungen: 0 von 1 erledigt')).toBeVisible()
    await shot(g, 'portal20-01-agreement-missing-phone')
    await card.getByRole('button', { name: 'Jetzt unterschreiben' }).click()
    const dialog = g.getByRole('dialog', { name: 'Hausordnung' })
    await drawTouch(g, '.signature-pad canvas')
    await dialog.getByRole('button', { name: 'Unterschreiben', exact: true }).click()
    await expect(dialog).toBeHidden()
    // without a reload: the counter says done and the missing line is gone
    await expect(card.getByText('Einverständniserklärungen: 1 von 1 erledigt')).toBeVisible()
    await expect(card.getByText('Noch zu unterschreiben: Hausordnung')).toHaveCount(0)
    await shot(g, 'portal20-02-agreement-signed-phone')

    // Angaben ändern: the name for reference and the field the guest may change
    await card.getByRole('button', { name: 'Angaben ändern' }).click()
    const data = g.getByRole('dialog', { name: 'Angaben ändern' })
    await expect(data.getByTestId('data-basic')).toContainText('Frau Greta Gast · greta.gast@example.org')
    await expect(data.getByText('Name und E-Mail-Adresse ändert der Veranstalter für Sie.')).toBeVisible()
    await data.getByLabel('Essenswunsch').fill('vegetarisch')
    await shot(g, 'portal20-03-data-change-phone')
    await data.getByRole('button', { name: 'Änderungen speichern' }).click()
    await expect(g.locator('.overlay-box').filter({ hasText: 'Ihre Angaben wurden gespeichert.' })).toBeVisible()
    await g.getByRole('button', { name: 'OK' }).click()
    await expect(data).toBeHidden()

    // the footer: the name on one line, the languages on the next (never three lines)
    const footer = g.locator('footer.footer')
    await footer.scrollIntoViewIfNeeded()
    const name = (await footer.locator('span').first().boundingBox())!
    const langs = (await footer.locator('.lang-switch, .lang-select').first().boundingBox())!
    const lineHeight = await footer.locator('span').first().evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.6)
    expect(name.height).toBeLessThan(lineHeight * 1.5)
    expect((await footer.boundingBox())!.height).toBeLessThan(name.height + langs.height + 48)
    await shot(g, 'portal20-04-footer-phone')

    // the invitation of the other event: pending, then a download button; the PDF reads back
    const inv = g.getByTestId('section-invitedEvents').locator('li.guest-event').filter({ hasText: 'Herbstgala' })
    await inv.getByRole('button', { name: 'Einladung (PDF)' }).click()
    const dl = g.getByRole('dialog', { name: 'Einladung (PDF)' })
    await expect(dl.getByText('Die Datei ist fertig.')).toBeVisible()
    await shot(g, 'portal20-05-invitation-dialog-phone')
    const [download] = await Promise.all([g.waitForEvent('download'), dl.getByRole('link', { name: 'Herunterladen' }).click()])
    expect(download.suggestedFilename()).toBe('Einladung Herbstgala.pdf')
    const text = await pdfTextOf(download)
    for (const s of ['EINLADUNG', 'Herbstgala', 'Greta Gast', 'Sie sind herzlich eingeladen.']) expect(text).toContain(s)
    await dl.getByRole('button', { name: 'Schließen' }).last().click()
    await expect(dl).toBeHidden()

    // self check-in: after everyone is in, "Schließen" is the main button, "Weitere einchecken" is not
    await card.getByRole('link', { name: 'Check-in' }).click()
    const sc = g.getByRole('dialog', { name: 'Check-in' })
    await sc.getByRole('button', { name: 'Alle einchecken' }).click()
    await expect(sc.getByText('1 Person eingecheckt.')).toBeVisible()
    await expect(sc.getByRole('button', { name: 'Schließen' })).toHaveClass(/btn-primary/)
    await expect(sc.getByRole('button', { name: 'Weitere einchecken' })).toHaveClass(/btn-secondary/)
    await shot(g, 'portal20-06-checkin-all-in-phone')
    expect(csp).toEqual([])
  } finally {
    await ctx.close()
  }
})

test('organiser: invitation PDF from the guest detail; one imprint for Verkauf and Impressum und Kontakt; English salutations', async ({ page, server, browser }) => {
  test.setTimeout(150_000)
  await setupAdmin(page, server)
  const ev = await api(page, server, 'post', '/proxy/api/events', { displayName: 'Neujahrsempfang', locationName: 'Rathaus', city: 'Bonn', ...eventDates(30) })
  await api(page, server, 'post', `/proxy/api/events/${ev.id}/visitors`, { salutation: 'Herr', firstName: 'Otto', lastName: 'Organisiert', email: 'otto@example.org' })
  await page.goto(`${server.url}/events/${ev.id}/guests`)
  await page.getByRole('row').filter({ hasText: 'Organisiert' }).click()
  const detail = page.getByRole('dialog', { name: 'Otto Organisiert' })
  // the dialog's pending state: the prepare call is held until the dialog has shown it
  let release = () => {}
  const held = new Promise<void>((r) => (release = r))
  await page.route('**/prepareDownloadInvitation', async (route) => {
    await held
    await route.continue()
  })
  await detail.getByRole('button', { name: 'Einladung (PDF)' }).click()
  const dl = page.getByRole('dialog', { name: 'Einladung (PDF)' })
  await expect(dl.getByText('Die Datei wird erstellt …')).toBeVisible()
  await expect(dl.getByRole('link', { name: 'Herunterladen' })).toHaveCount(0)
  await shot(page, 'portal20-07a-organiser-invitation-pending')
  release()
  await expect(dl.getByRole('link', { name: 'Herunterladen' })).toBeVisible()
  await shot(page, 'portal20-07-organiser-invitation-dialog')
  const [download] = await Promise.all([page.waitForEvent('download'), dl.getByRole('link', { name: 'Herunterladen' }).click()])
  const text = await pdfTextOf(download)
  for (const s of ['EINLADUNG', 'Neujahrsempfang', 'Otto Organisiert']) expect(text).toContain(s)
  await dl.getByRole('button', { name: 'Schließen' }).last().click()
  await expect(dl).toBeHidden()
  await expect(detail).toBeVisible()

  // the imprint entered under Verkauf is the one under Impressum und Kontakt
  await page.goto(`${server.url}/agency/sales`)
  await page.getByLabel('Link zum Impressum').fill('https://example.org/impressum')
  await page.getByLabel('Link zur Datenschutzerklärung').fill('https://example.org/datenschutz')
  await expect(page.getByText('Impressum und Datenschutzerklärung sind dieselben wie unter „Impressum und Kontakt“', { exact: false })).toBeVisible()
  await shot(page, 'portal20-08-sales-imprint')
  await page.getByRole('button', { name: 'Speichern', exact: true }).first().click()
  await expect(page.getByText('Die Verkäuferangaben wurden gespeichert.')).toBeVisible()
  await page.goto(`${server.url}/agency/imprint`)
  await expect(page.getByLabel('Impressum (Adresse)')).toHaveValue('https://example.org/impressum')
  await expect(page.locator('input[type=url]').nth(1)).toHaveValue('https://example.org/datenschutz')
  await shot(page, 'portal20-09-imprint-page')

  // English: the salutation choices are English words (the stored value stays German)
  const ctx = await browser.newContext({ locale: 'en-GB' })
  const g = await ctx.newPage()
  try {
    await g.goto(`${server.url}/public/event/${ev.id}`)
    await g.getByRole('button', { name: 'English' }).click()
    const select = g.getByLabel(/^Salutation/).first()
    await expect(select.locator('option')).toContainText(['Mr', 'Ms', 'Mx'])
    await select.selectOption({ label: 'Ms' })
    expect(await select.inputValue()).toBe('Frau')
    await shot(g, 'portal20-10-english-salutation')
  } finally {
    await ctx.close()
  }
})
