// A license installed while einlass runs is in force without a restart (server/license-watch.ts,
// docs/operations.md "License"): on Postgres `einlass license install` from a third place is seen by
// both running processes within seconds; on SQLite a license.json put into the data dir likewise.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LICENSE_POLL_MS } from '../license-watch'
import { postgresAvailable } from '../testing/harness'
import { testLicenseText } from '../testing/license-test-key'
import { runCli, type ServerProcess, startServerProcess } from '../testing/process'
import { twoProcessesOnPostgres } from '../testing/two-processes'

const WITHIN_MS = LICENSE_POLL_MS * 3

async function licenseOf(s: ServerProcess, cookie: string) {
  const r = await fetch(`${s.url}/proxy/api/license`, { headers: { cookie } })
  expect(r.status).toBe(200)
  return (await r.json()) as { edition: string; licensee: string | null }
}

/** ms until every process shows the licensee (or throws after WITHIN_MS) */
async function seenBy(all: ServerProcess[], cookie: string, licensee: string): Promise<number> {
  const t0 = Date.now()
  for (;;) {
    const seen = await Promise.all(all.map((s) => licenseOf(s, cookie)))
    if (seen.every((l) => l.edition === 'licensed' && l.licensee === licensee)) return Date.now() - t0
    if (Date.now() - t0 > WITHIN_MS) throw new Error(`after ${WITHIN_MS} ms: ${JSON.stringify(seen)}`)
    await Bun.sleep(100)
  }
}

describe.if(postgresAvailable())('license installed while two processes run on Postgres', () => {
  const p = twoProcessesOnPostgres({ env: { EINLASS_LOG_LEVEL: 'info' } })
  test('einlass license install: both processes show it within seconds, and a second one replaces it', async () => {
    const { one, two, url } = p()
    const cookie = await p().setupAgency('admin@lizenz-live.example')
    for (const s of [one, two]) expect((await licenseOf(s, cookie)).edition).toBe('community')
    const dir = mkdtempSync(join(tmpdir(), 'einlass-liclive-'))
    try {
      const install = (licensee: string) => {
        const file = join(dir, `${licensee}.json`)
        writeFileSync(file, testLicenseText({ licensee }))
        const r = runCli(['license', 'install', file], { env: { DATABASE_URL: url, EINLASS_DATA_DIR: mkdtempSync(join(dir, 'data-')) }, timeoutMs: 60_000 })
        expect(r.stderr).toBe('')
        expect(r.stdout).toContain('every running process takes it within seconds')
      }
      install('Live GmbH')
      const first = await seenBy([one, two], cookie, 'Live GmbH')
      install('Zweite AG')
      const second = await seenBy([one, two], cookie, 'Zweite AG')
      console.log('license-live figures', JSON.stringify({ firstMs: first, secondMs: second, pollMs: LICENSE_POLL_MS }))
      // the change is logged once per process
      for (const s of [one, two]) expect(s.logs.join('').split('license changed').length - 1).toBe(2)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})

test('SQLite: a license.json put into the data dir of the running process is in force within seconds', async () => {
  const s = await startServerProcess({ env: { EINLASS_LOG_LEVEL: 'info' } })
  try {
    const setup = await fetch(`${s.url}/proxy/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agencyName: 'Einzel GmbH', email: 'admin@einzel.example', password: 'Geheim123!', firstName: 'Ada', lastName: 'Admin' }),
    })
    expect(setup.status).toBe(200)
    const cookie = setup.headers.getSetCookie()[0].split(';')[0]
    expect((await licenseOf(s, cookie)).edition).toBe('community')
    writeFileSync(join(s.dataDir, 'license.json'), testLicenseText({ licensee: 'Datei GmbH' }), { mode: 0o600 })
    await seenBy([s], cookie, 'Datei GmbH')
  } finally {
    await s.stop()
  }
}, 60_000)
