// The guest's seat picker is not part of the public page: an event with a seating plan gets the
// seating page (index-public-seating.html), whose first module (ui/apps/public/plan-first.tsx) draws
// the picker before the app; what that page loads on top of the public page stays under 40 KB
// gzipped (issue 14, speed), and the public page of other events loads none of it.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { bundleUi, publicPageScripts, seatPickerScripts } from '../../../ui/bundle'

let outdir = ''
let result: Awaited<ReturnType<typeof bundleUi>>
beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'einlass-seat-budget-'))
  result = await bundleUi(outdir)
})
afterAll(() => rmSync(outdir, { recursive: true, force: true }))

test('the seat picker and the seating page’s first module: under 40 KB gzipped on top of the public page, not part of it', () => {
  const outputs = result.metafile!.outputs
  const rel = (o: string) => relative(outdir, resolve(outdir, o))
  const holding = (input: string) => Object.keys(outputs).filter((o) => o.endsWith('.js') && Object.keys(outputs[o].inputs).some((i) => i.endsWith(input))).map(rel)
  const page = publicPageScripts(result.metafile!, outdir).map(rel)
  const extra = seatPickerScripts(result.metafile!, outdir).map(rel)
  // the picker and the plan-first module are in what the seating page adds, none of it on the public page
  for (const input of ['ui/components/seat-picker/index.tsx', 'ui/components/seat-picker/canvas.tsx', 'ui/apps/public/plan-first.tsx']) {
    expect(holding(input).length).toBeGreaterThan(0)
    for (const chunk of holding(input)) expect(page).not.toContain(chunk)
    expect(holding(input).some((c) => extra.includes(c))).toBe(true)
  }
  for (const s of extra) expect(page).not.toContain(s)
  const gz = extra.reduce((s, f) => s + Bun.gzipSync(readFileSync(join(outdir, f)), { level: 9 }).length, 0)
  expect(gz).toBeGreaterThan(1000)
  expect(gz).toBeLessThan(40 * 1024)
})
