// Issue 9 (part B): the public form shows its length limits. Every text input carries the engine's
// maxlength (names, e-mail, texts, each address part, escorts), so a guest on a phone cannot type
// past them; the server refuses the same limits with "Höchstens N Zeichen.".
import { expect, setupAdmin, shot, test } from './fixtures'

test('the public form carries every length limit as maxlength (phone)', async ({ page, server, browser }) => {
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(16, 0, 0, 0)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Sicherheitstag', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Halle', city: 'Köln', maxVisitors: 50, maxVisitorPerSubscription: 2 },
  })
  expect(ev.status()).toBe(201)
  const eventId = (await ev.json()).id
  for (const data of [
    { type: 'TEXT', displayName: 'Firma' },
    { type: 'TEXTAREA', displayName: 'Anmerkungen' },
    { type: 'ADDRESS', displayName: 'Rechnungsadresse' },
  ]) expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/fields`, { data })).status()).toBe(201)
  const fields = (await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/fields`)).json()).fields
  const escortEmail = fields.find((f: any) => f.defaultField === 'ESCORT_EMAIL')
  expect((await page.request.put(`${server.url}/proxy/api/events/${eventId}/fields/${escortEmail.id}`, { data: { ...escortEmail, appearance: 'VISIBLE' } })).status()).toBe(200)

  const ctx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  const g = await ctx.newPage()
  await g.goto(`${server.url}/public/event/${eventId}`)
  await expect(g.getByRole('group', { name: 'Rechnungsadresse' })).toBeVisible()
  const max = (name: string | RegExp, nth = 0) => g.getByRole('textbox', { name }).nth(nth).getAttribute('maxlength')
  expect(await max(/^Vorname/)).toBe('500')
  expect(await max(/^E-Mail-Adresse/)).toBe('254')
  expect(await max('Firma')).toBe('500')
  expect(await max('Anmerkungen')).toBe('5000')
  const address = g.getByRole('group', { name: 'Rechnungsadresse' })
  expect(await address.getByRole('textbox', { name: /^Straße/ }).getAttribute('maxlength')).toBe('200')
  expect(await address.getByRole('textbox', { name: /^Hausnummer/ }).getAttribute('maxlength')).toBe('20')
  expect(await address.getByRole('textbox', { name: /^PLZ|^Postleitzahl/ }).getAttribute('maxlength')).toBe('20')
  expect(await address.getByRole('textbox', { name: /^Ort|^Stadt/ }).getAttribute('maxlength')).toBe('120')
  // typing past the limit stops at it
  await address.getByRole('textbox', { name: /^Straße/ }).fill('S'.repeat(250))
  expect((await address.getByRole('textbox', { name: /^Straße/ }).inputValue()).length).toBe(200)
  // escorts: names 100, e-mail 254
  await g.getByRole('button', { name: 'Begleitperson hinzufügen' }).click()
  expect(await max(/^Vorname/, 1)).toBe('100')
  expect(await max(/^Nachname/, 1)).toBe('100')
  expect(await max(/^E-Mail-Adresse/, 1)).toBe('254')
  await shot(g, 'security-01-public-form-limits-phone')
  await ctx.close()
})

test('organiser forms carry the schema limits and name them: "Höchstens N Zeichen." (desktop)', async ({ page, server }) => {
  await setupAdmin(page, server)
  await page.goto(`${server.url}/events`)
  await page.getByRole('link', { name: 'Neue Veranstaltung' }).click()
  const name = page.getByLabel(/^Name( \*)?$/)
  expect(await name.getAttribute('maxlength')).toBe('200')
  // typing (and pasting) stops at the limit
  await name.fill('N'.repeat(250))
  expect((await name.inputValue()).length).toBe(200)
  // a browser that ignores maxlength (or a changed page) still gets the limit named under the field
  await name.evaluate((el) => el.removeAttribute('maxlength'))
  await name.fill('Ü'.repeat(201))
  await page.getByLabel('Untertitel').click()
  const message = page.locator('.field', { has: name }).getByRole('alert')
  await expect(message).toHaveText('Höchstens 200 Zeichen.')
  let posted = false
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/proxy/api/events')) posted = true
  })
  await page.getByRole('button', { name: 'Speichern' }).click()
  await expect(message).toHaveText('Höchstens 200 Zeichen.')
  expect(posted).toBe(false)
  await shot(page, 'security-02-organiser-limit-message')
  // the server refuses the same limit in the spec's error shape
  const r = await page.request.post(`${server.url}/proxy/api/events`, { data: { displayName: 'Ü'.repeat(201), startDate: new Date(Date.now() + 86400_000).toISOString(), endDate: new Date(Date.now() + 2 * 86400_000).toISOString(), timezone: 'Europe/Berlin' } })
  expect(r.status()).toBe(400)
  expect((await r.json()).errorFields).toContainEqual(expect.objectContaining({ field: 'displayName', errorType: 'TOO_LONG' }))
  // one character less is fine
  await name.fill('Ü'.repeat(200))
  await page.getByLabel('Untertitel').click()
  await expect(message).toHaveCount(0)
})
