// Guest extras on a phone (390x844, touch): two agreements signed step by step from the dashboard,
// self check-in and out (Escape does not close it), the notifications list; then the report dialog
// (both branches), the help centre's support form, feedback, the imprint and the /support page.
import { execFileSync } from 'node:child_process'
import { type Browser, type Page } from '@playwright/test'
import { expect, expectImageLoaded, type Server, setupAdmin, shot, test, watchCsp } from './fixtures'
import { mailLink } from './identity-helpers'

const SCRIBBLE: Array<[number, number]> = [
  [0.1, 0.7],
  [0.2, 0.3],
  [0.3, 0.75],
  [0.45, 0.35],
  [0.6, 0.7],
  [0.75, 0.4],
  [0.9, 0.6],
]

/** A finger stroke: real touch events through the DevTools protocol. */
async function drawTouch(page: Page, canvas: string, points = SCRIBBLE) {
  const box = (await page.locator(canvas).boundingBox())!
  const cdp = await page.context().newCDPSession(page)
  const at = ([x, y]: [number, number]) => ({ x: box.x + box.width * x, y: box.y + box.height * y })
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at(points[0])] })
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]]
    for (let s = 1; s <= 6; s++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [at([a[0] + ((b[0] - a[0]) * s) / 6, a[1] + ((b[1] - a[1]) * s) / 6])] })
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
  await cdp.detach()
}

async function organiserWithGuest(page: Page, server: Server, event: Record<string, unknown>) {
  await setupAdmin(page, server)
  const api = async (method: 'post' | 'get' | 'put', path: string, data?: unknown) => {
    const r = await page.request[method](`${server.url}${path}`, data === undefined ? undefined : { data })
    expect(r.ok(), `${method} ${path}: ${r.status()} ${await r.text()}`).toBe(true)
    return r.json()
  }
  const start = new Date(Date.now() + 14 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await api('post', '/proxy/api/events', {
    displayName: 'Sommerfest',
    startDate: start.toISOString(),
    endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(),
    timezone: 'Europe/Berlin',
    locationName: 'Halle 7',
    city: 'Berlin',
    maxVisitors: 100,
    maxVisitorPerSubscription: 3,
    ...event,
  })
  const email = 'greta.gast@example.org'
  const reg = await page.request.post(`${server.url}/proxy/api/public/events/${ev.id}/registrations`, {
    data: { salutation: 'Frau', firstName: 'Greta', lastName: 'Gast', email, escortPersons: [{ firstName: 'Emil', lastName: 'Gast' }] },
  })
  expect(reg.status(), await reg.text()).toBe(201)
  return { api, event: ev, email }
}

async function phone(browser: Browser, server: Server, link: string) {
  const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 })
  const g = await context.newPage()
  const csp = watchCsp(g)
  await g.goto(link)
  return { g, csp, context }
}

