// The guest portal on a phone: register → confirmation mail → link → dashboard → details → edit
// escorts (add, delete with confirm, save) → change data → withdraw; decline and activate an
// invitation; pass a place on (the new guest's link, the organiser's history); the entry-pass
// variant (SYSTEM_COVIDOO: no notifications tab, no profile, only the entry-ticket link).
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { linkIn } from '../server/testing/smtp-sink'
import { testLicenseText } from '../server/testing/license-test-key'
import { SHOTS, type Server, expect, setupAdmin, shot, startServer, test } from './fixtures'

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }

async function createEvent(page: Page, server: Server, body: Record<string, unknown>) {
  const start = new Date(Date.now() + 30 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const r = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Stadthalle', city: 'Musterstadt', ...body },
  })
  expect(r.status()).toBe(201)
  return (await r.json()) as { id: number }
}

async function phone(browser: Browser) {
  const ctx = await browser.newContext(PHONE)
  return { ctx, g: await ctx.newPage() }
}

/** registers on the public page like a person and opens the confirmation mail's link */
async function registerAndOpenLink(g: Page, server: Server, eventId: number, person: { first: string; last: string; email: string }) {
  await g.goto(`${server.url}/public/event/${eventId}`)
  await g.getByLabel('Anrede').first().selectOption('Frau')
  await g.getByLabel(/^Vorname( \*)?$/).fill(person.first)
  await g.getByLabel(/^Nachname( \*)?$/).fill(person.last)
  await g.getByLabel(/^E-Mail-Adresse( \*)?$/).fill(person.email)
  await g.getByRole('button', { name: /anmelde|anfragen/i }).click()
  await expect(g.getByRole('status')).toBeVisible()
  const mail = await server.smtp.waitFor((m) => m.to.includes(person.email), 15_000)
  await g.goto(linkIn(mail, '/guest/dashboard?token='))
}

const okOverlay = (g: Page, text: string) => g.locator('.overlay-box').filter({ hasText: text })

