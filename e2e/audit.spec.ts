// The audit log page (issue 22): an administrator sees who changed what — an event renamed with its
// before and after, a failed login — filters by what happened, and downloads the selection as CSV.
import { readFileSync } from 'node:fs'
import { PASSWORD, expect, setupAdmin, shot, test, watchCsp } from './fixtures'

test('the administrator reads the audit log, filters it and exports it', async ({ page, server, browser }) => {
  const violations = watchCsp(page)
  const { email } = await setupAdmin(page, server)
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(18, 0, 0, 0)
  const body = (displayName: string, maxVisitors: number) => ({ displayName, startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Stadthalle', city: 'Leipzig', maxVisitors })
  const created = await page.request.post(`${server.url}/proxy/api/events`, { data: body('Sommerfest', 100) })
  expect(created.status()).toBe(201)
  const eventId = (await created.json()).id
  expect((await page.request.put(`${server.url}/proxy/api/events/${eventId}`, { data: body('Herbstfest', 80) })).status()).toBe(200)
  // somebody tries the administrator's address with a wrong password
  const stranger = await browser.newContext()
  expect((await stranger.request.post(`${server.url}/auth/login`, { data: { email, password: `${PASSWORD}x` } })).status()).toBe(401)
  await stranger.close()

  await page.goto(`${server.url}/events`)
  await page.getByRole('link', { name: 'Protokoll' }).first().click()
  await expect(page).toHaveURL(/\/agency\/audit$/)
  await expect(page.getByRole('heading', { name: 'Protokoll' })).toBeVisible()
  const table = page.locator('table.audit-table')
  const renamed = table.getByRole('row').filter({ hasText: 'Veranstaltung geändert' })
  await expect(renamed).toHaveCount(1)
  await expect(renamed).toContainText('Sommerfest')
  await expect(renamed).toContainText('Herbstfest')
  await expect(renamed).toContainText(email)
  await expect(table.getByRole('row').filter({ hasText: 'Anmeldung fehlgeschlagen' })).toHaveCount(1)
  await shot(page, 'audit-01-log')

  // only what happened to events of this kind
  await page.getByLabel('Was').selectOption({ label: 'Veranstaltung geändert' })
  await page.getByRole('button', { name: 'Filtern' }).click()
  await expect(page.getByText('1 Einträge')).toBeVisible()
  await expect(table.getByRole('row').filter({ hasText: 'Anmeldung' })).toHaveCount(0)
  await shot(page, 'audit-02-filtered')

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Als CSV exportieren' }).click()])
  const csv = readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '')
  const [header, ...rows] = csv.trim().split('\n')
  expect(header).toBe('Zeit;Wer;Adresse;Was;Aktion;Veranstaltung;Objekt;Objekt-ID;Änderungen;Details;Anfrage-ID')
  expect(rows).toHaveLength(1)
  expect(rows[0]).toContain('event.update')
  expect(rows[0]).toContain('display_name: Sommerfest → Herbstfest')

  // on a phone the table scrolls inside its card
  await page.setViewportSize({ width: 390, height: 844 })
  await page.reload()
  await expect(table).toBeVisible()
  await shot(page, 'audit-03-phone')
  expect(violations).toEqual([])
})
