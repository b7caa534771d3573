// Issue 24: the organiser translates the event's name and description into French on the event's
// "Übersetzungen" tab (the German text beside each field); a French guest sees them on the public
// page, registers, and the confirmation mail names the event in French. A guest reading German sees
// the German texts.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testLicenseText } from '../server/testing/license-test-key'
import { linkIn } from '../server/testing/smtp-sink'
import { expect, type Server, setupAdmin, shot, startServer, test } from './fixtures'

test.describe('event translations with MULTI_LANGUAGE', () => {
  let licensed: Server
  test.beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'einlass-e2e-event-translations-'))
    writeFileSync(join(dataDir, 'license.json'), testLicenseText({ licensee: 'Agentur Sonnenschein', validUntil: '2031-03-31', features: ['MULTI_LANGUAGE'], limits: { events: -1, guestAccounts: -1, agencyUsers: -1, storageMb: 1024 } }))
    licensed = await startServer({}, { dataDir })
  })
  test.afterAll(async () => {
    await licensed?.stop()
  })

  test('the organiser enters a French name and description; a French guest sees them and gets a French mail', async ({ page, browser }) => {
    test.setTimeout(120_000)
    await setupAdmin(page, licensed)
    const start = new Date(Date.now() + 30 * 86400_000)
    const r = await page.request.post(`${licensed.url}/proxy/api/events`, {
      data: { displayName: 'Sommerfest 2027', description: '<p>Wir feiern im Garten.</p>', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Halle 7', city: 'Berlin', maxVisitors: 10 },
    })
    expect(r.status()).toBe(201)
    const eventId = (await r.json()).id

    // the organiser's tab: a language chooser, the German text beside each field
    await page.goto(`${licensed.url}/events/${eventId}`)
    await page.getByRole('link', { name: 'Übersetzungen', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/events/${eventId}/translations$`))
    await page.getByLabel('Sprache', { exact: true }).selectOption('fr')
    await expect(page.getByText('Wir feiern im Garten.')).toBeVisible()
    await expect(page.getByText('Sommerfest 2027').first()).toBeVisible()
    await page.getByLabel('Name – Français').fill('Fête d’été 2027')
    const editor = page.getByRole('textbox', { name: 'Beschreibung – Français' })
    await editor.click()
    await page.keyboard.type('Nous faisons la fête dans le jardin.')
    await page.getByRole('button', { name: 'Übersetzung speichern', exact: true }).click()
    await expect(page.getByText('Die Übersetzung ist gespeichert.')).toBeVisible()
    await expect(page.getByLabel('Sprache', { exact: true }).locator('option:checked')).toHaveText(/Français.*✓/)
    await shot(page, 'event-translations-01-organiser-fr')

    // a French guest: the page in French with the organiser's French texts
    const guest = await browser.newContext({ locale: 'fr-FR' })
    const g = await guest.newPage()
    await g.goto(`${licensed.url}/public/event/${eventId}`)
    await expect(g.getByRole('heading', { name: 'Sommerfest 2027' })).toBeVisible()
    await g.getByLabel('Sprache / Language').selectOption('fr')
    await expect(g.getByRole('heading', { name: 'Fête d’été 2027' })).toBeVisible()
    await expect(g.getByText('Nous faisons la fête dans le jardin.')).toBeVisible()
    // the header's date as French writes it (28/12/2026), not the German 28.12.2026
    const day = (lang: string) => new Intl.DateTimeFormat(lang, { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' }).format(start)
    await expect(g.locator('.event-meta')).toContainText(day('fr'))
    await expect(g.locator('.event-meta')).not.toContainText(day('de-DE'))
    await expect(g.getByText('Wir feiern im Garten.')).toHaveCount(0)
    // not translated: the German location name stays
    await expect(g.getByText(/Halle 7/).first()).toBeVisible()
    await shot(g, 'event-translations-02-public-fr')

    await g.getByLabel('Civilité').selectOption('Frau')
    await g.getByLabel(/^Prénom( \*)?$/).fill('Élodie')
    await g.getByLabel(/^Nom( \*)?$/).fill('Martin')
    await g.getByLabel('Adresse e-mail').fill('elodie@example.org')
    await g.getByRole('button', { name: 'Demander l’inscription' }).click()
    await expect(g.getByRole('heading', { name: 'Merci pour votre inscription !' })).toBeVisible()
    await shot(g, 'event-translations-03-public-fr-done')

    const mail = await licensed.smtp.waitFor((m) => m.to.includes('elodie@example.org'), 15_000)
    expect(mail.subject).toBe('Votre inscription : Fête d’été 2027')
    expect(mail.text).toContain('« Fête d’été 2027 »')
    expect(mail.text).not.toContain('Sommerfest 2027')
    // the dashboard the mail opens: the French name, the date as French writes it
    await g.goto(linkIn(mail, '/guest/dashboard?token='))
    await expect(g.getByRole('heading', { name: 'Fête d’été 2027' })).toBeVisible()
    await expect(g.getByText(/\b\d\d\/\d\d\/\d{4}, \d\d:\d\d/).first()).toBeVisible()
    await shot(g, 'event-translations-04-dashboard-fr')
    await guest.close()

    // back to German on the same page: the German texts
    const german = await browser.newContext({ locale: 'de-DE' })
    const d = await german.newPage()
    await d.goto(`${licensed.url}/public/event/${eventId}`)
    await expect(d.getByRole('heading', { name: 'Sommerfest 2027' })).toBeVisible()
    await expect(d.getByText('Wir feiern im Garten.')).toBeVisible()
    await german.close()
  })
})
