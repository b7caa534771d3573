// Identity journey: an administrator sets up an authenticator app (three-step dialog with QR code
// and secret), then logs in with password and a TOTP code the test computes with otpauth.
import * as OTPAuth from 'otpauth'
import { expect, setupAdmin, shot, test } from './fixtures'

const code = (secret: string, offsetSteps = 0) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + offsetSteps * 30_000 })

test('two-factor: add an authenticator app, then log in with the code', async ({ page, server }) => {
  const { email, password } = await setupAdmin(page, server)
  await page.goto(`${server.url}/login`)
  await page.getByLabel('E-Mail-Adresse').fill(email)
  await page.getByLabel(/^Passwort( \*)?$/).fill(password)
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
  await expect(page).toHaveURL(/\/events$/)

  await page.getByRole('button', { name: /Ada Admin/ }).click()
  await shot(page, 'identity-01-user-menu')
  await page.getByRole('menuitem', { name: 'Sicherheit' }).click()
  await expect(page.getByRole('heading', { name: 'Passwort ändern' })).toBeVisible()
  await expect(page.getByText('Noch keine Methode eingerichtet.')).toBeVisible()
  await shot(page, 'identity-02-security')

  await page.getByRole('button', { name: 'Methode hinzufügen' }).click()
  const dialog = page.getByRole('dialog', { name: 'Methode hinzufügen' })
  await expect(dialog.getByText('Schritt 1 von 3')).toBeVisible()
  await dialog.getByRole('button', { name: 'Nächster Schritt' }).click()
  await expect(dialog.getByText('Dieses Feld ist ein Pflichtfeld.')).toBeVisible()
  await expect(dialog.getByText('Bitte geben Sie das Passwort Ihres Kontos ein (mindestens 8 Zeichen).')).toBeVisible()
  await dialog.getByLabel(/^Gerätename/).fill('Mein Handy')
  await dialog.getByLabel(/^Passwort Ihres Kontos/).fill('Falsch123!')
  await dialog.getByRole('button', { name: 'Nächster Schritt' }).click()
  await expect(dialog.getByText('Das Passwort ist nicht korrekt.')).toBeVisible()
  await shot(page, 'identity-03-tfa-step1-wrong-password')
  await dialog.getByLabel(/^Passwort Ihres Kontos/).fill(password)
  await dialog.getByRole('button', { name: 'Nächster Schritt' }).click()

  await expect(dialog.getByText('Schritt 2 von 3')).toBeVisible()
  await expect(dialog.getByRole('img', { name: 'QR-Code für die Authenticator-App' })).toBeVisible()
  const secret = (await dialog.locator('.tfa-secret').textContent())!.trim()
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  await shot(page, 'identity-04-tfa-step2-qr')
  await dialog.getByLabel(/^Code/).fill('000000')
  await dialog.getByRole('button', { name: 'Abschließen' }).click()
  await expect(dialog.getByText('Der Code ist ungültig oder abgelaufen.')).toBeVisible()
  await dialog.getByLabel(/^Code/).fill(code(secret))
  await dialog.getByRole('button', { name: 'Abschließen' }).click()
  await expect(dialog.getByText('Schritt 3 von 3')).toBeVisible()
  await expect(dialog.getByText('Fertig: Bei der nächsten Anmeldung fragen wir nach dem Code.')).toBeVisible()
  await shot(page, 'identity-05-tfa-step3-done')
  await dialog.getByRole('button', { name: 'Schließen' }).last().click()
  await expect(page.locator('.tfa-item')).toContainText('Mein Handy')
  await expect(page.locator('.tfa-item')).toContainText('aktiv')
  await shot(page, 'identity-06-tfa-list')

  // log out, log in: the second step asks for the code
  await page.getByRole('button', { name: /Ada Admin/ }).click()
  await page.getByRole('menuitem', { name: 'Abmelden' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await page.getByLabel('E-Mail-Adresse').fill(email)
  await page.getByLabel(/^Passwort( \*)?$/).fill(password)
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Bestätigung in zwei Schritten' })).toBeVisible()
  await page.getByLabel(/^Code/).fill('123456')
  await page.getByRole('button', { name: 'Bestätigen' }).click()
  await expect(page.getByText('Der Code ist ungültig oder abgelaufen.')).toBeVisible()
  await shot(page, 'identity-07-login-tfa-step')
  // the code of the next time step (the current one was used for linking; codes count once)
  await page.getByLabel(/^Code/).fill(code(secret, 1))
  await page.getByRole('button', { name: 'Bestätigen' }).click()
  await expect(page).toHaveURL(/\/events$/)
  await expect(page.getByRole('heading', { name: 'Veranstaltungen' }).first()).toBeVisible()

  // phone-sized: the login's second step and the security page
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`${server.url}/account/security`)
  await expect(page.getByRole('heading', { name: 'Zwei-Faktor-Anmeldung' })).toBeVisible()
  await shot(page, 'identity-08-security-phone')
})
