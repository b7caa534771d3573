// The guest's seat picker is its own chunk: not loaded by the public page (publicPageScripts follows
// static imports only) and under 40 KB gzipped on top of it (issue 14, speed).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { bundleUi, publicPageScripts } from '../../../ui/bundle'

let outdir = ''
let result: Awaited<ReturnType<typeof bundleUi>>
beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'einlass-seat-budget-'))
  result = await bundleUi(outdir)
})
afterAll(() => rmSync(outdir, { recursive: true, force: true }))

test('the seat picker is a lazy chunk under 40 KB gzipped, not part of the public page', () => {
  const outputs = result.metafile!.outputs
  const chunk = Object.keys(outputs).find((o) => o.endsWith('.js') && Object.keys(outputs[o].inputs).some((i) => i.endsWith('ui/components/seat-picker/index.tsx')))
  expect(chunk).toBeDefined()
  const rel = relative(outdir, resolve(outdir, chunk!))
  const page = publicPageScripts(result.metafile!, outdir).map((s) => relative(outdir, resolve(outdir, s)))
  expect(page).not.toContain(rel)
  // what the chunk brings besides what the page has already loaded
  const own = [rel, ...outputs[chunk!].imports.filter((i) => i.kind === 'import-statement').map((i) => relative(outdir, resolve(outdir, join(chunk!, '..', i.path))))].filter((s) => !page.includes(s))
  const gz = own.reduce((s, f) => s + Bun.gzipSync(readFileSync(join(outdir, f)), { level: 9 }).length, 0)
  expect(gz).toBeGreaterThan(1000)
  expect(gz).toBeLessThan(40 * 1024)
})
