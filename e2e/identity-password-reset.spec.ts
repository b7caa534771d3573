// Identity journey: an organiser who forgot the password asks for a link on the login page, gets
// it through the real SMTP sink, sets a new password (the old session ends) and logs in with it;
// a used link shows the expired message. Then the same on a phone.
import { expect, setupAdmin, shot, test } from './fixtures'
import { loginUi, mailLink, passwordRules } from './identity-helpers'

const NEW = 'Neues-Passw0rt'
const PHONE = 'Handy-Passw0rt!'
const SUBJECT = /^Neues Passwort für einlass festlegen$/

test('forgotten password: login link, neutral answer, mail, reset, log in with the new password', async ({ page, server, browser }) => {
  // setup logs this browser in: that session must end with the reset
  const { email, password } = await setupAdmin(page, server)
  await page.goto(`${server.url}/events`)
  await expect(page).toHaveURL(/\/events$/)

  await page.goto(`${server.url}/login`)
  await page.getByLabel('E-Mail-Adresse').fill(email)
  await shot(page, 'pwreset-01-login-link')
  await page.getByRole('link', { name: 'Passwort vergessen?' }).click()
  await expect(page).toHaveURL(/\/password\/forgot$/)
  await expect(page.getByRole('heading', { name: 'Passwort vergessen' })).toBeVisible()
  // the address typed on the login page is taken over
  await expect(page.getByLabel(/^E-Mail-Adresse/)).toHaveValue(email)
  await page.getByLabel(/^E-Mail-Adresse/).fill('kaputt')
  await page.getByRole('button', { name: 'Link senden' }).click()
  await expect(page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeVisible()
  await page.getByLabel(/^E-Mail-Adresse/).fill(email)
  await shot(page, 'pwreset-02-forgot')
  await page.getByRole('button', { name: 'Link senden' }).click()
  const neutral = (to: string) => `Wenn zu ${to} ein Zugang gehört, ist eine E-Mail mit einem Link unterwegs. Sehen Sie bitte auch im Spam-Ordner nach.`
  await expect(page.getByText(neutral(email))).toBeVisible()
  await shot(page, 'pwreset-03-forgot-sent')

  // an unknown address gets the very same answer
  await page.getByRole('link', { name: 'Andere Adresse eingeben' }).click()
  await page.getByLabel(/^E-Mail-Adresse/).fill('niemand@agentur.example')
  await page.getByRole('button', { name: 'Link senden' }).click()
  await expect(page.getByText(neutral('niemand@agentur.example'))).toBeVisible()

  // the link from the mail
  const link = await mailLink(server, email, SUBJECT, '/password/reset?token=')
  await page.goto(link)
  await expect(page.getByRole('heading', { name: 'Neues Passwort festlegen' })).toBeVisible()
  await expect(page.getByText(`Legen Sie ein neues Passwort für ${email} fest.`, { exact: false })).toBeVisible()
  const save = page.getByRole('button', { name: 'Passwort speichern' })
  await save.click()
  await expect(page.getByText('Bitte geben Sie ein Passwort ein.')).toBeVisible()
  await expect(page.getByText('Bitte wiederholen Sie das Passwort.')).toBeVisible()
  await passwordRules(page, NEW, () => shot(page, 'pwreset-04-reset-rules'))
  await save.click()
  await expect(page.getByText('Ihr Passwort wurde geändert und alle Anmeldungen wurden beendet. Melden Sie sich jetzt mit dem neuen Passwort an.')).toBeVisible()
  await shot(page, 'pwreset-05-reset-done')

  // the session of this browser has ended
  await page.goto(`${server.url}/events`)
  await expect(page).toHaveURL(/\/login/)

  // the link works once
  await page.goto(link)
  await expect(page.getByText('Dieser Link zum Zurücksetzen des Passworts ist abgelaufen, wurde bereits verwendet oder ist ungültig.')).toBeVisible()
  await shot(page, 'pwreset-06-link-used')
  await page.getByRole('link', { name: 'Neuen Link anfordern' }).click()
  await expect(page).toHaveURL(/\/password\/forgot$/)

  // old password no more, new one yes
  await loginUi(page, server, email, password)
  await expect(page.getByText('E-Mail-Adresse oder Passwort ist falsch.')).toBeVisible()
  await loginUi(page, server, email, NEW)
  await expect(page).toHaveURL(/\/events$/)
  const notice = await server.smtp.waitFor((m) => m.to.includes(email) && m.subject === 'Ihr Passwort wurde geändert', 15_000)
  expect(notice.text).toContain('Alle Anmeldungen wurden beendet.')

  // the same on a phone
  const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  const phone = await context.newPage()
  await phone.goto(`${server.url}/login`)
  await shot(phone, 'pwreset-10-login-phone')
  await phone.getByRole('link', { name: 'Passwort vergessen?' }).click()
  await phone.getByLabel(/^E-Mail-Adresse/).fill(email)
  await shot(phone, 'pwreset-11-forgot-phone')
  await phone.getByRole('button', { name: 'Link senden' }).click()
  await expect(phone.getByText(neutral(email))).toBeVisible()
  await shot(phone, 'pwreset-12-forgot-sent-phone')
  await expect.poll(() => server.smtp.mails.filter((m) => m.to.includes(email) && SUBJECT.test(m.subject)).length, { timeout: 15_000 }).toBe(2)
  await phone.goto(await mailLink(server, email, SUBJECT, '/password/reset?token='))
  await phone.getByLabel(/^Neues Passwort/).fill(PHONE)
  await phone.getByLabel(/^Passwort wiederholen/).fill(PHONE)
  await expect(phone.locator('.checklist li.ok')).toHaveCount(6)
  await shot(phone, 'pwreset-13-reset-phone')
  await phone.getByRole('button', { name: 'Passwort speichern' }).click()
  await expect(phone.getByText('Ihr Passwort wurde geändert', { exact: false })).toBeVisible()
  await shot(phone, 'pwreset-14-reset-done-phone')
  await phone.getByRole('link', { name: 'Zur Anmeldung' }).click()
  await expect(phone).toHaveURL(/\/login$/)
  await phone.getByLabel('E-Mail-Adresse').fill(email)
  await phone.getByLabel(/^Passwort( \*)?$/).fill(PHONE)
  await phone.getByRole('button', { name: 'Anmelden', exact: true }).click()
  await expect(phone).toHaveURL(/\/events$/)
  // the desktop browser was logged out by the second reset
  await page.reload()
  await expect(page).toHaveURL(/\/login/)
  await context.close()
})
