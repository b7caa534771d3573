// The guest's seating plan of 5,000 chairs on a phone with 4× CPU throttling (issue 14's target:
// interactive in < 1 s; figures in docs/benchmarks.md). Per run, a fresh phone context loads the
// public page of an event whose plan has one area of 50 rows × 100 chairs and measures, from the
// navigation's start: the area answer (bytes on the wire and decoded, when it arrived), the first
// drawn plan (coloured pixels on the canvas) and a tap on a chair until its popup shows.
//
//   node_modules/.bin/bun build.ts --test-license-key --outfile e2e/.artifacts/einlass
//   node_modules/.bin/bun bench/seat-plan-load.ts [runs=5]
//   SEAT_BENCH_NET=4g … (on Regular 4G), SEAT_BENCH_BINARY=path … (another build, e.g. main's)
import { chromium } from '@playwright/test'
import { E2E_BINARY, startServerProcess } from '../server/testing/process'

const RUNS = Number(process.argv[2] ?? 5)
const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
// SEAT_BENCH_BINARY: another build to compare with (e.g. main's)
const server = await startServerProcess({ command: [process.env.SEAT_BENCH_BINARY ?? E2E_BINARY], env: { EINLASS_LOG_LEVEL: 'error' } })
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] })
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
try {
  const api = await browser.newContext()
  const call = async (method: 'post' | 'put', path: string, data: unknown) => {
    const r = await api.request[method](`${server.url}${path}`, { data })
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

  const rows: Array<{ areaWire: number; areaDecoded: number; areaAt: number; drawnAt: number; tap: number }> = []
  for (let run = 0; run < RUNS + 1; run++) {
    const ctx = await browser.newContext(PHONE)
    const page = await ctx.newPage()
    const cdp = await ctx.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    // SEAT_BENCH_NET=4g: Chrome DevTools' "Regular 4G" (4 Mbit/s down, 3 up, 20 ms) on top
    if (process.env.SEAT_BENCH_NET === '4g') await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: (4 * 1024 * 1024) / 8, uploadThroughput: (3 * 1024 * 1024) / 8 })
    const profile = process.env.SEAT_BENCH_PROFILE && run === 1
    if (profile) await cdp.send('Profiler.enable'), await cdp.send('Profiler.start')
    await page.goto(`${server.url}/public/event/${event.id}`)
    const canvas = page.getByRole('img', { name: /Saalplan Arena/ })
    await canvas.waitFor()
    // the first frame with chairs: a line of pixels through a row of chairs holds colour
    const drawnAt = await canvas.evaluate(
      (c: HTMLCanvasElement) =>
        new Promise<number>((done) => {
          const check = () => {
            const g = c.getContext('2d')!
            // the middle of row 26 (50.75 % of the plan)
            const line = g.getImageData(0, Math.floor(c.height * 0.5075), c.width, 1).data
            // a chair's colour (Parkett's red or Rang's blue), not the background's grey
            for (let i = 0; i < line.length; i += 4) if (Math.max(line[i], line[i + 2]) - line[i + 1] > 80) return done(performance.now())
            if (performance.now() > 30_000) return done(-1)
            requestAnimationFrame(check)
          }
          check()
        }),
    )
    if (profile) {
      // self time per function of the main thread, heaviest first (where the load goes)
      const { profile: prof } = (await cdp.send('Profiler.stop')) as { profile: { nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>; samples: number[]; timeDeltas: number[] } }
      const byNode = new Map(prof.nodes.map((n) => [n.id, n]))
      const self = new Map<string, number>()
      prof.samples.forEach((id, i) => {
        const f = byNode.get(id)!.callFrame
        const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`
        self.set(key, (self.get(key) ?? 0) + (prof.timeDeltas[i] ?? 0) / 1000)
      })
      console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, ms]) => `${ms.toFixed(0).padStart(6)} ms  ${k}`).join('\n'))
    }
    if (process.env.SEAT_BENCH_TRACE)
      console.log(
        await page.evaluate(() =>
          (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => `${Math.round(e.startTime)}–${Math.round(e.responseEnd)} ms ${e.name.replace(location.origin, '')} ${e.transferSize} B`).join('\n'),
        ),
      )
    const area = await page.evaluate(() => {
      const e = performance.getEntriesByType('resource').find((x) => x.name.includes('seatingplanArea')) as PerformanceResourceTiming
      return { wire: e.transferSize, decoded: e.decodedBodySize, at: e.responseEnd }
    })
    const box = (await canvas.boundingBox())!
    const t0 = Date.now()
    // chair "26 51": its middle at (50.4 %, 50.75 %) of the plan
    await canvas.tap({ position: { x: 0.504 * box.width, y: 0.5075 * box.height } })
    await page.getByRole('dialog', { name: '26 51' }).waitFor()
    const tap = Date.now() - t0
    await ctx.close()
    // the first run warms the server's caches and Chromium's code cache; it is not counted
    if (run > 0) rows.push({ areaWire: area.wire, areaDecoded: area.decoded, areaAt: Math.round(area.at), drawnAt: Math.round(drawnAt), tap })
  }
  console.log(`5,000 chairs, phone, 4x CPU throttling${process.env.SEAT_BENCH_NET === '4g' ? ', Regular 4G' : ''}, runs:`, rows.length)
  console.table(rows)
  console.log(
    `median: area answer ${(median(rows.map((r) => r.areaWire)) / 1024).toFixed(0)} KB on the wire (${(median(rows.map((r) => r.areaDecoded)) / 1024).toFixed(0)} KB decoded), ` +
      `arrived ${median(rows.map((r) => r.areaAt))} ms, plan drawn ${median(rows.map((r) => r.drawnAt))} ms after navigation start (${median(rows.map((r) => r.drawnAt - r.areaAt))} ms after the area arrived), tap to popup ${median(rows.map((r) => r.tap))} ms`,
  )
} finally {
  await browser.close()
  await server.stop()
}
