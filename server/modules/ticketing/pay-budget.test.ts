// The /pay page's JavaScript stays under 100 KB gzipped (issue 12): the entry, the pay chunk and
// what they import statically; it loads none of the signed-in areas' code or texts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundleUi, pageScripts } from '../../../ui/bundle'

const BUDGET_BYTES = 100 * 1024
let outdir = ''
let result: Awaited<ReturnType<typeof bundleUi>>
beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'einlass-pay-budget-'))
  result = await bundleUi(outdir)
}, 120_000)
afterAll(() => rmSync(outdir, { recursive: true, force: true }))

const payScripts = (): string[] => pageScripts(result.metafile!, outdir, ['ui/apps/pay/index.tsx'])

describe('pay page', () => {
  test('its scripts stay under 100 KB gzipped and hold no signed-in area', () => {
    const scripts = payScripts()
    const total = scripts.reduce((a, s) => a + Bun.gzipSync(readFileSync(join(outdir, s)), { level: 9 }).length, 0)
    expect(scripts.length).toBeGreaterThanOrEqual(2)
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES)
    const inputs = Object.keys(result.metafile!.outputs)
      .filter((o) => scripts.includes(o.replace(/^\.\//, '')))
      .flatMap((o) => Object.keys(result.metafile!.outputs[o].inputs))
    expect(inputs.filter((i) => /ui\/apps\/(organiser|auth|guest|account)\/|ui\/i18n\/part-rest\.ts|react-hook-form/.test(i))).toEqual([])
  })
})