test('guest portal on a phone: details, escorts, data change, withdraw', async ({ page, server, browser }) => {
  test.setTimeout(180_000)
  await setupAdmin(page, server)
  const ev = await createEvent(page, server, { displayName: 'Sommerkonzert', subTitle: 'Open Air', maxVisitors: 50, maxVisitorPerSubscription: 3, options: ['CAN_EDIT_REGISTRATION_DATA'] })
  const wish = await page.request.post(`${server.url}/proxy/api/events/${ev.id}/fields`, { data: { type: 'TEXT', displayName: 'Essenswunsch' } })
  expect(wish.status()).toBe(201)
  const { ctx, g } = await phone(browser)
  try {
    await registerAndOpenLink(g, server, ev.id, { first: 'Greta', last: 'Gast', email: 'greta@example.org' })
    const section = g.getByTestId('section-confirmedEvents')
    await expect(section.getByRole('heading', { name: 'Sommerkonzert' })).toBeVisible()
    await expect(section.getByText('Open Air')).toBeVisible()
    await expect(section.locator('.count')).toHaveText('1')
    await expect(g.getByRole('tab', { name: 'Veranstaltungen' })).toHaveAttribute('aria-selected', 'true')
    await expect(g.getByRole('tab', { name: 'Benachrichtigungen' })).toBeVisible()
    await shot(g, 'guest-portal-01-dashboard-phone')

    // resend the confirmation
    await section.getByRole('button', { name: 'Bestätigung erneut senden' }).click()
    await expect(okOverlay(g, 'Die E-Mail wurde erneut versendet.')).toBeVisible()
    await g.getByRole('button', { name: 'OK' }).click()
    await server.smtp.waitFor((m) => m.to.includes('greta@example.org') && server.smtp.mails.filter((x) => x.to.includes('greta@example.org')).length >= 2, 15_000)

    // details: add an escort, save; then remove it with a confirmation
    await section.getByRole('button', { name: 'Anmeldedetails' }).click()
    const dialog = g.getByRole('dialog', { name: 'Anmeldedetails' })
    await expect(dialog.getByTestId('details-name')).toHaveText('Frau Greta Gast')
    await expect(dialog.getByTestId('details-counts')).toHaveText('Angemeldet: 1 · Eingecheckt: 0')
    await dialog.getByRole('button', { name: 'Begleitperson hinzufügen' }).click()
    await dialog.locator('#escort-0-firstName').fill('Emil')
    await dialog.getByRole('button', { name: 'Speichern' }).click()
    // the last name is missing: the field-error dialog names it
    const fieldErrors = g.getByRole('dialog', { name: 'Es ist ein Fehler aufgetreten' })
    await expect(fieldErrors).toContainText('Begleitperson 1: Nachname')
    await shot(g, 'guest-portal-02-escort-field-error-phone')
    await fieldErrors.getByRole('button', { name: 'Verstanden' }).click()
    await dialog.locator('#escort-0-lastName').fill('Begleiter')
    await shot(g, 'guest-portal-03-details-escort-phone')
    await dialog.getByRole('button', { name: 'Speichern' }).click()
    await expect(okOverlay(g, 'Die Begleitpersonen wurden gespeichert.')).toBeVisible()
    await shot(g, 'guest-portal-04-escorts-saved-phone')
    await g.getByRole('button', { name: 'OK' }).click()
    await expect(dialog.getByTestId('details-counts')).toHaveText('Angemeldet: 2 · Eingecheckt: 0')
    // Escape closes only the confirmation on top, not the details below it
    await dialog.getByRole('button', { name: 'Begleitperson entfernen' }).click()
    await expect(g.getByRole('dialog', { name: 'Begleitperson entfernen' })).toBeVisible()
    await g.keyboard.press('Escape')
    await expect(g.getByRole('dialog', { name: 'Begleitperson entfernen' })).toHaveCount(0)
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Begleitperson entfernen' }).click()
    const confirm = g.getByRole('dialog', { name: 'Begleitperson entfernen' })
    await expect(confirm).toContainText('Begleitperson „Emil Begleiter“ wirklich entfernen?')
    await shot(g, 'guest-portal-05-escort-delete-confirm-phone')
    await confirm.getByRole('button', { name: 'Löschen' }).click()
    await dialog.getByRole('button', { name: 'Speichern' }).click()
    await expect(okOverlay(g, 'Die Begleitpersonen wurden gespeichert.')).toBeVisible()
    await g.getByRole('button', { name: 'OK' }).click()
    await expect(dialog.getByTestId('details-counts')).toHaveText('Angemeldet: 1 · Eingecheckt: 0')
    await dialog.getByRole('button', { name: 'Schließen' }).last().click()

    // change of data through the form engine
    await section.getByRole('button', { name: 'Angaben ändern' }).click()
    const data = g.getByRole('dialog', { name: 'Angaben ändern' })
    await data.getByLabel('Essenswunsch').fill('vegetarisch')
    await shot(g, 'guest-portal-06-data-change-phone')
    await data.getByRole('button', { name: 'Änderungen speichern' }).click()
    await expect(okOverlay(g, 'Ihre Angaben wurden gespeichert.')).toBeVisible()
    await g.getByRole('button', { name: 'OK' }).click()
    await section.getByRole('button', { name: 'Anmeldedetails' }).click()
    await expect(g.getByRole('dialog', { name: 'Anmeldedetails' })).toContainText('vegetarisch')
    await shot(g, 'guest-portal-07-details-fields-phone')
    await g.getByRole('dialog', { name: 'Anmeldedetails' }).getByRole('button', { name: 'Schließen' }).last().click()

    // withdraw: the place goes back, the event moves to declined
    await section.getByRole('button', { name: 'Teilnahme zurückziehen' }).click()
    const ask = g.getByRole('dialog', { name: 'Teilnahme zurückziehen' })
    await expect(ask).toContainText('Möchten Sie Ihre Teilnahme an „Sommerkonzert“ wirklich zurückziehen?')
    await shot(g, 'guest-portal-08-withdraw-confirm-phone')
    await ask.getByRole('button', { name: 'Teilnahme zurückziehen' }).click()
    await expect(okOverlay(g, 'Ihre Teilnahme wurde zurückgezogen.')).toBeVisible()
    await g.getByRole('button', { name: 'OK' }).click()
    await expect(g.getByTestId('section-declinedEvents').getByRole('heading', { name: 'Sommerkonzert' })).toBeVisible()
    await expect(g.getByTestId('section-confirmedEvents')).toHaveCount(0)
    await shot(g, 'guest-portal-09-withdrawn-phone')
    const seats = await page.request.get(`${server.url}/proxy/api/events/${ev.id}`)
    expect((await seats.json()).seatsTaken).toBe(0)

    // the notifications tab is remembered for the session
    await g.getByRole('tab', { name: 'Benachrichtigungen' }).click()
    await expect(g).toHaveURL(/\/guest\/notifications$/)
    await g.reload()
    await expect(g.getByRole('tab', { name: 'Benachrichtigungen' })).toHaveAttribute('aria-selected', 'true')
    await g.goto(`${server.url}/guest/dashboard`)
    await expect(g.getByRole('tab', { name: 'Benachrichtigungen' })).toHaveAttribute('aria-selected', 'true')
    await g.getByRole('tab', { name: 'Veranstaltungen' }).click()
    // the self check-in route is not swallowed by the dashboard redirect
    await g.goto(`${server.url}/guest/checkin/sometoken`)
    await expect(g).toHaveURL(/\/guest\/checkin\/sometoken$/)
  } finally {
    await ctx.close()
  }
})

