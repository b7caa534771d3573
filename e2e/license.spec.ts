// The server edition's feature page: licensed (holder, validity, features, limits with usage, how
// to order through support) and community edition (why the defaults apply), also on a phone.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testLicenseText } from '../server/testing/license-test-key'
import { expect, type Server, setupAdmin, shot, startServer, test } from './fixtures'

test.describe('license and features', () => {
  let licensed: Server
  test.beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'einlass-e2e-license-'))
    writeFileSync(
      join(dataDir, 'license.json'),
      testLicenseText({ licensee: 'Stadthalle Musterstadt GmbH', validUntil: '2031-03-31', features: ['MULTI_LANGUAGE', 'MAIL_CUSTOM', 'EVENT_PRESET'], limits: { events: 2, guestAccounts: 5000, agencyUsers: -1, storageMb: 2048 } }),
    )
    licensed = await startServer({ EINLASS_SUPPORT_EMAIL: 'vertrieb@einlass.example' }, { dataDir })
  })
  test.afterAll(async () => {
    await licensed?.stop()
  })

  test('licensed: holder, validity, features, limits with usage and ordering through support', async ({ page }) => {
    await setupAdmin(page, licensed)
    // two events use up the licensed limit of 2
    for (const name of ['Frühjahrsempfang', 'Sommerfest']) {
      const start = new Date(Date.now() + 30 * 86400_000)
      const r = await page.request.post(`${licensed.url}/proxy/api/events`, {
        data: { displayName: name, startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Stadthalle', maxVisitors: 100 },
      })
      expect(r.status()).toBe(201)
    }
    await page.goto(`${licensed.url}/events`)
    await page.getByRole('link', { name: 'Lizenz & Funktionen' }).click()
    await expect(page).toHaveURL(/\/agency\/abo$/)
    await expect(page.getByRole('heading', { name: 'Lizenz und Funktionen' })).toBeVisible()
    await expect(page.getByText('Server-Edition mit Lizenz')).toBeVisible()
    await expect(page.getByText('Stadthalle Musterstadt GmbH')).toBeVisible()
    await expect(page.getByText('31.03.2031')).toBeVisible()
    await expect(page.getByText('In der Server-Edition werden Funktionen und Erweiterungen über den Support bestellt (vertrieb@einlass.example).')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Support kontaktieren' })).toHaveAttribute('href', /^mailto:vertrieb@einlass\.example\?subject=/)

    const events = page.locator('.limit-row', { hasText: 'Veranstaltungen' })
    await expect(events).toContainText('2 von 2')
    await expect(events).toContainText('Grenze erreicht')
    await expect(page.locator('.limit-row', { hasText: 'Benutzer der Agentur' })).toContainText('1 · unbegrenzt')
    await expect(page.locator('.limit-row', { hasText: 'Speicher' })).toContainText('0 MB von 2.048 MB')

    await expect(page.locator('.feature', { hasText: 'Weitere Sprachen' })).toContainText('Enthalten')
    await expect(page.locator('.feature', { hasText: 'Veranstaltungsvorlagen' })).toContainText('Enthalten')
    await expect(page.locator('.feature', { hasText: 'Mediengalerie' })).toContainText('Nicht enthalten')
    await expect(page.locator('.feature', { hasText: 'Ticketverkauf' })).toContainText('In jeder Edition enthalten')
    await shot(page, 'license-01-licensed')

    await page.setViewportSize({ width: 390, height: 844 })
    await expect(page.getByRole('heading', { name: 'Lizenz und Funktionen' })).toBeVisible()
    await shot(page, 'license-02-licensed-phone')
  })

  test('community edition: says why the community limits apply', async ({ page, server }) => {
    await setupAdmin(page, server)
    await page.goto(`${server.url}/agency/abo`)
    await expect(page.getByText('Community-Edition', { exact: true })).toBeVisible()
    await expect(page.getByText('Keine Lizenz hinterlegt')).toBeVisible()
    await expect(page.getByText('Es ist keine Lizenzdatei hinterlegt. Es gelten die Grenzen der Community-Edition.')).toBeVisible()
    await expect(page.locator('.limit-row', { hasText: 'Veranstaltungen' })).toContainText('0 von 5')
    await expect(page.locator('.feature', { hasText: 'Weitere Sprachen' })).toContainText('Nicht enthalten')
    // ticket sales, seat plans, wallet tickets and reporting work here: the page says so (issue 20 item 27)
    for (const name of ['Ticketverkauf', 'Saalpläne', 'Wallet-Tickets', 'Meldefunktion']) await expect(page.locator('.feature', { hasText: name })).toContainText('In jeder Edition enthalten')
    await expect(page.locator('.feature', { hasText: 'Ticketverkauf' })).not.toContainText('Nicht enthalten')
    await shot(page, 'license-03-community')
  })
})
