// Journeys run against the compiled binary (built by `npm run test:e2e` with the test license key),
// each test file with its own server: fresh data dir, free port, real SMTP sink.
import { test as base, expect, type Locator, type Page } from '@playwright/test'
import { mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SmtpSink } from '../server/testing/smtp-sink'
import { E2E_BINARY, freePort, type ServerProcess, startServerProcess } from '../server/testing/process'

const here = dirname(fileURLToPath(import.meta.url))
export const BINARY = E2E_BINARY
export const SHOTS = resolve(here, '.artifacts', 'screenshots')
mkdirSync(SHOTS, { recursive: true })
export { freePort }

export interface Server extends Omit<ServerProcess, 'stop'> {
  smtp: SmtpSink
  stop(): Promise<void>
}

/** The compiled binary on a free port with a fresh data dir and a real SMTP sink. */
export async function startServer(env: Record<string, string> = {}, opts: { dataDir?: string } = {}): Promise<Server> {
  const smtp = await new SmtpSink().start()
  const proc = await startServerProcess({
    command: [BINARY],
    dataDir: opts.dataDir,
    cleanup: true,
    env: { SMTP_URL: smtp.url, EINLASS_MAIL_FROM: 'einlass@example.org', ...env },
  })
  return {
    ...proc,
    smtp,
    async stop() {
      await proc.stop()
      await smtp.stop()
    },
  }
}

/** Saves a named screenshot for people to look at (e2e/.artifacts/screenshots). */
export async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
}

/** An <img> shown is not yet an image loaded: wait (as any expect does) until it decoded with a width. */
export async function expectImageLoaded(img: Locator) {
  await expect(img).toBeVisible()
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true)
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

/** Collects Content-Security-Policy violations a page reports (the UI must work under the CSP). */
export function watchCsp(page: Page): string[] {
  const violations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
  })
  return violations
}

type Fixtures = { server: Server }

/** One server per test (fresh database): journeys never see each other's data. */
export const test = base.extend<Fixtures>({
  server: async ({}, use) => {
    const s = await startServer()
    await use(s)
    await s.stop()
  },
  // every journey's main page fails on a CSP violation
  page: async ({ page }, use) => {
    const violations = watchCsp(page)
    await use(page)
    expect(violations, 'CSP violations').toEqual([])
  },
})
export { expect }
