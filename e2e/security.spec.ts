// Security journey (issue 9): a stranger who knows an invited guest's e-mail registers on the public
// page (phone) and is refused with the German message; the guest's own invitation link lets the
// invited guest register over the organiser's entry. Public form uploads keep working (forms.spec).
import { linkIn } from '../server/testing/smtp-sink'
import { expect, setupAdmin, shot, test } from './fixtures'

test('the public form does not take over an invited guest for a stranger; the invitation link does', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await page.request.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Sommerfest', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Park', city: 'Köln', maxVisitors: 20 },
  })
  expect(ev.status()).toBe(201)
  const eventId = (await ev.json()).id as number
  const g = await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors`, { data: { salutation: 'Frau', firstName: 'Ina', lastName: 'Eingeladen', email: 'ina@example.org', vip: true } })
  expect(g.status()).toBe(201)
  const guestId = (await g.json()).id as number
  expect((await page.request.post(`${server.url}/proxy/api/events/${eventId}/visitors/${guestId}/invite`, { data: {} })).status()).toBe(200)

  const fill = async (p: import('@playwright/test').Page, first: string) => {
    await p.getByLabel('Anrede').selectOption('Frau')
    await p.getByLabel(/^Vorname( \*)?$/).fill(first)
    await p.getByLabel(/^Nachname( \*)?$/).fill('Eingeladen')
    await p.getByLabel('E-Mail-Adresse').fill('ina@example.org')
    await p.getByRole('button', { name: 'Anmeldung anfragen' }).click()
  }

  // a stranger on a phone
  const strangerCtx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    const s = await strangerCtx.newPage()
    await s.goto(`${server.url}/public/event/${eventId}`)
    await fill(s, 'Fremd')
    await expect(s.getByText('Diese E-Mail-Adresse steht bereits auf der Gästeliste. Bitte melden Sie sich über den Link in Ihrer Einladung an', { exact: false })).toBeVisible()
    await shot(s, 'security-01-stranger-refused-phone')
  } finally {
    await strangerCtx.close()
  }
  const entry = await page.request.get(`${server.url}/proxy/api/events/${eventId}/visitors/${guestId}`)
  expect(await entry.json()).toMatchObject({ firstName: 'Ina', status: 'INVITED' })

  // Ina opens her invitation on her phone and registers from there
  const inaCtx = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } })
  try {
    const p = await inaCtx.newPage()
    const mail = await server.smtp.waitFor((m) => m.to.includes('ina@example.org'), 15_000)
    await p.goto(linkIn(mail, '/guest/dashboard?token='))
    await expect(p.getByRole('heading', { name: 'Sommerfest' })).toBeVisible()
    await p.goto(`${server.url}/public/event/${eventId}`)
    // her own link: the form knows her and confirms the invitation
    await expect(p.getByText('Sie sind eingeladen.', { exact: false })).toBeVisible()
    await expect(p.getByLabel(/^Vorname( \*)?$/)).toHaveValue('Ina')
    await p.getByRole('button', { name: 'Teilnahme bestätigen' }).click()
    await expect(p.getByRole('heading', { name: /Vielen Dank/ })).toBeVisible()
    await shot(p, 'security-02-invited-registered-phone')
  } finally {
    await inaCtx.close()
  }
  const after = await page.request.get(`${server.url}/proxy/api/events/${eventId}/visitors/${guestId}`)
  expect(await after.json()).toMatchObject({ status: 'CONFIRMED', vip: true })
})
