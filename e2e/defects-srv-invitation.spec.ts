// Issue 10 item 5: an invited guest's "Teilnahme bestätigen" opens the registration form pre-filled
// with what the organiser knows (the e-mail locked), the required question must be answered, the
// invitation becomes the registration, and the guest can still decline afterwards.
import { linkIn } from '../server/testing/smtp-sink'
import { expect, setupAdmin, shot, test } from './fixtures'

test('confirming an invitation goes through the form; declining stays possible', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Jahresempfang', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Rathaus', city: 'Köln', maxVisitors: 50 },
  })
  const eventId = (await ev.json()).id as number
  expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/fields`, { data: { type: 'YES_NO', displayName: 'Hotel benötigt', appearance: 'REQUIRED' } })).status()).toBe(201)
  const added = await (await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors`, { data: { salutation: 'Herr', firstName: 'Hans', lastName: 'Huber', email: 'hans@example.org' } })).json()
  expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors/${added.id}/invite`, { data: {} })).status()).toBe(200)
  const mail = await server.smtp.waitFor((m) => m.to.includes('hans@example.org'), 15_000)

  const ctx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    const g = await ctx.newPage()
    await g.goto(linkIn(mail, '/guest/dashboard?token='))
    await expect(g.getByRole('heading', { name: 'Jahresempfang' })).toBeVisible()
    await g.getByRole('link', { name: 'Teilnahme bestätigen' }).click()
    await expect(g).toHaveURL(new RegExp(`/public/event/${eventId}$`))
    await expect(g.getByText('Sie sind eingeladen.', { exact: false })).toBeVisible()
    await expect(g.getByLabel(/^Vorname( \*)?$/)).toHaveValue('Hans')
    await expect(g.getByLabel(/^Nachname( \*)?$/)).toHaveValue('Huber')
    await expect(g.getByLabel('E-Mail-Adresse')).toHaveValue('hans@example.org')
    await shot(g, 'defects-srv-invitation-01-prefilled-phone')
    await g.getByRole('button', { name: 'Teilnahme bestätigen' }).click()
    await expect(g.locator('.has-error')).toContainText('Hotel benötigt')
    await g.getByRole('radio', { name: 'Ja' }).check()
    await g.getByRole('button', { name: 'Teilnahme bestätigen' }).click()
    await expect(g.getByRole('heading', { name: 'Vielen Dank für Ihre Anmeldung!' })).toBeVisible()
    await shot(g, 'defects-srv-invitation-02-confirmed-phone')

    // the organiser's list holds one entry: the invitation, now registered
    const list = await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/visitors`)).json()
    expect(list.items.map((x: any) => [x.id, x.status])).toEqual([[added.id, 'CONFIRMED']])

    // back on the dashboard the guest can still decline
    await g.goto(`${server.url}/guest/dashboard`)
    await expect(g.getByRole('button', { name: 'Teilnahme zurückziehen' })).toBeVisible()
    await shot(g, 'defects-srv-invitation-03-dashboard-can-decline-phone')
  } finally {
    await ctx.close()
  }
})
