// Issue 5: the public registration page's JavaScript stays under 70 KB gzipped (80 KB until issue 25),
// counted for a form with a phone field (the early requests' script and its worker, entry, public
// chunk and its static imports, the phone chunk with libphonenumber and its metadata). Builds the
// UI the way build.ts does, into a temporary folder, and reads the bundler's metafile.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { bundleEarly, bundlePageWorker, bundleUi, publicPageScripts } from '../ui/bundle'
import { PARTS } from '../ui/i18n/german'
import { de } from './i18n/de'

const BUDGET_BYTES = 70 * 1024

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
  test('its scripts, with the phone chunk, stay under 70 KB gzipped', () => {
    const scripts = publicPageScripts(result.metafile!, outdir)
    const sizes = [...scripts.map((s) => join(outdir, s)), early, worker].map((s) => ({ s, gz: Bun.gzipSync(readFileSync(s), { level: 9 }).length }))
    const total = sizes.reduce((a, x) => a + x.gz, 0)
    const report = sizes.map((x) => `${(x.gz / 1024).toFixed(1)} KB ${x.s}`).join(', ')
    expect(scripts.length).toBeGreaterThanOrEqual(3)
    // the phone chunk is counted: libphonenumber's reader and its metadata (inlined into forms/phone.ts
    // by the macro of forms/phone-metadata.ts; the calling codes of all countries are in it)
    expect(inputsOf(scripts).some((i) => i.endsWith('server/modules/forms/phone.ts'))).toBe(true)
    expect(inputsOf(scripts).some((i) => i.endsWith('libphonenumber-js/es6/parsePhoneNumber_.js'))).toBe(true)
    const phoneChunk = scripts.find((s) => inputsOf([s]).some((i) => i.endsWith('server/modules/forms/phone.ts')))!
    const phoneSource = readFileSync(join(outdir, phoneChunk), 'utf8')
    for (const code of ['"DE"', '"US"', '"JP"', '"BR"', 'country_calling_codes']) expect(phoneSource).toContain(code)
    if (total > BUDGET_BYTES) console.error(`public page ${(total / 1024).toFixed(1)} KB gzipped, budget ${BUDGET_BYTES / 1024} KB: ${report}`)
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES)
  })

  test('loads the country table only for forms with a country or address field', () => {
    // forms/countries.ts (the names) is not in the page's static scripts: FormEngine imports it on demand
    expect(inputsOf(publicPageScripts(result.metafile!, outdir)).filter((i) => i.endsWith('server/modules/forms/countries.ts'))).toEqual([])
    expect(Object.values(result.metafile!.outputs).some((o) => Object.keys(o.inputs).some((i) => i.endsWith('server/modules/forms/countries.ts')))).toBe(true)
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
