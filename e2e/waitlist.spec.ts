// The waiting list from both sides: a full event with a waiting list, a guest registers on the public
// page and lands on it (the dashboard shows the position), the organiser cannot move them up while
// the event is full (German reason), frees a place by declining a guest, sees the hint, filters to the
// waiting list and moves the guest up; the guest gets the mail and is registered. Phone and desktop.
import { linkIn } from '../server/testing/smtp-sink'
import { expect, setupAdmin, SHOTS, shot, test } from './fixtures'

test('waiting list: register when full, organiser frees a place and moves the guest up, guest is mailed', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Kochabend', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Markthalle', city: 'Hamburg', maxVisitors: 1 },
  })
  expect(ev.status()).toBe(201)
  const eventId = (await ev.json()).id as number
  expect((await page.request.put(`${server.url}/proxy/api/events/${eventId}/form-settings`, { data: { waitingList: true } })).status()).toBe(200)
  // the only place goes to Anna
  const anna = await page.request.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, {
    data: { salutation: 'Frau', firstName: 'Anna', lastName: 'Adler', email: 'anna@example.org', identification: 'browser-anna' },
  })
  expect((await anna.json()).status).toBe('CONFIRMED')

  // Wanda registers on her phone and lands on the waiting list
  const guestCtx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    const g = await guestCtx.newPage()
    await g.goto(`${server.url}/public/event/${eventId}`)
    await expect(g.getByText('Die Veranstaltung ist ausgebucht. Neue Anmeldungen kommen auf die Warteliste.')).toBeVisible()
    await g.getByLabel('Anrede').selectOption('Frau')
    await g.getByLabel(/^Vorname( \*)?$/).fill('Wanda')
    await g.getByLabel(/^Nachname( \*)?$/).fill('Warte')
    await g.getByLabel('E-Mail-Adresse').fill('wanda@example.org')
    await g.getByRole('button', { name: 'Anmeldung anfragen' }).click()
    await expect(g.getByRole('heading', { name: 'Sie stehen auf der Warteliste' })).toBeVisible()
    await shot(g, 'waitlist-01-public-waiting-phone')
    const waitMail = await server.smtp.waitFor((m) => m.to.includes('wanda@example.org'), 15_000)
    expect(waitMail.subject).toBe('Sie stehen auf der Warteliste: Kochabend')
    await g.goto(linkIn(waitMail, '/guest/dashboard?token='))
    await expect(g.getByText('Platz 1 auf der Warteliste')).toBeVisible()
    await shot(g, 'waitlist-02-dashboard-position-phone')

    // the organiser: the event is full, moving up is refused with the reason
    await page.goto(`${server.url}/events/${eventId}/guests`)
    const wandaRow = page.getByRole('row', { name: /Warte/ })
    await expect(wandaRow.getByText('Warteliste')).toBeVisible()
    await expect(wandaRow.getByText('Platz 1')).toBeVisible()
    await expect(page.getByText(/Gast auf der Warteliste/)).toHaveCount(0)
    await wandaRow.getByRole('button', { name: 'Nachrücken' }).click()
    await expect(page.getByText('Kein Platz frei: Geben Sie zuerst einen Platz frei oder erhöhen Sie die Kapazität der Veranstaltung.')).toBeVisible()
    await shot(page, 'waitlist-03-organiser-full-refused')
    await expect(wandaRow.getByText('Warteliste')).toBeVisible()

    // Anna is declined: a place is free, the hint says so; nobody moved up on their own
    await page.getByRole('button', { name: 'Adler' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Ablehnen' }).click()
    await expect(page.getByText('Der Gast wurde abgelehnt.')).toBeVisible()
    await dialog.getByRole('button', { name: 'Abbrechen' }).click()
    const hint = page.getByRole('status').filter({ hasText: '1 Platz frei, 1 Gast auf der Warteliste' })
    await expect(hint).toBeVisible()
    await expect(hint).toContainText('Niemand rückt automatisch nach')
    await expect(wandaRow.getByText('Warteliste')).toBeVisible()
    await shot(page, 'waitlist-04-organiser-hint')
    await page.setViewportSize({ width: 390, height: 844 })
    await expect(page.locator('.toast')).toHaveCount(0)
    await shot(page, 'waitlist-05-organiser-hint-phone')
    await wandaRow.getByRole('button', { name: 'Nachrücken' }).scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/waitlist-05b-organiser-row-phone.png` })
    await page.setViewportSize({ width: 1280, height: 800 })

    // the hint filters the list to the waiting guests; Wanda moves up from her detail
    await hint.getByRole('button', { name: 'Warteliste anzeigen' }).click()
    await expect(page.getByRole('button', { name: 'Adler' })).toHaveCount(0)
    await page.getByRole('button', { name: 'Warte' }).click()
    await expect(dialog.getByText('Platz 1 auf der Warteliste')).toBeVisible()
    await shot(page, 'waitlist-06-guest-detail')
    await dialog.getByRole('button', { name: 'Von der Warteliste nachrücken' }).click()
    await expect(page.getByText('Der Gast ist von der Warteliste nachgerückt.')).toBeVisible()
    await expect(dialog.getByText('Angemeldet')).toBeVisible()
    await dialog.getByRole('button', { name: 'Abbrechen' }).click()
    await expect(page.getByText('Kein Gast passt zu Suche und Filter.')).toBeVisible()
    await expect(hint).toHaveCount(0)
    await page.getByRole('button', { name: 'Filter zurücksetzen' }).click()
    await expect(page.getByRole('row', { name: /Warte/ }).getByText('Angemeldet')).toBeVisible()
    await shot(page, 'waitlist-07-organiser-moved-up')

    // the guest is told they got a place, and the dashboard says registered
    const upMail = await server.smtp.waitFor((m) => m.to.includes('wanda@example.org') && m.subject === 'Ein Platz ist frei geworden: Kochabend', 15_000)
    expect(upMail.text).toContain('Sie sind von der Warteliste nachgerückt, Ihre Anmeldung ist bestätigt.')
    await g.goto(linkIn(upMail, '/guest/dashboard?token='))
    await expect(g.getByRole('heading', { name: /Angemeldet/ })).toBeVisible()
    await expect(g.getByText(/auf der Warteliste/)).toHaveCount(0)
    await shot(g, 'waitlist-08-dashboard-registered-phone')
  } finally {
    await guestCtx.close()
  }
})

test('a guest leaves the waiting list from the dashboard; the next guest moves up in line', async ({ page, server, browser }) => {
  test.setTimeout(90_000)
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 28 * 86400_000)
  start.setUTCHours(18, 0, 0, 0)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Weinprobe', startDate: start.toISOString(), endDate: new Date(start.getTime() + 2 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kellerei', city: 'Mainz', maxVisitors: 1 },
  })
  const eventId = (await ev.json()).id as number
  expect((await page.request.put(`${server.url}/proxy/api/events/${eventId}/form-settings`, { data: { waitingList: true } })).status()).toBe(200)
  const register = async (firstName: string, email: string) => {
    const r = await page.request.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, { data: { salutation: 'Frau', firstName, lastName: 'Probe', email, identification: `browser-${firstName}` } })
    return (await r.json()) as { status: string }
  }
  expect((await register('Anna', 'anna.wein@example.org')).status).toBe('CONFIRMED')
  expect((await register('Wanda', 'wanda.wein@example.org')).status).toBe('WAITING_LIST')
  expect((await register('Xenia', 'xenia.wein@example.org')).status).toBe('WAITING_LIST')
  const guestCtx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    const g = await guestCtx.newPage()
    const mail = await server.smtp.waitFor((m) => m.to.includes('wanda.wein@example.org'), 15_000)
    await g.goto(linkIn(mail, '/guest/dashboard?token='))
    await expect(g.getByText('Platz 1 auf der Warteliste')).toBeVisible()
    await g.getByRole('button', { name: 'Von der Warteliste abmelden' }).click()
    const confirm = g.getByRole('dialog', { name: 'Von der Warteliste abmelden' })
    await expect(confirm).toContainText('Möchten Sie sich für „Weinprobe“ wirklich von der Warteliste abmelden? Wer nach Ihnen steht, rückt auf.')
    await shot(g, 'waitlist-10-leave-confirm-phone')
    // changing her mind first: nothing happens
    await confirm.getByRole('button', { name: 'Abbrechen' }).click()
    await expect(g.getByText('Platz 1 auf der Warteliste')).toBeVisible()
    await g.getByRole('button', { name: 'Von der Warteliste abmelden' }).click()
    await g.getByRole('dialog', { name: 'Von der Warteliste abmelden' }).getByRole('button', { name: 'Von der Warteliste abmelden' }).click()
    await expect(g.getByText('Sie stehen nicht mehr auf der Warteliste.')).toBeVisible()
    await shot(g, 'waitlist-11-left-phone')
    await g.getByRole('button', { name: 'OK' }).click()
    await expect(g.getByTestId('section-declinedEvents').getByRole('heading', { name: 'Weinprobe' })).toBeVisible()
    await expect(g.getByText('Platz 1 auf der Warteliste')).toHaveCount(0)
    await shot(g, 'waitlist-12-declined-phone')
  } finally {
    await guestCtx.close()
  }
  // the organiser sees Wanda declined by herself and Xenia first in line
  await page.goto(`${server.url}/events/${eventId}/guests`)
  await expect(page.getByRole('row', { name: /Wanda/ }).getByText('Vom Gast abgesagt')).toBeVisible()
  await expect(page.getByRole('row', { name: /Xenia/ }).getByText('Platz 1')).toBeVisible()
  await shot(page, 'waitlist-13-organiser-after-leave')
})

test('a guest withdraws a request that awaits approval from the dashboard; the organiser sees it declined by the guest', async ({ page, server, browser }) => {
  test.setTimeout(90_000)
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 35 * 86400_000)
  start.setUTCHours(18, 0, 0, 0)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Atelierbesuch', startDate: start.toISOString(), endDate: new Date(start.getTime() + 2 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Atelier Nord', city: 'Bremen', maxVisitors: 5, requireApproval: true },
  })
  expect(ev.status()).toBe(201)
  const eventId = (await ev.json()).id as number
  const r = await page.request.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, {
    data: { salutation: 'Frau', firstName: 'Rita', lastName: 'Rückzug', email: 'rita.atelier@example.org', identification: 'browser-rita' },
  })
  expect((await r.json()).status).toBe('REQUIRE_APPROVAL')
  const guestCtx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    const g = await guestCtx.newPage()
    const mail = await server.smtp.waitFor((m) => m.to.includes('rita.atelier@example.org'), 15_000)
    expect(mail.subject).toBe('Ihre Anmeldung wird geprüft: Atelierbesuch')
    await g.goto(linkIn(mail, '/guest/dashboard?token='))
    const open = g.getByTestId('section-openEvents')
    await expect(open.getByRole('heading', { name: 'Atelierbesuch' })).toBeVisible()
    await expect(open.getByText('Wartet auf Freigabe · 1 Person')).toBeVisible()
    await shot(g, 'waitlist-14-approval-request-phone')
    await g.getByRole('button', { name: 'Anfrage zurückziehen' }).click()
    const confirm = g.getByRole('dialog', { name: 'Anfrage zurückziehen' })
    await expect(confirm).toContainText('Möchten Sie Ihre Anfrage für „Atelierbesuch“ wirklich zurückziehen?')
    await shot(g, 'waitlist-15-withdraw-request-confirm-phone')
    await confirm.getByRole('button', { name: 'Anfrage zurückziehen' }).click()
    await expect(g.getByText('Ihre Anfrage wurde zurückgezogen.')).toBeVisible()
    await g.getByRole('button', { name: 'OK' }).click()
    const declined = g.getByTestId('section-declinedEvents')
    await expect(declined.getByRole('heading', { name: 'Atelierbesuch' })).toBeVisible()
    await expect(declined.getByText('Abgesagt · 1 Person')).toBeVisible()
    await expect(g.getByText(/Wartet auf Freigabe/)).toHaveCount(0)
    await expect(g.getByRole('button', { name: 'Anfrage zurückziehen' })).toHaveCount(0)
    await shot(g, 'waitlist-16-request-withdrawn-phone')
  } finally {
    await guestCtx.close()
  }
  // the organiser sees Rita's request declined by herself
  await page.goto(`${server.url}/events/${eventId}/guests`)
  await expect(page.getByRole('row', { name: /Rückzug/ }).getByText('Vom Gast abgesagt')).toBeVisible()
  await shot(page, 'waitlist-17-organiser-after-withdrawn-request')
})
