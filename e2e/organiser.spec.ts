// The organiser workspace, clicked through as a person would: create and configure an event, import a
// CSV with a bad row, filter, invite, the guest accepts and shows the QR, check the guest in at the desk
// by typing the ticket code, export; statistics, agreements, tags, embed; phone-sized screenshots.
import { readFileSync } from 'node:fs'
import { linkIn } from '../server/testing/smtp-sink'
import { expect, setupAdmin, shot, test } from './fixtures'

const CSV = [
  'Anrede;Vorname;Nachname;E-Mail;Firma;VIP;Status;Begleitung 1 Vorname;Begleitung 1 Nachname',
  'Frau;Anna;Adler;anna@example.org;ACME;ja;angemeldet;Eva;Escort',
  'Herr;Bernd;Bär;bernd@example.org;Bär & Co;;;;',
  'Frau;Carla;;carla@example.org;;;;;',
  'Herr;Dieter;Dach;dieter@example.org;;;;;',
].join('\n')

// a 64×40 PNG in a single colour
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAoCAIAAADBrGu+AAAAWUlEQVR4nO3PUQkAIBTAwJfMYHaxqyH8OITBAtxmr/N1wwUNaEEDWtCAFjSgBQ1oQQNa0IAWNKAFDWhBA1rQgBY0oAUNaEEDWtCAFjSgBQ1oQQNa0IAWPHYB7WZSxPHbA+UAAAAASUVORK5CYII=',
  'base64',
)

