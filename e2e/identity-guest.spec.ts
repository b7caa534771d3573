// Identity journey: a guest without password asks for the access link on /guest/nopermission,
// gets it through the real SMTP sink, lands on the dashboard and logs out (which only drops the link).
import { expect, setupAdmin, shot, test } from './fixtures'
import { loginUi, mailLink } from './identity-helpers'

test('guest access link: no permission page, mail, dashboard, guest account area', async ({ page, server, browser }) => {
  // an organiser with an event, and a guest who registered for it
  const { email } = await setupAdmin(page, server)
  await loginUi(page, server, email)
  await expect(page).toHaveURL(/\/events$/)
  const start = new Date(Date.now() + 20 * 86400_000)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Herbstempfang', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Rathaus', city: 'Köln', maxVisitors: 50 },
  })
  expect(ev.status()).toBe(201)
  const event = await ev.json()
  const guestMail = 'greta.gast@example.org'
  const reg = await page.request.post(`${server.url}/proxy/api/public/events/${event.id}/registrations`, { data: { salutation: 'Frau', firstName: 'Greta', lastName: 'Gast', email: guestMail } })
  expect(reg.status()).toBe(201)

  const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  const g = await context.newPage()
  // without a link the dashboard sends the guest to the no-permission page
  await g.goto(`${server.url}/guest/dashboard`)
  await expect(g).toHaveURL(/\/guest\/nopermission$/)
  await expect(g.getByRole('heading', { name: 'Zugang zu Ihren Veranstaltungen' })).toBeVisible()
  await shot(g, 'identity-40-guest-nopermission-phone')
  await g.getByLabel(/^E-Mail-Adresse/).fill('unbekannt@example.org')
  await g.getByRole('button', { name: 'Zugangslink senden' }).click()
  await expect(g.getByText('Zu dieser E-Mail-Adresse gibt es kein Gastkonto.')).toBeVisible()
  await shot(g, 'identity-41-guest-not-found')
  await g.getByRole('button', { name: 'OK' }).click()
  await g.getByLabel(/^E-Mail-Adresse/).fill(email)
  await g.getByRole('button', { name: 'Zugangslink senden' }).click()
  await expect(g.getByText('Diese E-Mail-Adresse gehört zu einem Benutzerkonto. Bitte melden Sie sich mit Ihrem Passwort an.')).toBeVisible()
  await expect(g.getByRole('link', { name: 'Passwort vergessen?' })).toHaveAttribute('href', '/password/forgot')
  await g.getByRole('button', { name: 'OK' }).click()
  await g.getByLabel(/^E-Mail-Adresse/).fill(guestMail)
  const send = g.getByRole('button', { name: 'Zugangslink senden' })
  await send.click()
  await expect(g.getByText('Wir haben Ihnen einen Zugangslink geschickt. Er gilt 24 Stunden.')).toBeVisible()
  await shot(g, 'identity-42-guest-link-sent')
  await g.getByRole('button', { name: 'OK' }).click()

  // the link from the mail logs the guest in
  const link = await mailLink(server, guestMail, /Zugangslink/, '/guest/dashboard?token=')
  await g.goto(link)
  await expect(g).toHaveURL(/\/guest\/dashboard$/)
  await expect(g.getByRole('heading', { name: 'Herbstempfang' })).toBeVisible()
  await shot(g, 'identity-43-guest-dashboard-phone')

  // the guest menu: events, profile, settings; the profile says there is no guest account
  await g.getByRole('button', { name: /Benutzerkonto/ }).click()
  await shot(g, 'identity-44-guest-menu')
  await g.getByRole('menuitem', { name: 'Profil' }).click()
  await expect(g).toHaveURL(/\/guest\/account\/profile$/)
  await expect(g.getByText('Ihr Zugang ist mit keinem Konto verbunden.', { exact: false })).toBeVisible()
  await g.getByRole('link', { name: 'Sicherheit' }).click()
  // a guest without a password sets one (no current password asked)
  await expect(g.getByRole('heading', { name: 'Passwort festlegen' })).toBeVisible()
  await expect(g.getByLabel(/^Aktuelles Passwort/)).toHaveCount(0)
  await expect(g.getByText('Zwei-Faktor-Anmeldung')).toHaveCount(0)
  await shot(g, 'identity-45-guest-security')

  // logout without an account only drops the link
  await g.getByRole('button', { name: /Benutzerkonto/ }).click()
  await g.getByRole('menuitem', { name: 'Abmelden' }).click()
  await expect(g).toHaveURL(/\/guest\/nopermission$/)
  await g.goto(`${server.url}/guest/dashboard`)
  await expect(g).toHaveURL(/\/guest\/nopermission$/)
  await context.close()
})
