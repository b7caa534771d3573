// Staff single sign-on through a real OpenID provider (server/testing/fakes/oidc.ts in a Bun process
// of its own): the administrator sets up the company login, a colleague signs in with it and gets an
// account, and the refusals (e-mail outside the allowed domains, wrong audience, expired token, a
// replayed answer) end on the login page with their German message.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createInterface } from 'node:readline'
import type { Browser, Page } from '@playwright/test'
import { expect, type Server, setupAdmin, shot, test } from './fixtures'

type Idp = { issuer: string; clientId: string; clientSecret: string }

async function startIdp(): Promise<{ idp: Idp; stop(): void }> {
  const bun = existsSync('node_modules/.bin/bun') ? 'node_modules/.bin/bun' : 'bun'
  const proc = spawn(bun, ['server/testing/fakes/oidc-serve.ts'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise<string>((resolve) => createInterface({ input: proc.stdout! }).once('line', resolve))
  return { idp: JSON.parse(line), stop: () => proc.kill() }
}

/** From the login page through the provider's form; answers the page back at einlass. */
async function companyLogin(browser: Browser, server: Server, email: string, mode = 'Normal', atProvider = email): Promise<{ page: Page; callback: string }> {
  const ctx = await browser.newContext({ locale: 'de-DE' })
  const page = await ctx.newPage()
  await page.goto(`${server.url}/login`)
  await page.getByRole('button', { name: 'Mit Firmen-Login anmelden' }).click()
  await page.getByLabel('Dienstliche E-Mail-Adresse').fill(email)
  await page.getByRole('button', { name: 'Weiter zum Firmen-Login' }).click()
  await expect(page.getByRole('heading', { name: 'Firmen-Login' })).toBeVisible()
  await page.getByLabel('E-Mail-Adresse').fill(atProvider)
  await page.getByLabel('Testfall').selectOption({ label: mode })
  let callback = ''
  page.on('request', (r) => {
    if (r.url().includes('/proxy/auth/sso/callback')) callback = r.url()
  })
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
  await page.waitForURL((u) => u.origin === server.url && !u.pathname.startsWith('/proxy/'))
  return { page, callback }
}

test.describe('company login (OpenID Connect)', () => {
  let idp: Awaited<ReturnType<typeof startIdp>>
  test.beforeAll(async () => {
    idp = await startIdp()
  })
  test.afterAll(() => idp?.stop())

  test('the administrator sets it up; a colleague signs in with it; refusals are explained', async ({ page, server, browser }) => {
    await setupAdmin(page, server)
    await page.goto(`${server.url}/events`)
    await page.getByRole('link', { name: 'Firmen-Login' }).click()
    await expect(page.getByRole('heading', { name: 'Firmen-Login (OpenID Connect)' })).toBeVisible()
    await expect(page.getByTestId('sso-redirect-uri')).toHaveText(`${server.url}/proxy/auth/sso/callback`)
    // a URL that is no provider is refused when saving
    await page.getByLabel('Firmen-Login einschalten').check()
    await page.getByLabel('Aussteller-URL (Issuer)').fill(`${idp.idp.issuer}/falsch`)
    await page.getByLabel('Client-ID').fill(idp.idp.clientId)
    await page.getByLabel('Client-Secret').fill(idp.idp.clientSecret)
    await page.getByLabel('Erlaubte E-Mail-Domains (eine pro Zeile)').fill('firma.example')
    await page.getByLabel('Unbekannte Mitarbeitende').selectOption({ label: 'Beim ersten Login ein Konto mit dieser Rolle anlegen: Redakteur' })
    await page.getByRole('button', { name: 'Speichern' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'antwortet nicht wie ein OpenID-Connect-Anbieter' }).first()).toBeVisible()
    await shot(page, 'sso-01-settings-wrong-issuer')
    await page.getByLabel('Aussteller-URL (Issuer)').fill(idp.idp.issuer)
    await page.getByRole('button', { name: 'Speichern' }).click()
    await expect(page.getByText('Der Firmen-Login ist gespeichert.')).toBeVisible()
    await expect(page.getByText('Gespeichert. Leer lassen, um es zu behalten.')).toBeVisible()
    await shot(page, 'sso-02-settings-saved')

    // a colleague signs in through the company login and lands in the agency's events
    const anna = await companyLogin(browser, server, 'anna.berg@firma.example')
    await expect(anna.page).toHaveURL(/\/events/)
    await expect(anna.page.getByRole('heading', { name: 'Veranstaltungen' })).toBeVisible()
    await expect(anna.page.getByText('Anna Berg')).toBeVisible()
    await shot(anna.page, 'sso-03-signed-in')
    // the provider's answer used a second time is refused
    const replay = await (await browser.newContext({ locale: 'de-DE' })).newPage()
    await replay.goto(anna.callback)
    await expect(replay.getByTestId('sso-error')).toHaveText('Diese Anmeldung ist abgelaufen oder wurde bereits verwendet. Bitte melden Sie sich erneut an.')
    await shot(replay, 'sso-04-replayed')

    // an address of no company login: sent back to the password login
    const none = await (await browser.newContext({ locale: 'de-DE' })).newPage()
    await none.goto(`${server.url}/login`)
    await none.getByRole('button', { name: 'Mit Firmen-Login anmelden' }).click()
    await none.getByLabel('Dienstliche E-Mail-Adresse').fill('eve@anderswo.example')
    await none.getByRole('button', { name: 'Weiter zum Firmen-Login' }).click()
    await expect(none.getByTestId('sso-error')).toHaveText('Für diese E-Mail-Adresse ist kein Firmen-Login eingerichtet. Melden Sie sich mit Ihrem Passwort an.')
    await shot(none, 'sso-05a-not-configured')
    // at the provider with an address outside the allowed domains
    const outside = await companyLogin(browser, server, 'anna.berg@firma.example', 'Normal', 'eve@anderswo.example')
    await expect(outside.page).toHaveURL(/\/login\?ssoError=SSO_EMAIL_DOMAIN/)
    await expect(outside.page.getByTestId('sso-error')).toHaveText('Mit der E-Mail-Adresse eve@anderswo.example ist die Anmeldung über diesen Firmen-Login nicht erlaubt.')
    await shot(outside.page, 'sso-05-domain-refused')

    const aud = await companyLogin(browser, server, 'anna.berg@firma.example', 'Falsche Zielgruppe (aud)')
    await expect(aud.page.getByTestId('sso-error')).toHaveText('Die Anmeldebestätigung des Firmen-Logins ist nicht für einlass ausgestellt. Bitte wenden Sie sich an Ihre IT.')
    await shot(aud.page, 'sso-06-wrong-audience')

    const expired = await companyLogin(browser, server, 'anna.berg@firma.example', 'Abgelaufenes Token')
    await expect(expired.page.getByTestId('sso-error')).toHaveText('Die Anmeldebestätigung des Firmen-Logins ist abgelaufen. Bitte melden Sie sich erneut an.')
    // the password login is still there beside it
    await expect(expired.page.getByLabel('Passwort')).toBeVisible()
    await shot(expired.page, 'sso-07-expired')

    // the administrator's audit log names the login and the refusals
    await page.goto(`${server.url}/agency/audit`)
    await expect(page.locator('td', { hasText: 'Anmeldung über Firmen-Login' }).first()).toBeVisible()
    await expect(page.locator('td', { hasText: 'Firmen-Login abgewiesen' })).toHaveCount(4)
    await expect(page.locator('tr', { hasText: 'Anmeldung über Firmen-Login' }).first()).toContainText('anna.berg@firma.example')
    await shot(page, 'sso-08-audit')
  })
})
