// The guest pages' JavaScript budget (issue 11): the dashboard, opened from the mail's link, loads
// under 100 KB of JavaScript on the wire. Measured like the browser measures it
// (bench/guest-dashboard-load.ts, DevTools' bytes on the wire): the UI built as build.ts builds it,
// served by the app's own asset handler on a real port, the route loaded like a browser loads it
// (its scripts, their static imports as served, the guest area's chunk), each answer counted with
// its status line and headers (server/testing/page-weight.ts). Counting gzipped files from the
// bundler's metafile gave 99.5 KB while the browser fetched 104 KB: the headers of eight answers.
// The account area, the form engine, the no-permission and self check-in pages and the dialogs with
// forms (react-hook-form, zod) load on demand.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { buildUiFolder, pageScripts } from '../../../ui/bundle'
import { PARTS } from '../../../ui/i18n/german'
import { createApp } from '../../app'
import { diskAssets } from '../../http/ui-assets'
import { de } from '../../i18n/de'
import { type Harness, createHarness } from '../../testing/harness'
import { type WireFile, scriptsOfPage } from '../../testing/page-weight'

const BUDGET_BYTES = 100 * 1024

let dir = ''
let result: Awaited<ReturnType<typeof buildUiFolder>>['result']
let h: Harness
let server: ReturnType<typeof Bun.serve>
let dashboard: WireFile[]
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'einlass-guest-budget-'))
  ;({ result } = await buildUiFolder(dir))
  h = await createHarness('sqlite', { smtp: false })
  const app = createApp(h.ctx, { assets: diskAssets(dir) })
  server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.handle })
  // the mail's link: the token is read by the page's script, the HTML is the same for every guest
  dashboard = await scriptsOfPage(`http://127.0.0.1:${server.port}`, '/guest/dashboard?token=abc', result.metafile!, ['ui/apps/guest/index.tsx'])
}, 60_000)
afterAll(async () => {
  server?.stop(true)
  await h?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('the guest dashboard loads under 100 KB of JavaScript on the wire (headers included)', () => {
  const total = dashboard.reduce((a, f) => a + f.wire, 0)
  const report = dashboard.map((f) => `${(f.wire / 1024).toFixed(1)} KB ${f.path}`).join(', ')
  console.log(`guest dashboard: ${(total / 1024).toFixed(1)} KB of JavaScript on the wire (budget ${BUDGET_BYTES / 1024} KB): ${report}`)
  // the entry, the guest area's chunk and the chunks they import
  expect(dashboard.length).toBeGreaterThanOrEqual(3)
  expect(dashboard.every((f) => f.wire > f.body)).toBe(true)
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES)
})

test('the loaded scripts are the ones the bundler says the page needs (the count above misses none)', () => {
  const key = (p: string) => relative(dir, resolve(join(dir, 'assets'), p))
  const expected = pageScripts(result.metafile!, join(dir, 'assets'), ['ui/apps/guest/index.tsx']).map((s) => `/${key(s)}`)
  expect(dashboard.map((f) => f.path).sort()).toEqual(expected.sort())
})

test('what loads on demand is not among the dashboard’s scripts: forms, the form engine, account area, self check-in', () => {
  const inputs = dashboard.flatMap((f) => f.inputs)
  // the field-error dialog's label lookup (form-engine/labels.ts, a few lines) is all the dashboard may carry of the engine
  const early = inputs.filter((i) =>
    /ui\/components\/form-engine\/(?!labels\.ts$)|libphonenumber|react-hook-form|\/zod\/|ui\/apps\/account\/|ui\/apps\/guest\/(selfcheckin|nopermission|help-forms|report-dialog|details-dialog|agreements-dialog|data-dialog)\.tsx|signature-pad/.test(i),
  )
  expect(early).toEqual([])
})

test('every text key the guest pages name is in the German they load (core + guest part)', () => {
  const loaded = (k: string) => [...PARTS.core, ...PARTS.guest].some((p) => k === p || k.startsWith(`${p}.`))
  const outdir = join(dir, 'assets')
  const outputs = result.metafile!.outputs
  const key = (p: string) => relative(outdir, resolve(outdir, p))
  // the dashboard and what the guest area loads on demand with its own German (the account area and the
  // data change bring their own parts)
  const onDemand = ['selfcheckin', 'nopermission', 'help-forms', 'report-dialog', 'details-dialog', 'agreements-dialog'].map((f) => `ui/apps/guest/${f}.tsx`)
  const scripts = new Set(pageScripts(result.metafile!, outdir, ['ui/apps/guest/index.tsx', ...onDemand]))
  const inputs = Object.keys(outputs).filter((o) => scripts.has(key(o))).flatMap((o) => Object.keys(outputs[o].inputs))
  for (const f of onDemand) expect(inputs).toContain(f)
  const missing: string[] = []
  for (const input of inputs) {
    if (input.includes('node_modules') || !/\.(ts|tsx)$/.test(input) || input.includes('/i18n/')) continue
    const src = readFileSync(resolve(input), 'utf8')
    for (const [, k] of src.matchAll(/['"`]([a-z][A-Za-z]*\.[\w.]+)['"`]/g)) if (k in de && !loaded(k)) missing.push(`${input}: ${k}`)
    for (const [, prefix] of src.matchAll(/\bt\(\s*`([\w.]+\.)\$\{/g)) for (const k of Object.keys(de)) if (k.startsWith(prefix) && !loaded(k)) missing.push(`${input}: ${k}`)
  }
  expect(missing).toEqual([])
})
