// The test command itself: without Postgres the suite runs its SQLite half with a notice, and with
// CI=true it refuses to run at all.
import { describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { BUN, ROOT } from './process'
import { patientTests } from './harness'

patientTests()

const UNREACHABLE = 'postgres://nobody@127.0.0.1:1/none'
const run = (env: Record<string, string>) =>
  spawnSync(BUN, ['test', 'server/i18n/format.test.ts'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TEST_POSTGRES_URL: UNREACHABLE, ...env }, encoding: 'utf8', timeout: 60_000 })

describe('bun test without Postgres', () => {
  test('prints a notice and runs the SQLite half', () => {
    const r = run({})
    expect(r.status).toBe(0)
    expect(r.stderr).toContain(`NOTICE: Postgres at ${UNREACHABLE} is unreachable`)
    expect(r.stderr).toContain('Postgres tests are skipped')
    expect(r.stderr).toMatch(/\d+ pass/)
  })

  test('fails loudly under CI=true', () => {
    const r = run({ CI: 'true' })
    expect(r.status).not.toBe(0)
    expect(r.stderr).toContain(`Postgres at ${UNREACHABLE} is unreachable`)
    expect(r.stderr).toContain('CI=true requires it')
  })
})
