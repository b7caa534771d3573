// Journeys across areas (docs/organiser.md short links, docs/forms.md registering over an entry): a
// short link with tags and a campaign brings a guest whose registration carries them; an invited
// guest opens the invitation and registers on the public page: the invitation becomes the registration.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { testLicenseText } from '../server/testing/license-test-key'
import { expect, type Server, setupAdmin, shot, startServer, test } from './fixtures'
import { loginUi, mailLink, seedAgency } from './identity-helpers'

async function createEvent(page: Page, server: Server, overrides: Record<string, unknown> = {}) {
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(16, 0, 0, 0)
  const r = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Stadtfest', startDate: start.toISOString(), endDate: new Date(start.getTime() + 5 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Marktplatz', city: 'Erfurt', maxVisitors: 80, ...overrides },
  })
  expect(r.status()).toBe(201)
  return (await r.json()).id as number
}

async function registerOnPublicPage(g: Page, who: { first: string; last: string; email: string }) {
  await g.getByLabel('Anrede').selectOption('Frau')
  await g.getByLabel(/^Vorname( \*)?$/).fill(who.first)
  await g.getByLabel(/^Nachname( \*)?$/).fill(who.last)
  await g.getByLabel(/^E-Mail-Adresse( \*)?$/).fill(who.email)
  await g.getByRole('button', { name: 'Anmeldung anfragen' }).click()
  await expect(g.getByRole('heading', { name: 'Vielen Dank für Ihre Anmeldung!' })).toBeVisible()
}

test('a short link with tags and a campaign; the registration through it carries them; an invited guest registers on the public page', async ({ page, server, browser }) => {
  await setupAdmin(page, server)
  const eventId = await createEvent(page, server)
  expect((await page.request.post(`${server.url}/proxy/api/tags`, { data: { displayName: 'Plakat' } })).status()).toBe(201)
  expect((await page.request.post(`${server.url}/proxy/api/campaigns`, { data: { displayName: 'Sommerkampagne' } })).status()).toBe(201)

  // the organiser makes a short link whose registrations get a tag and a campaign
  await page.goto(`${server.url}/tags`)
  await page.getByLabel('Veranstaltung').selectOption({ label: 'Stadtfest' })
  await page.getByPlaceholder('Eigener Code (optional)').fill('stadtfest')
  await page.getByLabel('Kampagne für Anmeldungen über den Link').selectOption({ label: 'Sommerkampagne' })
  await page.getByLabel('Tags für Anmeldungen über den Link').fill('Plakat')
  await page.getByLabel('Tags für Anmeldungen über den Link').press('Enter')
  await expect(page.locator('.short-link-form .chip', { hasText: 'Plakat' })).toBeVisible()
  await page.getByRole('button', { name: 'Kurzlink anlegen' }).click()
  const row = page.getByRole('row', { name: /\/s\/stadtfest/ })
  await expect(row.locator('.chip', { hasText: 'Plakat' })).toBeVisible()
  await expect(row.locator('.chip-campaign', { hasText: 'Sommerkampagne' })).toBeVisible()
  await shot(page, 'integration-01-short-link')

  // a guest follows the short link on a phone and registers
  const guestCtx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  const g = await guestCtx.newPage()
  await g.goto(`${server.url}/s/stadtfest`)
  await expect(g).toHaveURL(new RegExp(`/public/event/${eventId}\\?sl=stadtfest$`))
  await registerOnPublicPage(g, { first: 'Lina', last: 'Link', email: 'lina@example.org' })
  await shot(g, 'integration-02-registered-via-short-link-phone')

  await guestCtx.close()

  // an invited guest opens the invitation and registers on the public page from there (her own
  // link: knowing her e-mail alone is not enough, docs/forms.md and e2e/security.spec.ts)
  const added = await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors`, { data: { salutation: 'Frau', firstName: 'Ida', lastName: 'Eingeladen', email: 'ida@example.org' } })
  const ida = (await added.json()).id
  expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors/${ida}/invite`, { data: {} })).status()).toBe(200)
  const idaCtx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  const i = await idaCtx.newPage()
  await i.goto(await mailLink(server, 'ida@example.org', /.*/, '/guest/dashboard?token='))
  // she reads her dashboard first (the browser then knows her and the form asks for her data)
  await expect(i.getByRole('heading', { name: 'Stadtfest' })).toBeVisible()
  await i.goto(`${server.url}/public/event/${eventId}`)
  // the form knows her: pre-filled with what the organiser entered, confirmed as the invitation
  await expect(i.getByText('Sie sind eingeladen.', { exact: false })).toBeVisible()
  await expect(i.getByLabel(/^Vorname( \*)?$/)).toHaveValue('Ida')
  await expect(i.getByLabel(/^E-Mail-Adresse( \*)?$/)).toHaveValue('ida@example.org')
  await i.getByRole('button', { name: 'Teilnahme bestätigen' }).click()
  await expect(i.getByRole('heading', { name: 'Vielen Dank für Ihre Anmeldung!' })).toBeVisible()
  await idaCtx.close()

  // the guest list: both registered, Ida once; Lina carries the link's tag and campaign
  await page.goto(`${server.url}/events/${eventId}/guests`)
  const idaRow = page.getByRole('row', { name: /Eingeladen/ })
  await expect(idaRow).toHaveCount(1)
  await expect(idaRow.getByText('Angemeldet')).toBeVisible()
  await expect(page.getByRole('row', { name: /Link/ }).getByText('Angemeldet')).toBeVisible()
  await shot(page, 'integration-03-guest-list')
  await page.getByRole('button', { name: 'Link', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.locator('.chip', { hasText: 'Plakat' })).toBeVisible()
  await expect(dialog.locator('.chip', { hasText: 'Sommerkampagne' })).toBeVisible()
  await dialog.locator('.chip', { hasText: 'Sommerkampagne' }).scrollIntoViewIfNeeded()
  await shot(page, 'integration-04-guest-from-short-link')
})

