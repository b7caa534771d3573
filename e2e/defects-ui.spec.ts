// Issue 10, what a new organiser runs into (UI side): the rich-text editor keeps the caret where the
// person types, the event's country from the list, the registration button label, copying an event,
// one embed code, a German 404 page. Each step failed before its fix.
import { expect, setupAdmin, shot, test } from './fixtures'

// a 64×40 PNG in a single colour
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAoCAIAAADBrGu+AAAAWUlEQVR4nO3PUQkAIBTAwJfMYHaxqyH8OITBAtxmr/N1wwUNaEEDWtCAFjSgBQ1oQQNa0IAWNKAFDWhBA1rQgBY0oAUNaEEDWtCAFjSgBQ1oQQNa0IAWPHYB7WZSxPHbA+UAAAAASUVORK5CYII=',
  'base64',
)

const PARAGRAPH = 'Grüße aus Köln! Wir freuen uns über Ihren Besuch: Straße, Maß und Öl.'

test('the rich-text editor keeps typed German text; country, button label, copy, embed', async ({ page, server }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  await page.goto(`${server.url}/events/new`)
  await page.getByLabel(/^Name( \*)?$/).fill('Herbstempfang')

  // typed key by key at a person's pace, and fast: read back unchanged (umlauts and ß included)
  const editor = page.getByRole('textbox', { name: 'Beschreibung' })
  await editor.click()
  await page.keyboard.type(PARAGRAPH, { delay: 70 })
  await expect(editor).toHaveText(PARAGRAPH)
  await page.keyboard.press('Enter')
  await page.keyboard.type('Schnell getippt ohne Pause und ohne Fehler.', { delay: 0 })
  await expect(editor).toContainText(PARAGRAPH)
  await expect(editor).toContainText('Schnell getippt ohne Pause und ohne Fehler.')
  // bold through the toolbar, then typing goes on where the caret is
  await page.getByRole('button', { name: 'Fett' }).click()
  await page.keyboard.type(' Fett!', { delay: 30 })
  await expect(editor).toContainText('ohne Fehler. Fett!')

  // the country from the profile's list (a name, not a code)
  await page.getByLabel('Land').selectOption({ label: 'Österreich' })
  // SEND reads as a request, REGISTER as binding
  const buttonType = page.getByLabel('Anmelde-Schaltfläche')
  await expect(buttonType.locator('option[value="SEND"]')).toHaveText(/anfragen/)
  await expect(buttonType.locator('option[value="REGISTER"]')).toHaveText(/Verbindlich/)
  await buttonType.selectOption('SEND')
  await page.getByLabel('Bild der Veranstaltung').setInputFiles({ name: 'koeln.png', mimeType: 'image/png', buffer: PNG })
  await expect(page.getByRole('img', { name: 'Bild der Veranstaltung' })).toBeVisible()
  await shot(page, 'defects-ui-01-editor')
  await page.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByRole('heading', { name: 'Herbstempfang' })).toBeVisible()
  const eventId = page.url().split('/').pop()

  // the stored description is what was typed
  const stored = await page.request.get(`${server.url}/proxy/api/events/${eventId}`)
  const ev = await stored.json()
  expect(ev.description).toContain('Grüße aus Köln!')
  expect(ev.description).toContain('<b>')
  expect(ev.address.country).toBe('AUT')

  // the editor shows the saved text again and goes on typing at the end
  await page.getByRole('link', { name: 'Bearbeiten' }).click()
  await expect(editor).toContainText(PARAGRAPH)
  await expect(page.getByLabel('Land')).toHaveValue('AUT')
  await editor.click()
  await page.keyboard.press('Control+End')
  await page.keyboard.type(' Tschüß', { delay: 70 })
  await expect(editor).toContainText('Fett! Tschüß')
  await page.getByRole('link', { name: 'Übersicht' }).click()

  // the organiser's contact, imprint (an address) and privacy notice (a text) from the agency settings
  const legal = await page.request.put(`${server.url}/proxy/api/agency/imprint`, {
    data: { imprintUrl: 'https://agentur.example/impressum', privacyText: '<p>Wir speichern nur, was für die Anmeldung nötig ist.</p>', contactGuest: 'Team Gäste', contactGuestMail: 'gaeste@agentur.example' },
  })
  expect(legal.status(), await legal.text()).toBeLessThan(300)

  // the public page: SEND asks, it does not bind
  const guest = await page.context().browser()!.newPage()
  await guest.goto(`${server.url}/public/event/${eventId}`)
  // the description (sanitised HTML) and the image under the title
  await expect(guest.locator('.event-description')).toContainText(PARAGRAPH)
  await expect(guest.locator('.event-description b')).toHaveText('Fett!')
  await expect(guest.locator('.event-public-image')).toBeVisible()
  await expect(guest.getByRole('heading', { name: 'Kontakt zum Veranstalter' })).toBeVisible()
  await expect(guest.getByRole('link', { name: 'gaeste@agentur.example' })).toHaveAttribute('href', 'mailto:gaeste@agentur.example')
  await expect(guest.getByRole('link', { name: 'Impressum' })).toHaveAttribute('href', 'https://agentur.example/impressum')
  await guest.getByText('Datenschutz', { exact: true }).click()
  await expect(guest.getByText('Wir speichern nur, was für die Anmeldung nötig ist.')).toBeVisible()
  await shot(guest, 'defects-ui-04-public-description')
  await guest.setViewportSize({ width: 390, height: 844 })
  await shot(guest, 'defects-ui-04-public-description-phone')
  await expect(guest.getByRole('button', { name: 'Anmeldung anfragen' })).toBeVisible()
  await expect(guest.getByRole('button', { name: 'Verbindlich anmelden' })).toHaveCount(0)
  // inputs carry the server's limits; a value too long anyway is named by its label, never its key
  const lastName = guest.getByLabel('Nachname')
  await expect(lastName).toHaveAttribute('maxlength', '500')
  await guest.getByLabel('Anrede').selectOption({ label: 'Frau' })
  await guest.getByLabel('Vorname').fill('Anna')
  await lastName.evaluate((el) => el.removeAttribute('maxlength'))
  await lastName.fill('B'.repeat(501))
  await guest.getByLabel('E-Mail-Adresse').fill('anna@example.org')
  await guest.getByRole('button', { name: 'Anmeldung anfragen' }).click()
  // the form checks the limit itself and says it under the field, in words, never the field's key
  const lastNameField = guest.locator('.field', { has: guest.getByLabel('Nachname') })
  await expect(lastNameField).toContainText('Höchstens 500 Zeichen.')
  await expect(guest.locator('form')).not.toContainText('lastName')
  await shot(guest, 'defects-ui-06-field-error-phone')
  await guest.close()

  // one embed code: the resizing one, 450 px to start
  await page.getByRole('button', { name: 'Einbetten' }).click()
  const code = page.getByLabel('iFrame-Code')
  await expect(code).toHaveValue(/height:450px/)
  await expect(code).toHaveValue(/embed\.js/)
  const dialogCode = await code.inputValue()
  await page.getByRole('button', { name: 'Schließen' }).last().click()
  await page.goto(`${server.url}/events/${eventId}/form`)
  await expect(page.getByLabel('Einbettungscode für Ihre Webseite')).toHaveValue(dialogCode)

  // copying: the editor of the copy shows "(Kopie)" and the copy starts offline
  await page.goto(`${server.url}/events/${eventId}`)
  await page.getByRole('button', { name: 'Kopieren' }).click()
  await expect(page).toHaveURL(/\/events\/\d+\/edit$/)
  const copyId = page.url().split('/').at(-2)
  expect(copyId).not.toBe(eventId)
  await expect(page.getByLabel(/^Name( \*)?$/)).toHaveValue('Herbstempfang (Kopie)')
  await expect(page.getByLabel('Sichtbarkeit')).toHaveValue('OFFLINE')
  await expect(editor).toContainText(PARAGRAPH)
  await shot(page, 'defects-ui-02-copy')
  const anon = await page.context().browser()!.newContext()
  expect((await anon.request.get(`${server.url}/proxy/api/public/events/${copyId}`)).status()).toBe(404)
  await anon.close()
})