test('phone: two agreements step by step from the dashboard, self check-in and out, notifications', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  const { api, event, email } = await organiserWithGuest(page, server, { allowSelfCheckin: true, allowSelfCheckout: true })
  await api('post', '/proxy/api/agreements', { displayName: 'Fotoerlaubnis', validity: 'EVENT', eventId: event.id, appearance: 'VISIBLE', sortOrder: 1, description: '<p>Fotos von mir dürfen veröffentlicht werden.</p>' })
  await api('post', '/proxy/api/agreements', { displayName: 'Hausordnung', validity: 'EVENT', eventId: event.id, appearance: 'REQUIRED', sortOrder: 2, description: '<p>Ich halte mich an die <strong>Hausordnung</strong>.</p>' })
  const link = await mailLink(server, email, /Ihre Anmeldung/, '/guest/dashboard?token=')
  const { g, csp } = await phone(browser, server, link)
  await expect(g.getByRole('heading', { name: 'Sommerfest' })).toBeVisible()

  // agreements ahead of the event: counter, step 1/2 optional ("Abgelehnt, weiter": a required one follows)
  await expect(g.getByText('Einverständniserklärungen: 0 von 2 erledigt')).toBeVisible()
  await shot(g, 'guest-extras-01-dashboard-agreements')
  await g.getByRole('button', { name: 'Jetzt unterschreiben' }).click()
  const dialog = g.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: 'Fotoerlaubnis' })).toBeVisible()
  await expect(dialog.getByText('Einverständniserklärung · Schritt 1/2')).toBeVisible()
  await expect(dialog.getByText('Freiwillig')).toBeVisible()
  await shot(g, 'guest-extras-02-agreement-step1-optional')
  await dialog.getByRole('button', { name: 'Abgelehnt, weiter' }).click()
  // step 2/2 required: no decline, a signature is required
  await expect(dialog.getByRole('heading', { name: 'Hausordnung' })).toBeVisible()
  await expect(dialog.getByText('Einverständniserklärung · Schritt 2/2')).toBeVisible()
  await expect(dialog.getByText('Erforderlich')).toBeVisible()
  await expect(dialog.getByRole('button', { name: /Ablehnen|Abgelehnt/ })).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Unterschreiben', exact: true }).click()
  await expect(dialog.getByText('Bitte unterschreiben Sie.')).toBeVisible()
  await shot(g, 'guest-extras-03-agreement-step2-unsigned')
  await drawTouch(g, '.signature-pad canvas')
  await dialog.getByRole('button', { name: 'Unterschreiben', exact: true }).click()
  await expect(dialog).toBeHidden()
  await expect(g.getByText('Einverständniserklärungen: 2 von 2 erledigt')).toBeVisible()
  const decisions = async () => (await api('post', '/proxy/api/agreements/signatures/search', { eventId: event.id })).items.map((s: any) => [s.agreementName, s.status, s.origin]).sort()
  expect(await decisions()).toEqual([
    ['Fotoerlaubnis', 'DECLINED', 'GUEST'],
    ['Hausordnung', 'CONFIRMED', 'GUEST'],
  ])
  // deciding again: the photo permission is signed now, the decline is gone
  await g.getByRole('button', { name: 'Erneut entscheiden' }).click()
  await expect(dialog.getByRole('heading', { name: 'Fotoerlaubnis' })).toBeVisible()
  await expect(dialog.getByText('Abgelehnt', { exact: true })).toBeVisible()
  await drawTouch(g, '.signature-pad canvas')
  await shot(g, 'guest-extras-03b-agreement-resign')
  await dialog.getByRole('button', { name: 'Unterschreiben und weiter' }).click()
  await expect(dialog.getByRole('heading', { name: 'Hausordnung' })).toBeVisible()
  await drawTouch(g, '.signature-pad canvas')
  await dialog.getByRole('button', { name: 'Unterschreiben', exact: true }).click()
  await expect(dialog).toBeHidden()
  expect(await decisions()).toEqual([
    ['Fotoerlaubnis', 'CONFIRMED', 'GUEST'],
    ['Hausordnung', 'CONFIRMED', 'GUEST'],
  ])

  // the guest's own record, read-only from the registration details: every decision, newest first
  await g.getByRole('button', { name: 'Anmeldedetails' }).click()
  const details = g.getByRole('dialog', { name: 'Anmeldedetails' })
  const record = details.getByRole('region', { name: 'Einverständniserklärungen' })
  await expect(record.getByRole('listitem')).toHaveCount(4)
  expect(await record.getByRole('listitem').locator('strong').allTextContents()).toEqual(['Hausordnung', 'Fotoerlaubnis', 'Hausordnung', 'Fotoerlaubnis'])
  await expect(record.getByRole('listitem').last()).toContainText('Abgelehnt')
  await expect(record.getByRole('listitem').first()).toContainText(/Unterschrieben.*\d\d\.\d\d\.\d{4}, \d\d:\d\d Uhr · Version 1 · im Dashboard/)
  await record.scrollIntoViewIfNeeded()
  await shot(g, 'guest-extras-03c-details-signature-record')
  await record.getByRole('button', { name: 'Text ansehen: Hausordnung' }).first().click()
  const shown = g.getByRole('dialog', { name: 'Hausordnung' })
  await expect(shown.getByText('Ich halte mich an die Hausordnung.')).toBeVisible()
  const signature = shown.getByRole('img', { name: 'Ihre Unterschrift' })
  await expectImageLoaded(signature)
  // read-only: nothing to sign or decline here
  await expect(shown.getByRole('button', { name: /Unterschreiben|Ablehnen/ })).toHaveCount(0)
  await shot(g, 'guest-extras-03d-signature-record-text')
  await shown.getByRole('button', { name: 'Schließen' }).last().click()
  await expect(shown).toBeHidden()
  await details.getByRole('button', { name: 'Schließen' }).last().click()
  await expect(details).toBeHidden()

  // self check-in: fullscreen, Escape does not close it
  await g.getByRole('link', { name: 'Check-in' }).click()
  await expect(g).toHaveURL(/\/guest\/checkin\//)
  const sc = g.getByRole('dialog', { name: 'Check-in' })
  await expect(sc).toBeVisible()
  await expect(sc.getByText('0 von 2 Personen eingecheckt, 0 ausgecheckt')).toBeVisible()
  await g.keyboard.press('Escape')
  await expect(sc).toBeVisible()
  await shot(g, 'guest-extras-04-selfcheckin-open')
  await sc.getByRole('button', { name: 'Auswahl einchecken' }).click()
  await expect(sc.getByText('Es wurden keine Gästen ausgewählt.')).toBeVisible()
  await shot(g, 'guest-extras-05-selfcheckin-none-selected')
  await sc.getByRole('checkbox', { name: /Greta Gast/ }).check()
  await sc.getByRole('button', { name: 'Auswahl einchecken' }).click()
  await expect(sc.getByText('1 Person eingecheckt.')).toBeVisible()
  await expect(sc.getByText('1 von 2 Personen eingecheckt, 0 ausgecheckt')).toBeVisible()
  await shot(g, 'guest-extras-06-selfcheckin-done')
  // the name tags of the registration, read back from the downloaded PDF
  const [tags] = await Promise.all([g.waitForEvent('download'), sc.getByRole('link', { name: 'Namensschilder herunterladen' }).click()])
  expect(tags.suggestedFilename()).toBe('Namensschilder Sommerfest.pdf')
  const tagText = execFileSync('pdftotext', ['-layout', (await tags.path())!, '-']).toString()
  for (const words of ['Sommerfest', 'Greta Gast', 'Emil Gast', 'Begleitperson 1']) expect(tagText).toContain(words)
  await sc.getByRole('button', { name: 'Weitere einchecken' }).click()
  await sc.getByRole('button', { name: 'Alle einchecken' }).click()
  await expect(sc.getByText('1 Person eingecheckt.')).toBeVisible()
  await expect(sc.getByText('2 von 2 Personen eingecheckt, 0 ausgecheckt')).toBeVisible()
  await sc.getByRole('button', { name: 'Weitere einchecken' }).click()
  await expect(sc.getByRole('button', { name: 'Alle einchecken' })).toBeDisabled()
  await shot(g, 'guest-extras-07-selfcheckin-all-in')
  await sc.getByRole('button', { name: 'Alle auschecken' }).click()
  await expect(sc.getByText('2 Personen ausgecheckt.')).toBeVisible()
  await sc.getByRole('button', { name: 'Weitere einchecken' }).click()
  await expect(sc.getByText('Alle Personen sind ausgecheckt.')).toBeVisible()
  await shot(g, 'guest-extras-08-selfcheckin-all-out')
  // the desk sees the same
  expect(await api('get', `/proxy/api/events/${event.id}/checkin/counts`)).toEqual({ registered: 2, checkedIn: 0, checkedOut: 2 })

  // notifications: the confirmation mail
  await g.goto(`${server.url}/guest/notifications`)
  await expect(g.getByRole('heading', { name: 'Benachrichtigungen' })).toBeVisible()
  await expect(g.getByRole('heading', { name: 'Ihre Anmeldung: Sommerfest' })).toBeVisible()
  await expect(g.getByText('Wir haben Ihnen eine E-Mail gesendet.')).toBeVisible()
  await expect(g.getByText(/^Seite 1 von 1/)).toBeVisible()
  await expect(g.getByRole('img', { name: 'E-Mail' })).toBeVisible()
  await expect(g.getByText(/\d\d\.\d\d\.\d{4}, \d\d:\d\d/)).toBeVisible()
  await shot(g, 'guest-extras-09-notifications')
  expect(csp).toEqual([])
})