test('the form builder offers every licensed language for translations; the public page shows the French label', async ({ page, browser }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'einlass-e2e-languages-'))
  writeFileSync(join(dataDir, 'license.json'), testLicenseText({ licensee: 'Mehrsprachig GmbH', validUntil: '2031-03-31', features: ['MULTI_LANGUAGE'] }))
  const server = await startServer({}, { dataDir })
  try {
    await setupAdmin(page, server)
    const eventId = await createEvent(page, server, { displayName: 'Forum international' })
    await page.goto(`${server.url}/events/${eventId}/form`)
    await page.getByLabel('Feldtyp').selectOption({ label: 'Text' })
    await page.getByRole('button', { name: 'Feld hinzufügen' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.locator('#fe-name').fill('Firma')
    // 17 languages besides German with MULTI_LANGUAGE (agency-side 9.1)
    await expect(dialog.getByLabel(/^Bezeichnung auf /)).toHaveCount(17)
    await dialog.getByLabel('Bezeichnung auf Französisch').fill('Société')
    await dialog.getByLabel('Bezeichnung auf Englisch').fill('Company')
    await dialog.getByLabel('Bezeichnung auf Deutsch (Leichte Sprache)').fill('Ihre Firma')
    await dialog.getByLabel('Bezeichnung auf Französisch').scrollIntoViewIfNeeded()
    await shot(page, 'integration-05-builder-translations')
    await dialog.getByRole('button', { name: 'Speichern' }).click()
    await expect(page.getByText('Das Feld wurde gespeichert.')).toBeVisible()

    const ctx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
    const g = await ctx.newPage()
    await g.goto(`${server.url}/public/event/${eventId}`)
    await expect(g.getByLabel('Firma')).toBeVisible()
    await g.getByRole('combobox', { name: 'Sprache / Language' }).selectOption('fr')
    await expect(g.getByLabel('Société')).toBeVisible()
    await shot(g, 'integration-06-public-french-phone')
    await ctx.close()
  } finally {
    await server.stop()
  }
})