test('unknown addresses show a German 404 page with a way back', async ({ page, server }) => {
  // /pay and /support get real pages from other work: addresses nobody claims
  for (const path of ['/foo/bar', '/zahlung-xyz/1', '/hilfe-xyz']) {
    await page.goto(`${server.url}${path}`)
    await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible()
    await expect(page).toHaveURL(`${server.url}${path}`)
    await expect(page.getByText(`Die Adresse „${path}“ gibt es hier nicht.`)).toBeVisible()
  }
  await shot(page, 'defects-ui-03-404')
  await page.setViewportSize({ width: 390, height: 844 })
  await shot(page, 'defects-ui-03-404-phone')
  await page.getByRole('link', { name: 'Zur Startseite' }).click()
  await expect(page).toHaveURL(/\/(setup|login|events)$/)
  // signed in, an unknown organiser address shows the page inside the workspace
  await setupAdmin(page, server)
  await page.goto(`${server.url}/agency/unbekannt`)
  await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Veranstaltungen' })).toHaveCount(0)
})

test('the desk: a ticket scanned again shows "Bereits eingecheckt um … (von …)" in its own colour', async ({ page, server }) => {
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 3600_000)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Sommerfest', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', maxVisitors: 100 },
  })
  expect(ev.status()).toBe(201)
  const eventId = (await ev.json()).id
  const g = await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors`, { data: { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: 'grete@example.org', status: 'CONFIRMED' } })
  expect(g.status()).toBe(201)
  const detail = await page.request.get(`${server.url}/proxy/api/events/${eventId}/visitors/${(await g.json()).id}`)
  const code: string = (await detail.json()).ticketCode
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`${server.url}/events/${eventId}/checkin`)
  const field = page.getByPlaceholder('Ticket-Code oder Name')
  await field.fill(code)
  await field.press('Enter')
  await page.getByRole('button', { name: 'Grete Gast einchecken' }).click()
  await expect(page.locator('.desk-ok')).toBeVisible()
  // the same ticket again (a scanner types the code and Enter)
  await field.fill(code)
  await field.press('Enter')
  const alert = page.locator('.desk-already')
  await expect(alert).toHaveText(/^Bereits eingecheckt um \d\d:\d\d Uhr \(von Ada Admin\)$/)
  await expect(alert).toHaveAttribute('role', 'alert')
  expect(await alert.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--c-ok')))
  await expect(page.getByText(/^Eingecheckt um \d\d:\d\d Uhr von Ada Admin$/)).toBeVisible()
  await shot(page, 'defects-ui-05-desk-already-phone')

  // a full event is a badge "Ausgebucht" in the organiser's list, not the guests' sentence; the next event is on top
  const later = new Date(Date.now() + 30 * 86400_000)
  const full = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Kleiner Kreis', startDate: later.toISOString(), endDate: new Date(later.getTime() + 3600_000).toISOString(), timezone: 'Europe/Berlin', maxVisitors: 1 },
  })
  const fullId = (await full.json()).id
  expect((await page.request.post(`${server.url}/proxy/api/events/${fullId}/visitors`, { data: { salutation: 'Herr', firstName: 'Karl', lastName: 'Klein', email: 'karl@example.org', status: 'CONFIRMED' } })).status()).toBe(201)
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`${server.url}/events`)
  const rows = page.locator('li.event-row')
  await expect(rows.first()).toContainText('Sommerfest')
  await expect(rows.nth(1)).toContainText('Kleiner Kreis')
  await expect(rows.nth(1).getByText('Ausgebucht', { exact: true })).toBeVisible()
  await expect(page.getByText('Die Veranstaltung ist leider ausgebucht.')).toHaveCount(0)
  await shot(page, 'defects-ui-09-events-list')
})

test('password: says which character does not count as special, and can be shown while typing', async ({ page, server }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`${server.url}/setup`)
  const password = page.getByLabel(/^Passwort( \*)?$/)
  await password.fill('Geheim1*;')
  await expect(page.getByText('Zählt nicht als Sonderzeichen: * ;')).toBeVisible()
  await expect(password).toHaveAttribute('type', 'password')
  await page.getByRole('button', { name: 'Anzeigen' }).click()
  await expect(password).toHaveAttribute('type', 'text')
  await expect(password).toHaveValue('Geheim1*;')
  await password.blur()
  await expect(page.getByText(/Das Passwort braucht eines dieser Sonderzeichen/)).toBeVisible()
  await shot(page, 'defects-ui-07-password-phone')
  await page.getByRole('button', { name: 'Verbergen' }).click()
  await expect(password).toHaveAttribute('type', 'password')
  // with an allowed special the hint goes and the rule is met
  await password.fill('Geheim1*;!')
  await expect(page.getByText(/Zählt nicht als Sonderzeichen/)).toHaveCount(0)
  await expect(page.getByText(/Das Passwort braucht eines dieser Sonderzeichen/)).toHaveCount(0)
})

test('languages: named in the footer, Leichte Sprache offered (it has its own texts), English labels, the choice sticks for a user', async ({ page, server }) => {
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 14 * 86400_000)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Sommerfest', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', maxVisitors: 100 },
  })
  const eventId = (await ev.json()).id
  const guest = await page.context().browser()!.newPage()
  await guest.goto(`${server.url}/public/event/${eventId}`)
  const footer = guest.locator('.footer')
  await expect(footer.getByRole('button', { name: 'Deutsch', exact: true })).toBeVisible()
  await expect(footer.getByRole('button', { name: 'Deutsch (du)' })).toBeVisible()
  await expect(footer.getByRole('button', { name: 'DE-DU' })).toHaveCount(0)
  await expect(footer.getByRole('button', { name: 'Leichte Sprache' })).toBeVisible()
  await expect(footer.getByRole('button', { name: 'DE-LS' })).toHaveCount(0)
  await footer.getByRole('button', { name: 'English' }).click()
  // the standard fields in English, not the default form's German names
  await expect(guest.getByLabel(/^First name/)).toBeVisible()
  await expect(guest.getByLabel(/^Last name/)).toBeVisible()
  await expect(guest.getByLabel(/^Vorname/)).toHaveCount(0)
  await shot(guest, 'defects-ui-08-public-english')
  await guest.close()

  // signed in: the footer's choice is the user's language and survives a reload
  await page.goto(`${server.url}/events`)
  await expect(page.getByRole('heading', { name: 'Veranstaltungen' })).toBeVisible()
  await page.locator('.footer').getByRole('button', { name: 'English' }).click()
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible()
  await expect.poll(async () => (await (await page.request.get(`${server.url}/proxy/api/user/current`)).json()).language?.code ?? null).toBe('en')
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible()
  await page.locator('.footer').getByRole('button', { name: 'Deutsch', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Veranstaltungen' })).toBeVisible()
})

test('guest list: no columns cut at 1280 px, no sideways scrolling on a phone, the search placeholder readable', async ({ page, server }) => {
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 14 * 86400_000)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Sommerfest', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', maxVisitors: 100 },
  })
  const eventId = (await ev.json()).id
  const guests = [
    { firstName: 'Maximiliane', lastName: 'Hohenzollern-Sigmaringen', email: 'maximiliane.hohenzollern-sigmaringen@beispiel-unternehmen.example', company: 'Internationale Gesellschaft für Veranstaltungsplanung' },
    { firstName: 'Bernd', lastName: 'Bär', email: 'bernd@example.org', company: 'Bär & Co' },
  ]
  for (const g of guests) {
    const r = await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors`, { data: { salutation: 'Frau', ...g } })
    expect(r.status(), await r.text()).toBe(201)
  }
  const fits = () =>
    page.evaluate(() => {
      const wrap = document.querySelector('.table-wrap') as HTMLElement
      const input = document.querySelector('.toolbar .search input') as HTMLInputElement
      const c = document.createElement('canvas').getContext('2d')!
      const st = getComputedStyle(input, '::placeholder')
      c.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`
      const pad = parseFloat(getComputedStyle(input).paddingLeft) + parseFloat(getComputedStyle(input).paddingRight)
      return {
        table: wrap.scrollWidth <= wrap.clientWidth + 1,
        page: document.documentElement.scrollWidth <= window.innerWidth + 1,
        placeholder: c.measureText(input.placeholder).width + pad <= input.clientWidth + 1,
      }
    })
  await page.goto(`${server.url}/events/${eventId}/guests`)
  await expect(page.getByRole('button', { name: 'Hohenzollern-Sigmaringen' })).toBeVisible()
  expect(await fits()).toEqual({ table: true, page: true, placeholder: true })
  await shot(page, 'defects-ui-10-guest-list')
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(page.getByRole('button', { name: 'Hohenzollern-Sigmaringen' })).toBeVisible()
  expect(await fits()).toEqual({ table: true, page: true, placeholder: true })
  // still sortable on the phone
  await page.getByRole('button', { name: /^Vorname/ }).click()
  await expect(page.locator('th[aria-sort]')).toContainText('Vorname')
  await shot(page, 'defects-ui-10-guest-list-phone')
})

test('invitations: the dialog shows the result once the mails are out, and warns before inviting again', async ({ page, server }) => {
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 14 * 86400_000)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Sommerfest', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', maxVisitors: 100 },
  })
  const eventId = (await ev.json()).id
  for (const [firstName, lastName] of [['Anna', 'Adler'], ['Bernd', 'Bär'], ['Carla', 'Clausen']]) {
    expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors`, { data: { salutation: 'Frau', firstName, lastName, email: `${firstName.toLowerCase()}@example.org` } })).status()).toBe(201)
  }
  await page.goto(`${server.url}/events/${eventId}/guests`)
  await page.getByRole('button', { name: 'Einladen …' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByText('Die aktuelle Auswahl enthält 3 Gäste.')).toBeVisible()
  await expect(dialog.getByText(/bereits eingeladen/)).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Einladungen verschicken' }).click()
  // the result, not "0 von 3", soon after the mails went out
  await expect(dialog.getByText('Einladungen verschickt: 3, nicht möglich: 0.')).toBeVisible({ timeout: 3000 })
  await shot(page, 'defects-ui-11-invited')
  await dialog.getByRole('button', { name: 'Schließen' }).last().click()
  await expect(page.getByText('Eingeladen').first()).toBeVisible()

  // inviting the same guests again needs a confirmation
  await page.getByRole('button', { name: 'Einladen …' }).click()
  await expect(dialog.getByText('3 Gäste der Auswahl sind bereits eingeladen und bekommen die Einladung noch einmal.')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Einladungen verschicken' })).toBeDisabled()
  await shot(page, 'defects-ui-12-invite-again')
  await dialog.getByLabel('Trotzdem erneut einladen').check()
  await expect(dialog.getByRole('button', { name: 'Einladungen verschicken' })).toBeEnabled()
})
