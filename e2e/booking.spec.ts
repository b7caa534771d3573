// Booking in the server edition (spec agency-side §2.6): the hint banner (a limit reached, the licence
// ending soon, features the licence lacks) leads into the booking modal, which shows features,
// modules and limits with what is included and used, prepares a support request naming what is
// wanted (quantity repriced after a pause in typing), and sends it to the support address.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testLicenseText } from '../server/testing/license-test-key'
import { expect, type Server, setupAdmin, shot, startServer, test } from './fixtures'

const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString().slice(0, 10)
const german = (iso: string) => iso.split('-').reverse().join('.')

test.describe('booking through support', () => {
  let server: Server
  const validUntil = inDays(20)
  test.beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'einlass-e2e-booking-'))
    writeFileSync(join(dataDir, 'license.json'), testLicenseText({ licensee: 'Stadthalle Musterstadt GmbH', validUntil, features: ['MULTI_LANGUAGE', 'EVENT_PRESET'], limits: { events: 2, guestAccounts: 5000, agencyUsers: 10, storageMb: 2048 } }))
    server = await startServer({ EINLASS_SUPPORT_EMAIL: 'vertrieb@einlass.example' }, { dataDir })
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  test('banner hints open the modal; a limit and a feature are requested from support', async ({ page }) => {
    await setupAdmin(page, server)
    for (const name of ['Frühjahrsempfang', 'Sommerfest']) {
      const start = new Date(Date.now() + 30 * 86400_000)
      const r = await page.request.post(`${server.url}/proxy/api/events`, { data: { displayName: name, startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Stadthalle', maxVisitors: 100 } })
      expect(r.status()).toBe(201)
    }
    await page.goto(`${server.url}/events`)
    const banner = page.locator('.limit-banner')
    await expect(banner.locator('[data-hint="reached-Events"]')).toContainText('Das Limit an Veranstaltungen ist erreicht (2 von 2).')
    await expect(banner.locator('[data-hint="expires"]')).toContainText(`Ihre Lizenz läuft am ${german(validUntil)} ab.`)
    await expect(banner.locator('[data-hint="features"]')).toContainText('Ihre Lizenz enthält Einlass-Ticket-Variante, Eigene Absenderadresse, Eigener Absendername, Mediengalerie nicht.')
    await shot(page, 'booking-01-banner')

    // "Anpassen" at the events limit: the modal with that limit chosen and a request prepared
    await banner.locator('[data-hint="reached-Events"]').getByRole('button', { name: 'Anpassen' }).click()
    const modal = page.getByRole('dialog', { name: 'Funktionen und Grenzen buchen' })
    await expect(modal).toBeVisible()
    await expect(modal.getByText('In der Server-Edition werden Funktionen und Erweiterungen über den Support bestellt (vertrieb@einlass.example)', { exact: false })).toBeVisible()
    await expect(modal.getByRole('radio', { name: /Veranstaltungen/ })).toBeChecked()
    await expect(modal.locator('.booking-option', { hasText: 'Veranstaltungen' })).toContainText('Enthalten: 2 · genutzt: 2')
    await expect(modal.locator('.booking-option', { hasText: 'Weitere Sprachen' })).toContainText('Enthalten')
    await expect(modal.locator('.booking-option', { hasText: 'Mediengalerie' })).toContainText('Nicht enthalten')
    await expect(modal.locator('.booking-option', { hasText: 'Ticketverkauf' })).toContainText('In jeder Edition enthalten')
    const text = modal.getByLabel('Ihre Anfrage an den Support')
    await expect(text).toHaveValue(/10 weitere Veranstaltungen \(derzeit genutzt: 2 von 2\)/)
    // the quantity is required; the request follows it after the pause in typing
    const amount = modal.getByLabel('Wie viele zusätzlich?')
    await amount.fill('')
    await expect(modal.getByText('Dieses Feld ist ein Pflichtfeld.')).toBeVisible()
    await expect(modal.getByRole('button', { name: 'Anfrage senden' })).toBeDisabled()
    await amount.fill('25')
    await expect(text).toHaveValue(/25 weitere Veranstaltungen \(derzeit genutzt: 2 von 2\)/)
    await expect(modal.getByRole('link', { name: 'Lieber selbst per E-Mail schreiben' })).toHaveAttribute('href', /^mailto:vertrieb@einlass\.example\?subject=Bestellanfrage%3A%2025%20weitere%20Veranstaltungen/)
    await shot(page, 'booking-02-limit')
    await modal.getByRole('button', { name: 'Anfrage senden' }).click()
    await expect(modal.getByText('Ihre Anfrage „25 weitere Veranstaltungen“ ist an vertrieb@einlass.example unterwegs. Der Support meldet sich bei Ihnen.')).toBeVisible()
    const mail = await server.smtp.waitFor((m) => m.to.includes('vertrieb@einlass.example'), 15_000)
    expect(mail.subject).toBe('Bestellanfrage: 25 weitere Veranstaltungen (Agentur Sonnenschein)')
    expect(mail.text).toContain('Lizenznehmer: Stadthalle Musterstadt GmbH')
    expect(mail.text).toContain('Angefragt von: Ada Admin <admin@agentur.example>')
    await shot(page, 'booking-03-sent')
    await modal.getByRole('button', { name: 'Schließen' }).click()

    // from the licence page: nothing chosen, nothing to send; a feature chosen, an edited request
    await page.getByRole('link', { name: 'Lizenz & Funktionen' }).click()
    await page.getByRole('button', { name: 'Funktionen und Grenzen buchen' }).click()
    await expect(modal.getByText('Wählen Sie zuerst eine Funktion oder eine Grenze.')).toBeVisible()
    await expect(modal.getByRole('button', { name: 'Anfrage senden' })).toBeDisabled()
    await expect(modal.getByRole('radio', { name: /Weitere Sprachen/ })).toBeDisabled()
    await modal.getByRole('radio', { name: /Mediengalerie/ }).check()
    await expect(text).toHaveValue(/die Funktion „Mediengalerie“ zu unserer einlass-Lizenz hinzubuchen/)
    await text.fill('Guten Tag,\n\nwir hätten gern die Mediengalerie ab Januar.')
    await shot(page, 'booking-04-feature')
    await modal.getByRole('button', { name: 'Anfrage senden' }).click()
    await expect(modal.getByText('Ihre Anfrage „Mediengalerie“ ist an vertrieb@einlass.example unterwegs.', { exact: false })).toBeVisible()
    const second = await server.smtp.waitFor((m) => m.subject === 'Bestellanfrage: Mediengalerie (Agentur Sonnenschein)', 15_000)
    expect(second.text).toContain('wir hätten gern die Mediengalerie ab Januar.')
    await modal.getByRole('button', { name: 'Schließen' }).click()

    // the feature hint can be hidden, and stays hidden
    await page.locator('[data-hint="features"]').getByRole('button', { name: 'Ausblenden' }).click()
    await expect(page.locator('[data-hint="features"]')).toHaveCount(0)
    await page.reload()
    await expect(page.locator('[data-hint="reached-Events"]')).toBeVisible()
    await expect(page.locator('[data-hint="features"]')).toHaveCount(0)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.locator('[data-hint="expires"]').getByRole('button', { name: 'Ansehen' }).click()
    await expect(modal).toBeVisible()
    await shot(page, 'booking-05-phone')
  })
})
