// Issue 10 item 16: the two-factor setup shows one-time recovery codes once, the page behind the
// finished dialog lists the new method (it used to say "Noch keine Methode eingerichtet."), and a
// recovery code logs in instead of the app's code — once.
import * as OTPAuth from 'otpauth'
import { expect, setupAdmin, shot, test } from './fixtures'

const code = (secret: string, offsetSteps = 0) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + offsetSteps * 30_000 })

test('recovery codes: shown once after setup, the page behind is current, a code logs in once', async ({ page, server }) => {
  const { email, password } = await setupAdmin(page, server)
  await page.goto(`${server.url}/login`)
  await page.getByLabel('E-Mail-Adresse').fill(email)
  await page.getByLabel(/^Passwort( \*)?$/).fill(password)
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
  await expect(page).toHaveURL(/\/events$/)
  await page.goto(`${server.url}/account/security`)
  await expect(page.getByText('Noch keine Methode eingerichtet.')).toBeVisible()

  await page.getByRole('button', { name: 'Methode hinzufügen' }).click()
  const dialog = page.getByRole('dialog', { name: 'Methode hinzufügen' })
  await dialog.getByLabel(/^Gerätename/).fill('Mein Handy')
  await dialog.getByLabel(/^Passwort Ihres Kontos/).fill(password)
  await dialog.getByRole('button', { name: 'Nächster Schritt' }).click()
  const secret = (await dialog.locator('.tfa-secret').textContent())!.trim()
  await dialog.getByLabel(/^Code/).fill(code(secret))
  await dialog.getByRole('button', { name: 'Abschließen' }).click()
  await expect(dialog.getByText('Schritt 3 von 3')).toBeVisible()
  await expect(dialog.getByRole('heading', { name: 'Wiederherstellungscodes' })).toBeVisible()
  const codes = (await dialog.locator('.tfa-code-list code').allTextContents()).map((c) => c.trim())
  expect(codes).toHaveLength(10)
  for (const c of codes) expect(c).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/)
  // the page behind the open dialog already knows the method
  await expect(page.getByText('Noch keine Methode eingerichtet.')).toHaveCount(0)
  await expect(page.locator('.tfa-item')).toContainText('Mein Handy')
  await shot(page, 'defects-srv-tfa-01-codes-once')
  await dialog.getByRole('button', { name: 'Ich habe die Codes gespeichert' }).click()
  await expect(page.locator('.tfa-recovery')).toContainText('Noch 10 von 10 Codes übrig.')
  await shot(page, 'defects-srv-tfa-02-security-page')

  // log in with a recovery code instead of the app's code
  const login = async (token: string) => {
    await page.context().clearCookies()
    await page.goto(`${server.url}/login`)
    await page.getByLabel('E-Mail-Adresse').fill(email)
    await page.getByLabel(/^Passwort( \*)?$/).fill(password)
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
    await expect(page.getByRole('heading', { name: 'Bestätigung in zwei Schritten' })).toBeVisible()
    await page.getByRole('button', { name: /Wiederherstellungscode verwenden/ }).click()
    await page.getByLabel(/^Wiederherstellungscode/).fill(token)
    await page.getByRole('button', { name: 'Bestätigen' }).click()
  }
  await login(codes[3].toLowerCase())
  await expect(page).toHaveURL(/\/events$/)
  await page.goto(`${server.url}/account/security`)
  await expect(page.locator('.tfa-recovery')).toContainText('Noch 9 von 10 Codes übrig.')

  // the same code a second time is refused
  await login(codes[3])
  await expect(page.getByText('Der Code ist ungültig oder abgelaufen.')).toBeVisible()
  await page.setViewportSize({ width: 390, height: 844 })
  await shot(page, 'defects-srv-tfa-03-recovery-refused-phone')
})
