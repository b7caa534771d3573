// Identity journey: changing the password needs the current one (a stolen session cannot change it),
// ends the other sessions; "log out all devices" ends this one too. Two browsers of the same user.
import { expect, setupAdmin, shot, test } from './fixtures'
import { loginUi, passwordRules } from './identity-helpers'

const NEW = 'Neues-Passw0rt'

test('change password: the other browser is logged out; log out all devices', async ({ page, server, browser }) => {
  const { email, password } = await setupAdmin(page, server)
  await loginUi(page, server, email, password)
  await expect(page).toHaveURL(/\/events$/)
  const other = await browser.newContext({ locale: 'de-DE' })
  const phone = await other.newPage()
  await loginUi(phone, server, email, password)
  await expect(phone).toHaveURL(/\/events$/)

  await page.goto(`${server.url}/account/security`)
  const save = await passwordRules(page, NEW, () => shot(page, 'identity-10-password-rules'))
  // the current password is asked, and a wrong one is refused
  await save.click()
  await expect(page.getByText('Bitte geben Sie Ihr aktuelles Passwort ein.')).toBeVisible()
  await page.getByLabel(/^Aktuelles Passwort/).fill('Falsch-Passw0rt')
  await save.click()
  await expect(page.getByText('Das angegebene aktuelle Passwort ist nicht korrekt.')).toBeVisible()
  await shot(page, 'identity-10b-current-password-wrong')
  await page.getByLabel(/^Aktuelles Passwort/).fill(password)
  await save.click()
  await expect(page.getByText('Das Passwort wurde geändert. Andere Geräte sind abgemeldet.')).toBeVisible()
  await shot(page, 'identity-11-password-changed')

  // the other browser's session has ended: its next step (no reload) leads to the login page
  await phone.getByRole('link', { name: 'Lizenz & Funktionen' }).click()
  await expect(phone).toHaveURL(/\/login\?redirect=%2Fagency%2Fabo/)
  await shot(phone, 'identity-13-other-session-ended')
  await loginUi(phone, server, email, password)
  await expect(phone.getByText('E-Mail-Adresse oder Passwort ist falsch.')).toBeVisible()
  await loginUi(phone, server, email, NEW)
  await expect(phone).toHaveURL(/\/events/)

  // this browser is still logged in; now log out every device
  await page.goto(`${server.url}/account/security`)
  await page.getByLabel(/^Aktuelles Passwort/).fill(NEW)
  await page.getByLabel(/^Neues Passwort/).fill('Noch-ein-Passw0rt')
  await page.getByLabel(/^Passwort wiederholen/).fill('Noch-ein-Passw0rt')
  await page.getByLabel('Alle Geräte abmelden').check()
  await page.getByRole('button', { name: 'Passwort speichern' }).click()
  await expect(page.getByText('Das Passwort wurde geändert. Sie werden in Kürze abgemeldet.')).toBeVisible()
  await shot(page, 'identity-12-password-logout-all')
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 })
  await phone.reload()
  await expect(phone).toHaveURL(/\/login/)
  await other.close()
})