test('organiser: event, CSV import with a bad row, filter, invite, desk check-in by code, export', async ({ page, server, browser }) => {
  test.setTimeout(150_000)
  await setupAdmin(page, server)
  await page.goto(`${server.url}/events`)
  await expect(page.getByRole('heading', { name: 'Veranstaltungen' })).toBeVisible()

  // create and configure an event
  await page.getByRole('link', { name: 'Neue Veranstaltung' }).click()
  await page.getByLabel(/^Name( \*)?$/).fill('Herbstempfang')
  await page.getByLabel('Untertitel').fill('Mit Musik und Buffet')
  await page.getByRole('textbox', { name: 'Beschreibung' }).fill('Wir freuen uns auf einen schönen Abend.')
  await page.getByLabel('Kapazität (Personen)').fill('50')
  await page.getByLabel(/^Ort$/).fill('Orangerie')
  await page.getByLabel('Stadt').fill('Potsdam')
  await page.getByLabel('Personen pro Anmeldung').fill('3')
  await page.getByLabel('Selbst-Check-in erlauben').check()
  await page.getByLabel('Nach dem Check-in').selectOption('CUSTOM')
  await page.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByText('Bitte geben Sie einen Link beginnend mit http:// oder https:// ein.').or(page.getByText('Dieses Feld ist ein Pflichtfeld.')).first()).toBeVisible()
  await page.getByLabel(/Weiterleitung nach dem Check-in/).fill('https://example.org/willkommen')
  await page.getByLabel('Bild der Veranstaltung').setInputFiles({ name: 'orangerie.png', mimeType: 'image/png', buffer: PNG })
  await expect(page.getByRole('img', { name: 'Bild der Veranstaltung' })).toBeVisible()
  await page.getByLabel('Hauptfarbe').fill('#7a3e9d')
  await page.getByLabel('Tags').fill('Region---Brandenburg')
  await page.getByLabel('Tags').press('Enter')
  await expect(page.locator('.chip', { hasText: 'Brandenburg' })).toBeVisible()
  await shot(page, 'organiser-01-event-editor')
  await page.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByRole('heading', { name: 'Herbstempfang' })).toBeVisible()
  await expect(page.getByText('0 von 50 Plätzen belegt')).toBeVisible()
  const eventId = page.url().split('/').pop()
  await shot(page, 'organiser-02-event-overview')

  // embed dialog
  await page.getByRole('button', { name: 'Einbetten' }).click()
  await expect(page.getByLabel('iFrame-Code')).toHaveValue(/height="450"/)
  await page.getByLabel(/hideCookieinfo/).check()
  await page.getByLabel(/scrollId/).fill('anmeldung')
  await expect(page.getByLabel('iFrame-Code')).toHaveValue(/hideCookieinfo=true&amp;scrollId=anmeldung/)
  await shot(page, 'organiser-03-embed')
  await page.getByRole('button', { name: 'Schließen' }).last().click()

  // guest list: CSV import with a bad row (Carla has no last name)
  await page.getByRole('link', { name: 'Gäste' }).click()
  await expect(page.getByText('Noch keine Gäste.')).toBeVisible()
  await page.getByRole('button', { name: 'CSV-Import' }).click()
  await page.getByLabel('CSV-Datei').setInputFiles({ name: 'gaeste.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV, 'utf8') })
  await page.getByRole('button', { name: 'Datei hochladen' }).click()
  await expect(page.getByText('gaeste.csv: 4 Zeilen.')).toBeVisible()
  await expect(page.getByLabel('Feld für Spalte Vorname')).toHaveValue('firstName')
  await page.getByRole('button', { name: 'Prüfen' }).click()
  await expect(page.getByText('Prüfung abgeschlossen: 3 gültige Zeilen, 1 fehlerhafte.')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByRole('cell', { name: 'Dieses Feld ist ein Pflichtfeld.' })).toBeVisible()
  await shot(page, 'organiser-04-import-dry-run')
  await expect(page.getByRole('button', { name: 'Importieren' })).toBeDisabled()
  await page.getByLabel('Fehlerhafte Zeilen überspringen und nur gültige importieren').check()
  await page.getByRole('button', { name: 'Importieren' }).click()
  await expect(page.getByText('Import abgeschlossen: 3 Gäste importiert, 1 Zeile übersprungen.')).toBeVisible({ timeout: 20_000 })
  await shot(page, 'organiser-05-import-done')
  await page.getByRole('button', { name: 'Schließen' }).first().click()
  await expect(page.getByRole('button', { name: 'Adler' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Bär' })).toBeVisible()
  await shot(page, 'organiser-06-guest-list')

  // filter: only VIPs
  await page.getByRole('button', { name: 'Filter' }).click()
  await page.getByLabel('VIP', { exact: true }).selectOption('ONLY_VIP')
  await shot(page, 'organiser-07-guest-filter')
  await page.getByRole('button', { name: 'Anwenden' }).click()
  await expect(page.getByRole('button', { name: 'Adler' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Bär' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Filter zurücksetzen' }).click()
  await expect(page.getByRole('button', { name: 'Bär' })).toBeVisible()

  // invite the list (Anna is already registered: not invited, counted)
  await page.getByRole('button', { name: 'Einladen …' }).click()
  await expect(page.getByText('Die aktuelle Auswahl enthält 3 Gäste.')).toBeVisible()
  await page.getByRole('button', { name: 'Einladungen verschicken' }).click()
  await expect(page.getByText('Einladungen verschickt: 2, nicht möglich: 1.')).toBeVisible({ timeout: 20_000 })
  await shot(page, 'organiser-08-invitations')
  await page.getByRole('button', { name: 'Schließen' }).last().click()
  const mail = await server.smtp.waitFor((m) => m.to.includes('bernd@example.org'), 15_000)
  expect(mail.subject).toBe('Einladung: Herbstempfang')

  // the guest opens the link, confirms and shows the ticket QR
  const guestCtx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  const g = await guestCtx.newPage()
  await g.goto(linkIn(mail, '/guest/dashboard?token='))
  await expect(g.getByRole('heading', { name: 'Herbstempfang' })).toBeVisible()
  // confirming goes through the form, pre-filled with what the organiser knows (issue 10, item 5)
  await g.getByRole('link', { name: 'Teilnahme bestätigen' }).click()
  await expect(g.getByLabel(/^Vorname( \*)?$/)).toHaveValue('Bernd')
  await g.getByRole('button', { name: 'Teilnahme bestätigen' }).click()
  await expect(g.getByRole('heading', { name: 'Vielen Dank für Ihre Anmeldung!' })).toBeVisible()
  await g.goto(`${server.url}/guest/dashboard`)
  await expect(g.getByRole('heading', { name: /Angemeldet/ })).toBeVisible()
  await g.getByRole('button', { name: 'Ticket (QR-Code) anzeigen' }).click()
  const codeText = await g.locator('.ticket-qr-code strong').textContent()
  expect(codeText).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/)
  await expect(g.getByRole('img', { name: 'QR-Code des Tickets' })).toBeVisible()
  await shot(g, 'organiser-09-guest-ticket-phone')
  await guestCtx.close()

  // check-in desk: type the code (as a hardware scanner would, with Enter)
  await page.getByRole('link', { name: 'Check-in' }).click()
  await expect(page.getByText('angemeldet', { exact: true })).toBeVisible()
  await page.getByLabel('Ticket-Code oder Name').fill(codeText!.replace('-', '').toLowerCase())
  await page.getByLabel('Ticket-Code oder Name').press('Enter')
  await expect(page.getByRole('heading', { name: 'Bernd Bär' })).toBeVisible()
  await shot(page, 'organiser-10-desk-found')
  await page.getByRole('button', { name: 'Bernd Bär einchecken' }).click()
  await expect(page.getByText('1 Person eingecheckt.')).toBeVisible()
  await expect(page.locator('.desk-in .desk-count')).toHaveText('1')
  await shot(page, 'organiser-11-desk-checked-in')
  // Anna with her escort: find by name, check in all
  await page.getByLabel('Ticket-Code oder Name').fill('Adler')
  await page.getByLabel('Ticket-Code oder Name').press('Enter')
  await page.getByRole('button', { name: 'Alle einchecken' }).click()
  await expect(page.getByText('2 Personen eingecheckt.')).toBeVisible()
  await expect(page.locator('.desk-in .desk-count')).toHaveText('3')
  await page.setViewportSize({ width: 390, height: 844 })
  await shot(page, 'organiser-12-desk-phone')
  await page.setViewportSize({ width: 1280, height: 800 })

  // export the list
  await page.getByRole('link', { name: 'Gäste' }).click()
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'CSV-Export' }).click()])
  const csv = readFileSync((await download.path())!, 'utf8')
  expect(csv.split('\n')[0]).toContain('Vorname;Nachname')
  expect(csv).toContain('Bernd;Bär')
  // German texts, and the ticket code of the guest who confirmed the invitation (issue 10, item 17)
  expect(csv).toContain('Eingecheckt')
  expect(csv).not.toContain('CHECKED_IN')
  expect(csv).toContain(codeText!)

  // statistics, agreements, tags
  await page.getByRole('link', { name: 'Statistik' }).click()
  await expect(page.getByRole('heading', { name: 'Check-in-Verlauf' })).toBeVisible()
  await shot(page, 'organiser-13-statistics')
  await page.getByRole('link', { name: 'Einverständniserklärungen' }).first().click()
  await page.getByRole('button', { name: 'Neue Einverständniserklärung' }).click()
  await page.getByLabel(/^Bezeichnung/).fill('Fotoerlaubnis')
  await page.getByLabel('Zustimmung').selectOption('VISIBLE')
  await page.getByRole('textbox', { name: 'Text' }).fill('Ich bin einverstanden, dass Fotos von mir veröffentlicht werden.')
  await page.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByText('Fotoerlaubnis')).toBeVisible()
  await shot(page, 'organiser-14-agreements')
  await page.getByRole('link', { name: 'Tags und Kampagnen' }).click()
  await expect(page.locator('.chip', { hasText: 'Brandenburg' })).toBeVisible()
  await shot(page, 'organiser-15-tags')

  // events list with the filter dialog; phone-sized list
  await page.getByRole('link', { name: 'Veranstaltungen' }).first().click()
  await expect(page.getByRole('link', { name: 'Herbstempfang' })).toBeVisible()
  await page.getByRole('button', { name: 'Filter' }).click()
  await page.getByLabel('Von').fill('2030-05-10')
  await page.getByLabel('Bis').fill('2030-05-01')
  await expect(page.getByText('Das Ende darf nicht vor dem Beginn liegen.')).toBeVisible()
  await shot(page, 'organiser-16-event-filter')
  await page.getByLabel('Bis').fill('')
  await page.getByLabel('Von').fill('')
  await page.getByLabel('Nur unvollständige').check()
  await page.getByRole('button', { name: 'Anwenden' }).click()
  await expect(page.getByText('Keine Veranstaltung passt zu Suche und Filter.')).toBeVisible()
  await page.getByRole('button', { name: 'Filter zurücksetzen' }).click()
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(page.getByRole('link', { name: 'Herbstempfang' })).toBeVisible()
  await shot(page, 'organiser-17-events-phone')
  await page.goto(`${server.url}/events/${eventId}/guests`)
  await expect(page.getByRole('button', { name: 'Bär' })).toBeVisible()
  await shot(page, 'organiser-18-guests-phone')
})

