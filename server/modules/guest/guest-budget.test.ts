// The guest pages' JavaScript budget (issue 11): the dashboard's scripts — the entry, the guest chunk
// and everything they import statically — stay under 100 KB gzipped. The account area and the form
// engine (data change) load on demand. Built the way build.ts builds, read from the metafile.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { bundleUi, pageScripts } from '../../../ui/bundle'
import { PARTS } from '../../../ui/i18n/german'
import { de } from '../../i18n/de'

const BUDGET_BYTES = 100 * 1024

let outdir = ''
let result: Awaited<ReturnType<typeof bundleUi>>
beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'einlass-guest-budget-'))
  result = await bundleUi(outdir)
})
afterAll(() => rmSync(outdir, { recursive: true, force: true }))

const guestPageScripts = (): string[] => pageScripts(result.metafile!, outdir, ['ui/apps/guest/index.tsx'])

test('the guest dashboard’s scripts stay under 100 KB gzipped; the form engine is not among them', () => {
  const scripts = guestPageScripts()
  const total = scripts.reduce((a, s) => a + Bun.gzipSync(readFileSync(join(outdir, s)), { level: 9 }).length, 0)
  if (total > BUDGET_BYTES) console.error(`guest pages ${(total / 1024).toFixed(1)} KB gzipped, budget ${BUDGET_BYTES / 1024} KB`)
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES)
  const outputs = result.metafile!.outputs
  const inputs = Object.keys(outputs)
    .filter((o) => scripts.includes(relative(outdir, resolve(outdir, o))))
    .flatMap((o) => Object.keys(outputs[o].inputs))
  // the form engine itself (its fields and evaluation) loads with the data change; the field-error
  // dialog's label lookup (form-engine/labels.ts, a few lines) is all the dashboard may carry of it
  expect(inputs.filter((i) => /ui\/components\/form-engine\/(?!labels\.ts$)|libphonenumber/.test(i))).toEqual([])
})

test('every text key the guest pages name is in the German they load (core + guest part)', () => {
  const loaded = (k: string) => [...PARTS.core, ...PARTS.guest].some((p) => k === p || k.startsWith(`${p}.`))
  const outputs = result.metafile!.outputs
  const key = (p: string) => relative(outdir, resolve(outdir, p))
  const scripts = new Set(guestPageScripts())
  const inputs = Object.keys(outputs).filter((o) => scripts.has(key(o))).flatMap((o) => Object.keys(outputs[o].inputs))
  const missing: string[] = []
  for (const input of inputs) {
    if (input.includes('node_modules') || !/\.(ts|tsx)$/.test(input) || input.includes('/i18n/')) continue
    const src = readFileSync(resolve(input), 'utf8')
    for (const [, k] of src.matchAll(/['"`]([a-z][A-Za-z]*\.[\w.]+)['"`]/g)) if (k in de && !loaded(k)) missing.push(`${input}: ${k}`)
    for (const [, prefix] of src.matchAll(/\bt\(\s*`([\w.]+\.)\$\{/g)) for (const k of Object.keys(de)) if (k.startsWith(prefix) && !loaded(k)) missing.push(`${input}: ${k}`)
  }
  expect(missing).toEqual([])
})
