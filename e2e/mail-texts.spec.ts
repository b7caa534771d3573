// Mail texts (docs/mail.md): the administrator words the invitation in the agency settings, a broken
// placeholder is refused with the German message naming it, the preview shows the text with sample
// values, and an invitation sent afterwards carries the agency's own text (read from the SMTP sink).
import { expect, setupAdmin, shot, test, watchCsp } from './fixtures'

test('the administrator edits the invitation text, previews it, and the guest gets it', async ({ page, server }) => {
  test.setTimeout(120_000)
  const violations = watchCsp(page)
  await setupAdmin(page, server)
  await page.goto(`${server.url}/events`)
  await page.getByRole('link', { name: 'Mail-Texte' }).first().click()
  await expect(page).toHaveURL(/\/agency\/mail-texts$/)
  await expect(page.getByRole('heading', { name: 'Mail-Texte' })).toBeVisible()
  await expect(page.getByTestId('mail-text-state')).toHaveText('Standardtext')
  await expect(page.getByLabel('Betreff')).toHaveValue('Einladung: {event}')
  await shot(page, 'mail-texts-01-default')

  // a placeholder the invitation does not know is refused, naming it
  await page.getByLabel('Text').fill('Hallo {vorname},\n\nwir feiern.')
  await page.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.locator('.mail-texts').getByRole('alert')).toContainText('Den Platzhalter „vorname“ gibt es in dieser E-Mail nicht.')
  await shot(page, 'mail-texts-02-refused')

  // word it anew; the placeholder list inserts at the cursor
  await page.getByLabel('Betreff').fill('Sei dabei: ')
  await page.getByRole('button', { name: /\{event\}/ }).click()
  await expect(page.getByLabel('Betreff')).toHaveValue('Sei dabei: {event}')
  await page.getByLabel('Text').fill('wir feiern <b>')
  await page.getByRole('button', { name: /\{event\}/ }).click()
  await page.getByLabel('Text').press('End')
  await page.getByLabel('Text').pressSequentially('</b> am {date} und freuen uns auf Sie.')
  await expect(page.getByLabel('Text')).toHaveValue('wir feiern <b>{event}</b> am {date} und freuen uns auf Sie.')
  await page.getByRole('button', { name: 'Vorschau' }).click()
  await expect(page.getByTestId('preview-subject')).toHaveText('Sei dabei: Sommerfest')
  await expect(page.frameLocator('iframe').getByText('wir feiern <b>Sommerfest</b> am 12.06.2027', { exact: false })).toBeVisible()
  await shot(page, 'mail-texts-03-preview')
  await page.locator('.mail-preview').screenshot({ path: 'e2e/.artifacts/screenshots/mail-texts-03b-preview-frame.png' })
  await page.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.locator('.mail-texts').getByRole('status')).toContainText('Mail-Text gespeichert.')
  await expect(page.getByTestId('mail-text-state')).toHaveText('Eigener Text')
  await shot(page, 'mail-texts-04-saved')

  // an invitation sent now carries it
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Jahresempfang', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Rathaus', city: 'Köln', maxVisitors: 50 },
  })
  const eventId = (await ev.json()).id as number
  const added = await (await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors`, { data: { salutation: 'Herr', firstName: 'Hans', lastName: 'Huber', email: 'hans@example.org' } })).json()
  expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors/${added.id}/invite`, { data: {} })).status()).toBe(200)
  const mail = await server.smtp.waitFor((m) => m.to.includes('hans@example.org'), 15_000)
  expect(mail.subject).toBe('Sei dabei: Jahresempfang')
  expect(mail.text).toContain('wir feiern <b>Jahresempfang</b> am')
  expect(mail.html).toContain('wir feiern &lt;b&gt;Jahresempfang&lt;/b&gt; am')

  // back to the default
  await page.getByRole('button', { name: 'Auf Standard zurücksetzen' }).click()
  await expect(page.getByTestId('mail-text-state')).toHaveText('Standardtext')
  await expect(page.getByLabel('Betreff')).toHaveValue('Einladung: {event}')
  await shot(page, 'mail-texts-05-reset')
  expect(violations).toEqual([])
})
