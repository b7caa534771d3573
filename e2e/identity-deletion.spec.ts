// Identity journey: edit the profile, then mark an account for deletion, confirm it through the
// mailed link and revoke it again; the settings page with language, design and notifications.
import { expect, setupAdmin, shot, test } from './fixtures'
import { loginUi, mailLink } from './identity-helpers'

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

test('profile: edit and save; deletion: mark, confirm by mail, revoke', async ({ page, server }) => {
  const { email } = await setupAdmin(page, server)
  await loginUi(page, server, email)
  await expect(page).toHaveURL(/\/events$/)
  await page.getByRole('button', { name: /Benutzerkonto/ }).click()
  await page.getByRole('menuitem', { name: 'Profil' }).click()
  await expect(page).toHaveURL(/\/account\/profile$/)
  await expect(page.getByRole('heading', { name: 'Agentur Sonnenschein' })).toBeVisible()
  await expect(page.getByLabel('Vorname')).toBeDisabled()
  await shot(page, 'identity-30-profile-view')

  await page.getByRole('button', { name: 'Bearbeiten' }).click()
  await page.getByLabel('Position').fill('Leitung Veranstaltungen')
  await page.getByLabel('Telefonnummer').fill('12')
  await page.getByLabel('Geburtstag').fill('31.02.1990')
  await page.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByText('Bitte geben Sie eine gültige internationale Telefonnummer ein.')).toBeVisible()
  await expect(page.getByText('Bitte ein gültiges Datum wählen.')).toBeVisible()
  await shot(page, 'identity-31-profile-errors')
  await page.getByLabel('Telefonnummer').fill('030 1234567')
  await page.getByLabel('Geburtstag').fill('24.12.1990')
  await page.getByLabel('Ort').fill('Berlin')
  await page.getByLabel('Land').selectOption('AUT')
  await page.locator('input[type=file]').setInputFiles({ name: 'ich.png', mimeType: 'image/png', buffer: PIXEL })
  await expect(page.getByRole('img', { name: 'Profilbild' })).toBeVisible()
  // leaving with unsaved changes asks first
  page.once('dialog', (d) => {
    expect(d.message()).toBe('Ungespeicherte Änderungen gehen verloren. Seite wirklich verlassen?')
    void d.dismiss()
  })
  await page.getByRole('link', { name: 'Sicherheit' }).click()
  await expect(page).toHaveURL(/\/account\/profile$/)
  await page.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByText('Die Änderungen wurden gespeichert.')).toBeVisible()
  await expect(page.getByLabel('Telefonnummer')).toHaveValue('+49301234567')
  await expect(page.getByLabel('Position')).toBeDisabled()
  // cancel throws changes away
  await page.getByRole('button', { name: 'Bearbeiten' }).click()
  await page.getByLabel('Ort').fill('Hamburg')
  await page.getByRole('button', { name: 'Abbrechen' }).click()
  await expect(page.getByLabel('Ort')).toHaveValue('Berlin')

  // mark the account for deletion: an administrator account is flagged
  await page.getByRole('button', { name: 'Konten löschen …' }).click()
  const dialog = page.getByRole('dialog', { name: 'Konten löschen' })
  await expect(dialog.getByText('Administratorkonto')).toBeVisible()
  await dialog.getByRole('checkbox').check()
  await dialog.getByLabel('Grund (freiwillig)').fill('Test der Löschung')
  await shot(page, 'identity-32-deletion-dialog')
  await dialog.getByRole('button', { name: 'Auswahl speichern' }).click()
  await expect(page.getByText('Die Löschung wurde vorgemerkt. Bitte bestätigen Sie sie über den Link in der E-Mail.')).toBeVisible()
  await expect(page.getByText('Die Löschung des Kontos „Agentur Sonnenschein“ wartet auf Ihre Bestätigung per E-Mail.')).toBeVisible()

  // the confirmation link from the mail
  await page.goto(await mailLink(server, email, /Löschung Ihrer Konten/, '/account/deletion?token='))
  await expect(page.getByRole('heading', { name: 'Löschung bestätigen' })).toBeVisible()
  await page.getByRole('button', { name: 'Löschung endgültig bestätigen' }).click()
  await expect(page.getByText(/Die Löschung ist bestätigt\. Die Daten werden am \d\d\.\d\d\.\d{4} endgültig gelöscht\./)).toBeVisible()
  await shot(page, 'identity-33-deletion-confirmed')

  await page.getByRole('link', { name: 'Konto' }).click()
  await expect(page.getByText(/Das Konto „Agentur Sonnenschein“ wird am \d\d\.\d\d\.\d{4} endgültig gelöscht\./)).toBeVisible()
  await shot(page, 'identity-34-deletion-notice')
  // confirmed deletions cannot be toggled in the dialog
  await page.getByRole('button', { name: 'Konten löschen …' }).click()
  await expect(page.getByRole('dialog', { name: 'Konten löschen' }).getByRole('checkbox')).toBeDisabled()
  await expect(page.getByText(/nicht mehr änderbar/)).toBeVisible()
  await page.getByRole('dialog', { name: 'Konten löschen' }).getByRole('button', { name: 'Abbrechen' }).click()

  await page.getByRole('button', { name: 'Löschung widerrufen' }).click()
  await expect(page.getByText('Die Löschung wurde widerrufen.')).toBeVisible()
  await expect(page.getByText(/wird am .* endgültig gelöscht/)).toHaveCount(0)

  // deleting the whole user needs the word DELETE
  await page.getByRole('button', { name: 'Benutzer vollständig löschen …' }).click()
  const whole = page.getByRole('dialog', { name: 'Benutzer vollständig löschen' })
  await whole.getByLabel(/^Bestätigung/).fill('delete')
  await whole.getByRole('button', { name: 'Benutzer löschen' }).click()
  await expect(whole.getByText('Zum Bestätigen der Löschung geben Sie DELETE ein.')).toBeVisible()
  await shot(page, 'identity-35-delete-user-confirm')
  await whole.getByRole('button', { name: 'Abbrechen' }).click()

  // settings: design, notifications (personal and per agency with "parent setting")
  await page.getByRole('link', { name: 'Einstellungen', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Meine Benachrichtigungen' })).toBeVisible()
  await page.getByRole('radiogroup', { name: 'E-Mail bei jeder neuen Anmeldung zu einer Veranstaltung' }).first().getByText('Ja').click()
  await page.getByRole('button', { name: 'Speichern' }).nth(2).click()
  await expect(page.getByText('Die Benachrichtigungen wurden gespeichert.')).toBeVisible()
  const agency = page.locator('.card', { hasText: 'Benachrichtigungen je Agentur' })
  await expect(agency.getByText('Übergeordnete Einstellung').first()).toBeVisible()
  await agency.getByRole('radiogroup', { name: 'E-Mail bei jeder neuen Anmeldung zu einer Veranstaltung' }).getByText('Nein').click()
  await agency.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByText('Die Benachrichtigungen wurden gespeichert.').first()).toBeVisible()
  await page.getByText('Design 2024').click()
  await page.locator('.card', { hasText: 'Design' }).first().getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByText('Das Design wurde gespeichert.')).toBeVisible()
  await shot(page, 'identity-36-settings')
  await page.setViewportSize({ width: 390, height: 844 })
  await shot(page, 'identity-37-settings-phone')
  // the language switches the UI
  await page.getByLabel('Sprache', { exact: true }).selectOption('en')
  await page.locator('.card', { hasText: 'Sprache' }).first().getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByRole('heading', { name: 'My notifications' })).toBeVisible()
})