test('guest portal on a phone: activate one invitation, decline another with a reason', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const a = await createEvent(page, server, { displayName: 'Neujahrsempfang' })
  const b = await createEvent(page, server, { displayName: 'Sommerfest', eventType: 'ONLINE' })
  for (const ev of [a, b]) {
    const g = await page.request.post(`${server.url}/proxy/api/events/${ev.id}/visitors`, { data: { salutation: 'Herr', firstName: 'Paul', lastName: 'Pending', email: 'paul@example.org' } })
    expect(g.status()).toBe(201)
    const inv = await page.request.post(`${server.url}/proxy/api/events/${ev.id}/visitors/${(await g.json()).id}/invite`, { data: { reservePlace: true } })
    expect(inv.status()).toBe(200)
  }
  // a plain invitation (no place held) to a later event: the invited section, grouped by month
  const c = await createEvent(page, server, { displayName: 'Herbstgala', startDate: '2027-10-15T17:00:00.000Z', endDate: '2027-10-15T21:00:00.000Z' })
  const cg = await page.request.post(`${server.url}/proxy/api/events/${c.id}/visitors`, { data: { salutation: 'Herr', firstName: 'Paul', lastName: 'Pending', email: 'paul@example.org' } })
  expect((await page.request.post(`${server.url}/proxy/api/events/${c.id}/visitors/${(await cg.json()).id}/invite`, { data: {} })).status()).toBe(200)
  const mail = await server.smtp.waitFor((m) => m.to.includes('paul@example.org') && m.subject === 'Einladung: Neujahrsempfang', 15_000)
  const { ctx, g } = await phone(browser)
  try {
    await g.goto(linkIn(mail, '/guest/dashboard?token='))
    const pending = g.getByTestId('section-pendingEvents')
    await expect(pending.locator('.count')).toHaveText('2')
    await expect(pending.getByText('Bitte bestätigen Sie Ihre Teilnahme.')).toBeVisible()
    await expect(pending.getByText('ONLINE')).toBeVisible()
    const invited = g.getByTestId('section-invitedEvents')
    await expect(invited.getByRole('heading', { name: 'Oktober 2027' })).toBeVisible()
    await invited.getByRole('button', { name: 'Einladung erneut senden' }).click()
    await expect(okOverlay(g, 'Die E-Mail wurde erneut versendet.')).toBeVisible()
    await g.getByRole('button', { name: 'OK' }).click()
    await shot(g, 'guest-portal-10-pending-phone')
    const first = pending.locator('li').filter({ hasText: 'Neujahrsempfang' })
    await first.getByRole('button', { name: 'Teilnahme bestätigen' }).click()
    await expect(okOverlay(g, 'Ihre Teilnahme wurde bestätigt.')).toBeVisible()
    await g.getByRole('button', { name: 'OK' }).click()
    await expect(g.getByTestId('section-confirmedEvents').getByRole('heading', { name: 'Neujahrsempfang' })).toBeVisible()
    const second = g.getByTestId('section-pendingEvents').locator('li').filter({ hasText: 'Sommerfest' })
    await second.getByRole('button', { name: 'Absagen' }).click()
    const decline = g.getByRole('dialog', { name: 'Teilnahme absagen' })
    await decline.getByLabel('Grund (optional)').fill('Leider verhindert')
    await shot(g, 'guest-portal-11-decline-phone')
    await decline.getByRole('button', { name: 'Absage senden' }).click()
    await expect(okOverlay(g, 'Ihre Absage ist eingegangen.')).toBeVisible()
    await g.getByRole('button', { name: 'OK' }).click()
    await expect(g.getByTestId('section-declinedEvents').getByRole('heading', { name: 'Sommerfest' })).toBeVisible()
    await expect(g.getByTestId('section-pendingEvents')).toHaveCount(0)
    await shot(g, 'guest-portal-12-after-decisions-phone')
  } finally {
    await ctx.close()
  }
})

