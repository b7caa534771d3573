// Issue 20 item 24: a country is chosen from the spec's list and stored as its code; documents write
// its name ("Deutschland"), never the code ("DEU"). The pay page's invoice address and the seller
// settings refuse a code that is not in the list.
import { expect, test } from 'bun:test'
import ICAL from 'ical.js'
import { forEachDialect } from '../../testing/harness'
import { createEvent } from '../../testing/organiser'
import { guestWithToken, pdfText } from '../documents/test-helpers'
import { countryName } from '../forms/countries'
import { COUNTRY_CODES, countryChoices, countryLabel } from '../forms/country-codes'
import { COUNTRIES } from '../forms/countries'
import { alpha2Of, countryGroups, countryNameIn } from '../forms/country-names'
import { address, buy, buyer, paidEvent } from './testing'

test('country names in the reader language: the table for de and en, Intl for others; the list in groups', () => {
  expect(countryName('DEU', 'de')).toBe('Deutschland')
  expect(countryName('CHE', 'en')).toBe('Switzerland')
  expect(countryNameIn('AUT', 'fr')).toBe('Autriche')
  expect(countryName('XYZ', 'de')).toBe('XYZ')
  const groups = countryGroups('en')
  expect(groups[0]).toMatchObject({ group: 'Europe (DACH)', items: [{ code: 'DEU', name: 'Germany' }, { code: 'AUT', name: 'Austria' }, { code: 'CHE', name: 'Switzerland' }] })
  expect(groups.flatMap((g) => g.items).length).toBeGreaterThan(240)
})

test('the compact list of the pay page is the table: every code, its alpha-2 code, DACH first, names from Intl', () => {
  expect(COUNTRY_CODES.map(([c]) => c)).toEqual(COUNTRIES.filter((c) => !c.spacer).map((c) => c.code))
  for (const [c, a2] of COUNTRY_CODES) if (c !== 'XKX') expect(alpha2Of(c)).toBe(a2)
  expect(alpha2Of('FRA')).toBe('FR')
  expect(alpha2Of('GBR')).toBe('GB')
  expect(countryChoices('de').slice(0, 4).map((c) => c.name)).toEqual(['Deutschland', 'Österreich', 'Schweiz', 'Afghanistan'])
  expect(countryLabel('DEU', 'en')).toBe('Germany')
  // the table's German names are CLDR's: Intl names them alike
  for (const c of COUNTRIES.filter((x) => !x.spacer && x.code !== 'XKX')) expect(countryLabel(c.code, 'de')).toBe(c.name)
})

forEachDialect('countries are chosen, documents name them', (h) => {
  test('ticket PDF and calendar entry write "Deutschland", not "DEU"', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin, { displayName: 'Landfest', locationName: 'Halle 7', street: 'Messeweg', streetNumber: '1', postCode: '10115', city: 'Berlin', country: 'DEU' })
    const g = await guestWithToken(h(), admin, e.id)
    const tokens = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens
    const pdf = await h().app.handle(new Request(`http://localhost${tokens.downloadLinkTicket}`))
    expect(pdf.status).toBe(200)
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()))
    expect(text).toContain('Deutschland')
    expect(text).not.toMatch(/\bDEU\b/)
    const ics = await h().app.handle(new Request(`http://localhost${tokens.downloadLinkIcs}`))
    const ev = new ICAL.Event(new ICAL.Component(ICAL.parse(await ics.text())).getFirstSubcomponent('vevent')!)
    expect(ev.location).toContain('Deutschland')
    expect(ev.location).not.toContain('DEU')
  })

  test('an invoice address or seller country outside the list is refused (INVALID)', async () => {
    const admin = await h().admin()
    expect((await admin.put('/proxy/api/agency/sellerSettings', { name: 'A', country: 'XYZ' })).body.errorFields).toEqual([{ field: 'country', errorType: 'INVALID' }])
    expect((await admin.put('/proxy/api/agency/sellerSettings', { name: 'A', country: 'AUT' })).body.country).toBe('AUT')
    const { event, categories } = await paidEvent(admin)
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    const o = `/proxy/api/guest/ticketOrder/${r.body.ticketOrderId}`
    const bad = await h().request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: { ...address, country: 'XYZ' } } })
    expect(bad.body.errorFields).toEqual([{ field: 'invoiceAddress.country', errorType: 'INVALID' }])
    expect((await h().request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: { ...address, country: 'CHE' } } })).body.step).toBe(8)
  })
})
