// Issue 10 items 10 and 6 in the browser. A guest picks the last place of a timeslot and leaves the
// page: the hold is released at once (pagehide beacon), so the next guest sees the slot free. A guest
// with an escort takes both places of a 2-place slot, and the form says so.
import { expect, setupAdmin, shot, test } from './fixtures'

test('leaving the form releases the timeslot hold; a slot counts persons', async ({ page, server, browser }) => {
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Führungstag', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Museum', city: 'Köln', maxVisitors: 50, maxVisitorPerSubscription: 3 },
  })
  const eventId = (await ev.json()).id as number
  const f = await page.request.post(`${server.url}/proxy/api/events/${eventId}/fields`, {
    data: { type: 'TIMESLOT', displayName: 'Führung', appearance: 'REQUIRED', timeslots: [{ displayName: '10:00 Uhr', capacity: 2 }] },
  })
  const slotId = (await f.json()).timeslots[0].id as number
  const free = async () => (await (await page.request.post(`${server.url}/api/public/reservation/availabilities`, { data: { eventId } })).json())[slotId]

  const ctx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    const g = await ctx.newPage()
    await g.goto(`${server.url}/public/event/${eventId}`)
    const slot = g.getByRole('button', { name: /10:00 Uhr/ })
    await slot.click()
    await expect(slot).toHaveAttribute('aria-pressed', 'true')
    expect(await free()).toBe(1)
    // the guest leaves for another site: the hold goes with them
    await g.goto('about:blank')
    await expect.poll(free, { timeout: 5000 }).toBe(2)

    // back on the form: a guest with an escort takes both places
    await g.goto(`${server.url}/public/event/${eventId}`)
    await g.getByRole('button', { name: /10:00 Uhr/ }).click()
    await g.getByLabel('Anrede').first().selectOption('Frau')
    await g.getByLabel(/^Vorname( \*)?$/).first().fill('Anna')
    await g.getByLabel(/^Nachname( \*)?$/).first().fill('Becker')
    await g.getByLabel('E-Mail-Adresse').first().fill('anna@example.org')
    await g.getByRole('button', { name: 'Begleitperson hinzufügen' }).click()
    const escort = g.locator('fieldset', { hasText: 'Begleitperson 1' })
    await escort.getByLabel(/^Vorname/).fill('Eva')
    await escort.getByLabel(/^Nachname/).fill('Becker')
    await shot(g, 'defects-srv-holds-01-two-persons-phone')
    await g.getByRole('button', { name: /Anmeldung anfragen|anmelden/i }).click()
    await expect(g.getByRole('heading', { name: 'Vielen Dank für Ihre Anmeldung!' })).toBeVisible()
    expect(await free()).toBe(0)
    await g.goto(`${server.url}/public/event/${eventId}`)
    await expect(g.getByRole('button', { name: /10:00 Uhr/ })).toBeDisabled()
    await shot(g, 'defects-srv-holds-02-slot-full-phone')
  } finally {
    await ctx.close()
  }
})
