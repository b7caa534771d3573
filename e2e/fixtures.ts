// Journeys run against the compiled binary (built by `npm run test:e2e` with the test license key),
// each test file with its own server: fresh data dir, free port, real SMTP sink.
import { test as base, expect, type Page } from '@playwright/test'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SmtpSink } from '../server/testing/smtp-sink'

const here = dirname(fileURLToPath(import.meta.url))
export const BINARY = resolve(here, '.artifacts', 'einlass')
export const SHOTS = resolve(here, '.artifacts', 'screenshots')
mkdirSync(SHOTS, { recursive: true })

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => res(port))
    })
    s.on('error', rej)
  })
}

export interface Server {
  url: string
  port: number
  dataDir: string
  smtp: SmtpSink
  proc: ChildProcess
  logs: string[]
  stop(): Promise<void>
}

export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const smtp = await new SmtpSink().start()
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'einlass-e2e-'))
  const logs: string[] = []
  const proc = spawn(BINARY, ['serve'], {
    cwd: dataDir,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      EINLASS_HOST: '127.0.0.1',
      EINLASS_DATA_DIR: dataDir,
      EINLASS_BASE_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: smtp.url,
      EINLASS_MAIL_FROM: 'einlass@example.org',
      EINLASS_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  proc.stdout!.on('data', (d) => logs.push(String(d)))
  proc.stderr!.on('data', (d) => logs.push(String(d)))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 15_000
  for (;;) {
    try {
      const r = await fetch(`${url}/ready`)
      if (r.ok) break
    } catch {}
    if (Date.now() > deadline) throw new Error(`server did not become ready:\n${logs.join('')}`)
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${logs.join('')}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    url,
    port,
    dataDir,
    smtp,
    proc,
    logs,
    async stop() {
      proc.kill('SIGTERM')
      await new Promise((r) => (proc.exitCode !== null ? r(null) : proc.once('exit', r)))
      await smtp.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Saves a named screenshot for people to look at (e2e/.artifacts/screenshots). */
export async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
}

export const PASSWORD = 'Geheim123!'

/** Creates the first agency and administrator through the setup page's API and logs in. */
export async function setupAdmin(page: Page, server: Server, opts: { email?: string; agency?: string } = {}) {
  const email = opts.email ?? 'admin@agentur.example'
  const r = await page.request.post(`${server.url}/proxy/api/setup`, {
    data: { agencyName: opts.agency ?? 'Agentur Sonnenschein', email, password: PASSWORD, firstName: 'Ada', lastName: 'Admin' },
  })
  expect(r.status()).toBe(200)
  return { email, password: PASSWORD }
}

type Fixtures = { server: Server }

/** One server per test (fresh database): journeys never see each other's data. */
export const test = base.extend<Fixtures>({
  server: async ({}, use) => {
    const s = await startServer()
    await use(s)
    await s.stop()
  },
})
export { expect }
