// Identity journey: two agencies invite the same person (real mails through the SMTP sink); she sets
// her password through the first link, accepts the second, and switches between the agencies.
import { expect, setupAdmin, shot, test } from './fixtures'
import { loginUi, mailLink, seedAccounts, seedAgency } from './identity-helpers'

const KIM = 'kim.kollegin@example.org'
const KIM_PASSWORD = 'Kims-Passw0rt'

test('invite a colleague, accept two agencies, switch between them', async ({ page, server, browser }) => {
  const { email } = await setupAdmin(page, server)
  seedAgency(server, { agency: 'Agentur Mond', email: 'max@mond.example', firstName: 'Max', lastName: 'Mond' })

  // the administrator of Agentur Sonnenschein invites Kim as editor
  await loginUi(page, server, email)
  await expect(page).toHaveURL(/\/events$/)
  await page.getByRole('link', { name: 'Benutzer' }).click()
  await expect(page.getByRole('heading', { name: 'Benutzer' })).toBeVisible()
  await expect(page.getByText('1 von 3 Benutzern')).toBeVisible()
  await page.getByRole('button', { name: 'Benutzer einladen' }).click()
  const invite = page.getByRole('dialog', { name: 'Benutzer einladen' })
  await invite.getByLabel(/^E-Mail-Adresse/).fill('kaputt')
  await invite.getByRole('button', { name: 'Einladung senden' }).click()
  await expect(invite.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeVisible()
  await invite.getByLabel(/^E-Mail-Adresse/).fill(KIM)
  await invite.getByLabel(/^Rolle/).selectOption('AGENCY_EDITOR')
  await invite.getByLabel('Vorname').fill('Kim')
  await invite.getByLabel('Nachname').fill('Kollegin')
  await shot(page, 'identity-20-invite-dialog')
  await invite.getByRole('button', { name: 'Einladung senden' }).click()
  await expect(page.getByText(`Die Einladung wurde an ${KIM} gesendet.`)).toBeVisible()
  const row = page.getByRole('row', { name: /Kim Kollegin/ })
  await expect(row.getByText('Eingeladen', { exact: true })).toBeVisible()
  await expect(page.getByText('2 von 3 Benutzern')).toBeVisible()
  await shot(page, 'identity-21-users-pending')

  // Agentur Mond invites her too, as check-in staff
  const mondContext = await browser.newContext({ locale: 'de-DE' })
  const mond = await mondContext.newPage()
  await loginUi(mond, server, 'max@mond.example')
  await expect(mond).toHaveURL(/\/events$/)
  await mond.goto(`${server.url}/agency/users`)
  await mond.getByRole('button', { name: 'Benutzer einladen' }).click()
  const invite2 = mond.getByRole('dialog', { name: 'Benutzer einladen' })
  await invite2.getByLabel(/^E-Mail-Adresse/).fill(KIM)
  await invite2.getByLabel(/^Rolle/).selectOption('AGENCY_CHECKIN')
  await invite2.getByRole('button', { name: 'Einladung senden' }).click()
  await expect(mond.getByRole('row', { name: new RegExp(KIM) })).toBeVisible()

  // Kim sets her password through the first link and is in
  const kimContext = await browser.newContext({ locale: 'de-DE' })
  const kim = await kimContext.newPage()
  await kim.goto(await mailLink(server, KIM, /Agentur Sonnenschein/, '/invitation?token='))
  await expect(kim.getByText('Sie wurden eingeladen, in der Agentur „Agentur Sonnenschein“ als Redakteur mitzuarbeiten.')).toBeVisible()
  await kim.getByLabel(/^Neues Passwort/).fill('schwach')
  await kim.getByLabel(/^Passwort wiederholen/).fill('schwach')
  await kim.getByRole('button', { name: 'Passwort festlegen und loslegen' }).click()
  await expect(kim.getByText('Das Passwort ist zu schwach.')).toBeVisible()
  await shot(kim, 'identity-22-invitation-set-password')
  await kim.getByLabel(/^Neues Passwort/).fill(KIM_PASSWORD)
  await kim.getByLabel(/^Passwort wiederholen/).fill(KIM_PASSWORD)
  await kim.getByRole('button', { name: 'Passwort festlegen und loslegen' }).click()
  await expect(kim).toHaveURL(/\/events$/)
  await expect(kim.locator('.topbar-title')).toHaveText('Agentur Sonnenschein')
  // an editor has no users page
  await expect(kim.getByRole('link', { name: 'Benutzer' })).toHaveCount(0)

  // the second link: she already has a password, so accepting does not log in
  await kim.goto(await mailLink(server, KIM, /Agentur Mond/, '/invitation?token='))
  await expect(kim.getByText(`Ihr Konto ${KIM} erhält Zugang zu dieser Agentur.`)).toBeVisible()
  await kim.getByRole('button', { name: 'Einladung annehmen' }).click()
  await expect(kim.getByText('Die Einladung wurde angenommen. Bitte melden Sie sich an.')).toBeVisible()
  await shot(kim, 'identity-23-invitation-accepted')

  // the administrator sees her active
  await page.reload()
  await expect(page.getByRole('row', { name: /Kim Kollegin/ }).getByText('Aktiv', { exact: true })).toBeVisible()

  // logging in again: two accounts, the choose-account dialog cannot be closed
  await loginUi(kim, server, KIM, KIM_PASSWORD)
  const choose = kim.getByRole('dialog', { name: 'Konto wählen' })
  await expect(choose).toBeVisible()
  await expect(choose.getByRole('button', { name: 'Schließen' })).toHaveCount(0)
  await kim.keyboard.press('Escape')
  await expect(choose).toBeVisible()
  await shot(kim, 'identity-24-choose-account')
  await choose.getByRole('link', { name: /Agentur Mond/ }).click()
  await expect(kim.locator('.topbar-title')).toHaveText('Agentur Mond')
  await expect(kim).toHaveURL(/\/events$/)

  // "change role" in the menu switches to the other agency
  await kim.getByRole('button', { name: /Benutzerkonto/ }).click()
  await kim.getByRole('menuitem', { name: 'Rolle wechseln' }).click()
  const switcher = kim.getByRole('dialog', { name: 'Konto wählen' })
  await expect(switcher.getByText('aktuell')).toBeVisible()
  await shot(kim, 'identity-25-account-switcher')
  await switcher.getByRole('link', { name: /Agentur Sonnenschein/ }).click()
  await expect(kim.locator('.topbar-title')).toHaveText('Agentur Sonnenschein')

  // a page of the other agency's permission is refused in this one
  await kim.goto(`${server.url}/agency/users`)
  await expect(kim.getByRole('heading', { name: 'Keine Berechtigung' })).toBeVisible()
  await shot(kim, 'identity-26-no-permission')

  // many accounts: a filter (above 5) and pages of 20 with "show more"
  seedAccounts(server, KIM, 23)
  await kim.goto(`${server.url}/events`)
  await kim.getByRole('button', { name: /Benutzerkonto/ }).click()
  await kim.getByRole('menuitem', { name: 'Rolle wechseln' }).click()
  const many = kim.getByRole('dialog', { name: 'Konto wählen' })
  await expect(many.getByRole('searchbox')).toBeVisible()
  await expect(many.locator('.account-entry:not(.guest-entry)')).toHaveCount(20)
  await many.getByRole('button', { name: 'Mehr anzeigen' }).click()
  await expect(many.locator('.account-entry:not(.guest-entry)')).toHaveCount(25)
  await many.getByRole('searchbox').fill('intern-1')
  await expect(many.locator('.account-entry:not(.guest-entry)')).toHaveCount(11)
  await many.getByRole('searchbox').fill('mond')
  await expect(many.locator('.account-entry:not(.guest-entry)')).toHaveCount(1)
  await shot(kim, 'identity-28-switcher-filter')
  await many.getByRole('button', { name: 'Schließen' }).click()

  // phone-sized switcher
  await kim.setViewportSize({ width: 390, height: 844 })
  await kim.goto(`${server.url}/events`)
  await kim.getByRole('button', { name: /Benutzerkonto/ }).click()
  await kim.getByRole('menuitem', { name: 'Rolle wechseln' }).click()
  await expect(kim.getByRole('dialog', { name: 'Konto wählen' }).getByRole('link', { name: /Agentur Mond/ })).toBeVisible()
  await shot(kim, 'identity-27-switcher-phone')
  await mondContext.close()
  await kimContext.close()
})