test('phone: report (contact info and form), help centre support, feedback, imprint, /support', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  const { api, email, event } = await organiserWithGuest(page, server, { useReporting: true })
  await api('put', '/proxy/api/agency/imprint', { imprintText: '<p>Agentur Sonnenschein GmbH, Musterstraße 1, Berlin</p>', privacyUrl: 'https://example.org/datenschutz', contactGuest: 'Petra Plan (Gästebetreuung)', contactGuestPhone: '+49 30 1234567', contactGuestMail: 'gaeste@sonnenschein.example' })
  const link = await mailLink(server, email, /Ihre Anmeldung/, '/guest/dashboard?token=')
  const { g, csp } = await phone(browser, server, link)
  await expect(g.getByRole('heading', { name: 'Sommerfest' })).toBeVisible()

  // report, branch 1: an event-related type shows the organiser's contact info
  await g.getByRole('button', { name: 'Melden' }).click()
  const rd = g.getByRole('dialog', { name: 'Meldung' })
  await expect(rd.getByText('Worum geht es?')).toBeVisible()
  await expect(rd.getByRole('button', { name: 'Weiter' })).toBeDisabled()
  await shot(g, 'guest-extras-20-report-types')
  await rd.getByLabel('Frage oder Problem zur Veranstaltung').check()
  await rd.getByRole('button', { name: 'Weiter' }).click()
  await expect(rd.getByText('Bitte wenden Sie sich mit diesem Anliegen direkt an den Veranstalter:')).toBeVisible()
  await expect(rd.getByRole('link', { name: '+49 30 1234567' })).toHaveAttribute('href', 'tel:+49301234567')
  await expect(rd.getByRole('link', { name: 'gaeste@sonnenschein.example' })).toHaveAttribute('href', 'mailto:gaeste@sonnenschein.example')
  await shot(g, 'guest-extras-21-report-contact')
  await rd.getByRole('button', { name: 'Zurück' }).click()

  // branch 2: the form; the server's FIELD_ERROR marks the fields
  await rd.getByLabel('Betrug').check()
  await rd.getByRole('button', { name: 'Weiter' }).click()
  await rd.getByRole('button', { name: 'Absenden' }).click()
  await expect(rd.getByText('Ihre Anfrage konnte nicht übermittelt werden.')).toBeVisible()
  await expect(rd.getByText('Bitte bestätigen Sie dieses Feld.')).toBeVisible()
  await shot(g, 'guest-extras-22-report-errors')
  await rd.getByLabel(/^Beschreibung/).fill('Am Eingang werden gefälschte Tickets verkauft.')
  await rd.getByLabel(/^Vorname/).fill('Greta')
  await rd.getByLabel(/^Nachname/).fill('Gast')
  await rd.getByLabel(/^E-Mail/).fill(email)
  await rd.getByLabel('Ich bestätige, dass meine Angaben richtig sind.').check()
  await rd.getByRole('button', { name: 'Absenden' }).click()
  await expect(rd.getByText('Anfrage wurde übermittelt.')).toBeVisible()
  await shot(g, 'guest-extras-23-report-sent')
  await rd.getByRole('button', { name: 'Schließen' }).last().click()
  const reports = await api('get', '/proxy/api/agency/reports')
  expect(reports.items[0]).toMatchObject({ reportType: 'FRAUD', eventName: 'Sommerfest', reason: 'Am Eingang werden gefälschte Tickets verkauft.' })

  // SEXUAL_ABUSE hides the identity fields
  await g.getByRole('button', { name: 'Melden' }).click()
  await rd.getByLabel('Sexueller Missbrauch').check()
  await rd.getByRole('button', { name: 'Weiter' }).click()
  await expect(rd.getByText('Diese Meldung wird anonym übermittelt: Name und E-Mail werden nicht gespeichert.')).toBeVisible()
  await expect(rd.getByLabel(/^Vorname/)).toHaveCount(0)
  await rd.getByLabel(/^Beschreibung/).fill('Vorfall an der Garderobe.')
  await shot(g, 'guest-extras-24-report-anonymous')
  await rd.getByRole('button', { name: 'Absenden' }).click()
  await expect(rd.getByText('Anfrage wurde übermittelt.')).toBeVisible()
  await rd.getByRole('button', { name: 'Schließen' }).last().click()

  // imprint of the agency
  await g.getByRole('button', { name: 'Impressum' }).click()
  const imp = g.getByRole('dialog', { name: 'Impressum und Datenschutz' })
  await expect(imp.getByText('Agentur Sonnenschein GmbH, Musterstraße 1, Berlin')).toBeVisible()
  await expect(imp.getByRole('link', { name: 'https://example.org/datenschutz' })).toBeVisible()
  await shot(g, 'guest-extras-25-imprint')
  await imp.getByRole('button', { name: 'Schließen' }).last().click()

  // help centre: info for the page, then the support form
  await g.getByRole('button', { name: /Hilfe/ }).click()
  const help = g.getByRole('dialog', { name: 'Hilfe' })
  await expect(help.getByText(/Hier sehen Sie alle Veranstaltungen/)).toBeVisible()
  await expect(help.getByRole('link', { name: 'Zur Dokumentation' })).toHaveAttribute('href', '/support#dashboard')
  await shot(g, 'guest-extras-26-help-info')
  await help.getByRole('tab', { name: 'Support' }).click()
  // a question about the event goes to its organiser: the guest's event is chosen
  await expect(help.getByLabel('Betrifft')).toHaveValue(String(event.id))
  await expect(help.getByLabel('Betrifft').locator('option')).toHaveText(['Sommerfest', 'Keine bestimmte Veranstaltung'])
  await help.getByRole('button', { name: 'Senden' }).click()
  await expect(help.getByText('Dieses Feld ist ein Pflichtfeld.').first()).toBeVisible()
  await help.getByLabel(/^Betreff/).fill('Ticket fehlt')
  await help.getByLabel(/^Details/).fill('Ich finde mein Ticket nicht.')
  await help.getByRole('button', { name: 'Senden' }).click()
  await expect(help.getByText('Anfrage wurde übermittelt.')).toBeVisible()
  await shot(g, 'guest-extras-27-help-support-sent')
  const supportMail = await server.smtp.waitFor((m) => m.to.includes('gaeste@sonnenschein.example') && /Support #\d+: Ticket fehlt/.test(m.subject), 15_000)
  expect(supportMail.text).toContain('Veranstaltung: Sommerfest')
  expect(supportMail.text).toContain('Sprache: Deutsch')
  expect(supportMail.text).not.toContain('{"')

  // feedback from the help panel
  await help.getByRole('button', { name: 'Feedback' }).click()
  const fb = g.getByRole('dialog', { name: 'Feedback' })
  const box = (await fb.boundingBox())!
  expect(box.width).toBeLessThanOrEqual(500)
  expect(box.height).toBeGreaterThanOrEqual(200)
  await expect(fb.getByLabel('Betrifft')).toHaveValue(String(event.id))
  await fb.getByLabel(/^Nachricht/).fill('Sehr übersichtlich!')
  await shot(g, 'guest-extras-28a-feedback-about-event')
  await fb.getByRole('button', { name: 'Feedback senden' }).click()
  await expect(fb.getByText('Vielen Dank, Ihr Feedback wurde übermittelt.')).toBeVisible()
  await shot(g, 'guest-extras-28-feedback-sent')
  await server.smtp.waitFor((m) => m.to.includes('gaeste@sonnenschein.example') && /Feedback #\d+: Sommerfest/.test(m.subject), 15_000)
  // nothing went to the unconfigured support@localhost
  expect(server.smtp.mails.filter((m) => m.to.includes('support@localhost'))).toEqual([])
  // the organiser's reports page lists the guest's support question and feedback
  const listed = await api('get', '/proxy/api/agency/reports')
  expect(listed.items.slice(0, 2)).toMatchObject([
    { kind: 'FEEDBACK', eventName: 'Sommerfest', reason: 'Sehr übersichtlich!' },
    { kind: 'SUPPORT', eventName: 'Sommerfest', subject: 'Ticket fehlt', reason: 'Ich finde mein Ticket nicht.' },
  ])

  // /support: open; without a configured support address it names none
  await g.goto(`${server.url}/support`)
  await expect(g.getByRole('heading', { name: 'Support' })).toBeVisible()
  await expect(g.getByText('support@localhost')).toHaveCount(0)
  await shot(g, 'guest-extras-29-support-page')
  expect(csp).toEqual([])
})

test('phone: self check-in asks for the required agreement first, then redirects (CUSTOM); closed until checkinOpenDate', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  const { api, event, email } = await organiserWithGuest(page, server, { allowSelfCheckin: true, checkinTarget: 'CUSTOM', checkinUrl: `${server.url}/support` })
  await api('post', '/proxy/api/agreements', { displayName: 'Hausordnung', validity: 'EVENT', eventId: event.id, appearance: 'REQUIRED', description: '<p>Ich halte mich an die Hausordnung.</p>' })
  const start = new Date(Date.now() + 20 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const opens = new Date(start.getTime() - 3600_000)
  const later = await api('post', '/proxy/api/events', {
    displayName: 'Winterball',
    startDate: start.toISOString(),
    endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(),
    timezone: 'Europe/Berlin',
    maxVisitors: 100,
    allowSelfCheckin: true,
    checkinOpenDate: opens.toISOString(),
  })
  const reg = await page.request.post(`${server.url}/proxy/api/public/events/${later.id}/registrations`, { data: { salutation: 'Frau', firstName: 'Greta', lastName: 'Gast', email } })
  expect(reg.status()).toBe(201)
  const link = await mailLink(server, email, /Ihre Anmeldung: Sommerfest/, '/guest/dashboard?token=')
  const { g, csp } = await phone(browser, server, link)
  await expect(g.getByRole('heading', { name: 'Sommerfest' })).toBeVisible()
  const lists = await (await g.request.get(`${server.url}/proxy/api/guest/events`)).json()
  const tokenOf = (name: string) => lists.confirmedEvents.find((e: any) => e.event.displayName === name).eventToken as string

  // closed until checkinOpenDate: the opening time shows, check-in is not offered
  await g.goto(`${server.url}/guest/checkin/${tokenOf('Winterball')}`)
  const sc = g.getByRole('dialog', { name: 'Check-in' })
  await expect(sc.getByText(/^Der Check-in öffnet am \d\d\.\d\d\.\d{4} um 17:00 Uhr\.$/)).toBeVisible()
  await expect(sc.getByRole('button', { name: 'Alle einchecken' })).toBeDisabled()
  await expect(sc.getByRole('button', { name: 'Alle auschecken' })).toHaveCount(0)
  await shot(g, 'guest-extras-10-selfcheckin-closed')

  // a made-up link
  await g.goto(`${server.url}/guest/checkin/nichtvorhanden1234567`)
  await expect(g.getByText('Dieser Check-in-Link ist ungültig.')).toBeVisible()

  // the required agreement opens the signature dialog, then the check-in goes through and redirects
  await g.goto(`${server.url}/guest/checkin/${tokenOf('Sommerfest')}`)
  await expect(sc.getByText('Einverständniserklärungen: 0 von 1 erledigt')).toBeVisible()
  await sc.getByRole('checkbox', { name: /Greta Gast/ }).check()
  await sc.getByRole('button', { name: 'Auswahl einchecken' }).click()
  const dialog = g.getByRole('dialog', { name: 'Hausordnung' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByText('Einverständniserklärung', { exact: true })).toBeVisible()
  await dialog.getByRole('button', { name: 'Unterschreiben', exact: true }).click()
  await expect(dialog.getByText('Bitte unterschreiben Sie.')).toBeVisible()
  await drawTouch(g, '.signature-pad canvas')
  await shot(g, 'guest-extras-11-selfcheckin-sign')
  await dialog.getByRole('button', { name: 'Unterschreiben', exact: true }).click()
  await expect(sc.getByText(/1 Person eingecheckt\. Sie werden weitergeleitet|1 Person eingecheckt\./)).toBeVisible()
  await shot(g, 'guest-extras-12-selfcheckin-redirecting')
  await expect(g).toHaveURL(`${server.url}/support`, { timeout: 10_000 })
  const signed = await api('post', '/proxy/api/agreements/signatures/search', { eventId: event.id })
  expect(signed.items.map((s: any) => [s.agreementName, s.origin])).toEqual([['Hausordnung', 'SELF_CHECKIN']])
  expect(csp).toEqual([])
})

test('organiser: imprint and guest contact in the settings, the reports list', async ({ page, server }) => {
  test.setTimeout(90_000)
  const { event } = await organiserWithGuest(page, server, { useReporting: true })
  const r = await page.request.post(`${server.url}/proxy/api/public/report`, { data: { reportType: 'LEGAL_ABUSE_VIOLENCE', eventId: event.id, reason: 'Schlägerei am Einlass.', firstName: 'Rita', lastName: 'Ruf', email: 'rita@example.org', confirmCorrectData: true, submitIdentity: true, important: true } })
  expect(r.status()).toBe(200)
  await page.goto(`${server.url}/events`)
  await page.getByRole('link', { name: 'Meldungen' }).click()
  await expect(page.getByRole('heading', { name: 'Meldungen' })).toBeVisible()
  await expect(page.getByText('Schlägerei am Einlass.')).toBeVisible()
  await expect(page.getByText('Rita Ruf <rita@example.org>')).toBeVisible()
  // a guest's feedback about the event is on the same page
  const fb = await page.request.post(`${server.url}/proxy/api/public/feedback`, { data: { name: 'Gerd Gast', email: 'gerd@example.org', page: '/guest/dashboard', message: 'Der Einlass ging sehr schnell, danke!', eventId: event.id } })
  expect(fb.status()).toBe(200)
  await page.reload()
  const item = page.locator('.reports-list li').first()
  await expect(item.getByRole('heading', { name: 'Feedback' })).toBeVisible()
  await expect(item.getByText('Der Einlass ging sehr schnell, danke!')).toBeVisible()
  await expect(item.getByText('Gerd Gast <gerd@example.org>')).toBeVisible()
  await expect(page.getByText('Schlägerei am Einlass.')).toBeVisible()
  await shot(page, 'guest-extras-30-organiser-reports')
  await page.getByRole('link', { name: 'Impressum und Kontakt' }).click()
  await page.getByRole('textbox', { name: 'Impressum (Text)' }).fill('Agentur Sonnenschein GmbH, Berlin')
  await page.getByLabel('Datenschutzerklärung (Adresse)').fill('javascript:alert(1)')
  await page.getByLabel('Name', { exact: true }).fill('Petra Plan')
  await page.getByLabel('Telefon').fill('+49 30 1234567')
  await page.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.locator('.field-error').first()).toBeVisible()
  await page.getByLabel('Datenschutzerklärung (Adresse)').fill('https://example.org/datenschutz')
  await page.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByText('Gespeichert.')).toBeVisible()
  await shot(page, 'guest-extras-31-organiser-imprint')
  const pub = await (await page.request.get(`${server.url}/proxy/api/public/agency/${event.agency?.id ?? event.agencyId}/imprint`)).json()
  expect(pub).toMatchObject({ imprintText: 'Agentur Sonnenschein GmbH, Berlin', privacyUrl: 'https://example.org/datenschutz', contactGuest: 'Petra Plan', contactGuestPhone: '+49 30 1234567' })
})
