// Issue 20, items C and 25. C: a seat plan drawn in the editor controls what is sold only once each
// price category is linked to a ticket category; while one is not, the guest's order is refused with
// the reason, and the tickets tab and the editor warn; the organiser links them in the editor and then
// the chair decides the ticket. 25: the seat map on a phone fits the chairs, zooms them to a tappable
// size, keeps its zoom buttons off the chairs and lists tables as tables.
import type { APIRequestContext, Page } from '@playwright/test'
import { expect, type Server, setupAdmin, shot, test } from './fixtures'
import { chairPoint } from './seat-map'

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }

async function event(req: APIRequestContext, server: Server, name: string) {
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(18, 0, 0, 0)
  const ev = await req.post(`${server.url}/proxy/api/events`, {
    data: { displayName: name, startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Stadthalle', city: 'Leipzig', maxVisitors: 200, maxVisitorPerSubscription: 6 },
  })
  expect(ev.status()).toBe(201)
  return (await ev.json()).id as number
}

/** A paid event with Parkett and Loge tickets, paid by invoice, and a plan whose categories the editor left unlinked. */
async function unlinkedPlan(page: Page, server: Server) {
  const req = page.request
  const id = await event(req, server, 'Kammerkonzert')
  for (const c of [
    { displayName: 'Parkett', grossPrice: 2500, taxCode: 'TAX_7', quota: 50, sortOrder: 1 },
    { displayName: 'Loge', grossPrice: 6000, taxCode: 'TAX_7', quota: 20, sortOrder: 2 },
  ])
    expect((await req.post(`${server.url}/proxy/api/events/${id}/ticketCategories`, { data: c })).status()).toBe(201)
  const m = await req.post(`${server.url}/proxy/api/agency/paymentMethods`, { data: { method: 'INVOICE' } })
  expect((await req.put(`${server.url}/proxy/api/events/${id}/paymentMethods`, { data: { ids: [(await m.json()).id] } })).status()).toBe(200)
  const chairs: Array<Record<string, unknown>> = []
  for (let i = 1; i <= 8; i++) chairs.push({ label: `A ${i}`, priceCategory: 'parkett', percentX: 10 + i * 9, percentY: 30, percentWidth: 7, percentHeight: 10 })
  chairs.push({ label: 'Loge 1', priceCategory: 'loge', viewType: 'RECTANGLE', percentX: 40, percentY: 60, percentWidth: 16, percentHeight: 14, places: 4, minAmount: 1, maxAmount: 4 })
  const saved = await req.put(`${server.url}/proxy/api/events/${id}/seatingplan`, {
    data: {
      priceCategories: [
        { key: 'parkett', displayName: 'Parkett', color: '#c2410c' },
        { key: 'loge', displayName: 'Loge', color: '#1d4ed8' },
      ],
      areas: [{ displayName: 'Saal', chairs }],
    },
  })
  expect(saved.status()).toBe(200)
  const list = (await saved.json()).areas[0].chairs as Array<{ label: string; percentX: number; percentY: number; percentWidth: number; percentHeight: number }>
  return { id, chair: (label: string) => list.find((c) => c.label === label)! }
}

async function fillBuyer(g: Page, last: string) {
  await g.getByLabel('Anrede').selectOption('Frau')
  await g.getByLabel(/^Vorname( \*)?$/).fill('Clara')
  await g.getByLabel(/^Nachname( \*)?$/).fill(last)
  await g.getByLabel('E-Mail-Adresse').fill(`${last.toLowerCase()}@example.org`)
}

test('an unlinked seat plan sells nothing and says why; the organiser links the categories in the editor; then the chair decides the ticket', async ({ page, server, browser }) => {
  test.setTimeout(150_000)
  await setupAdmin(page, server)
  const { id, chair } = await unlinkedPlan(page, server)
  const ctx = await browser.newContext(PHONE)
  try {
    // the guest tries to buy a Parkett ticket without a seat: refused, with the reason
    const g = await ctx.newPage()
    await g.goto(`${server.url}/public/event/${id}`)
    // the picker says it before the guest fills anything in
    const notice = 'Für diese Veranstaltung werden zurzeit keine Tickets verkauft: Der Saalplan ist noch nicht mit den Ticketkategorien verknüpft.'
    await expect(g.getByRole('region', { name: 'Sitzplatz wählen' }).getByText(notice)).toBeVisible()
    await g.getByRole('button', { name: 'Ein Ticket mehr: Parkett' }).click()
    await fillBuyer(g, 'Ohnesitz')
    await g.getByRole('button', { name: 'Weiter zur Zahlung' }).click()
    await expect(g.getByRole('alert').getByText(notice)).toBeVisible()
    await shot(g, 'seating-sales-01-guest-refused')

    // the tickets tab warns and leads to the plan
    await page.setViewportSize({ width: 1400, height: 1000 })
    await page.goto(`${server.url}/events/${id}/tickets`)
    const warning = page.getByText(/Es werden keine Tickets verkauft: Die Preiskategorien Parkett, Loge des Saalplans/)
    await expect(warning).toBeVisible()
    await shot(page, 'seating-sales-02-tickets-warning')
    await page.getByRole('link', { name: 'Zum Saalplan' }).click()
    await expect(page).toHaveURL(new RegExp(`/events/${id}/seating$`))
    // the editor: one select per price category, the unlinked ones marked
    await expect(page.getByText(/Es werden keine Tickets verkauft/)).toBeVisible()
    await expect(page.getByText('Ohne Ticketkategorie werden keine Tickets verkauft.')).toHaveCount(2)
    await shot(page, 'seating-sales-03-editor-unlinked')
    await page.getByLabel('Verkauft als Ticketkategorie (Parkett)').selectOption({ label: 'Parkett (25,00 €)' })
    await expect(page.getByText('Ohne Ticketkategorie werden keine Tickets verkauft.')).toHaveCount(1)
    await page.getByLabel('Verkauft als Ticketkategorie (Loge)').selectOption({ label: 'Loge (60,00 €)' })
    await expect(page.getByText(/Es werden keine Tickets verkauft/)).toHaveCount(0)
    await page.getByRole('button', { name: 'Sitzplan speichern' }).click()
    await expect(page.getByText('Sitzplan gespeichert.')).toBeVisible()
    await shot(page, 'seating-sales-04-editor-linked')
    // saved: the links come back from the server, and the tickets tab no longer warns
    await page.reload()
    await expect(page.getByLabel('Verkauft als Ticketkategorie (Parkett)').locator('option:checked')).toHaveText('Parkett (25,00 €)')
    await page.goto(`${server.url}/events/${id}/tickets`)
    await expect(page.getByRole('heading', { name: 'Ticketkategorien' })).toBeVisible()
    await expect(page.getByText(/Es werden keine Tickets verkauft/)).toHaveCount(0)

    // the guest again: Parkett is sold only with its chair, and the chair's category is the ticket
    const g2 = await ctx.newPage()
    await g2.goto(`${server.url}/public/event/${id}`)
    const picker = g2.getByRole('region', { name: 'Sitzplatz wählen' })
    const canvas = picker.getByRole('img', { name: /Saalplan Saal/ })
    await expect(canvas).toBeVisible()
    await expect(g2.getByRole('button', { name: 'Ein Ticket mehr: Parkett' })).toHaveCount(0)
    await expect(picker.getByText(/keine Tickets verkauft/)).toHaveCount(0)
    await canvas.tap({ position: await chairPoint(canvas, chair('A 3')) })
    await picker.getByRole('dialog', { name: 'A 3' }).getByRole('button', { name: 'Platz reservieren' }).click()
    await expect(picker.getByRole('status')).toHaveText('Ihre Plätze: A 3')
    await fillBuyer(g2, 'Mitsitz')
    await g2.getByRole('button', { name: 'Weiter zur Zahlung' }).click()
    await g2.waitForURL(/\/pay\/[a-z2-7]{24}$/)
    const summary = g2.locator('.pay-summary')
    await expect(summary.getByRole('row', { name: /1 × Parkett/ })).toContainText('Plätze: A 3')
    await expect(summary.getByRole('row', { name: /Gesamt/ })).toContainText('25,00 €')
    await shot(g2, 'seating-sales-05-pay-by-chair')
  } finally {
    await ctx.close()
  }
})

test('the seat map on a phone: fitted to the chairs, big enough to tap, zoom buttons off the chairs, tables listed as tables', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const id = await event(page.request, server, 'Theaterabend')
  // the plan: rows of small chairs in the middle of the default 1500 × 1000 canvas, and a table
  const chairs: Array<Record<string, unknown>> = []
  for (const [r, row] of ['A', 'B', 'C'].entries()) for (let i = 1; i <= 12; i++) chairs.push({ label: `${row} ${i}`, priceCategory: 'p', percentX: 25 + i * 3.2, percentY: 35 + r * 5, percentWidth: 2.3, percentHeight: 3.4 })
  chairs.push({ label: 'Tisch 1', priceCategory: 'p', viewType: 'CIRCLE', percentX: 70, percentY: 52, percentWidth: 5, percentHeight: 7, places: 6, minAmount: 1, maxAmount: 6 })
  const saved = await page.request.put(`${server.url}/proxy/api/events/${id}/seatingplan`, { data: { priceCategories: [{ key: 'p', displayName: 'Saal', color: '#1d4ed8' }], areas: [{ displayName: 'Theater', chairs }] } })
  expect(saved.status()).toBe(200)
  const list = (await saved.json()).areas[0].chairs as Array<{ label: string; percentX: number; percentY: number; percentWidth: number; percentHeight: number }>
  const ctx = await browser.newContext(PHONE)
  try {
    const g = await ctx.newPage()
    await g.goto(`${server.url}/public/event/${id}`)
    const picker = g.getByRole('region', { name: 'Sitzplatz wählen' })
    const canvas = picker.getByRole('img', { name: /Saalplan Theater/ })
    await expect(canvas).toHaveAttribute('data-view', /\d/)
    const [z, , , W, H] = (await canvas.getAttribute('data-view'))!.split(' ').map(Number)
    // at zoom 1 a chair is 2.3 % of 390 px ≈ 9 px; the first view makes it at least 24 px
    expect(Math.min(0.023 * W * z, 0.034 * H * z)).toBeGreaterThanOrEqual(23.9)
    // the zoom buttons are below the drawing, not on it
    const cb = (await canvas.boundingBox())!
    for (const name of ['Vergrößern', 'Verkleinern', 'Ganzer Plan']) {
      const b = (await picker.getByRole('button', { name }).boundingBox())!
      expect(b.y).toBeGreaterThanOrEqual(cb.y + cb.height - 0.5)
    }
    await shot(g, 'seating-sales-10-phone-first-view')
    // a chair in the middle of the view opens with one tap
    const b6 = list.find((c) => c.label === 'B 6')!
    await canvas.tap({ position: await chairPoint(canvas, b6) })
    await expect(picker.getByRole('dialog', { name: 'B 6' })).toBeVisible()
    await picker.getByRole('dialog', { name: 'B 6' }).getByRole('button', { name: 'Schließen' }).click()
    // the whole plan on request
    await picker.getByRole('button', { name: 'Ganzer Plan' }).click()
    await expect(canvas).toHaveAttribute('data-view', /^1 /)
    await shot(g, 'seating-sales-11-phone-whole-plan')
    // the list: rows as rows, the table as a table
    await picker.getByText('Freie Plätze als Liste').click()
    await expect(picker.getByRole('group', { name: 'Reihe A' })).toBeVisible()
    await expect(picker.getByRole('group', { name: 'Tische' }).getByRole('button', { name: /^Tisch 1 · Saal/ })).toBeVisible()
    await expect(picker.getByRole('group', { name: 'Reihe Tisch' })).toHaveCount(0)
    await picker.getByRole('group', { name: 'Tische' }).scrollIntoViewIfNeeded()
    await shot(g, 'seating-sales-12-phone-list-tables')
  } finally {
    await ctx.close()
  }
})
