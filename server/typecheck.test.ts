// The whole project type-checks (npm run typecheck: tsc -p ., strict, no unused imports or locals):
// bun runs TypeScript without checking it, so without this a wrong type or a leftover import would
// only be seen by whoever runs tsc by hand.
import { expect, test } from 'bun:test'
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')

test('tsc -p . finds nothing', () => {
  const run = Bun.spawnSync([process.execPath, resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  const out = `${run.stdout.toString()}${run.stderr.toString()}`.trim()
  expect(out).toBe('')
  expect(run.exitCode).toBe(0)
}, 180_000)
