// `einlass license install FILE` (docs/operations.md "Several processes"): on Postgres the license
// goes into the database, so a process with an empty data dir shows it; a configured license file
// still wins; an invalid file is refused and nothing stored.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { postgresAvailable } from './testing/harness'
import { testLicenseText } from './testing/license-test-key'
import { createSchema } from './testing/postgres'
import { runCli } from './testing/process'

describe.if(postgresAvailable())('einlass license install on Postgres [postgres]', () => {
  test('installed into the database: shown by a process with another, empty data dir; a configured file wins', async () => {
    const s = await createSchema()
    try {
      const dir = mkdtempSync(join(tmpdir(), 'einlass-licinst-'))
      const good = join(dir, 'license.json')
      writeFileSync(good, testLicenseText({ licensee: 'Cluster GmbH' }))
      const bad = join(dir, 'bad.json')
      writeFileSync(bad, 'not json')
      const env = (data: string, more: Record<string, string> = {}) => ({ env: { DATABASE_URL: s.url, EINLASS_DATA_DIR: data, ...more }, timeoutMs: 120_000 })
      let r = runCli(['license', 'install', bad], env(mkdtempSync(join(tmpdir(), 'einlass-a-'))))
      expect(r.code).toBe(1)
      r = runCli(['license', 'install', good], env(mkdtempSync(join(tmpdir(), 'einlass-a-'))))
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      expect(r.stdout).toContain('installed into the database')
      r = runCli(['license', 'show'], env(mkdtempSync(join(tmpdir(), 'einlass-b-'))))
      expect(r.stdout).toContain('licensed to Cluster GmbH')
      expect(r.stdout).toContain('database (einlass license install)')
      const other = join(dir, 'other.json')
      writeFileSync(other, testLicenseText({ licensee: 'Datei AG' }))
      r = runCli(['license', 'show'], env(mkdtempSync(join(tmpdir(), 'einlass-c-')), { EINLASS_LICENSE_FILE: other }))
      expect(r.stdout).toContain('licensed to Datei AG')
    } finally {
      await s.drop()
    }
  }, 240_000)
})
