// The upload queue and the media gallery (issue 23; docs/media.md): an agency with MEDIA_GALLERY
// makes a category, drops four files into the queue at once (a large JPEG the browser shrinks to
// 2000 px, a PNG, a file too small for the German error, one it aborts while it uploads), limits
// one image's validity, picks the valid one from the gallery as an event's image and sees it on the
// public page; the picker says so when a category has no image.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testLicenseText } from '../server/testing/license-test-key'
import { expect, expectImageLoaded, type Server, setupAdmin, shot, startServer, test } from './fixtures'

// a 64×40 PNG in a single colour
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAoCAIAAADBrGu+AAAAWUlEQVR4nO3PUQkAIBTAwJfMYHaxqyH8OITBAtxmr/N1wwUNaEEDWtCAFjSgBQ1oQQNa0IAWNKAFDWhBA1rQgBY0oAUNaEEDWtCAFjSgBQ1oQQNa0IAWPHYB7WZSxPHbA+UAAAAASUVORK5CYII=',
  'base64',
)

test.describe('media gallery', () => {
  let server: Server
  test.beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'einlass-e2e-media-'))
    writeFileSync(join(dataDir, 'license.json'), testLicenseText({ licensee: 'Agentur Sonnenschein', validUntil: '2031-03-31', features: ['MEDIA_GALLERY'], limits: { events: -1, guestAccounts: 5000, agencyUsers: -1, storageMb: 2048 } }))
    server = await startServer({}, { dataDir })
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  test('three images through the queue into the gallery (one too small, one aborted), one picked as the event image and shown on the public page', async ({ page }) => {
    test.setTimeout(120_000)
    await setupAdmin(page, server)
    await page.goto(`${server.url}/events`)
    await page.getByRole('link', { name: 'Mediengalerie' }).click()
    await expect(page).toHaveURL(/\/agency\/media$/)
    await expect(page.getByRole('heading', { name: 'Mediengalerie' })).toBeVisible()
    await expect(page.getByText('Noch keine Kategorien angelegt.')).toBeVisible()
    await page.getByLabel('Neue Kategorie').fill('Bühne')
    await page.getByRole('button', { name: 'Kategorie anlegen' }).click()
    await expect(page.getByRole('button', { name: /^Bühne/ })).toBeVisible()
    await page.getByLabel('Neue Kategorie').fill('Logos')
    await page.getByRole('button', { name: 'Kategorie anlegen' }).click()
    await expect(page.getByRole('button', { name: /^Logos/ })).toBeVisible()
    await page.getByRole('button', { name: /^Bühne/ }).click()
    await expect(page.getByRole('button', { name: /^Bühne/ })).toContainText('0 Bilder')
    await expect(page.getByText('Kein Bild für diese Kategorie vorhanden.')).toBeVisible()

    // a 3000 × 2000 JPEG drawn in the browser: the queue shrinks it to 2000 px before it leaves
    const bigJpeg = Buffer.from(
      await page.evaluate(() => {
        const c = document.createElement('canvas')
        c.width = 3000
        c.height = 2000
        const g = c.getContext('2d')!
        g.fillStyle = '#2b6cb0'
        g.fillRect(0, 0, 3000, 2000)
        g.fillStyle = '#f6ad55'
        g.fillRect(600, 400, 1800, 1200)
        return c.toDataURL('image/jpeg', 0.9).split(',')[1]
      }),
      'base64',
    )
    const sizes: number[] = []
    let releaseSlow: () => void = () => {}
    await page.route('**/proxy/api/asset', async (route) => {
      const body = route.request().postDataBuffer() ?? Buffer.alloc(0)
      sizes.push(body.length)
      // the fourth file hangs until the person aborts it
      if (body.includes(Buffer.from('filename="langsam.png"'))) await new Promise<void>((r) => (releaseSlow = r))
      await route.continue().catch(() => undefined)
    })
    await page.getByRole('button', { name: 'Dateien hochladen', exact: true }).click()
    const uploadDialog = page.getByRole('dialog', { name: 'Dateien hochladen' })
    await expect(uploadDialog.getByText('Bilder werden auf höchstens 2000 px Breite oder Höhe verkleinert.')).toBeVisible()
    await uploadDialog.getByLabel('Dateien auswählen').setInputFiles([
      { name: 'Hauptbühne.jpg', mimeType: 'image/jpeg', buffer: bigJpeg },
      { name: 'Saal.png', mimeType: 'image/png', buffer: PNG },
      { name: 'leer.png', mimeType: 'image/png', buffer: Buffer.from('12345') },
      { name: 'langsam.png', mimeType: 'image/png', buffer: PNG },
    ])
    const queue = uploadDialog.getByRole('list', { name: 'Dateien hochladen' })
    const row = (name: string) => queue.locator('li', { hasText: name })
    await expect(row('Hauptbühne.jpg')).toHaveAttribute('data-status', 'done')
    await expect(row('Saal.png')).toHaveAttribute('data-status', 'done')
    await expect(row('leer.png')).toHaveAttribute('data-status', 'error')
    await expect(row('leer.png').getByRole('alert')).toHaveText('Die Datei ist zu klein (mindestens 10 Byte).')
    await expect(row('langsam.png')).toHaveAttribute('data-status', 'uploading')
    await shot(page, 'media-gallery-01-queue')
    await row('langsam.png').getByRole('button', { name: 'Upload abbrechen' }).click()
    await expect(row('langsam.png')).toHaveAttribute('data-status', 'aborted')
    await expect(row('langsam.png')).toContainText('Abgebrochen')
    releaseSlow()
    await uploadDialog.getByRole('button', { name: 'Schließen' }).last().click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    // the big JPEG left the browser shrunk (well under its original size); the small file never left
    expect(sizes[0]).toBeLessThan(bigJpeg.length)
    expect(sizes).toHaveLength(3)

    const grid = page.locator('.media-grid')
    await expect(grid.locator('.media-entry')).toHaveCount(2)
    await expect(page.getByRole('button', { name: /^Bühne/ })).toContainText('2 Bilder')
    const big = grid.getByRole('img', { name: 'Hauptbühne' })
    await expectImageLoaded(big)
    const bigAsset = (await big.getAttribute('src'))!.match(/asset\/(\d+)/)![1]
    const stored = await page.evaluate(async (id) => {
      const img = new Image()
      img.src = `/proxy/api/asset/${id}/download`
      await img.decode()
      return [img.naturalWidth, img.naturalHeight]
    }, bigAsset)
    expect(stored).toEqual([2000, 1333])

    // the hall's picture was valid only until yesterday: still in the gallery, not offered
    await grid.locator('.media-entry', { hasText: 'Saal' }).getByRole('button', { name: 'Bearbeiten' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Copyright').fill('© Foto Sonnenschein')
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)
    await dialog.getByLabel('Gültig bis').fill(twoDaysAgo)
    await dialog.getByRole('button', { name: 'Speichern' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(grid.locator('.media-entry', { hasText: 'Saal' })).toContainText('Nicht gültig')
    await expect(grid.locator('.media-entry', { hasText: 'Saal' })).toContainText('© Foto Sonnenschein')
    await expect(grid.locator('.media-entry', { hasText: 'Saal' })).toContainText(`Gültig bis ${twoDaysAgo.split('-').reverse().join('.')}`)
    await shot(page, 'media-gallery-02-gallery')

    // a new event takes its image from the gallery
    await page.goto(`${server.url}/events/new`)
    await page.getByLabel(/^Name( \*)?$/).fill('Sommerfest')
    await page.getByRole('button', { name: 'Aus Mediengalerie wählen' }).click()
    const picker = page.getByRole('dialog', { name: 'Bild aus der Mediengalerie wählen' })
    await expect(picker.getByLabel('Kategorien')).toHaveValue(/\d+/)
    await picker.getByLabel('Kategorien').selectOption({ label: 'Logos (0 Bilder)' })
    await expect(picker.getByText('Kein Bild für diese Kategorie vorhanden.')).toBeVisible()
    await shot(page, 'media-gallery-03-picker-empty')
    await picker.getByLabel('Kategorien').selectOption({ label: 'Bühne (2 Bilder)' })
    await expect(picker.locator('.media-entry')).toHaveCount(1)
    await expect(picker.getByRole('img', { name: 'Hauptbühne' })).toBeVisible()
    await expect(picker.getByLabel('Bilder pro Seite')).toHaveValue('10')
    expect(await picker.getByLabel('Bilder pro Seite').locator('option').allTextContents()).toEqual(['2', '10', '20', '50'])
    await shot(page, 'media-gallery-04-picker')
    await picker.getByRole('button', { name: 'Verwenden' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expectImageLoaded(page.getByRole('img', { name: 'Bild der Veranstaltung' }))
    await expect(page.getByRole('img', { name: 'Bild der Veranstaltung' })).toHaveAttribute('src', new RegExp(`/asset/${bigAsset}\\?`))
    await page.getByRole('button', { name: 'Speichern', exact: true }).click()
    await expect(page.getByRole('heading', { name: 'Sommerfest' })).toBeVisible()
    const eventId = page.url().split('/').pop()

    const guest = await page.context().browser()!.newPage()
    await guest.goto(`${server.url}/public/event/${eventId}`)
    const pub = guest.locator('img.event-public-image')
    await expectImageLoaded(pub)
    await expect(pub).toHaveAttribute('src', new RegExp(`/asset/${bigAsset}\\?`))
    await shot(guest, 'media-gallery-05-public-page')
    await guest.close()
  })
})

test.describe('media gallery with the storage limit reached', () => {
  let server: Server
  test.beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'einlass-e2e-media-full-'))
    writeFileSync(join(dataDir, 'license.json'), testLicenseText({ licensee: 'Agentur Voll', validUntil: '2031-03-31', features: ['MEDIA_GALLERY'], limits: { events: -1, guestAccounts: 5000, agencyUsers: -1, storageMb: 0 } }))
    server = await startServer({}, { dataDir })
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  test('an upload over the licence\'s storage shows "Speicher-Limit erreicht" in its row and as a toast', async ({ page }) => {
    await setupAdmin(page, server)
    await page.goto(`${server.url}/agency/media`)
    await page.getByLabel('Neue Kategorie').fill('Bühne')
    await page.getByRole('button', { name: 'Kategorie anlegen' }).click()
    await page.getByRole('button', { name: 'Dateien hochladen', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Dateien hochladen' })
    await dialog.getByLabel('Dateien auswählen').setInputFiles([{ name: 'Saal.png', mimeType: 'image/png', buffer: PNG }])
    const row = dialog.locator('li', { hasText: 'Saal.png' })
    await expect(row).toHaveAttribute('data-status', 'error')
    await expect(row.getByRole('alert')).toHaveText('Speicher-Limit erreicht. Upload nicht möglich.')
    await expect(page.locator('.toast', { hasText: 'Speicher-Limit erreicht. Upload nicht möglich.' })).toBeVisible()
    await shot(page, 'media-gallery-06-storage-full')
    await dialog.getByRole('button', { name: 'Schließen' }).last().click()
    await expect(page.getByText('Kein Bild für diese Kategorie vorhanden.')).toBeVisible()
  })
})
