// Escort persons and their tickets (issue 20, items 1 and 8), as a guest and an organiser click:
// - the pay page's step 5 on a phone shows the escort the registration form named with everything
//   stored (e-mail, company), asks the missing one what the event requires (the company), lists what
//   is missing only after "Weiter" was pressed, and keeps the stored data;
// - the organiser's guest dialog refuses an escort beyond the guest's ticket until "Begleitpersonen
//   ohne Ticket (kostenlos)" is ticked, and then shows the free person.
import type { APIRequestContext, Page } from '@playwright/test'
import { linkIn } from '../server/testing/smtp-sink'
import { expect, type Server, setupAdmin, shot, test } from './fixtures'

const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 } }

async function paidEvent(page: Page, server: Server) {
  const req: APIRequestContext = page.request
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await req.post(`${server.url}/proxy/api/events`, {
    data: { displayName: 'Sommerfest', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Hofgarten', city: 'Bonn', maxVisitors: 200, maxVisitorPerSubscription: 6 },
  })
  expect(ev.status()).toBe(201)
  const id = (await ev.json()).id as number
  const cat = await req.post(`${server.url}/proxy/api/events/${id}/ticketCategories`, { data: { displayName: 'Eintritt', grossPrice: 2000, taxCode: 'TAX_7' } })
  expect(cat.status()).toBe(201)
  const method = await req.post(`${server.url}/proxy/api/agency/paymentMethods`, { data: { method: 'INVOICE' } })
  expect((await req.put(`${server.url}/proxy/api/events/${id}/paymentMethods`, { data: { ids: [(await method.json()).id] } })).status()).toBe(200)
  // escorts are asked for their e-mail (optional) and their company (required)
  const fields = (await (await req.get(`${server.url}/proxy/api/events/${id}/fields`)).json()).fields as Array<{ id: number; defaultField: string | null }>
  for (const [code, appearance] of [
    ['ESCORT_EMAIL', 'VISIBLE'],
    ['ESCORT_COMPANY', 'REQUIRED'],
  ]) {
    const f = fields.find((x) => x.defaultField === code)!
    expect((await req.put(`${server.url}/proxy/api/events/${id}/fields/${f.id}`, { data: { ...f, appearance } })).status()).toBe(200)
  }
  return { eventId: id, categoryId: (await cat.json()).id as number }
}

test('pay page step 5 keeps the stored escort and asks the missing one what the event requires; the organiser adds an escort only free of charge', async ({ page, server, browser }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const { eventId, categoryId } = await paidEvent(page, server)
  // Paula buys three tickets and names one escort on the form (with e-mail and company)
  const reg = await page.request.post(`${server.url}/proxy/api/public/events/${eventId}/registrations`, {
    data: {
      salutation: 'Frau',
      firstName: 'Paula',
      lastName: 'Musterfrau',
      email: 'paula@example.org',
      tickets: [{ categoryId, amount: 3 }],
      escortPersons: [{ firstName: 'Eva', lastName: 'Escort', email: 'eva@example.org', company: 'ACME GmbH' }],
    },
  })
  expect(reg.status()).toBe(201)
  const { ticketOrderId, visitorId } = await reg.json()

  const ctx = await browser.newContext(PHONE)
  try {
    const g = await ctx.newPage()
    await g.goto(`${server.url}/pay/${ticketOrderId}`)
    await g.getByLabel(/^Straße/).fill('Poppelsdorfer Allee')
    await g.getByLabel(/^Hausnummer/).fill('1')
    await g.getByLabel(/^PLZ/).fill('53115')
    await g.getByLabel(/^Ort/).fill('Bonn')
    await g.getByRole('button', { name: 'Weiter' }).click()

    // step 5: Eva as stored, the second escort empty; nothing flagged yet, Weiter is there
    await expect(g.getByText('Ihre Bestellung umfasst 2 weitere Personen. Bitte ergänzen Sie die Angaben.')).toBeVisible()
    const eva = g.getByTestId('pay-escort-0')
    await expect(eva.getByLabel(/^Vorname/)).toHaveValue('Eva')
    await expect(eva.getByLabel(/^E-Mail-Adresse/)).toHaveValue('eva@example.org')
    await expect(eva.getByLabel(/^Firma/)).toHaveValue('ACME GmbH')
    await expect(g.getByText('Bitte ergänzen Sie noch diese Angaben:')).toHaveCount(0)
    await expect(g.getByRole('button', { name: 'Weiter' })).toBeVisible()
    await shot(g, 'escorts-01-pay-step5-prefilled-phone')

    // pressing Weiter with the second escort empty lists what is missing and marks the fields
    await g.getByRole('button', { name: 'Weiter' }).click()
    const missing = g.getByRole('status').filter({ hasText: 'Bitte ergänzen Sie noch diese Angaben:' })
    await expect(missing).toBeVisible()
    await expect(missing).toContainText('Begleitperson 2: Vorname')
    await expect(missing).toContainText('Begleitperson 2: Firma')
    await missing.scrollIntoViewIfNeeded()
    await shot(g, 'escorts-02-pay-step5-missing-phone')

    const max = g.getByTestId('pay-escort-1')
    await max.getByLabel(/^Vorname/).fill('Max')
    await max.getByLabel(/^Nachname/).fill('Mustermann')
    await max.getByLabel(/^E-Mail-Adresse/).fill('kein-mail')
    await max.getByLabel(/^Firma/).fill('Beta AG')
    await expect(missing).toHaveCount(0)
    // the server checks like the registration form: the e-mail is refused at its field
    await g.getByRole('button', { name: 'Weiter' }).click()
    await expect(max.getByRole('alert')).toBeVisible()
    await shot(g, 'escorts-03-pay-step5-invalid-email-phone')
    await max.getByLabel(/^E-Mail-Adresse/).fill('max@example.org')
    await g.getByRole('button', { name: 'Weiter' }).click()
    await expect(g.getByText(/Zahlungsart/).first()).toBeVisible()
    await expect(g.getByTestId('pay-escort-0')).toHaveCount(0)

    // what the form stored stayed
    const detail = await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/visitors/${visitorId}`)).json()
    expect(detail.escortPersons).toMatchObject([
      { number: 1, firstName: 'Eva', email: 'eva@example.org', company: 'ACME GmbH' },
      { number: 2, firstName: 'Max', email: 'max@example.org', company: 'Beta AG' },
    ])
  } finally {
    await ctx.close()
  }

  // the organiser: a fourth person beyond three tickets only free of charge
  await page.goto(`${server.url}/events/${eventId}/guests`)
  await page.getByRole('button', { name: 'Musterfrau' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByText('Begleitpersonen ohne Ticket (kostenlos)')).toBeVisible()
  await dialog.getByRole('button', { name: 'Begleitperson hinzufügen' }).click()
  const third = dialog.locator('.escort').nth(2)
  await third.getByLabel(/^Vorname/).fill('Zoe')
  await third.getByLabel(/^Nachname/).fill('Zusatz')
  await dialog.getByRole('button', { name: 'Speichern' }).click()
  const refusal = dialog.getByRole('alert').filter({ hasText: 'Jede Person braucht ein Ticket' })
  await expect(refusal).toBeVisible()
  await expect(refusal).toBeInViewport()
  await shot(page, 'escorts-04-organiser-escort-refused')
  await dialog.getByLabel('Begleitpersonen ohne Ticket (kostenlos)').check()
  await shot(page, 'escorts-05-organiser-free-of-charge-ticked')
  await dialog.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await page.getByRole('button', { name: 'Musterfrau' }).click()
  await expect(page.getByRole('dialog').getByText('1 Person ohne Ticket (kostenlos)')).toBeVisible()
  await shot(page, 'escorts-06-organiser-free-person-shown')
  const after = await (await page.request.get(`${server.url}/proxy/api/events/${eventId}/visitors/${visitorId}`)).json()
  expect(after).toMatchObject({ visitorCount: 4, freePersons: 1 })
  // the dialog carried the escorts' other data along
  expect(after.escortPersons[0]).toMatchObject({ email: 'eva@example.org', company: 'ACME GmbH' })

  // Paula in her portal: three tickets and one free person are named, the details offer no more
  expect((await page.request.post(`${server.url}/proxy/api/public/visitor/resendMail`, { data: { email: 'paula@example.org' } })).status()).toBeLessThan(300)
  const link = await server.smtp.waitFor((m) => m.to.includes('paula@example.org') && m.text.includes('/guest/dashboard?token='), 15_000)
  const guestCtx = await browser.newContext(PHONE)
  try {
    const g = await guestCtx.newPage()
    await g.goto(linkIn(link, '/guest/dashboard?token='))
    await g.getByRole('button', { name: 'Anmeldedetails' }).first().click()
    const details = g.getByRole('dialog', { name: 'Anmeldedetails' })
    await expect(details.getByTestId('details-counts')).toHaveText('Angemeldet: 4 · Eingecheckt: 0')
    await details.getByTestId('escort-2').scrollIntoViewIfNeeded()
    await expect(details.getByTestId('escort-2')).toBeVisible()
    await expect(details.getByRole('button', { name: 'Begleitperson hinzufügen' })).toHaveCount(0)
    await shot(g, 'escorts-07-guest-details-at-ticket-limit-phone')
  } finally {
    await guestCtx.close()
  }
})
