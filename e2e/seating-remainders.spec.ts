// Seating remainders (issue 14): a paid event where the seat decides the price, picked on a phone
// (the chairs price the order, the pay page names the seats); assign mode on the plan in the guest
// dialog; the editor's arc and align tools; the public page's worker; the plan drawn before the app.
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { expect, type Server, setupAdmin, shot, test } from './fixtures'
import { chairPoint } from './seat-map'

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }

async function paidEventWithPlan(page: Page, server: Server) {
  const req: APIRequestContext = page.request
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(18, 0, 0, 0)
  const ev = await req.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Sinfoniekonzert', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Gewandhaus', city: 'Leipzig', maxVisitors: 200, maxVisitorPerSubscription: 6 },
  })
  expect(ev.status()).toBe(201)
  const id = (await ev.json()).id as number
  const cats: number[] = []
  for (const c of [
    { displayName: 'Parkett', grossPrice: 4500, taxCode: 'TAX_7', quota: 50, sortOrder: 1 },
    { displayName: 'Rang', grossPrice: 2900, taxCode: 'TAX_7', quota: 50, sortOrder: 2 },
    { displayName: 'Programmheft', grossPrice: 500, taxCode: 'TAX_19', sortOrder: 3 },
  ]) {
    const r = await req.post(`${server.url}/proxy/api/events/${id}/ticketCategories`, { data: c })
    expect(r.status()).toBe(201)
    cats.push((await r.json()).id)
  }
  const ids: number[] = []
  const have = (await (await req.get(`${server.url}/proxy/api/agency/paymentMethods`)).json()) as Array<{ id: number; method: string }>
  const existing = have.find((x) => x.method === 'INVOICE')
  ids.push(existing ? existing.id : (await (await req.post(`${server.url}/proxy/api/agency/paymentMethods`, { data: { method: 'INVOICE' } })).json()).id)
  expect((await req.put(`${server.url}/proxy/api/events/${id}/paymentMethods`, { data: { ids } })).status()).toBe(200)
  const chairs: Array<Record<string, unknown>> = []
  for (const [r, row] of ['A', 'B'].entries()) for (let i = 1; i <= 8; i++) chairs.push({ label: `${row} ${i}`, priceCategory: 'parkett', percentX: 10 + i * 8, percentY: 25 + r * 14, percentWidth: 6, percentHeight: 10 })
  for (let i = 1; i <= 8; i++) chairs.push({ label: `R ${i}`, priceCategory: 'rang', percentX: 10 + i * 8, percentY: 70, percentWidth: 6, percentHeight: 10 })
  const saved = await req.put(`${server.url}/proxy/api/events/${id}/seatingplan`, {
    data: {
      priceCategories: [
        { key: 'parkett', displayName: 'Parkett', color: '#c2410c', ticketCategoryId: cats[0] },
        { key: 'rang', displayName: 'Rang', color: '#1d4ed8', ticketCategoryId: cats[1] },
      ],
      areas: [{ displayName: 'Großer Saal', chairs }],
    },
  })
  expect(saved.status()).toBe(200)
  const list = (await saved.json()).areas[0].chairs as Array<{ label: string; percentX: number; percentY: number; percentWidth: number; percentHeight: number }>
  return { id, chair: (label: string) => list.find((c) => c.label === label)! }
}

async function tapChair(canvas: Locator, c: { percentX: number; percentY: number; percentWidth: number; percentHeight: number }) {
  await canvas.tap({ position: await chairPoint(canvas, c) })
}

