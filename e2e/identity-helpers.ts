// Helpers of the identity journeys.
import { expect, type Page } from '@playwright/test'
import { spawnSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { linkIn } from '../server/testing/smtp-sink'
import { PASSWORD, type Server } from './fixtures'

const here = dirname(fileURLToPath(import.meta.url))

/**
 * The new-password form's rules, then a valid password: a weak one and a mismatch are refused with
 * their messages and the strength checklist, the strong one ticks all six rules; `shot` takes the
 * picture of the refused state. Leaves the form filled, not submitted.
 */
export async function passwordRules(page: Page, password: string, shot: () => Promise<void>) {
  const save = page.getByRole('button', { name: 'Passwort speichern' })
  await page.getByLabel(/^Neues Passwort/).fill('kurz')
  await page.getByLabel(/^Passwort wiederholen/).fill('anders')
  await save.click()
  await expect(page.getByText('Das Passwort ist zu schwach.')).toBeVisible()
  await expect(page.getByText('Die Passwörter stimmen nicht überein.')).toBeVisible()
  await expect(page.locator('.checklist li.ok')).toHaveCount(2)
  await shot()
  await page.getByLabel(/^Neues Passwort/).fill(password)
  await page.getByLabel(/^Passwort wiederholen/).fill(password)
  await expect(page.locator('.checklist li.ok')).toHaveCount(6)
  return save
}

/** Fills the login page and submits it. */
export async function loginUi(page: Page, server: Server, email: string, password = PASSWORD) {
  await page.goto(`${server.url}/login`)
  await page.getByLabel('E-Mail-Adresse').fill(email)
  await page.getByLabel(/^Passwort( \*)?$/).fill(password)
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
}

/** A second agency with its administrator, written straight into the test server's SQLite file. */
export function seedAgency(server: Server, o: { agency: string; email: string; password?: string; firstName: string; lastName: string }) {
  seed(server, ['agency', o.agency, o.email, o.password ?? PASSWORD, o.firstName, o.lastName])
}

/** Gives an existing user `count` more editor accounts, each in a new agency ("Filiale NN"). */
export function seedAccounts(server: Server, email: string, count: number) {
  seed(server, ['accounts', email, String(count)])
}

function seed(server: Server, args: string[]) {
  const bun = resolve(here, '..', 'node_modules', '.bin', 'bun')
  const [mode, ...rest] = args
  const r = spawnSync(bun, [resolve(here, 'identity-seed.ts'), mode, join(server.dataDir, 'einlass.sqlite'), ...rest], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`seeding failed: ${r.stderr}`)
}

/** The link of the newest mail to an address whose subject matches. */
export async function mailLink(server: Server, to: string, subject: RegExp, path: string) {
  const mail = await server.smtp.waitFor((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject), 15_000)
  const all = server.smtp.mails.filter((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject))
  return linkIn(all[all.length - 1] ?? mail, path)
}