/**
 * A click as a person makes it: near the button's upper edge, pressed for a moment before it is
 * released (a message appearing above the button moves it down by a line in that moment).
 */
async function humanClick(page: Page, target: Locator) {
  await target.scrollIntoViewIfNeeded()
  const box = (await target.boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + 6)
  await page.mouse.down()
  await page.waitForTimeout(150)
  await page.mouse.up()
}

test('a message that appears when a field loses focus does not swallow the click on the button below', async ({ page, server, browser }) => {
  await setupAdmin(page, server)
  // account area (react-hook-form, validated when a field is left): the required device name is
  // left empty for the cancel button below it
  await page.goto(`${server.url}/account/security`)
  await page.getByRole('button', { name: 'Methode hinzufügen' }).click()
  const dialog = page.getByRole('dialog', { name: 'Methode hinzufügen' })
  await dialog.getByLabel(/^Gerätename/).focus()
  await humanClick(page, dialog.getByRole('button', { name: 'Abbrechen' }))
  await expect(dialog).toHaveCount(0)
  // and submitting from an empty field still shows every message
  await page.getByRole('button', { name: 'Methode hinzufügen' }).click()
  await dialog.getByLabel(/^Gerätename/).focus()
  await humanClick(page, dialog.getByRole('button', { name: 'Nächster Schritt' }))
  await expect(dialog.getByText('Dieses Feld ist ein Pflichtfeld.')).toBeVisible()
  await expect(dialog.getByText('Bitte geben Sie das Passwort Ihres Kontos ein (mindestens 8 Zeichen).')).toBeVisible()
  await shot(page, 'integration-07-messages-after-click')

  // the registration form (form engine, a field counts as touched when left): a phone, as guests use it
  const eventId = await createEvent(page, server, { maxVisitorPerSubscription: 3 })
  const ctx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  const g = await ctx.newPage()
  await g.goto(`${server.url}/public/event/${eventId}`)
  await g.getByLabel(/^E-Mail-Adresse( \*)?$/).focus()
  await humanClick(g, g.getByRole('button', { name: 'Begleitperson hinzufügen' }))
  await expect(g.getByRole('textbox', { name: 'Vorname' }).nth(1)).toBeVisible()
  // the e-mail field's message shows once the click is done
  await expect(g.getByLabel(/^E-Mail-Adresse( \*)?$/).first()).toHaveAttribute('aria-invalid', 'true')
  await shot(g, 'integration-08-escort-added-phone')
  await ctx.close()
})

