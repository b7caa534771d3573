// Issue 5: the public registration page's JavaScript stays under 80 KB gzipped, counted for a form
// with a phone field (the early requests' script and its worker, entry, public chunk and its static
// imports, the libphonenumber chunk). Builds the
// UI the way build.ts does, into a temporary folder, and reads the bundler's metafile.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { bundleEarly, bundlePageWorker, bundleUi, publicPageScripts } from '../ui/bundle'
import { PARTS } from '../ui/i18n/german'
import { de } from './i18n/de'

const BUDGET_BYTES = 80 * 1024

let outdir = ''
let result: Awaited<ReturnType<typeof bundleUi>>
let early = ''
let worker = ''
beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'einlass-ui-budget-'))
  result = await bundleUi(outdir)
  early = await bundleEarly(outdir)
  worker = await bundlePageWorker(outdir)
})
afterAll(() => rmSync(outdir, { recursive: true, force: true }))

/** Source files (repo-relative) bundled into the given scripts. */
const inputsOf = (scripts: string[]) => {
  const outputs = result.metafile!.outputs
  return Object.keys(outputs)
    .filter((o) => scripts.includes(o.replace(/^\.\//, '')))
    .flatMap((o) => Object.keys(outputs[o].inputs))
}

describe('public registration page', () => {
  test('its scripts, with the phone chunk, stay under 80 KB gzipped', () => {
    const scripts = publicPageScripts(result.metafile!, outdir)
    const sizes = [...scripts.map((s) => join(outdir, s)), early, worker].map((s) => ({ s, gz: Bun.gzipSync(readFileSync(s), { level: 9 }).length }))
    const total = sizes.reduce((a, x) => a + x.gz, 0)
    const report = sizes.map((x) => `${(x.gz / 1024).toFixed(1)} KB ${x.s}`).join(', ')
    expect(scripts.length).toBeGreaterThanOrEqual(3)
    expect(inputsOf(scripts).some((i) => i.endsWith('libphonenumber-js/metadata.min.json.js'))).toBe(true)
    if (total > BUDGET_BYTES) console.error(`public page ${(total / 1024).toFixed(1)} KB gzipped, budget ${BUDGET_BYTES / 1024} KB: ${report}`)
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES)
  })

  test('loads no code or texts of the signed-in areas', () => {
    const inputs = inputsOf(publicPageScripts(result.metafile!, outdir))
    const leaks = inputs.filter((i) => /ui\/apps\/(organiser|auth|guest|account)\/|ui\/components\/(navigation-auth|layout)\.tsx|ui\/i18n\/part-rest\.ts|react-hook-form|\/zod\//.test(i))
    expect(leaks).toEqual([])
  })

  test('every text key its code names is in the German it loads (core + public part)', () => {
    const loaded = (k: string) => [...PARTS.core, ...PARTS.public].some((p) => k === p || k.startsWith(`${p}.`))
    const missing: string[] = []
    for (const input of inputsOf(publicPageScripts(result.metafile!, outdir))) {
      if (input.includes('node_modules') || !/\.(ts|tsx)$/.test(input) || input.includes('/i18n/')) continue
      const src = readFileSync(resolve(input), 'utf8') // metafile inputs are relative to the working directory
      for (const [, key] of src.matchAll(/['"`]([a-z][A-Za-z]*\.[\w.]+)['"`]/g)) if (key in de && !loaded(key)) missing.push(`${input}: ${key}`)
      // t(`events.registrationState.${state}`): every key under the prefix must be loaded
      for (const [, prefix] of src.matchAll(/\bt\(\s*`([\w.]+\.)\$\{/g))
        for (const key of Object.keys(de)) if (key.startsWith(prefix) && !loaded(key)) missing.push(`${input}: ${key}`)
    }
    expect(missing).toEqual([])
  })
})
