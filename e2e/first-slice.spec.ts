// Issue 2's first end-to-end slice: setup, login, create an event, a guest registers on the public
// page, gets the mail, opens the dashboard from its link; the organiser sees the guest.
import { linkIn } from '../server/testing/smtp-sink'
import { expect, PASSWORD, shot, test } from './fixtures'

test('first start: setup, event, public registration, mail, dashboard, guest list', async ({ page, server }) => {
  await page.goto(server.url)
  await expect(page).toHaveURL(/\/setup$/)
  await expect(page.getByRole('heading', { name: 'einlass einrichten' })).toBeVisible()
  await page.getByLabel('Name der Agentur').fill('Agentur Sonnenschein')
  await page.getByLabel(/^Vorname( \*)?$/).fill('Ada')
  await page.getByLabel(/^Nachname( \*)?$/).fill('Admin')
  await page.getByLabel('E-Mail-Adresse').fill('ada@agentur.example')
  await page.getByLabel(/^Passwort( \*)?$/).fill('kurz')
  await page.getByRole('button', { name: 'Einrichten und anmelden' }).click()
  await expect(page.getByText('Das Passwort ist zu schwach.')).toBeVisible()
  await shot(page, 'slice-01-setup-weak-password')
  await page.getByLabel(/^Passwort( \*)?$/).fill(PASSWORD)
  await page.getByRole('button', { name: 'Einrichten und anmelden' }).click()

  await expect(page).toHaveURL(/\/events$/)
  await expect(page.getByText('Noch keine Veranstaltungen')).toBeVisible()
  await shot(page, 'slice-02-events-empty')

  // log out and in again through the login page
  await page.getByRole('button', { name: /Benutzerkonto/ }).click()
  await page.getByRole('menuitem', { name: 'Abmelden' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await page.getByLabel('E-Mail-Adresse').fill('ada@agentur.example')
  await page.getByLabel(/^Passwort( \*)?$/).fill('falsch-Falsch1!')
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
  await expect(page.getByText('E-Mail-Adresse oder Passwort ist falsch.')).toBeVisible()
  await shot(page, 'slice-03-login-failed')
  await page.getByLabel(/^Passwort( \*)?$/).fill(PASSWORD)
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
  await expect(page).toHaveURL(/\/events$/)

  await page.getByRole('link', { name: 'Neue Veranstaltung' }).click()
  await page.getByLabel(/^Name( \*)?$/).fill('Sommerfest 2027')
  await page.getByLabel('Kapazität (Personen)').fill('2')
  await page.getByLabel(/^Ort( \*)?$/).fill('Halle 7')
  await page.getByLabel('Stadt').fill('Berlin')
  await shot(page, 'slice-04-event-form')
  await page.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByRole('heading', { name: 'Sommerfest 2027' })).toBeVisible()
  await expect(page.getByText('0 von 2 Plätzen belegt')).toBeVisible()
  const eventUrl = page.url()
  const eventId = eventUrl.split('/').pop()

  // the guest
  const guest = await page.context().browser()!.newContext({ locale: 'de-DE' })
  const g = await guest.newPage()
  await g.goto(`${server.url}/public/event/${eventId}`)
  await expect(g.getByRole('heading', { name: 'Sommerfest 2027' })).toBeVisible()
  await expect(g.getByText('Noch 2 Plätze frei')).toBeVisible()
  await g.getByRole('button', { name: 'Anmeldung anfragen' }).click()
  await expect(g.getByText('Dieses Feld ist ein Pflichtfeld.').first()).toBeVisible()
  await shot(g, 'slice-05-public-required')
  await g.getByLabel('Anrede').selectOption('Frau')
  await g.getByLabel(/^Vorname( \*)?$/).fill('Grete')
  await g.getByLabel(/^Nachname( \*)?$/).fill('Gast')
  await g.getByLabel('E-Mail-Adresse').fill('grete@example.org')
  await g.getByRole('button', { name: 'Begleitperson hinzufügen' }).click()
  await g.getByRole('textbox', { name: 'Vorname' }).nth(1).fill('Erik')
  await g.getByRole('textbox', { name: 'Nachname' }).nth(1).fill('Begleiter')
  await shot(g, 'slice-06-public-filled')
  await g.getByRole('button', { name: 'Anmeldung anfragen' }).click()
  await expect(g.getByRole('heading', { name: 'Vielen Dank für Ihre Anmeldung!' })).toBeVisible()
  await shot(g, 'slice-07-public-done')

  // now full: a second guest is refused with a clear message
  const late = await guest.newPage()
  await late.goto(`${server.url}/public/event/${eventId}`)
  await expect(late.getByText('Die Veranstaltung ist leider ausgebucht.')).toBeVisible()
  await shot(late, 'slice-08-public-full')

  // the confirmation mail's link opens the dashboard
  const mail = await server.smtp.waitFor((m) => m.to.includes('grete@example.org'), 15_000)
  expect(mail.subject).toBe('Ihre Anmeldung: Sommerfest 2027')
  const link = linkIn(mail, '/guest/dashboard?token=')
  const fresh = await page.context().browser()!.newContext({ locale: 'de-DE' })
  const d = await fresh.newPage()
  await d.goto(link)
  await expect(d.getByRole('heading', { name: /Angemeldet/ })).toBeVisible()
  await expect(d.getByRole('heading', { name: 'Sommerfest 2027' })).toBeVisible()
  await expect(d).toHaveURL(/\/guest\/dashboard$/)
  await shot(d, 'slice-09-dashboard')

  // the organiser sees the guest
  await page.reload()
  await expect(page.getByText('2 von 2 Plätzen belegt')).toBeVisible()
  // the guest list is the event's "Gäste" tab (organiser workspace)
  await page.getByRole('link', { name: 'Gäste', exact: true }).click()
  await expect(page.getByRole('cell', { name: 'grete@example.org' })).toBeVisible()
  await shot(page, 'slice-10-guest-list')

  // phone-sized viewport: side navigation folds away
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(page.getByRole('button', { name: 'Menü' })).toBeVisible()
  await shot(page, 'slice-11-guest-list-phone')
  await guest.close()
  await fresh.close()
})
