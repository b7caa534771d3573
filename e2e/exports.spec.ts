// Issue 20 item 29: what the organiser exports and reads reads like the screen. The guest list counts
// the persons of a group at the door ("1 von 4 eingecheckt"); the orders CSV downloaded from the
// Tickets tab has German labels, local times, the invoice number and the order's lines.
import { readFileSync } from 'node:fs'
import { parse } from 'csv-parse/sync'
import { expect, setupAdmin, shot, test } from './fixtures'

test('the guest list counts a group’s persons at the door; the orders CSV from the Tickets tab reads like the screen', async ({ page, server }) => {
  test.setTimeout(120_000)
  await setupAdmin(page, server)
  const req = page.request
  const url = (p: string) => `${server.url}${p}`
  expect((await req.put(url('/proxy/api/agency/sellerSettings'), { data: { name: 'Agentur Sonnenschein GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '04109', city: 'Leipzig', invoiceNumberPrefix: 'RE-' } })).status()).toBe(200)
  const start = new Date(Date.now() + 21 * 86400_000)
  start.setUTCHours(18, 0, 0, 0)
  const ev = await req.post(url('/proxy/api/events'), {
    data: { displayName: 'Sommerfest', startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Stadthalle', city: 'Leipzig', maxVisitors: 100, maxVisitorPerSubscription: 6 },
  })
  const id = (await ev.json()).id as number

  // a group of four, one escort at the door
  const g = await req.post(url(`/proxy/api/events/${id}/visitors`), {
    data: { salutation: 'Frau', firstName: 'Greta', lastName: 'Gruppe', email: 'greta@example.org', status: 'CONFIRMED', escortPersons: [1, 2, 3].map((i) => ({ firstName: `Begleitung${i}`, lastName: 'Gruppe' })) },
  })
  expect(g.status()).toBe(201)
  const group = (await g.json()).id as number
  expect((await req.post(url(`/proxy/api/events/${id}/checkin`), { data: { visitorId: group, checkinGuests: [1] } })).status()).toBe(200)
  expect((await req.post(url(`/proxy/api/events/${id}/visitors`), { data: { salutation: 'Herr', firstName: 'Ernst', lastName: 'Einzeln', email: 'ernst@example.org', status: 'CONFIRMED' } })).status()).toBe(201)
  await page.setViewportSize({ width: 1400, height: 1000 })
  await page.goto(url(`/events/${id}/guests`))
  const row = page.getByRole('row', { name: /Gruppe/ })
  await expect(row).toContainText('1 von 4 eingecheckt')
  await expect(page.getByRole('row', { name: /Einzeln/ })).toContainText('Nicht eingecheckt')
  await shot(page, 'exports-01-guest-list-persons')

  // tickets: two Parkett and one Loge, bought and paid by invoice
  const cats: number[] = []
  for (const c of [
    { displayName: 'Parkett', grossPrice: 2500, taxCode: 'TAX_7', sortOrder: 1 },
    { displayName: 'Loge', grossPrice: 6000, taxCode: 'TAX_7', sortOrder: 2 },
  ])
    cats.push((await (await req.post(url(`/proxy/api/events/${id}/ticketCategories`), { data: c })).json()).id)
  const m = await req.post(url('/proxy/api/agency/paymentMethods'), { data: { method: 'INVOICE' } })
  expect((await req.put(url(`/proxy/api/events/${id}/paymentMethods`), { data: { ids: [(await m.json()).id] } })).status()).toBe(200)
  const buyer = await page.context().request.post(url(`/proxy/api/public/events/${id}/registrations`), {
    data: { salutation: 'Frau', firstName: 'Berta', lastName: 'Käuferin', email: 'berta@example.org', tickets: [{ categoryId: cats[0], amount: 2 }, { categoryId: cats[1], amount: 1 }], escortPersons: [{ firstName: 'Eva', lastName: 'Käuferin' }, { firstName: 'Emil', lastName: 'Käuferin' }] },
  })
  expect(buyer.status()).toBe(201)
  const o = `/proxy/api/guest/ticketOrder/${(await buyer.json()).ticketOrderId}`
  const addressed = await req.post(url(`${o}/proceed/invoiceAddress`), { data: { invoiceAddress: { receiver: 'Berta Käuferin', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin' } } })
  expect(addressed.status()).toBe(200)
  if ((await addressed.json()).step === 8) expect((await req.post(url(`${o}/proceed/paymentSelection`), { data: { paymentMethod: 'INVOICE' } })).status()).toBe(200)
  expect((await req.post(url(`${o}/proceed/paymentPay`), { data: { paymentMethod: 'INVOICE' } })).status()).toBe(200)

  await page.goto(url(`/events/${id}/tickets`))
  await expect(page.getByRole('row', { name: /berta@example.org|Berta Käuferin/ })).toBeVisible()
  await shot(page, 'exports-02-tickets-tab')
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'CSV-Export' }).click()])
  const rows = parse(readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, ''), { delimiter: ';', columns: true }) as Array<Record<string, string>>
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({ Status: 'Bestätigt', Zahlungsart: 'Rechnung', Name: 'Berta Käuferin', Betrag: '110,00', Währung: 'EUR', Zeitzone: 'Europe/Berlin', Positionen: '2 × Parkett (je 25,00 €), 1 × Loge (je 60,00 €)' })
  expect(rows[0]['Erstellt am']).toMatch(/^\d\d\.\d\d\.\d{4} \d\d:\d\d$/)
  expect(rows[0].Rechnungsnummer).toMatch(/^RE-/)
})
