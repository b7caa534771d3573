// Conflicts of the offline desks (issue 26, docs/checkin-offline.md): two desks admitted one guest
// while offline and sent their queues; the event's check-in page lists the conflict with the guest,
// both desks and times, counts the guest once, and "Gesehen" marks it looked at. A check-in on another
// desk reaches the open desk through the live stream. Phone and tablet screenshots.
import { expect } from '@playwright/test'
import { setupAdmin, shot, test, watchCsp } from './fixtures'

test('check-in page: a conflict of two offline desks is listed and marked seen; the desk counts live', async ({ page, server }) => {
  test.setTimeout(120_000)
  const csp = watchCsp(page)
  await setupAdmin(page, server)
  const api = async (method: 'post' | 'get', path: string, data?: unknown) => {
    const r = await page.request[method](`${server.url}${path}`, data === undefined ? undefined : { data })
    expect(r.ok(), `${method} ${path}: ${r.status()} ${await r.text()}`).toBe(true)
    return r.json()
  }
  const start = new Date(Date.now() + 14 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const event = await api('post', '/proxy/api/events', {
    displayName: 'Sommerfest',
    startDate: start.toISOString(),
    endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(),
    timezone: 'Europe/Berlin',
    locationName: 'Stadtpark',
    city: 'Bremen',
  })
  const guest = (firstName: string, lastName: string) =>
    api('post', `/proxy/api/events/${event.id}/visitors`, { salutation: 'Frau', firstName, lastName, email: `${firstName.toLowerCase()}@example.org`, status: 'CONFIRMED' })
  const grete = await guest('Grete', 'Gast')
  const paula = await guest('Paula', 'Pfeil')
  const nord = (await api('post', `/proxy/api/events/${event.id}/checkin/desks`, { name: 'Eingang Nord' })).deskId
  const sued = (await api('post', `/proxy/api/events/${event.id}/checkin/desks`, { name: 'Eingang Süd' })).deskId
  const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString()
  // Nord sends first; Süd had admitted Grete two minutes earlier while offline
  const a = await api('post', `/proxy/api/events/${event.id}/checkin/sync`, { deskId: nord, items: [{ key: 'nord-1', visitorId: grete.id, person: 0, action: 'IN', at: ago(60) }] })
  expect(a.results[0].result).toBe('APPLIED')
  const b = await api('post', `/proxy/api/events/${event.id}/checkin/sync`, { deskId: sued, items: [{ key: 'sued-1', visitorId: grete.id, person: 0, action: 'IN', at: ago(120) }] })
  expect(b.results[0].result).toBe('CONFLICT')

  await page.setViewportSize({ width: 820, height: 1180 })
  await page.goto(`${server.url}/events/${event.id}/checkin`)
  const list = page.getByRole('region', { name: 'Konflikte zwischen Check-in-Desks' })
  await expect(list).toBeVisible()
  const row = list.getByRole('listitem', { name: 'Grete Gast' })
  await expect(row).toContainText('Eingang Süd')
  await expect(row).toContainText('Eingang Nord')
  // the earlier admission (Süd) is the one kept, in the first column
  await expect(row.locator('.conflict-first')).toContainText('Eingang Süd')
  await expect(row.locator('.conflict-second')).toContainText('Eingang Nord')
  // counted once
  const inside = page.locator('.desk-in .desk-count')
  await expect(inside).toHaveText('1')
  await shot(page, 'checkin-conflicts-tablet')

  await row.getByRole('button', { name: 'Gesehen', exact: true }).click()
  await expect(row.getByText(/^Gesehen am /)).toBeVisible()
  await expect(row.getByRole('button', { name: 'Gesehen', exact: true })).toHaveCount(0)

  // another desk checks Paula in: the open desk's count follows without a reload
  await api('post', `/proxy/api/events/${event.id}/checkin`, { visitorId: paula.id, checkinGuests: [0] })
  await expect(inside).toHaveText('2')

  await page.setViewportSize({ width: 390, height: 844 })
  await page.reload()
  await expect(list.getByRole('listitem', { name: 'Grete Gast' })).toBeVisible()
  await shot(page, 'checkin-conflicts-phone')
  expect(csp).toEqual([])
})
