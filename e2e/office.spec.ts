// The ticket shop's back office (issue 21): an accountant (administrator) enters the DATEV settings
// under "Verkauf", opens the invoices page, filters a month, downloads the ZIP (a PDF and an XML per
// document, unpacked with unzip) and the DATEV Buchungsstapel (parsed: EXTF header, one booking per
// document and rate); then imports a bank statement (CAMT.053) with three matching credits and one
// partial one: three orders are paid, the partial credit is listed for a person to decide.
import { type APIRequestContext } from '@playwright/test'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { camt053 } from '../server/modules/bank/testing'
import { expect, type Server, setupAdmin, shot, test } from './fixtures'

async function shop(req: APIRequestContext, server: Server) {
  const u = server.url
  expect((await req.put(`${u}/proxy/api/agency/sellerSettings`, { data: { name: 'Agentur Sonnenschein GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '50667', city: 'Köln', country: 'DEU', vatId: 'DE123456789', contactName: 'Ada Admin', phone: '+49 221 123456', email: 'rechnung@agentur.example', invoiceNumberPrefix: 'RE-' } })).status()).toBe(200)
  const start = new Date(Date.now() + 30 * 86400_000)
  start.setUTCHours(17, 0, 0, 0)
  const ev = await req.post(`${u}/proxy/api/events`, {
    data: { displayName: 'Hafenkonzert', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Kaispeicher', city: 'Hamburg', maxVisitors: 100 },
  })
  expect(ev.status()).toBe(201)
  const eventId = (await ev.json()).id as number
  const seat = await (await req.post(`${u}/proxy/api/events/${eventId}/ticketCategories`, { data: { displayName: 'Sitzplatz', grossPrice: 3570, taxCode: 'TAX_19' } })).json()
  const food = await (await req.post(`${u}/proxy/api/events/${eventId}/ticketCategories`, { data: { displayName: 'Buffet', grossPrice: 1070, taxCode: 'TAX_7' } })).json()
  const m = await req.post(`${u}/proxy/api/agency/paymentMethods`, { data: { method: 'TRANSFER', accountHolder: 'Agentur Sonnenschein GmbH', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', bank: 'Commerzbank', transferReferencePrefix: 'HK-' } })
  expect(m.status()).toBe(201)
  expect((await req.put(`${u}/proxy/api/events/${eventId}/paymentMethods`, { data: { ids: [(await m.json()).id] } })).status()).toBe(200)
  return { eventId, seat: seat.id as number, food: food.id as number }
}

/** An order by transfer through the public calls the pages make; answers its number and organiser id. */
async function buy(req: APIRequestContext, server: Server, s: { eventId: number; seat: number; food: number }, who: string) {
  const u = server.url
  const r = await req.post(`${u}/proxy/api/public/events/${s.eventId}/registrations`, {
    data: { salutation: 'Frau', firstName: who, lastName: 'Gast', email: `${who.toLowerCase()}@example.org`, tickets: [{ categoryId: s.seat, amount: 1 }, { categoryId: s.food, amount: 1 }], escortPersons: [{ firstName: 'Pia', lastName: 'Begleiterin' }] },
  })
  expect(r.status()).toBe(201)
  const o = `${u}/proxy/api/guest/ticketOrder/${(await r.json()).ticketOrderId}`
  const address = { receiver: `${who} Gast`, street: 'Hafenstraße', streetNumber: '1', postCode: '20459', city: 'Hamburg' }
  // one payment method: the selection step is skipped (8 → 40)
  expect((await (await req.post(`${o}/proceed/invoiceAddress`, { data: { invoiceAddress: address } })).json()).step).toBe(40)
  const paid = await (await req.post(`${o}/proceed/paymentPay`, { data: { paymentMethod: 'TRANSFER' } })).json()
  expect(paid.step).toBe(100)
  const view = await (await req.get(o)).json()
  const number = (view.ticketOrder?.number ?? view.number) as string
  expect(number).toMatch(/^[A-Z2-9]{8}$/)
  const found = await (await req.post(`${u}/proxy/api/events/${s.eventId}/orders/search`, { data: { search: number } })).json()
  expect(found.items).toHaveLength(1)
  return { number, id: found.items[0].id as number }
}

const unq = (v: string) => (v.startsWith('"') ? v.slice(1, -1) : v)

test('the accountant: DATEV settings, a month of invoices, the ZIP and the DATEV export', async ({ page, server }) => {
  test.setTimeout(180_000)
  await setupAdmin(page, server)
  const s = await shop(page.request, server)
  // two orders paid: each gets an invoice (19 % seat and 7 % buffet), one of them cancelled → a cancellation invoice
  const orders = [await buy(page.request, server, s, 'Greta'), await buy(page.request, server, s, 'Hanna')]
  for (const o of orders) expect((await page.request.post(`${server.url}/proxy/api/events/${s.eventId}/orders/${o.id}/markPaid`, { data: { amount: 4640, paidAt: new Date().toISOString() } })).status()).toBe(200)
  expect((await page.request.post(`${server.url}/proxy/api/events/${s.eventId}/orders/${orders[1]!.id}/cancel`, { data: {} })).status()).toBeLessThan(300)

  // the accountant's settings under "Verkauf"
  await page.goto(`${server.url}/agency/sales`)
  const form = page.getByRole('form', { name: 'Buchhaltung (DATEV)' })
  await expect(form).toBeVisible()
  await form.getByLabel('Beraternummer').fill('29098')
  await form.getByLabel('Mandantennummer').fill('55003')
  await form.getByLabel('Debitoren- bzw. Verrechnungskonto').fill('1410')
  await form.locator('input[name="account-0"]').fill('8400')
  await form.locator('input[name="account-1"]').fill('8300')
  await form.locator('input[name="buKey-1"]').fill('2')
  await form.scrollIntoViewIfNeeded()
  await shot(page, 'office-01-datev-settings')
  await form.getByRole('button', { name: 'DATEV-Angaben speichern' }).click()
  await expect(page.getByText('DATEV-Angaben gespeichert.')).toBeVisible()

  // the invoices page from the navigation: this month's documents
  await page.getByRole('link', { name: 'Rechnungen', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Rechnungen und Gutschriften' })).toBeVisible()
  const now = new Date()
  const month = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`
  await page.getByLabel('Monat').fill(month)
  await page.getByRole('button', { name: 'Filtern' }).click()
  await expect(page.getByText('3 Belege')).toBeVisible()
  const rows = page.locator('.accounting-table tbody tr')
  await expect(rows).toHaveCount(3)
  await expect(page.locator('tr[data-number="RE-00001"]')).toContainText('bezahlt')
  await expect(page.locator('tr[data-number="RE-00002"]')).toContainText('storniert')
  await expect(page.locator('tr[data-number="RE-00003"]')).toContainText('Storno zu RE-00002')
  // the period's sums per rate: one paid order is left (the other was cancelled)
  await expect(page.locator('.accounting-table tfoot')).toContainText('€ 35,70')
  await expect(page.locator('.accounting-table tfoot')).toContainText('€ 10,70')
  await shot(page, 'office-02-invoices-month')

  const dir = mkdtempSync(join(tmpdir(), 'einlass-office-'))
  // one document's files
  const [one] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'RE-00001 PDF' }).click()])
  expect(one.suggestedFilename()).toBe('Rechnung-RE-00001.pdf')
  await one.saveAs(join(dir, 'one.pdf'))
  expect(readFileSync(join(dir, 'one.pdf')).subarray(0, 5).toString()).toBe('%PDF-')
  const [xml] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'RE-00001 XML' }).click()])
  await xml.saveAs(join(dir, 'one.xml'))
  expect(readFileSync(join(dir, 'one.xml'), 'utf8')).toContain('RE-00001')
  // the ZIP: a PDF and an XML per document
  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Alle als ZIP (PDF + XML)' }).click()])
  expect(zip.suggestedFilename()).toMatch(/^Rechnungen_.*\.zip$/)
  const zipFile = join(dir, 'r.zip')
  await zip.saveAs(zipFile)
  const listing = spawnSync('unzip', ['-l', zipFile], { encoding: 'utf8' }).stdout
  for (const n of ['RE-00001', 'RE-00002', 'RE-00003']) {
    expect(listing).toContain(`Rechnung-${n}.pdf`)
    expect(listing).toContain(`XRechnung-${n}.xml`)
  }
  expect(spawnSync('unzip', ['-p', zipFile, 'XRechnung-RE-00003.xml'], { encoding: 'utf8' }).stdout).toContain('RE-00002')

  // the bookkeeping CSV: one line per document and rate
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV für die Buchhaltung' }).click()])
  await csv.saveAs(join(dir, 'r.csv'))
  const csvLines = readFileSync(join(dir, 'r.csv'), 'utf8').replace(/^\uFEFF/, '').split('\r\n').filter(Boolean)
  expect(csvLines[0]).toBe('Belegnummer;Belegdatum;Belegart;Bezug;Bestellnummer;Veranstaltung;Käufer;Steuersatz;Netto;Steuer;Brutto;Währung;Status')
  expect(csvLines).toHaveLength(1 + 6)
  expect(csvLines.filter((l) => l.startsWith('RE-00003;')).map((l) => l.split(';').slice(7, 11).join(' '))).toEqual(['19 % -30,00 -5,70 -35,70', '7 % -10,00 -0,70 -10,70'])

  // the DATEV Buchungsstapel: header, columns, one booking per document and rate
  const [datev] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'DATEV-Export' }).click()])
  expect(datev.suggestedFilename()).toMatch(/^EXTF_Buchungsstapel_\d{4}-\d{2}-01_\d{4}-\d{2}-\d{2}\.csv$/)
  const datevFile = join(dir, 'datev.csv')
  await datev.saveAs(datevFile)
  const text = new TextDecoder('windows-1252').decode(readFileSync(datevFile))
  const lines = text.split('\r\n').filter(Boolean)
  const header = lines[0]!.split(';').map(unq)
  expect(header.slice(0, 4)).toEqual(['EXTF', '700', '21', 'Buchungsstapel'])
  expect(header.slice(10, 12)).toEqual(['29098', '55003'])
  expect(lines[1]).toContain('"Gegenkonto (ohne BU-Schlüssel)"')
  const bookings = lines.slice(2).map((l) => l.split(';').map(unq))
  expect(bookings).toHaveLength(6)
  expect(bookings.filter((b) => b[7] === '8400').map((b) => `${b[1]} ${b[0]}`).sort()).toEqual(['H 35,70', 'S 35,70', 'S 35,70'])
  expect(bookings.filter((b) => b[7] === '8300').map((b) => `${b[1]} ${b[0]} ${b[8]}`).sort()).toEqual(['H 10,70 2', 'S 10,70 2', 'S 10,70 2'])
  await shot(page, 'office-03-downloads')
})

test('the accountant imports a bank statement: three transfers paid, the partial one listed and assigned by hand; importing again pays nothing twice', async ({ page, server }) => {
  test.setTimeout(180_000)
  await setupAdmin(page, server)
  const s = await shop(page.request, server)
  const orders = []
  for (const who of ['Greta', 'Hanna', 'Ida', 'Jule']) orders.push(await buy(page.request, server, s, who))
  const [a, b, c, d] = orders as [{ number: string; id: number }, { number: string; id: number }, { number: string; id: number }, { number: string; id: number }]
  const today = new Date().toISOString().slice(0, 10)
  const xml = camt053([
    { amount: '46.40', date: today, name: 'Greta Gast', ustrd: [`HK-${a.number}`] },
    { amount: '46.40', date: today, name: 'Hanna Gast', ustrd: ['Hafenkonzert Bestellung', `HK-${b.number}`] },
    { amount: '46.40', date: today, name: 'Ida Gast', ustrd: [`hk ${c.number.toLowerCase()} danke`] },
    { amount: '20.00', date: today, name: 'Jule Gast', ustrd: [`Anzahlung HK-${d.number}`] },
    { amount: '12.34', date: today, credit: false, name: 'Bank', ustrd: ['Kontoführung'] },
  ])
  const dir = mkdtempSync(join(tmpdir(), 'einlass-bank-'))
  const file = join(dir, 'camt053.xml')
  writeFileSync(file, xml)

  await page.goto(`${server.url}/events`)
  await page.getByRole('link', { name: 'Kontoauszüge' }).click()
  await expect(page.getByRole('heading', { name: 'Kontoauszüge' })).toBeVisible()
  await expect(page.getByText('Keine Buchungen zu prüfen.')).toBeVisible()
  await page.getByLabel('Kontoauszug (CAMT.053, XML)').setInputFiles(file)
  await page.getByRole('button', { name: 'Einlesen' }).click()
  await expect(page.getByText('Gutschriften gelesen: 4. Als bezahlt markiert: 3. Zu prüfen: 1. Bereits eingelesen: 0. Übersprungene Lastschriften: 1.')).toBeVisible()
  const row = page.locator('.bank-table tbody tr[data-entry]')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('Teilzahlung')
  await expect(row).toContainText('€ 20,00')
  await expect(row).toContainText(`Bestellung ${d.number} über € 46,40`)
  await shot(page, 'office-04-bank-imported')

  // the three orders are paid (the event's order list says so), the partial one is still open
  const listed = await (await page.request.post(`${server.url}/proxy/api/events/${s.eventId}/orders/search`, { data: {} })).json()
  const status = Object.fromEntries(listed.items.map((o: { number: string; status: string }) => [o.number, o.status]))
  expect([status[a.number], status[b.number], status[c.number], status[d.number]]).toEqual(['PAID', 'PAID', 'PAID', 'OPEN'])

  // the same file again: nothing new
  await page.getByLabel('Kontoauszug (CAMT.053, XML)').setInputFiles(file)
  await page.getByRole('button', { name: 'Einlesen' }).click()
  await expect(page.getByText('Gutschriften gelesen: 4. Als bezahlt markiert: 0. Zu prüfen: 0. Bereits eingelesen: 4. Übersprungene Lastschriften: 1.')).toBeVisible()
  await expect(row).toHaveCount(1)

  // a person decides: the partial payment belongs to Jule's order
  await page.locator('.bank-decide-row').getByRole('button', { name: `${d.number} zuordnen` }).click()
  await expect(page.getByText(`Die Zahlung wurde der Bestellung ${d.number} zugeordnet.`)).toBeVisible()
  await expect(page.getByText('Keine Buchungen zu prüfen.')).toBeVisible()
  await page.getByRole('button', { name: 'Alle Buchungen' }).click()
  await expect(page.locator('.bank-table tbody tr[data-entry]')).toHaveCount(4)
  await expect(page.locator('.bank-table tbody')).toContainText('von Hand zugeordnet')
  await shot(page, 'office-05-bank-all')

  // a hostile file: refused with a German message
  const evil = join(dir, 'evil.xml')
  writeFileSync(evil, '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document>&x;</Document>')
  await page.getByLabel('Kontoauszug (CAMT.053, XML)').setInputFiles(evil)
  await page.getByRole('button', { name: 'Einlesen' }).click()
  await expect(page.getByText(/enthält eine DTD oder Entity-Definitionen/)).toBeVisible()
  await shot(page, 'office-06-bank-refused')
})