test('a paid event on a phone: the seats decide the tickets and their price, the pay page names the seats', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const { id, chair } = await paidEventWithPlan(page, server)
  const ctx = await browser.newContext(PHONE)
  try {
    const g = await ctx.newPage()
    await g.goto(`${server.url}/public/event/${id}`)
    const picker = g.getByRole('region', { name: 'Sitzplatz wählen' })
    const canvas = picker.getByRole('img', { name: /Saalplan Großer Saal/ })
    await expect(canvas).toBeVisible()
    // the legend names each category's price; seat-bound tickets have no +/- of their own
    await expect(picker.getByText('Parkett · 45,00 €')).toBeVisible()
    await expect(g.getByRole('button', { name: 'Ein Ticket mehr: Parkett' })).toHaveCount(0)
    await expect(g.getByRole('button', { name: 'Ein Ticket mehr: Programmheft' })).toBeVisible()

    await tapChair(canvas, chair('A 4'))
    const a4 = picker.getByRole('dialog', { name: 'A 4' })
    await expect(a4.getByText('45,00 €')).toBeVisible()
    await shot(g, 'seating-paid-01-popup-price')
    await a4.getByRole('button', { name: 'Platz reservieren' }).click()
    await expect(picker.getByRole('status')).toHaveText('Ihre Plätze: A 4')
    await tapChair(canvas, chair('R 2'))
    await picker.getByRole('dialog', { name: 'R 2' }).getByRole('button', { name: 'Platz reservieren' }).click()
    await expect(picker.getByRole('status')).toHaveText('Ihre Plätze: A 4, R 2')
    await g.getByRole('button', { name: 'Ein Ticket mehr: Programmheft' }).click()
    // 45 + 29 + 5
    await expect(g.locator('.ticket-total')).toContainText('79,00 €')
    await expect(g.locator('.ticket-total')).toContainText('3 × Ticket')
    await g.getByLabel('Anrede').selectOption('Frau')
    await g.getByLabel(/^Vorname( \*)?$/).fill('Sophie')
    await g.getByLabel(/^Nachname( \*)?$/).fill('Sitzplatz')
    await g.getByLabel('E-Mail-Adresse').fill('sophie@example.org')
    await g.locator('.ticket-picker').scrollIntoViewIfNeeded()
    await shot(g, 'seating-paid-02-tickets-by-seat')
    await g.getByRole('button', { name: 'Weiter zur Zahlung' }).click()
    await g.waitForURL(/\/pay\/[a-z2-7]{24}$/)
    const summary = g.locator('.pay-summary')
    await expect(summary.getByRole('row', { name: /1 × Parkett/ })).toContainText('Plätze: A 4')
    await expect(summary.getByRole('row', { name: /1 × Rang/ })).toContainText('Plätze: R 2')
    await expect(summary.getByRole('row', { name: /Gesamt/ })).toContainText('79,00 €')
    await shot(g, 'seating-paid-03-pay-seats')
    const order = (await (await page.request.get(`${server.url}/proxy/api/events/${id}/seatingplan/occupancy`)).json()) as unknown
    expect(JSON.stringify(order)).toContain('Parkett')
  } finally {
    await ctx.close()
  }
})

test('assign mode on the plan: the organiser taps one chair for a guest; chairs of another price category are blocked', async ({ page, server }) => {
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 21 * 86400_000)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Kammerkonzert', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Saal', city: 'Leipzig', maxVisitors: 100 },
  })
  const eventId = (await ev.json()).id as number
  const chairs: Array<Record<string, unknown>> = []
  for (let i = 1; i <= 8; i++) chairs.push({ label: `A ${i}`, priceCategory: 'parkett', percentX: 10 + i * 8, percentY: 25, percentWidth: 6, percentHeight: 10 })
  for (let i = 1; i <= 8; i++) chairs.push({ label: `R ${i}`, priceCategory: 'rang', percentX: 10 + i * 8, percentY: 65, percentWidth: 6, percentHeight: 10 })
  const saved = await page.request.put(`${server.url}/proxy/api/events/${eventId}/seatingplan`, {
    data: { priceCategories: [{ key: 'parkett', displayName: 'Parkett', color: '#c2410c' }, { key: 'rang', displayName: 'Rang', color: '#1d4ed8' }], areas: [{ displayName: 'Saal', chairs }] },
  })
  const list = (await saved.json()).areas[0].chairs as Array<{ id: number; label: string; percentX: number; percentY: number; percentWidth: number; percentHeight: number }>
  const chair = (label: string) => list.find((c) => c.label === label)!
  const g = await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors`, { data: { salutation: 'Herr', firstName: 'Gustav', lastName: 'Gastmann', email: 'gustav@example.org', status: 'CONFIRMED' } })
  const guestId = (await g.json()).id as number
  // the guest sits in the Rang already: that is his category
  expect((await page.request.put(`${server.url}/proxy/api/events/${eventId}/visitors/${guestId}/chair`, { data: { chairId: chair('R 1').id } })).status()).toBe(200)

  await page.setViewportSize({ width: 1300, height: 1000 })
  await page.goto(`${server.url}/events/${eventId}/guests`)
  await page.getByRole('button', { name: 'Gastmann' }).click()
  const seat = page.getByRole('region', { name: 'Sitzplatz' })
  await expect(seat.getByText('Nur Plätze der Kategorie Rang (die Kategorie des Gastes).')).toBeVisible()
  const canvas = seat.getByRole('img', { name: /Saalplan Saal/ })
  await canvas.scrollIntoViewIfNeeded()
  const click = async (label: string) => {
    const c = chair(label)
    await canvas.click({ position: await chairPoint(canvas, c) })
  }
  // a Parkett chair is blocked for him; the select offers none either
  await click('A 3')
  await expect(seat.getByRole('status')).toHaveText('A 3 gehört nicht zur Kategorie Rang des Gastes.')
  await expect(seat.getByLabel('Platz zuweisen').locator('option', { hasText: /^A / })).toHaveCount(0)
  await expect(seat.getByRole('button', { name: 'Zuweisen' })).toBeDisabled()
  // exactly one chair: a second tap replaces the first
  await click('R 5')
  await expect(seat.getByRole('status')).toHaveText('Gewählt: R 5')
  await click('R 3')
  await expect(seat.getByRole('status')).toHaveText('Gewählt: R 3')
  await expect(seat.getByLabel('Platz zuweisen')).toHaveValue(String(chair('R 3').id))
  await shot(page, 'seating-assign-01-plan')
  await seat.getByRole('button', { name: 'Zuweisen' }).click()
  await expect(seat.getByText('R 3', { exact: true })).toBeVisible()
  const v = await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/visitors/${guestId}`)).json()
  expect(v.chairs.map((c: { label: string }) => c.label)).toEqual(['R 3'])
  await shot(page, 'seating-assign-02-assigned')
})

