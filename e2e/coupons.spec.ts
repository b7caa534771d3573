// Coupons in the organiser's Tickets tab (issue 21): a coupon with validity dates made in the editor
// and shown in the list; the bulk generator makes 5 one-use codes with a prefix, the CSV is
// downloaded and parsed, and the list shows each with usage 0 of 1.
import { readFile } from 'node:fs/promises'
import { expect, setupAdmin, shot, test } from './fixtures'

test('an organiser gives a coupon validity dates and generates 5 one-use codes as CSV', async ({ page, server }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 30 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Sommerfest', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Stadtpark', city: 'Leipzig', maxVisitors: 200, maxVisitorPerSubscription: 6 },
  })
  expect(ev.status()).toBe(201)
  const eventId = (await ev.json()).id as number
  expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/ticketCategories`, { data: { displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_7' } })).status()).toBe(201)

  await page.goto(`${server.url}/events/${eventId}/tickets`)
  await expect(page.getByRole('heading', { name: 'Gutscheine' })).toBeVisible()
  // one coupon with validity dates, typed into the editor
  const editor = page.locator('form.tickets-form').filter({ has: page.getByRole('button', { name: 'Gutschein anlegen' }) })
  await editor.getByLabel('Code').fill('SOMMER')
  await editor.getByLabel('Nachlass').fill('10')
  await editor.getByLabel('Gültig ab').fill('2030-06-01T10:00')
  await editor.getByLabel('Gültig bis').fill('2030-06-30T18:00')
  await editor.getByRole('button', { name: 'Gutschein anlegen' }).click()
  const row = page.getByRole('row', { name: /SOMMER/ })
  await expect(row).toContainText('01.06.2030')
  await expect(row).toContainText('30.06.2030')
  await expect(row).toContainText('0 von ∞ eingelöst')

  // five one-use codes with a prefix, downloaded as CSV
  const bulk = page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'Einmal-Codes erzeugen' }) })
  await bulk.getByLabel('Anzahl (höchstens 1000)').fill('5')
  await bulk.getByLabel('Präfix (optional)').fill('vip-')
  await bulk.getByLabel('Art').selectOption('FIXED')
  await bulk.getByLabel('Nachlass').fill('5,00')
  const [download] = await Promise.all([page.waitForEvent('download'), bulk.getByRole('button', { name: 'Codes erzeugen und herunterladen' }).click()])
  expect(download.suggestedFilename()).toBe(`gutscheine-${eventId}.csv`)
  const csv = await readFile((await download.path())!, 'utf8')
  const [head, ...lines] = csv.trim().split(/\r\n/)
  expect(head).toBe('code;valueType;reduction;categoryId;maxUses;validFrom;validUntil')
  expect(lines.length).toBe(5)
  const codes = lines.map((l) => l.split(';')[0])
  expect(new Set(codes).size).toBe(5)
  for (const c of codes) expect(c).toMatch(/^VIP-[A-Z2-9]{10}$/)
  await expect(page.getByText('5 Codes wurden erzeugt.')).toBeVisible()
  for (const c of codes) await expect(page.getByRole('row', { name: new RegExp(c) })).toContainText('0 von 1 eingelöst')
  await expect(page.getByRole('row', { name: new RegExp(codes[0]) })).toContainText('5,00 €')
  await shot(page, 'coupons-01-bulk-generated')
})