test('limits: the hint banner names the reached events limit and opens the booking dialog; the server refuses a sixth event', async ({ page, server }) => {
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 7 * 86400_000).toISOString()
  const end = new Date(Date.now() + 8 * 86400_000).toISOString()
  for (let i = 1; i <= 5; i++) {
    const r = await page.request.post(`${server.url}/proxy/api/events`, { data: { displayName: `Veranstaltung ${i}`, startDate: start, endDate: end, locationName: 'Saal', city: 'Köln' } })
    expect(r.status()).toBe(201)
  }
  const sixth = await page.request.post(`${server.url}/proxy/api/events`, { data: { displayName: 'Zu viel', startDate: start, endDate: end } })
  expect(sixth.status()).toBe(403)
  expect((await sixth.json()).errorType).toBe('LIMIT_EVENTS_EXCEEDED')
  await page.goto(`${server.url}/events`)
  await expect(page.getByText('Das Limit an Veranstaltungen ist erreicht (5 von 5).')).toBeVisible()
  await shot(page, 'organiser-19-limit-banner')
  // "Anpassen" opens the server edition's booking dialog with the events limit chosen (e2e/booking.spec.ts)
  await page.locator('.limit-banner [data-hint="reached-Events"]').getByRole('button', { name: 'Anpassen' }).click()
  const modal = page.getByRole('dialog', { name: 'Funktionen und Grenzen buchen' })
  await expect(modal.getByRole('radio', { name: /Veranstaltungen/ })).toBeChecked()
})