test('a guest sets a password: guest accounts in both agencies, chosen at login; at an agency\'s limit the password is refused whole', async ({ page, browser }) => {
  // two servers' worth of work (a second agency, three password hashes, two phones): slow on a busy machine
  test.setTimeout(120_000)
  const dataDir = mkdtempSync(join(tmpdir(), 'einlass-e2e-guest-accounts-'))
  // one guest account per agency
  writeFileSync(join(dataDir, 'license.json'), testLicenseText({ licensee: 'Gastkonten GmbH', validUntil: '2031-03-31', features: [], limits: { events: 10, guestAccounts: 1, agencyUsers: 5, storageMb: 1024 } }))
  const server = await startServer({}, { dataDir })
  try {
    await setupAdmin(page, server)
    const sun = await createEvent(page, server, { displayName: 'Sommerfest' })
    seedAgency(server, { agency: 'Stadtwerke Erfurt', email: 'chefin@stadtwerke.example', firstName: 'Sabine', lastName: 'Stadt' })
    const other = await browser.newContext({ locale: 'de-DE' })
    const op = await other.newPage()
    await loginUi(op, server, 'chefin@stadtwerke.example')
    await expect(op).toHaveURL(/\/events$/)
    const works = await createEvent(op, server, { displayName: 'Tag der offenen Tür' })
    await other.close()
    const register = (eventId: number, email: string, firstName: string) =>
      page.request.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, { data: { salutation: 'Frau', firstName, lastName: 'Gast', email } })
    expect((await register(sun, 'greta@example.org', 'Greta')).status()).toBe(201)
    expect((await register(works, 'greta@example.org', 'Greta')).status()).toBe(201)

    // Greta opens her mail's link on the phone and sets a password
    const ctx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
    const g = await ctx.newPage()
    await g.goto(await mailLink(server, 'greta@example.org', /Sommerfest/, '/guest/dashboard?token='))
    // the server turned the link into a session: the token has left the address bar
    await expect(g).toHaveURL(/\/guest\/dashboard$/)
    await expect(g.getByRole('heading', { name: 'Sommerfest' })).toBeVisible()
    await g.goto(`${server.url}/guest/account/security`)
    await expect(g.getByRole('heading', { name: 'Passwort festlegen' })).toBeVisible()
    await g.getByLabel(/^Neues Passwort( \*)?$/).fill('Sommer2026!')
    await g.getByLabel(/^Passwort wiederholen/).fill('Sommer2026!')
    await g.getByRole('button', { name: 'Passwort speichern' }).click()
    await expect(g.getByText('Das Passwort wurde geändert.', { exact: false })).toBeVisible()
    await g.getByRole('link', { name: 'Profil' }).click()
    await expect(g.getByLabel(/^Vorname/)).toHaveValue('Greta')
    await expect(g.getByText('Das Passwort wurde geändert.', { exact: false })).toHaveCount(0, { timeout: 10_000 })
    await shot(g, 'integration-09-guest-profile-phone')

    // logging in with the password offers the guest accounts of both agencies
    await g.goto(`${server.url}/logout?redirect=/login`)
    await loginUi(g, server, 'greta@example.org', 'Sommer2026!')
    const choose = g.getByRole('dialog', { name: 'Konto wählen' })
    await expect(choose.getByRole('link', { name: /Stadtwerke Erfurt/ })).toBeVisible()
    await expect(choose.getByRole('link', { name: /Agentur Sonnenschein/ })).toBeVisible()
    await shot(g, 'integration-10-guest-choose-account-phone')
    await choose.getByRole('link', { name: /Stadtwerke Erfurt/ }).click()
    await expect(g).toHaveURL(/\/guest\/dashboard$/)
    await expect(g.getByRole('heading', { name: 'Tag der offenen Tür' })).toBeVisible()
    await ctx.close()

    // Hans registered at the Sommerfest too; that agency has no guest account left for him
    expect((await register(sun, 'hans@example.org', 'Hans')).status()).toBe(201)
    const hctx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
    const hp = await hctx.newPage()
    // Hans opens the link and taps "Profil" at once, before the dashboard has loaded: the link's
    // first request already made the session, so the account page knows him
    await hp.goto(await mailLink(server, 'hans@example.org', /Sommerfest/, '/guest/dashboard?token='), { waitUntil: 'commit' })
    await hp.goto(`${server.url}/guest/account/security`)
    await hp.getByLabel(/^Neues Passwort( \*)?$/).fill('Sommer2026!')
    await hp.getByLabel(/^Passwort wiederholen/).fill('Sommer2026!')
    await hp.getByRole('button', { name: 'Passwort speichern' }).click()
    await expect(hp.getByText('Ein Passwort kann gerade nicht festgelegt werden: Der Veranstalter kann im Moment keine weiteren Gastkonten anlegen.', { exact: false })).toBeVisible()
    await shot(hp, 'integration-11-guest-password-limit-phone')
    // his link still works
    await hp.goto(`${server.url}/guest/dashboard`)
    await expect(hp.getByRole('heading', { name: 'Sommerfest' })).toBeVisible()
    await hctx.close()
  } finally {
    await server.stop()
  }
})