test('the editor: a curved row on an arc, then the align tool straightens and spaces a selection (undo brings the arc back)', async ({ page, server }) => {
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 21 * 86400_000)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Theaterabend', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Theater', city: 'Leipzig', maxVisitors: 100 },
  })
  const eventId = (await ev.json()).id as number
  await page.setViewportSize({ width: 1400, height: 1000 })
  await page.goto(`${server.url}/events/${eventId}/seating`)
  await page.getByRole('button', { name: 'Kategorie hinzufügen' }).click()
  await page.getByLabel('Name der Kategorie 1').fill('Parkett')
  await page.getByRole('button', { name: 'Bereich hinzufügen' }).click()
  const tools = page.locator('.card', { has: page.getByRole('heading', { name: 'Werkzeuge' }) })
  await tools.getByRole('button', { name: 'Bogen', exact: true }).click()
  await tools.getByLabel('Anzahl Plätze').fill('9')
  await tools.getByLabel('Radius (% der Breite)').fill('35')
  await tools.getByLabel('Winkel (Grad)').fill('100')
  await tools.getByRole('button', { name: 'Bogenreihe einfügen' }).click()
  await expect(page.getByRole('heading', { name: '9 Plätze ausgewählt' })).toBeVisible()
  const ys = () => page.locator('.seating-svg .seating-chair').evaluateAll((els) => els.map((e) => Number(e.getAttribute('cy'))))
  const xs = () => page.locator('.seating-svg .seating-chair').evaluateAll((els) => els.map((e) => Number(e.getAttribute('cx'))))
  const arc = await ys()
  expect(arc).toHaveLength(9)
  // an arc: the middle chair highest, the ends lowest, symmetric
  expect(Math.min(...arc)).toBe(arc[4])
  expect(arc[0]).toBeCloseTo(arc[8], 1)
  expect(arc[0]).toBeGreaterThan(arc[2])
  await shot(page, 'seating-editor-01-arc')
  // align: the selection's tops on one line, a straight row
  const align = page.getByRole('group', { name: 'Ausrichten' })
  await align.getByRole('button', { name: 'Oben' }).click()
  const straight = await ys()
  expect(new Set(straight.map((y) => y.toFixed(2))).size).toBe(1)
  await shot(page, 'seating-editor-02-aligned')
  await page.getByRole('button', { name: 'Rückgängig' }).click()
  expect(await ys()).toEqual(arc)
  // distribute: evenly spaced by their middles
  await align.getByRole('button', { name: 'Waagerecht verteilen' }).click()
  const spaced = (await xs()).sort((a, b) => a - b)
  const gaps = spaced.slice(1).map((x, i) => x - spaced[i])
  for (const g of gaps) expect(g).toBeCloseTo(gaps[0], 0)
  await page.getByRole('button', { name: 'Sitzplan speichern' }).click()
  await expect(page.getByText('Sitzplan gespeichert.')).toBeVisible()
  const plan = await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/seatingplan`)).json()
  expect(plan.areas[0].chairs.map((c: { label: string }) => c.label)).toEqual(['A 1', 'A 2', 'A 3', 'A 4', 'A 5', 'A 6', 'A 7', 'A 8', 'A 9'])
})

test('the public page reads its plan through its worker, and asks itself when the worker cannot or answered an error', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const { id, chair } = await paidEventWithPlan(page, server)
  const base = `/proxy/api/public/events/${id}`
  const visit = async (prepare: (g: Page) => Promise<unknown>, screenshot?: string) => {
    const ctx = await browser.newContext(PHONE)
    const g = await ctx.newPage()
    const asked: string[] = []
    const workers: string[] = []
    g.on('request', (r) => r.url().includes(base) && asked.push(`${r.method()} ${new URL(r.url()).pathname}`))
    g.on('worker', (w) => workers.push(new URL(w.url()).pathname))
    await prepare(g)
    await g.goto(`${server.url}/public/event/${id}`)
    const canvas = g.getByRole('img', { name: /Saalplan Großer Saal/ })
    await expect(canvas).toBeVisible()
    // the plan is drawn (coloured pixels) and a tap on a chair opens it
    await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 === 0 && v > 150))).toBe(true)
    if (screenshot) await shot(g, screenshot)
    await tapChair(canvas, chair('B 3'))
    await expect(g.getByRole('dialog', { name: 'B 3' })).toBeVisible()
    // every early answer was taken by the page
    expect(await g.evaluate(() => Object.entries((window as { __einlassEarly?: Record<string, unknown> }).__einlassEarly ?? {}).filter(([k, v]) => k !== 'eventId' && v !== undefined))).toEqual([])
    return { g, ctx, workers, count: (path: string) => asked.filter((a) => a.split(' ')[1] === `${base}${path}`).length }
  }
  // as it is: the worker asked once for plan and area, the page not again
  const plain = await visit(async () => {})
  expect([plain.count('/seatingplan'), plain.count('/seatingplanArea')]).toEqual([1, 1])
  expect(plain.workers).toEqual([expect.stringMatching(/^\/assets\/page-worker-[a-z0-9]+\.js$/)])
  await plain.ctx.close()
  // a browser without workers: the page asks for plan and area itself
  const noWorker = await visit((g) => g.addInitScript(() => delete (window as { Worker?: unknown }).Worker))
  expect([noWorker.count('/seatingplan'), noWorker.count('/seatingplanArea')]).toEqual([1, 1])
  expect(noWorker.workers).toEqual([])
  await noWorker.ctx.close()
  // the worker's area answer is an error (the server was briefly busy): the page asks again and draws
  let refused = 0
  const retried = await visit((g) =>
    g.route(`**${base}/seatingplanArea`, (route) => (refused++ === 0 ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ status: 503, errorType: 'SERVICE_UNAVAILABLE', errorMessage: 'busy' }) }) : route.continue())),
    'seating-remainders-04-area-asked-again',
  )
  expect(refused).toBe(2)
  expect(retried.count('/seatingplanArea')).toBe(2)
  await retried.ctx.close()
})

test('the seating page draws the plan before the app: a chair opens at once and its button waits; the form takes the same plan on the same spot; no form, no plan', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const { id, chair } = await paidEventWithPlan(page, server)
  const ctx = await browser.newContext(PHONE)
  const g = await ctx.newPage()
  // the app's entry is held back: the guest sees what the plan-first module drew, and nothing else
  let release = () => {}
  const held = new Promise<void>((done) => (release = done))
  await g.route(/\/assets\/main-[a-z0-9]+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  await g.goto(`${server.url}/public/event/${id}`, { waitUntil: 'commit' })
  await expect(g.locator('link[rel="modulepreload"][data-app]')).toHaveCount(1)
  const canvas = g.getByRole('img', { name: /Saalplan Großer Saal/ })
  await expect(canvas).toBeVisible()
  await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 === 0 && v > 150))).toBe(true)
  await expect(g.getByRole('heading', { name: 'Sinfoniekonzert' })).toHaveCount(0)
  await expect(g.getByLabel(/^Vorname/)).toHaveCount(0)
  await shot(g, 'seating-remainders-05-plan-first')
  // what stands in for the page meets WCAG A and AA on its own (a main landmark around the plan)
  await expect(g.getByRole('main')).toHaveCount(1)
  const axe = await new AxeBuilder({ page: g }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  // a tap on a chair shows it; reserving waits for the form (the hold belongs to its visit)
  await tapChair(canvas, chair('B 3'))
  const popup = g.getByRole('dialog', { name: 'B 3' })
  await expect(popup).toBeVisible()
  await expect(popup).toContainText('Parkett')
  const reserve = popup.getByRole('button', { name: 'Platz reservieren' })
  await expect(reserve).toBeDisabled()
  await expect(reserve).toHaveAttribute('aria-busy', 'true')
  await shot(g, 'seating-remainders-06-plan-first-popup-waits')
  const before = (await canvas.boundingBox())!
  await canvas.evaluate((c) => void ((window as { drawnCanvas?: Element }).drawnCanvas = c))

  // the app arrives: page and form around the same canvas, which stays where the guest had it
  release()
  await expect(g.getByRole('heading', { name: 'Sinfoniekonzert' })).toBeAttached()
  await expect(g.getByLabel(/^Vorname/)).toBeAttached()
  await expect(g.locator('.plan-first')).toHaveCount(0)
  await expect(g.getByRole('main')).toHaveCount(1)
  expect(await canvas.evaluate((c) => c === (window as { drawnCanvas?: Element }).drawnCanvas && !!c.closest('form'))).toBe(true)
  const after = (await canvas.boundingBox())!
  expect(Math.abs(after.y - before.y)).toBeLessThan(2)
  expect(after.width).toBe(before.width)
  expect(await g.evaluate(() => scrollY)).toBeGreaterThan(100)
  // the open chair stayed open, now with the price of a paid event, and reserves
  await expect(popup).toBeVisible()
  await expect(popup).toContainText('45,00')
  await expect(reserve).toBeEnabled()
  await shot(g, 'seating-remainders-07-plan-first-taken-over')
  await reserve.click()
  await expect(g.getByText('Ihre Plätze: B 3')).toBeVisible()
  await expect(g.getByRole('timer')).toBeVisible()
  await ctx.close()

  // the event's answer is an error (here: the event is gone between the page and its answer): the
  // page shows the error and no form, and the drawn plan goes with it
  const gone = await browser.newContext(PHONE)
  const c = await gone.newPage()
  await c.route(`**/proxy/api/public/events/${id}`, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ status: 404, errorType: 'NOT_FOUND', errorMessage: 'Nicht gefunden.' }) }))
  await c.addInitScript(() => new MutationObserver(() => void (document.querySelector('.plan-first canvas') && ((window as { sawPlanFirst?: boolean }).sawPlanFirst = true))).observe(document, { childList: true, subtree: true }))
  await c.goto(`${server.url}/public/event/${id}`)
  await expect(c.getByRole('alert')).toContainText('Nicht gefunden')
  expect(await c.evaluate(() => (window as { sawPlanFirst?: boolean }).sawPlanFirst)).toBe(true)
  await expect(c.locator('.plan-first')).toHaveCount(0)
  await expect(c.getByRole('img', { name: /Saalplan/ })).toHaveCount(0)
  await shot(c, 'seating-remainders-08-plan-first-no-form')
  await gone.close()

  // a guest who chose English: the app starts at once (the drawn picker would speak German until the app has loaded English)
  const english = await browser.newContext(PHONE)
  const e = await english.newPage()
  await e.addInitScript(() => {
    localStorage.setItem('einlass.language', 'en')
    new MutationObserver(() => void (document.querySelector('.plan-first canvas') && ((window as { sawPlanFirst?: boolean }).sawPlanFirst = true))).observe(document, { childList: true, subtree: true })
  })
  await e.goto(`${server.url}/public/event/${id}`)
  await expect(e.locator('form').getByRole('img', { name: /Großer Saal/ })).toBeVisible()
  await expect(e.getByRole('heading', { name: 'Choose your seat' })).toBeVisible()
  expect(await e.evaluate(() => (window as { sawPlanFirst?: boolean }).sawPlanFirst ?? false)).toBe(false)
  await english.close()

  // registration over: the server sends the plain page, no plan drawn first
  const past = new Date(Date.now() - 86400_000).toISOString()
  const ev = (await (await page.request.get(`${server.url}/proxy/api/events/${id}`)).json()) as Record<string, unknown>
  expect((await page.request.put(`${server.url}/proxy/api/events/${id}`, { data: { ...ev, registrationUntil: past } })).status()).toBe(200)
  const closed = await browser.newContext(PHONE)
  const d = await closed.newPage()
  await d.goto(`${server.url}/public/event/${id}`)
  await expect(d.getByText('Die Anmeldung ist geschlossen.')).toBeVisible()
  await expect(d.locator('link[data-app]')).toHaveCount(0)
  await closed.close()
})
