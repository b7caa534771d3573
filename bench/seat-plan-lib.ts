// What the 5,000-chair benches share (bench/seat-plan-load.ts, bench/seat-plan-floor.ts): the phone,
// the browser, and an event whose plan has one area of 50 rows × 100 chairs in two price categories.
import { type Browser, chromium } from '@playwright/test'

export const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }

/** Debian's Chromium, headless, without the background work that would fall on the measured runs. */
export const launchChromium = () =>
  chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] })

/** Sets up the server (agency, organiser) and the arena event; answers the event's id. */
export async function arenaEvent(browser: Browser, url: string): Promise<number> {
  const api = await browser.newContext()
  const call = async (method: 'post' | 'put', path: string, data: unknown) => {
    const r = await api.request[method](`${url}${path}`, { data })
    if (!r.ok()) throw new Error(`${path}: ${r.status()} ${await r.text()}`)
    return r.json()
  }
  await call('post', '/proxy/api/setup', { agencyName: 'Bench', email: 'seats@example.org', password: 'Geheim123!', firstName: 'B', lastName: 'B' })
  const start = new Date(Date.now() + 30 * 86400_000)
  const event = await call('post', '/proxy/api/events', { displayName: 'Arena', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3600_000).toISOString(), maxVisitors: 10_000 })
  const chairs: Array<Record<string, unknown>> = []
  for (let r = 0; r < 50; r++)
    for (let i = 0; i < 100; i++) chairs.push({ label: `${r + 1} ${i + 1}`, priceCategory: r < 25 ? 'parkett' : 'rang', percentX: 0.5 + i * 0.99, percentY: 1 + r * 1.96, percentWidth: 0.8, percentHeight: 1.5 })
  await call('put', `/proxy/api/events/${event.id}/seatingplan`, {
    priceCategories: [
      { key: 'parkett', displayName: 'Parkett', color: '#c2410c' },
      { key: 'rang', displayName: 'Rang', color: '#1d4ed8' },
    ],
    areas: [{ displayName: 'Arena', chairs }],
  })
  await api.close()
  return event.id as number
}
