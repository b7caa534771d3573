// Mail senders (issue 23; docs/mail.md): an agency sets up its own SMTP server (a sink with AUTH) and
// an own domain (DNS records on a local DNS server), checks both for real, chooses its sender and an
// event's own sender in the widget, invites guests and reads the mails: the right From, through the
// right server, DKIM-signed and verified against the published key; a refused address shows as
// failing in the guest list and the guest's detail.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { verifyDkim } from '../server/testing/dkim-verify'
import { TestDnsServer } from '../server/testing/dns-server'
import { testLicenseText } from '../server/testing/license-test-key'
import { SmtpSink } from '../server/testing/smtp-sink'
import { expect, type Server, setupAdmin, shot, startServer, test } from './fixtures'

test.describe('mail senders', () => {
  let server: Server
  let dns: TestDnsServer
  let agencySmtp: SmtpSink
  test.beforeAll(async () => {
    dns = await new TestDnsServer().start()
    agencySmtp = await new SmtpSink({ auth: { user: 'versand', pass: 'Smtp-Geheim-7' } }).start()
    const dataDir = mkdtempSync(join(tmpdir(), 'einlass-e2e-mail-'))
    writeFileSync(join(dataDir, 'license.json'), testLicenseText({ licensee: 'Agentur Sonnenschein', validUntil: '2031-03-31', features: ['MAIL_CUSTOM', 'MAIL_CUSTOM_SENDER_NAME'], limits: { events: -1, guestAccounts: 5000, agencyUsers: -1, storageMb: 2048 } }))
    server = await startServer({ EINLASS_DNS_RESOLVER: dns.address }, { dataDir })
  })
  test.afterAll(async () => {
    await server?.stop()
    await agencySmtp?.stop()
    dns?.stop()
  })

  test('an agency SMTP server and an own domain, a sender per agency and event, mails with the right From and a valid DKIM signature', async ({ page }) => {
    await setupAdmin(page, server)
    await page.goto(`${server.url}/events`)
    await page.getByRole('link', { name: 'Mail-Einstellungen' }).click()
    await expect(page).toHaveURL(/\/agency\/mail$/)
    await expect(page.getByRole('heading', { name: 'Mail-Einstellungen' })).toBeVisible()
    await expect(page.getByText('Noch keine Mail-Einstellungen angelegt.')).toBeVisible()

    // the agency's own SMTP server
    await page.getByRole('button', { name: 'Eigener SMTP-Server +' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Bezeichnung').fill('Versandserver')
    await dialog.getByLabel('SMTP-Server').fill('127.0.0.1')
    await dialog.getByLabel('Port').fill(String(agencySmtp.port))
    await dialog.getByLabel('Verschlüsselung').selectOption('NONE')
    await dialog.getByLabel('Benutzername').fill('versand')
    await dialog.getByLabel('Passwort', { exact: true }).fill('Smtp-Geheim-7')
    await dialog.getByLabel('Domain', { exact: true }).fill('kein domain')
    await dialog.getByLabel('Erlaubte Präfixe').fill('events-')
    await dialog.getByRole('button', { name: 'Speichern' }).click()
    await expect(dialog.getByText('Bitte geben Sie einen gültigen Domainnamen ein (z. B. agentur.de).')).toBeVisible()
    await shot(page, 'mail-sender-01-smtp-form-error')
    await dialog.getByLabel('Domain', { exact: true }).fill('sonnenschein.example')
    await dialog.getByRole('button', { name: 'Speichern' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    const smtpCard = page.locator('.mail-settings-item', { hasText: 'Versandserver' })
    await expect(smtpCard.getByText('Ungültige Konfiguration')).toBeVisible()
    await smtpCard.getByRole('button', { name: 'Jetzt prüfen' }).click()
    await expect(smtpCard.getByText('Geprüft', { exact: true })).toBeVisible()
    // the check logged in and sent a test mail to the administrator through the agency's server
    const testMail = await agencySmtp.waitFor((m) => m.to.includes('admin@agentur.example'))
    expect(testMail.from).toBe('events-einlass-test@sonnenschein.example')
    expect(agencySmtp.logins.at(-1)).toEqual({ user: 'versand', ok: true })

    // an own domain: einlass names the DNS records, the check reads them
    await page.getByRole('button', { name: 'Eigene Domain +' }).click()
    await page.getByRole('dialog').getByLabel('Bezeichnung').fill('Festdomain')
    await page.getByRole('dialog').getByLabel('Domain', { exact: true }).fill('sommerfest.example')
    await page.getByRole('dialog').getByRole('button', { name: 'Speichern' }).click()
    const domainCard = page.locator('.mail-settings-item', { hasText: 'Festdomain' })
    await expect(domainCard.getByText('Ungültige Konfiguration')).toBeVisible()
    await domainCard.getByRole('button', { name: 'Jetzt prüfen' }).click()
    await expect(domainCard.getByText('Der SPF-Eintrag der Domain fehlt oder enthält einlass nicht.')).toBeVisible()
    await shot(page, 'mail-sender-02-domain-not-published')
    const rows = domainCard.locator('table.dns-records tbody tr')
    await expect(rows).toHaveCount(2)
    for (let i = 0; i < 2; i++) dns.set(await rows.nth(i).locator('td').nth(1).innerText(), [await rows.nth(i).locator('td').nth(2).innerText()])
    await domainCard.getByRole('button', { name: 'Jetzt prüfen' }).click()
    await expect(domainCard.getByText('Geprüft', { exact: true })).toBeVisible()

    // the agency's sender: a prefix the domain does not allow is refused, then a good one is saved
    const widget = page.locator('.mail-sender')
    await widget.getByLabel('Absendername').fill('Agentur Sonnenschein')
    await widget.getByLabel('Domain').selectOption({ label: '@sonnenschein.example – Versandserver ' })
    await widget.getByLabel('Adresse').fill('news')
    await expect(widget.getByText('Die Adresse muss mit einem der erlaubten Präfixe dieser Domain beginnen.')).toBeVisible()
    await widget.getByLabel('Adresse').fill('info')
    await expect(widget.getByText('Die Adresse muss mit einem der erlaubten Präfixe dieser Domain beginnen.')).toBeVisible()
    await widget.getByLabel('Adresse').fill('events-team')
    await expect(widget.getByText('Absender gespeichert.')).toBeVisible()
    await expect(widget.getByText('Gäste sehen: Agentur Sonnenschein <events-team@sonnenschein.example>')).toBeVisible()
    await shot(page, 'mail-sender-03-settings-and-agency-sender')
    expect((await (await page.request.get(`${server.url}/proxy/api/agency/mailSender`)).json())).toEqual({ mailCustomSenderName: 'Agentur Sonnenschein', mailCustomSenderAddressName: 'events-team', mailCustomSenderAddressDomain: 'sonnenschein.example', mailSettingsId: expect.any(Number) })

    // two events: one keeps the agency's sender, one gets its own on the own domain
    const start = new Date(Date.now() + 30 * 86400_000)
    const mkEvent = async (name: string) =>
      (await (await page.request.post(`${server.url}/proxy/api/events`, { data: { displayName: name, startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Stadthalle', maxVisitors: 100 } })).json()) as { id: number }
    const plain = await mkEvent('Herbstempfang')
    const fest = await mkEvent('Sommerfest')
    await page.goto(`${server.url}/events/${fest.id}/edit`)
    const eventWidget = page.locator('.mail-sender')
    await expect(eventWidget.getByText('Es gilt der Absender der Agentur.')).toBeVisible()
    await eventWidget.getByLabel('Eigenen Absender festlegen').check()
    await eventWidget.getByLabel('Absendername').fill('Sommerfest 2027')
    await eventWidget.getByLabel('Domain').selectOption({ label: '@sommerfest.example – Festdomain ' })
    await eventWidget.getByLabel('Adresse').fill('hallo')
    await expect(eventWidget.getByText('Gäste sehen: Sommerfest 2027 <hallo@sommerfest.example>')).toBeVisible()
    await expect(eventWidget.getByText('Absender gespeichert.')).toBeVisible()
    // switching the domain starts the address over (§4)
    await eventWidget.getByLabel('Domain').selectOption({ label: '@sonnenschein.example – Versandserver ' })
    await expect(eventWidget.getByLabel('Adresse')).toHaveValue('')
    await eventWidget.getByLabel('Domain').selectOption({ label: '@sommerfest.example – Festdomain ' })
    await eventWidget.getByLabel('Adresse').fill('hallo')
    await expect(eventWidget.getByText('Absender gespeichert.')).toBeVisible()
    await shot(page, 'mail-sender-04-event-sender')

    // invite a guest of the Sommerfest from the guest list: the mail comes from the event's own domain, DKIM-signed
    const addGuest = async (eventId: number, email: string, lastName: string) => (await (await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors`, { data: { salutation: 'Frau', firstName: 'Greta', lastName, email } })).json()) as { id: number }
    await addGuest(fest.id, 'greta@gaeste.example', 'Gast')
    await page.goto(`${server.url}/events/${fest.id}/guests`)
    await page.locator('tr', { hasText: 'greta@gaeste.example' }).getByRole('button', { name: 'Gast', exact: true }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Einladen' }).click()
    const invitation = await server.smtp.waitFor((m) => m.to.includes('greta@gaeste.example'), 15_000)
    expect(invitation.parsed.from?.value[0]).toEqual({ name: 'Sommerfest 2027', address: 'hallo@sommerfest.example' })
    const dkim = await verifyDkim(invitation.raw, (s, d) => dns.txt.get(`${s}._domainkey.${d}`)?.[0]?.match(/p=([^;]+)/)?.[1] ?? null)
    expect(dkim).toMatchObject({ ok: true, domain: 'sommerfest.example' })
    expect(agencySmtp.to('greta@gaeste.example')).toHaveLength(0)

    // a guest of the other event: the agency's sender, through the agency's own server
    const hans = await addGuest(plain.id, 'hans@gaeste.example', 'Huber')
    expect((await page.request.post(`${server.url}/proxy/api/events/${plain.id}/visitors/${hans.id}/invite`, { data: {} })).status()).toBe(200)
    const viaAgency = await agencySmtp.waitFor((m) => m.to.includes('hans@gaeste.example'), 15_000)
    expect(viaAgency.parsed.from?.value[0]).toEqual({ name: 'Agentur Sonnenschein', address: 'events-team@sonnenschein.example' })
    expect(server.smtp.to('hans@gaeste.example')).toHaveLength(0)

    // the receiving server refuses an address: the guest shows as failing, with the server's answer
    server.smtp.failCode = 550
    server.smtp.failNext = 1
    const otto = await addGuest(fest.id, 'otto@gaeste.example', 'Otto')
    expect((await page.request.post(`${server.url}/proxy/api/events/${fest.id}/visitors/${otto.id}/invite`, { data: {} })).status()).toBe(200)
    await expect
      .poll(async () => (await (await page.request.get(`${server.url}/proxy/api/events/${fest.id}/visitors/${otto.id}/mails`)).json()).mailError, { timeout: 15_000 })
      .toBe(true)
    await page.goto(`${server.url}/events/${fest.id}/guests`)
    const ottoRow = page.locator('tr', { hasText: 'otto@gaeste.example' })
    await expect(ottoRow.getByText('E-Mail-Fehler')).toBeVisible()
    await shot(page, 'mail-sender-05-guest-list-mail-error')
    await ottoRow.getByRole('button', { name: 'Otto', exact: true }).click()
    const detail = page.getByTestId('guest-mails')
    await expect(detail.getByText(/Die E-Mail-Adresse dieses Gastes wird abgelehnt: .*550/)).toBeVisible()
    await expect(detail.getByText('fehlgeschlagen')).toBeVisible()
    await expect(detail.getByText('Absender: Sommerfest 2027 <hallo@sommerfest.example>')).toBeVisible()
    await detail.scrollIntoViewIfNeeded()
    await page.screenshot({ path: 'e2e/.artifacts/screenshots/mail-sender-06-guest-detail-bounce.png' })
  })
})
