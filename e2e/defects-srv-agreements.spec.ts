// Issue 10 items 3 and 4 from both sides. A guest registers on the phone: the form shows the event's
// required agreement (its text and a signature pad), refuses to send without the signature, then
// registers with it. An invited guest's dashboard lists the agreement still to be signed. The
// organiser reads the answers to their own question in the guest detail and counts per answer in
// the statistics.
import type { Locator, Page } from '@playwright/test'
import { linkIn } from '../server/testing/smtp-sink'
import { expect, setupAdmin, shot, test } from './fixtures'

async function sign(page: Page, pad: Locator) {
  await pad.scrollIntoViewIfNeeded()
  const box = (await pad.boundingBox())!
  await page.mouse.move(box.x + 20, box.y + box.height / 2)
  await page.mouse.down()
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 20 + i * 15, box.y + box.height / 2 + (i % 2 ? -12 : 12))
  await page.mouse.up()
}

test('agreements while registering, the missing one on the dashboard, answers for the organiser', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Sommerfest', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Halle 7', city: 'Berlin', maxVisitors: 50 },
  })
  const eventId = (await ev.json()).id as number
  const api = (path: string, data: unknown) => page.request.post(`${server.url}${path}`, { data })
  expect((await api('/proxy/api/agreements', { displayName: 'Hausordnung', validity: 'EVENT', eventId, description: '<p>Bitte bringen Sie <strong>keine Hunde</strong> mit.</p>' })).status()).toBe(201)
  expect((await api('/proxy/api/agreements', { displayName: 'Fotos', validity: 'EVENT', eventId, appearance: 'VISIBLE', description: '<p>Wir fotografieren.</p>' })).status()).toBe(201)
  const diet = await (await api(`/proxy/api/events/${eventId}/fields`, { type: 'LIST', displayName: 'Essen', values: ['Fleisch', 'Vegan'] })).json()

  const guestCtx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    const g = await guestCtx.newPage()
    await g.goto(`${server.url}/public/event/${eventId}`)
    await expect(g.getByText('Einverständniserklärungen')).toBeVisible()
    await expect(g.getByText('Bitte bringen Sie keine Hunde mit.')).toBeVisible()
    await g.getByLabel('Anrede').selectOption('Frau')
    await g.getByLabel(/^Vorname( \*)?$/).fill('Anna')
    await g.getByLabel(/^Nachname( \*)?$/).fill('Becker')
    await g.getByLabel('E-Mail-Adresse').fill('anna@example.org')
    await g.getByRole('button', { name: /Anmeldung anfragen|anmelden/i }).click()
    await expect(g.getByText('Bitte unterschreiben Sie die erforderlichen Einverständniserklärungen.')).toBeVisible()
    await expect(g.locator('.registration-agreement.has-error')).toContainText('Bitte unterschreiben Sie.')
    await shot(g, 'defects-srv-agreements-01-refused-without-signature-phone')
    await sign(g, g.locator('.registration-agreement').first().locator('canvas'))
    await expect(g.getByText('Unterschrift erfasst.')).toBeVisible()
    await shot(g, 'defects-srv-agreements-02-signed-phone')
    await g.getByRole('button', { name: /Anmeldung anfragen|anmelden/i }).click()
    await expect(g.getByRole('heading', { name: 'Vielen Dank für Ihre Anmeldung!' })).toBeVisible()
  } finally {
    await guestCtx.close()
  }
  const signatures = await (await api('/proxy/api/agreements/signatures/search', { eventId })).json()
  expect(signatures.items.map((s: any) => [s.lastName, s.agreementName, s.status, s.origin])).toEqual([['Becker', 'Hausordnung', 'CONFIRMED', 'REGISTRATION']])

  // an invited guest sees on the dashboard what is still to be signed
  const added = await (await api(`/proxy/api/events/${eventId}/visitors`, { salutation: 'Herr', firstName: 'Hans', lastName: 'Huber', email: 'hans@example.org' })).json()
  expect((await api(`/proxy/api/events/${eventId}/visitors/${added.id}/invite`, {})).status()).toBe(200)
  const mail = await server.smtp.waitFor((m) => m.to.includes('hans@example.org'), 15_000)
  expect(mail.text).toContain('Sehr geehrter Herr Huber,')
  const hansCtx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    const h = await hansCtx.newPage()
    await h.goto(linkIn(mail, '/guest/dashboard?token='))
    await expect(h.getByText('Noch zu unterschreiben: Hausordnung')).toBeVisible()
    await expect(h.getByText('Noch zu unterschreiben: Fotos')).toHaveCount(0)
    await shot(h, 'defects-srv-agreements-03-dashboard-missing-phone')
  } finally {
    await hansCtx.close()
  }

  // the organiser reads the answers: guest detail and statistics
  const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
  const hausordnung = (await (await api('/proxy/api/agreements/search', { eventId })).json()).find((a: any) => a.displayName === 'Hausordnung')
  for (const [first, last, choice] of [
    ['Vera', 'Veganerin', 'Vegan'],
    ['Viktor', 'Vogel', 'Vegan'],
    ['Fritz', 'Fleischer', 'Fleisch'],
  ] as const) {
    const r = await api(`/proxy/api/public/events/${eventId}/registrations`, {
      salutation: 'Herr',
      firstName: first,
      lastName: last,
      email: `${first.toLowerCase()}@example.org`,
      fields: { [diet.id]: { selected: [choice], custom: null } },
      agreements: [{ id: hausordnung.id, status: 'CONFIRMED', signature: png }],
    })
    expect(r.status()).toBe(201)
  }
  await page.goto(`${server.url}/events/${eventId}/guests`)
  await page.getByRole('button', { name: 'Veganerin' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: 'Antworten' })).toBeVisible()
  await expect(dialog.locator('.guest-answers')).toContainText('Essen')
  await expect(dialog.locator('.guest-answers dd').first()).toHaveText('Vegan')
  await shot(page, 'defects-srv-agreements-04-guest-detail-answers')
  await page.goto(`${server.url}/events/${eventId}/statistics`)
  const answers = page.locator('.stats-answer', { hasText: 'Essen' })
  await expect(answers).toContainText('Vegan')
  await expect(answers.locator('li', { hasText: 'Vegan' })).toContainText('2 Anmeldungen')
  await expect(answers.locator('li', { hasText: 'Fleisch' })).toContainText('1 Anmeldung')
  await shot(page, 'defects-srv-agreements-05-statistics-answers')
})
