// Issue 10 item 13: the organiser's "Link nach der Anmeldung" and its label appear on the
// confirmation screen (they were stored but never shown).
import { expect, setupAdmin, shot, test } from './fixtures'

test('the link after registration with its label on the confirmation', async ({ page, server, browser }) => {
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: {
      displayName: 'Hoffest',
      startDate: start.toISOString(),
      endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(),
      timezone: 'Europe/Berlin',
      locationName: 'Gut Lindenhof',
      city: 'Bonn',
      externalConfirmationLink: 'https://example.org/programm',
      externalConfirmationLabel: 'Zum Programm',
    },
  })
  expect(ev.status()).toBe(201)
  const eventId = (await ev.json()).id as number
  const ctx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    const g = await ctx.newPage()
    await g.goto(`${server.url}/public/event/${eventId}`)
    await g.getByLabel('Anrede').selectOption('Herr')
    await g.getByLabel(/^Vorname( \*)?$/).fill('Jan')
    await g.getByLabel(/^Nachname( \*)?$/).fill('Becker')
    await g.getByLabel('E-Mail-Adresse').fill('jan@example.org')
    await g.getByRole('button', { name: /Anmeldung anfragen|anmelden/i }).click()
    await expect(g.getByRole('heading', { name: 'Vielen Dank für Ihre Anmeldung!' })).toBeVisible()
    const link = g.getByRole('link', { name: 'Zum Programm' })
    await expect(link).toHaveAttribute('href', 'https://example.org/programm')
    await shot(g, 'defects-srv-confirmation-link-phone')
  } finally {
    await ctx.close()
  }
})
