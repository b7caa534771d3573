// Issue 24: a guest reads einlass in their language. With MULTI_LANGUAGE a French guest chooses
// Français in the footer's dropdown and registers in French: the page, its errors, the confirmation
// mail and the dashboard it opens speak French. Leichte Sprache is offered with and without the
// feature (without it the switcher has four buttons: Deutsch, Deutsch (du), English, Leichte Sprache).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { linkIn } from '../server/testing/smtp-sink'
import { testLicenseText } from '../server/testing/license-test-key'
import { expect, type Server, SHOTS, setupAdmin, shot, startServer, test } from './fixtures'

async function createEvent(page: Page, server: Server, name: string): Promise<string> {
  const start = new Date(Date.now() + 30 * 86400_000)
  const r = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: name, startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Halle 7', city: 'Berlin', maxVisitors: 10 },
  })
  expect(r.status()).toBe(201)
  return (await r.json()).id
}

test.describe('languages with MULTI_LANGUAGE', () => {
  let licensed: Server
  test.beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'einlass-e2e-languages-'))
    writeFileSync(join(dataDir, 'license.json'), testLicenseText({ licensee: 'Agentur Sonnenschein', validUntil: '2031-03-31', features: ['MULTI_LANGUAGE'], limits: { events: -1, guestAccounts: -1, agencyUsers: -1, storageMb: 1024 } }))
    licensed = await startServer({}, { dataDir })
  })
  test.afterAll(async () => {
    await licensed?.stop()
  })

  test('a French guest registers in French, gets a French mail and a French dashboard', async ({ page, browser }) => {
    await setupAdmin(page, licensed)
    const eventId = await createEvent(page, licensed, 'Sommerfest 2027')

    const guest = await browser.newContext({ locale: 'fr-FR' })
    const g = await guest.newPage()
    await g.goto(`${licensed.url}/public/event/${eventId}`)
    await expect(g.getByRole('heading', { name: 'Sommerfest 2027' })).toBeVisible()
    await expect(g.getByText('Noch 10 Plätze frei')).toBeVisible()
    // more than four languages: a dropdown, German on top, every language of §9.1 in it
    const switcher = g.getByLabel('Sprache / Language')
    const options = await switcher.locator('option').allTextContents()
    expect(options[0]).toBe('Deutsch')
    expect(options).toContain('Français')
    expect(options).toContain('Leichte Sprache')
    expect(options).toHaveLength(18)
    await switcher.selectOption('fr')
    await expect(g.getByText('Encore 10 places libres')).toBeVisible()
    await expect(g.locator('html')).toHaveAttribute('lang', 'fr')
    await expect(g.getByLabel('Civilité').locator('option')).toHaveText(['Veuillez choisir', 'Monsieur', 'Madame', 'Autre'])
    await shot(g, 'languages-01-public-fr')

    await g.getByRole('button', { name: 'Demander l’inscription' }).click()
    await expect(g.getByText('Ce champ est obligatoire.').first()).toBeVisible()
    await shot(g, 'languages-02-public-fr-required')
    await g.getByLabel('Civilité').selectOption('Frau')
    await g.getByLabel(/^Prénom( \*)?$/).fill('Élodie')
    await g.getByLabel(/^Nom( \*)?$/).fill('Martin')
    await g.getByLabel('Adresse e-mail').fill('elodie@example.org')
    await g.getByRole('button', { name: 'Demander l’inscription' }).click()
    await expect(g.getByRole('heading', { name: 'Merci pour votre inscription !' })).toBeVisible()
    await shot(g, 'languages-03-public-fr-done')

    // the confirmation mail follows the language the guest registered in
    const mail = await licensed.smtp.waitFor((m) => m.to.includes('elodie@example.org'), 15_000)
    expect(mail.subject).toBe('Votre inscription : Sommerfest 2027')
    expect(mail.text).toMatch(/merci pour votre inscription à « Sommerfest 2027 » le \d\d\/\d\d\/\d{4} à \d\d:\d\d\./)
    const link = linkIn(mail, '/guest/dashboard?token=')
    await g.goto(link)
    await expect(g.getByRole('heading', { name: 'Sommerfest 2027' })).toBeVisible()
    await expect(g.getByText('Mes événements').first()).toBeVisible()
    await shot(g, 'languages-04-dashboard-fr')

    // the ticket PDF speaks French too (the guest's language is the registration's)
    const events = await (await g.request.get(`${licensed.url}/proxy/api/guest/events`)).json()
    const entry = [...events.confirmedEvents, ...(events.pendingEvents ?? []), ...(events.openEvents ?? [])].find((x: any) => x.tokens?.downloadLinkTicket)
    const pdf = await g.request.get(entry.tokens.downloadLinkTicket.startsWith('http') ? entry.tokens.downloadLinkTicket : `${licensed.url}${entry.tokens.downloadLinkTicket}`)
    expect(pdf.status()).toBe(200)
    expect(decodeURIComponent(pdf.headers()['content-disposition'] ?? '')).toContain('Billet Sommerfest 2027.pdf')
    const dir = mkdtempSync(join(tmpdir(), 'einlass-dl-'))
    const file = join(dir, 'billet.pdf')
    writeFileSync(file, await pdf.body())
    const text = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout
    for (const want of ['BILLET', 'Sommerfest 2027', 'Élodie Martin', 'Veuillez présenter ce code à l’entrée.']) expect(text).toContain(want)
    // the date as French writes it (28/12/2026), not the German 28.12.2026
    expect(text).toMatch(/\b\d\d\/\d\d\/\d{4}\b/)
    // French typography: a space before the colon
    expect(text).toMatch(/Code du billet\s:\s/)
    expect(spawnSync('pdftoppm', ['-png', '-r', '90', '-singlefile', file, join(SHOTS, 'languages-07-ticket-pdf-fr')]).status).toBe(0)
    await guest.close()

    // Leichte Sprache from the same dropdown: the public page in plain German
    const plain = await browser.newContext({ locale: 'de-DE' })
    const p = await plain.newPage()
    await p.goto(`${licensed.url}/public/event/${eventId}`)
    await p.getByLabel('Sprache / Language').selectOption('de-ls')
    await expect(p.getByText(/Es gibt noch \d+ freie Plätze/)).toBeVisible()
    await p.getByRole('button', { name: 'Anmeldung anfragen' }).click()
    await expect(p.getByText('Bitte füllen Sie dieses Feld aus.').first()).toBeVisible()
    await shot(p, 'languages-05-public-de-ls')
    await plain.close()
  })
})

test('without MULTI_LANGUAGE: four buttons, Leichte Sprache among them; French is not offered', async ({ page, server }) => {
  await setupAdmin(page, server)
  const eventId = await createEvent(page, server, 'Herbstempfang')
  const guest = await page.context().browser()!.newContext({ locale: 'fr-FR' })
  const g = await guest.newPage()
  await g.goto(`${server.url}/public/event/${eventId}`)
  const nav = g.getByRole('navigation', { name: 'Sprache / Language' })
  await expect(nav.getByRole('button')).toHaveText(['Deutsch', 'Deutsch (du)', 'English', 'Leichte Sprache'])
  await nav.getByRole('button', { name: 'Leichte Sprache' }).click()
  await expect(g.getByText('Es gibt noch 10 freie Plätze')).toBeVisible()
  await shot(g, 'languages-06-public-de-ls-buttons')
  // a French wish falls back to German: the server does not answer in a gated language
  const r = await g.request.get(`${server.url}/proxy/api/public/translations?language=fr&part=core`)
  expect((await r.json()).language).toBe('de')
  await guest.close()
})
