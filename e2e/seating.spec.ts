// Seating journeys (issue 14): a guest on a phone picks two seats (one on the plan, one from the
// list of free seats), watches the countdown run out, picks again and registers; the seats show on
// the confirmation and in the organiser's guest list.
import type { Locator, Page } from '@playwright/test'
import { expect, type Server, setupAdmin, shot, startServer, test } from './fixtures'

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }

async function createEvent(page: Page, server: Server) {
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(18, 0, 0, 0)
  const r = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Herbstkonzert', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Stadthalle', city: 'Leipzig', maxVisitors: 100, maxVisitorPerSubscription: 4 },
  })
  expect(r.status()).toBe(201)
  return (await r.json()).id as number
}

/** Two rows of ten in the stalls, a row in the circle, a table of six; chair A 5 is taken by blocking. */
function hall() {
  const chairs: Array<Record<string, unknown>> = []
  for (const [r, row] of ['A', 'B'].entries())
    for (let i = 1; i <= 10; i++) chairs.push({ label: `${row} ${i}`, priceCategory: 'parkett', percentX: 12 + i * 6.5, percentY: 30 + r * 11, percentWidth: 5, percentHeight: 8, ...(row === 'A' && i === 5 ? { status: 'BLOCKED' } : {}), ...(row === 'B' && i === 1 ? { options: ['DISABLED_CHAIR'] } : {}) })
  for (let i = 1; i <= 10; i++) chairs.push({ label: `R ${i}`, priceCategory: 'rang', percentX: 12 + i * 6.5, percentY: 70, percentWidth: 5, percentHeight: 8 })
  chairs.push({ label: 'Tisch 1', priceCategory: 'rang', viewType: 'CIRCLE', percentX: 4, percentY: 62, percentWidth: 9, percentHeight: 13, places: 6, minAmount: 2, maxAmount: 4 })
  return {
    priceCategories: [
      { key: 'parkett', displayName: 'Parkett', color: '#c2410c' },
      { key: 'rang', displayName: 'Rang', color: '#1d4ed8' },
    ],
    areas: [{ displayName: 'Großer Saal', chairs }],
  }
}

/** Taps the middle of a chair on the canvas (chairs are placed in percent of the area). */
async function tapChair(canvas: Locator, c: { percentX: number; percentY: number; percentWidth: number; percentHeight: number }) {
  const box = (await canvas.boundingBox())!
  await canvas.tap({ position: { x: ((c.percentX + c.percentWidth / 2) / 100) * box.width, y: ((c.percentY + c.percentHeight / 2) / 100) * box.height } })
}

test('a guest on a phone picks two seats, the countdown runs out, picks again and registers', async ({ page, browser }) => {
  const server = await startServer({ EINLASS_TEST_RESERVATION_SECONDS: '8' })
  try {
    await setupAdmin(page, server)
    const eventId = await createEvent(page, server)
    const saved = await page.request.put(`${server.url}/proxy/api/events/${eventId}/seatingplan`, { data: hall() })
    expect(saved.status()).toBe(200)
    const chairs = (await saved.json()).areas[0].chairs as Array<{ label: string; percentX: number; percentY: number; percentWidth: number; percentHeight: number }>
    const chair = (label: string) => chairs.find((c) => c.label === label)!

    const ctx = await browser.newContext(PHONE)
    const g = await ctx.newPage()
    await g.goto(`${server.url}/public/event/${eventId}`)
    const picker = g.getByRole('region', { name: 'Sitzplatz wählen' })
    await expect(picker).toBeVisible()
    const canvas = picker.getByRole('img', { name: /Saalplan Großer Saal/ })
    await expect(canvas).toBeVisible()
    await expect(picker.getByRole('status')).toHaveText('Noch kein Platz gewählt.')
    await shot(g, 'seating-01-picker-phone')

    // a blocked chair says so and offers nothing
    await tapChair(canvas, chair('A 5'))
    const popup = picker.getByRole('dialog', { name: 'A 5' })
    await expect(popup.getByText('Dieser Platz steht leider nicht mehr zur Verfügung.')).toBeVisible()
    await popup.getByRole('button', { name: 'Schließen' }).click()

    // first seat: tapped on the plan
    await tapChair(canvas, chair('A 4'))
    const a4 = picker.getByRole('dialog', { name: 'A 4' })
    await expect(a4.getByText('Parkett')).toBeVisible()
    await expect(a4.getByText('1 von 1 Plätzen frei')).toBeVisible()
    await shot(g, 'seating-02-chair-popup')
    await a4.getByRole('button', { name: 'Platz reservieren' }).click()
    await expect(picker.getByRole('status')).toHaveText('Ihre Plätze: A 4')
    await expect(g.getByRole('timer')).toBeVisible()

    // second seat: from the list of free seats (the keyboard and screen-reader way)
    await picker.getByText('Freie Plätze als Liste').click()
    const rowB = picker.getByRole('group', { name: 'Reihe B' })
    await expect(picker.getByRole('group', { name: 'Reihe A' }).getByRole('button', { name: /^A 5/ })).toHaveCount(0)
    await rowB.getByRole('button', { name: /^B 1 · Parkett/ }).click()
    const b1 = picker.getByRole('dialog', { name: 'B 1' })
    await expect(b1.getByText('Rollstuhlplatz')).toBeVisible()
    await b1.getByRole('button', { name: 'Platz reservieren' }).click()
    await expect(picker.getByRole('status')).toHaveText('Ihre Plätze: A 4, B 1')
    await expect(rowB.getByRole('button', { name: /^✓ B 1/ })).toHaveAttribute('aria-pressed', 'true')
    await expect(g.getByRole('timer')).toContainText(/00:0\d/)
    await shot(g, 'seating-03-two-seats-countdown')

    // the countdown runs out: both seats are given back, the same message as for timeslots
    const expired = g.getByRole('dialog', { name: 'Reservierung abgelaufen' })
    await expect(expired).toBeVisible({ timeout: 15_000 })
    await shot(g, 'seating-04-expired')
    await expired.getByRole('button', { name: 'OK' }).click()
    await expect(picker.getByRole('status')).toHaveText('Noch kein Platz gewählt.')
    await expect(g.getByRole('timer')).toHaveCount(0)
    await expect(rowB.getByRole('button', { name: /^B 1 · Parkett/ })).toHaveAttribute('aria-pressed', 'false')

    // fills in the form, picks again (zoom buttons, then a tap) and registers before the short test countdown ends
    await g.getByLabel('Anrede').selectOption('Frau')
    await g.getByLabel(/^Vorname( \*)?$/).fill('Clara')
    await g.getByLabel(/^Nachname( \*)?$/).fill('Sitz')
    await g.getByLabel(/^E-Mail-Adresse( \*)?$/).fill('clara@example.org')
    await picker.getByRole('button', { name: 'Vergrößern' }).click()
    await picker.getByRole('button', { name: 'Ganzer Plan' }).click()
    await tapChair(canvas, chair('A 4'))
    await picker.getByRole('dialog', { name: 'A 4' }).getByRole('button', { name: 'Platz reservieren' }).click()
    await expect(picker.getByRole('status')).toHaveText('Ihre Plätze: A 4')
    await g.getByRole('button', { name: 'Verbindlich anmelden' }).click()
    await expect(g.getByText('Ihre Plätze: A 4')).toBeVisible()
    await shot(g, 'seating-05-confirmation')
    await ctx.close()

    // the organiser sees the seat in the guest list
    const list = await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/visitors`)).json()
    expect(list.items[0].chairs.map((c: { label: string }) => c.label)).toEqual(['A 4'])
  } finally {
    await server.stop()
  }
})
