// The floor under bench/seat-plan-load.ts: what the least a page can do costs on this machine. A page
// of one inline classic script asks for the same area of 5,000 chairs (as columns, from einlass), fills
// one rectangle per chair on a canvas and opens a popup for a tapped chair; measured exactly as the
// guest's page is (phone, 4× CPU throttling, a fresh context per run, the tap sent the moment the plan
// shows, "interactive" when the popup is in the document). No framework, no form, no styles: the
// navigation, one request, one parse and one draw. docs/seating.md compares the page with it.
//
//   node_modules/.bin/bun build.ts --test-license-key --outfile e2e/.artifacts/einlass
//   node_modules/.bin/bun bench/seat-plan-floor.ts [runs=7]
import { E2E_BINARY, startServerProcess } from '../server/testing/process'
import { PHONE, arenaEvent, launchChromium } from './seat-plan-lib'

const RUNS = Number(process.argv[2] ?? 7)
const server = await startServerProcess({ command: [E2E_BINARY], env: { EINLASS_LOG_LEVEL: 'error' } })
const browser = await launchChromium()
let pageServer: ReturnType<typeof Bun.serve> | undefined
try {
  const eventId = await arenaEvent(browser, server.url)
  const areaId = ((await (await fetch(`${server.url}/proxy/api/public/events/${eventId}/seatingplan`)).json()) as { areas: Array<{ id: number }> }).areas[0].id

  // the page: one request, one parse, one rectangle per chair in its category's colour, a tap's popup
  const html = `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Floor</title></head>
<body><canvas role="img" style="width:100%;display:block"></canvas><script>
fetch('/area', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ areaId: ${areaId}, chairFormat: 'columns' }) })
  .then((r) => r.json())
  .then((a) => {
    const cv = document.querySelector('canvas'), k = a.chairColumns, colour = new Map(a.priceCategories.map((p) => [p.id, p.color]))
    const w = cv.clientWidth, h = Math.round((w * 2) / 3), n = k.id.length
    cv.width = w * 2; cv.height = h * 2; cv.style.height = h + 'px'
    const g = cv.getContext('2d'); g.scale(2, 2)
    for (let i = 0; i < n; i++) { g.fillStyle = colour.get(k.priceCategory[i]) || '#5c7cfa'; g.fillRect((k.percentX[i] * w) / 100, (k.percentY[i] * h) / 100, (k.percentWidth[i] * w) / 100, (k.percentHeight[i] * h) / 100) }
    cv.addEventListener('pointerdown', (e) => {
      const r = cv.getBoundingClientRect(), x = ((e.clientX - r.left) / w) * 100, y = ((e.clientY - r.top) / h) * 100
      for (let i = 0; i < n; i++) if (x >= k.percentX[i] && x <= k.percentX[i] + k.percentWidth[i] && y >= k.percentY[i] && y <= k.percentY[i] + k.percentHeight[i]) {
        const d = document.createElement('div'); d.className = 'seat-popup'; d.innerHTML = '<h4></h4>'; d.firstChild.textContent = k.label[i]; document.body.append(d); return
      }
    })
  })
</script></body></html>`
  // served from its own origin: einlass' headers (CSP) forbid the inline script; the area is passed through
  pageServer = Bun.serve({
    port: 0,
    async fetch(req) {
      if (new URL(req.url).pathname === '/') return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
      const r = await fetch(`${server.url}/proxy/api/public/events/${eventId}/seatingplanArea`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: await req.text() })
      // the page's own answer is compressed as einlass compresses it
      const body = new Uint8Array(await r.arrayBuffer())
      const gz = /\bgzip\b/.test(req.headers.get('accept-encoding') ?? '')
      return new Response(gz ? Bun.gzipSync(body, { level: 1 }) : body, { status: r.status, headers: { 'content-type': 'application/json', ...(gz ? { 'content-encoding': 'gzip' } : {}) } })
    },
  })
  const waitDrawn = `new Promise((done) => {
    const check = () => {
      const c = document.querySelector('canvas')
      const line = c && c.width ? c.getContext('2d').getImageData(0, Math.floor(c.height * 0.5075), c.width, 1).data : []
      for (let i = 0; i < line.length; i += 4) if (Math.max(line[i], line[i + 2]) - line[i + 1] > 80) {
        new MutationObserver((_, o) => { if (document.querySelector('.seat-popup')) { window.__popupAt = performance.now(); o.disconnect() } }).observe(document.body, { childList: true, subtree: true })
        const r = c.getBoundingClientRect()
        return done({ at: performance.now(), x: r.left, y: r.top, w: r.width, h: r.height })
      }
      if (performance.now() > 30000) return done(0)
      setTimeout(check, 16)
    }
    check()
  })`
  const rows: Array<{ drawnAt: number; interactiveAt: number }> = []
  for (let run = 0; run < RUNS + 1; run++) {
    const ctx = await browser.newContext(PHONE)
    const page = await ctx.newPage()
    const cdp = await ctx.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    await page.goto(`http://127.0.0.1:${pageServer.port}/`, { waitUntil: 'commit' })
    const drawn = ((await cdp.send('Runtime.evaluate', { expression: waitDrawn, awaitPromise: true, returnByValue: true })) as { result: { value: { at: number; x: number; y: number; w: number; h: number } | 0 } }).result.value
    if (!drawn) throw new Error('the plan was not drawn within 30 s')
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: drawn.x + 0.504 * drawn.w, y: drawn.y + 0.5075 * drawn.h }] })
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
    let popupAt = 0
    for (const t = Date.now(); !popupAt && Date.now() - t < 10_000; ) {
      popupAt = ((await cdp.send('Runtime.evaluate', { expression: 'window.__popupAt || 0', returnByValue: true })) as { result: { value: number } }).result.value
      if (!popupAt) await Bun.sleep(20)
    }
    if (!popupAt) throw new Error('no popup after the tap')
    await ctx.close()
    // the first run warms the server and Chromium; it is not counted
    if (run > 0) rows.push({ drawnAt: Math.round(drawn.at), interactiveAt: Math.round(popupAt) })
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  console.table(rows)
  console.log(`floor: 5,000 chairs, phone, 4x CPU throttling, runs: ${rows.length}, median: plan drawn ${median(rows.map((r) => r.drawnAt))} ms, interactive ${median(rows.map((r) => r.interactiveAt))} ms after navigation start`)
} finally {
  await browser.close()
  pageServer?.stop(true)
  await server.stop()
}
