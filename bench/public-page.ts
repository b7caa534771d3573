// The public registration page as a browser loads it (figures in docs/benchmarks.md): the JavaScript
// it actually fetches (entry and lazy chunks, bytes on the wire) and the time until the form can be
// used (submit button visible) on throttled connections, via Chromium's DevTools protocol.
//
//   node_modules/.bin/bun build.ts --test-license-key --outfile e2e/.artifacts/einlass
//   node_modules/.bin/bun bench/public-page.ts
import { chromium } from '@playwright/test'
import { E2E_BINARY, startServerProcess } from '../server/testing/process'

const PROFILES = [
  // Chrome DevTools' presets
  { name: 'Regular 4G (4 Mbit/s, 20 ms)', download: (4 * 1024 * 1024) / 8, upload: (3 * 1024 * 1024) / 8, latency: 20 },
  { name: 'Fast 3G (1.44 Mbit/s, 562 ms)', download: (1.44 * 1024 * 1024) / 8, upload: (675 * 1024) / 8, latency: 562.5 },
  { name: 'unthrottled', download: -1, upload: -1, latency: 0 },
]

const server = await startServerProcess({ command: [E2E_BINARY], env: { EINLASS_LOG_LEVEL: 'error' } })
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] })
try {
  const api = await browser.newContext()
  const post = async (path: string, data: unknown) => {
    const r = await api.request.post(`${server.url}${path}`, { data })
    if (!r.ok()) throw new Error(`${path}: ${r.status()} ${await r.text()}`)
    return r.json()
  }
  await post('/proxy/api/setup', { agencyName: 'Bench', email: 'page@example.org', password: 'Geheim123!', firstName: 'B', lastName: 'B' })
  const start = new Date(Date.now() + 30 * 86400_000)
  const event = await post('/proxy/api/events', { displayName: 'Seitenlast', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3600_000).toISOString(), maxVisitors: 100 })
  // a realistic form: phone (libphonenumber), birthday, country table, timeslots, a choice list
  for (const f of [
    { type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'PHONE_NUMBER', displayName: 'Telefon' },
    { type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'BIRTHDAY', displayName: 'Geburtstag' },
    { type: 'COUNTRY', displayName: 'Land' },
    { type: 'LIST', displayName: 'Essen', values: ['Fleisch', 'Vegetarisch'] },
    { type: 'TIMESLOT', displayName: 'Zeitfenster', timeslots: [{ displayName: '10:00', capacity: 10 }, { displayName: '11:00', capacity: 10 }] },
  ]) await post(`/proxy/api/events/${event.id}/fields`, f)
  const plain = await post('/proxy/api/events', { displayName: 'Ohne Telefon', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3600_000).toISOString(), maxVisitors: 100 })
  await post(`/proxy/api/events/${plain.id}/fields`, { type: 'TIMESLOT', displayName: 'Zeitfenster', timeslots: [{ displayName: '10:00', capacity: 10 }] })
  await api.close()

  for (const [label, id] of [['form with phone, birthday, country, list, timeslots', event.id], ['form with timeslots, no phone field', plain.id]] as const) {
  console.log(`public registration page, ${label}: ${server.url}/public/event/${id}`)
  for (const p of PROFILES) {
    const ctx = await browser.newContext({ locale: 'de-DE' })
    const page = await ctx.newPage()
    const cdp = await ctx.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
    if (p.download > 0) await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: p.latency, downloadThroughput: p.download, uploadThroughput: p.upload })
    const scripts: Array<{ url: string; bytes: number }> = []
    const wire = new Map<string, number>()
    cdp.on('Network.loadingFinished', (e: any) => wire.set(e.requestId, e.encodedDataLength))
    const types = new Map<string, { url: string; type: string }>()
    cdp.on('Network.responseReceived', (e: any) => types.set(e.requestId, { url: e.response.url, type: e.type }))
    const t0 = Date.now()
    await page.goto(`${server.url}/public/event/${id}`)
    await page.getByRole('button', { name: 'Verbindlich anmelden' }).waitFor({ state: 'visible', timeout: 30_000 })
    const usable = Date.now() - t0
    await page.waitForLoadState('networkidle')
    for (const [id, info] of types) if (info.type === 'Script') scripts.push({ url: new URL(info.url).pathname, bytes: wire.get(id) ?? 0 })
    const total = scripts.reduce((a, s) => a + s.bytes, 0)
    console.log(`${p.name}: usable after ${usable} ms; JavaScript ${(total / 1024).toFixed(1)} KB on the wire in ${scripts.length} files`)
    if (p.name === 'unthrottled') for (const s of scripts.sort((a, b) => b.bytes - a.bytes)) console.log(`  ${(s.bytes / 1024).toFixed(1)} KB  ${s.url}`)
    await ctx.close()
  }
  }
} finally {
  await browser.close()
  await server.stop()
}
