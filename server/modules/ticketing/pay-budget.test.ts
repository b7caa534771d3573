// The /pay page's JavaScript stays under 100 KB gzipped (issue 12): the entry, the pay chunk and
// what they import statically; it loads none of the signed-in areas' code or texts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { bundleUi } from '../../../ui/bundle'

const BUDGET_BYTES = 100 * 1024
let outdir = ''
let result: Awaited<ReturnType<typeof bundleUi>>
beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'einlass-pay-budget-'))
  result = await bundleUi(outdir)
}, 120_000)
afterAll(() => rmSync(outdir, { recursive: true, force: true }))

function payScripts(): string[] {
  const outputs = result.metafile!.outputs
  const key = (p: string) => relative(outdir, resolve(outdir, p))
  const entry = Object.keys(outputs).find((o) => o.endsWith('.js') && outputs[o].entryPoint)!
  const pay = Object.keys(outputs).find((o) => o.endsWith('.js') && Object.keys(outputs[o].inputs).some((i) => i.endsWith('ui/apps/pay/index.tsx')))!
  const seen = new Set<string>()
  const visit = (out: string) => {
    if (seen.has(key(out))) return
    seen.add(key(out))
    for (const imp of outputs[out].imports) {
      if (imp.kind !== 'import-statement') continue
      const target = Object.keys(outputs).find((o) => key(o) === key(join(out, '..', imp.path)))
      if (target) visit(target)
    }
  }
  visit(entry)
  visit(pay)
  return [...seen]
}

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
