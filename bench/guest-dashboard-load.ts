// The guest dashboard as a phone's browser loads it from the confirmation mail's link
// (/guest/dashboard?token=…) for a guest registered for 50 events: the JavaScript it fetches (bytes on
// the wire) and the time until it is usable (navigation start → the first event's card visible with
// the count of 50), on Regular 4G and unthrottled, via Chromium's DevTools protocol as
// bench/public-page.ts does (cache disabled, a fresh browser context per run). Target (issue 11):
// usable in < 1.5 s on Regular 4G. RUNS runs per profile; the median decides.
//   node_modules/.bin/bun build.ts --test-license-key --outfile e2e/.artifacts/einlass
//   node_modules/.bin/bun bench/guest-dashboard-load.ts   # RUNS=5 SCREENSHOT=/tmp/dashboard.png
import { chromium } from '@playwright/test'
import { guestWithEvents } from './guest-lib'
import { startBinary } from './organiser-lib'
import { verdicts } from './wrk'

const RUNS = Number(process.env.RUNS ?? 5)
const PROFILES = [
  { name: 'Regular 4G (4 Mbit/s, 20 ms)', download: (4 * 1024 * 1024) / 8, upload: (3 * 1024 * 1024) / 8, latency: 20, target: 1500 },
  { name: 'unthrottled', download: -1, upload: -1, latency: 0, target: null },
]

const s = await startBinary({ EINLASS_LOG_LEVEL: 'error' }, { license: true })
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] })
const rows: Parameters<typeof verdicts>[0] = []
try {
  const guest = await guestWithEvents(s, 50)
  const url = `${s.url}/guest/dashboard?token=${encodeURIComponent(guest.token)}`
  for (const p of PROFILES) {
    const times: number[] = []
    let js = 0
    let files = 0
    for (let run = 0; run < RUNS; run++) {
      const ctx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
      const page = await ctx.newPage()
      const cdp = await ctx.newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
      if (p.download > 0) await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: p.latency, downloadThroughput: p.download, uploadThroughput: p.upload })
      const wire = new Map<string, number>()
      const types = new Map<string, string>()
      const urls = new Map<string, string>()
      cdp.on('Network.loadingFinished', (e: any) => wire.set(e.requestId, e.encodedDataLength))
      cdp.on('Network.responseReceived', (e: any) => (types.set(e.requestId, e.type), urls.set(e.requestId, e.response.url)))
      const t0 = Date.now()
      await page.goto(url)
      const section = page.getByTestId('section-confirmedEvents')
      await section.getByRole('heading', { name: 'Veranstaltung 1', exact: true }).waitFor({ state: 'visible', timeout: 30_000 })
      await section.locator('.count').filter({ hasText: '50' }).waitFor({ state: 'visible', timeout: 30_000 })
      times.push(Date.now() - t0)
      await page.waitForLoadState('networkidle')
      js = 0
      files = 0
      const scripts: string[] = []
      for (const [id, type] of types) if (type === 'Script') (js += wire.get(id) ?? 0), files++, scripts.push(`${((wire.get(id) ?? 0) / 1024).toFixed(1)} KB ${urls.get(id)?.replace(/^.*\//, '')}`)
      if (run === 0 && p.download < 0) console.log(`scripts on the wire: ${scripts.join(', ')}`)
      if (run === 0 && p.download < 0 && process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT })
      await ctx.close()
    }
    const sorted = [...times].sort((a, b) => a - b)
    const median = sorted[Math.floor(sorted.length / 2)]
    console.log(`${p.name}: usable after ${times.join(' / ')} ms (median ${median} ms); JavaScript ${(js / 1024).toFixed(1)} KB on the wire in ${files} files`)
    rows.push({ what: `dashboard with 50 events usable, ${p.name}`, measured: `median ${median} ms of ${RUNS}`, target: p.target ? `< ${p.target} ms` : 'reported', pass: p.target ? median < p.target : true })
  }
} finally {
  await browser.close()
  await s.stop()
}
process.exitCode = verdicts(rows) ? 0 : 1