test('guest portal: pass a place on; the new guest gets it, the organiser sees the history', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const ev = await createEvent(page, server, { displayName: 'Theaterabend', maxVisitors: 10 })
  // the organiser allows passing places on, in the event form
  await page.goto(`${server.url}/events/${ev.id}/edit`)
  await page.getByLabel('Gäste dürfen ihren Platz weitergeben').check()
  await shot(page, 'guest-portal-13-organiser-transfer-setting')
  await page.getByRole('button', { name: 'Speichern' }).first().click()
  await expect.poll(async () => (await (await page.request.get(`${server.url}/proxy/api/events/${ev.id}`)).json()).allowTransfer).toBe(true)
  const { ctx, g } = await phone(browser)
  try {
    await registerAndOpenLink(g, server, ev.id, { first: 'Olga', last: 'Alt', email: 'olga@example.org' })
    const card = g.getByTestId('section-confirmedEvents')
    await card.getByRole('button', { name: 'Platz weitergeben' }).click()
    const dialog = g.getByRole('dialog', { name: 'Platz an eine andere Person weitergeben' })
    await dialog.getByLabel('Vorname').fill('Nina')
    await dialog.getByLabel('Nachname').fill('Neu')
    await dialog.getByLabel('E-Mail-Adresse').fill('olga@example.org')
    await dialog.getByRole('button', { name: 'Platz weitergeben' }).click()
    await expect(dialog.getByText('Bitte geben Sie die E-Mail-Adresse einer anderen Person an.')).toBeVisible()
    await dialog.getByLabel('E-Mail-Adresse').fill('nina@example.org')
    await shot(g, 'guest-portal-14-transfer-phone')
    await dialog.getByRole('button', { name: 'Platz weitergeben' }).click()
    await expect(okOverlay(g, 'Ihr Platz wurde an Nina Neu weitergegeben.')).toBeVisible()
    await g.getByRole('button', { name: 'OK' }).click()
    await expect(g.getByTestId('section-confirmedEvents')).toHaveCount(0)
    await shot(g, 'guest-portal-15-transferred-phone')
    const toNina = await server.smtp.waitFor((m) => m.to.includes('nina@example.org'), 15_000)
    expect(toNina.subject).toBe('Ein Platz bei „Theaterabend“ für Sie')
    const toOlga = await server.smtp.waitFor((m) => m.to.includes('olga@example.org') && m.subject.includes('weitergegeben'), 15_000)
    expect(toOlga.text).toContain('an Nina Neu weitergegeben')
    await g.goto(linkIn(toNina, '/guest/dashboard?token='))
    await g.getByTestId('section-confirmedEvents').getByRole('button', { name: 'Anmeldedetails' }).click()
    await expect(g.getByRole('dialog', { name: 'Anmeldedetails' }).getByTestId('details-name')).toHaveText('Nina Neu')
    await shot(g, 'guest-portal-16-new-guest-phone')
  } finally {
    await ctx.close()
  }
  await page.goto(`${server.url}/events/${ev.id}/guests`)
  await page.getByRole('button', { name: 'Neu' }).click()
  const history = page.getByTestId('guest-transfers')
  await expect(history).toContainText('von Olga Alt (olga@example.org) an Nina Neu (nina@example.org)')
  await history.scrollIntoViewIfNeeded()
  await page.screenshot({ path: join(SHOTS, 'guest-portal-17-organiser-history.png') })
})

test.describe('entry-pass variant (SYSTEM_COVIDOO)', () => {
  let covidoo: Server
  test.beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'einlass-e2e-covidoo-'))
    writeFileSync(join(dataDir, 'license.json'), testLicenseText({ licensee: 'Einlass GmbH', validUntil: '2031-03-31', features: ['SYSTEM_COVIDOO'], limits: { events: -1, guestAccounts: -1, agencyUsers: -1, storageMb: 1024 } }))
    covidoo = await startServer({}, { dataDir })
  })
  test.afterAll(async () => {
    await covidoo?.stop()
  })
  test('no notifications tab, no profile, only the entry-ticket link', async ({ page, browser }) => {
    test.setTimeout(120_000)
    await setupAdmin(page, covidoo)
    const ev = await createEvent(page, covidoo, { displayName: 'Einlasstest' })
    const { ctx, g } = await phone(browser)
    try {
      await registerAndOpenLink(g, covidoo, ev.id, { first: 'Carl', last: 'Check', email: 'carl@example.org' })
      const section = g.getByTestId('section-confirmedEvents')
      await expect(section.getByRole('heading', { name: 'Einlasstest' })).toBeVisible()
      await expect(g.getByRole('tab')).toHaveCount(0)
      await expect(section.getByRole('link', { name: 'Einlassticket (PDF)' })).toBeVisible()
      await expect(section.getByRole('link', { name: 'Ticket (PDF)', exact: true })).toHaveCount(0)
      await expect(section.getByRole('link', { name: 'Kalendereintrag' })).toHaveCount(0)
      await expect(section.getByText('1 Person')).toHaveCount(0)
      await g.getByRole('button', { name: /Benutzerkonto/ }).click()
      await expect(g.getByRole('menuitem', { name: 'Veranstaltungen' })).toBeVisible()
      await expect(g.getByRole('menuitem', { name: 'Profil' })).toHaveCount(0)
      await shot(g, 'guest-portal-18-entry-pass-phone')
    } finally {
      await ctx.close()
    }
  })
})
