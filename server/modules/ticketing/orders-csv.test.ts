// Issue 20 item 29: the orders CSV reads like the screen, not like the database: German labels for
// status and payment method, times in the event's time zone, the invoice (and cancellation) number,
// and the order's lines in one column ("2 × Sitz (je 40,00 €)"). The test parses the CSV back.
import { expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import { formatDate, formatTime } from '../../i18n/format'
import { forEachDialect } from '../../testing/harness'
import { buy, buyer, paidEvent, pay } from './testing'

const ADDRESS = { receiver: 'Tea Terms', street: 'Weg', streetNumber: '2', postCode: '10115', city: 'Berlin', country: 'DEU' }
const SELLER = { name: 'Agentur GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-', contactName: 'Ada Admin', phone: '+49 30 123456', email: 'rechnung@agentur.example' }

forEachDialect('the orders CSV', (h) => {
  test('German status and method, local times, invoice numbers and lines; parsed back', async () => {
    const admin = await h().admin()
    expect((await admin.put('/proxy/api/agency/sellerSettings', SELLER)).status).toBe(200)
    const tz = 'America/New_York'
    const { event, categories } = await paidEvent(admin, {
      event: { timezone: tz },
      categories: [
        { displayName: 'Sitz', grossPrice: 4000, taxCode: 'TAX_7', quota: 20 },
        { displayName: 'Steh; hinten', grossPrice: 1500, taxCode: 'TAX_19' },
      ],
    })
    const [sitz, steh] = categories
    const a = await buy(h(), event.id, buyer([{ categoryId: sitz.id, amount: 2 }, { categoryId: steh.id, amount: 1 }], { email: 'anna@example.org', firstName: 'Anna', lastName: 'Acker', escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }, { firstName: 'Emil', lastName: 'Escort' }] }))
    const b = await buy(h(), event.id, buyer([{ categoryId: steh.id, amount: 1 }], { email: 'bernd@example.org', firstName: 'Bernd', lastName: 'Berg' }))
    expect([a.status, b.status]).toEqual([201, 201])
    expect((await pay(h(), a.body.ticketOrderId, 'TRANSFER')).step).toBe(100)
    const list = (await admin.post(`/proxy/api/events/${event.id}/orders/search`, {})).body.items as Array<{ id: number; number: string; email: string }>
    const aId = list.find((o) => o.email === 'anna@example.org')!.id
    const bId = list.find((o) => o.email === 'bernd@example.org')!.id
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${aId}/markPaid`, { amount: 9500, paidAt: '2026-11-20T23:30:00Z' })).status).toBe(200)
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${bId}/cancel`, {})).status).toBe(200)

    const res = await admin.get(`/proxy/api/events/${event.id}/orders/export`)
    expect(res.status).toBe(200)
    const rows = parse(res.text.replace(/^\uFEFF/, ''), { delimiter: ';', columns: true }) as Array<Record<string, string>>
    expect(rows).toHaveLength(2)
    const db = h().ctx.db
    const inv = await db.selectFrom('invoice').select(['number', 'kind']).where('order_ref', '=', String(aId)).execute()
    expect(inv.map((i) => i.kind)).toEqual(['INVOICE'])
    const created = (await db.selectFrom('ticket_order').select('created_at').where('id', '=', aId).executeTakeFirstOrThrow()).created_at
    const local = (iso: string) => `${formatDate(iso, tz)} ${formatTime(iso, tz)}`
    const anna = rows.find((r) => r['E-Mail'] === 'anna@example.org')!
    expect(anna).toMatchObject({
      Status: 'Bezahlt',
      Zahlungsart: 'Überweisung',
      Name: 'Anna Acker',
      Betrag: '95,00',
      'Bezahlter Betrag': '95,00',
      // 23:30 UTC is 18:30 in New York (EST), on the same day
      'Bezahlt am': '20.11.2026 18:30',
      'Erstellt am': local(new Date(created as unknown as string).toISOString()),
      Rechnungsnummer: inv[0].number,
      Stornorechnung: '',
      Positionen: '2 × Sitz (je 40,00 €), 1 × Steh; hinten (je 15,00 €)',
    })
    expect(anna['Erstellt am']).toMatch(/^\d\d\.\d\d\.\d{4} \d\d:\d\d$/)
    const bernd = rows.find((r) => r['E-Mail'] === 'bernd@example.org')!
    expect(bernd).toMatchObject({ Status: 'Storniert', Zahlungsart: '', Rechnungsnummer: '', Positionen: '1 × Steh; hinten (je 15,00 €)' })
    // no terms were set: the acceptance columns are there and empty
    expect(anna).toMatchObject({ 'Bedingungen akzeptiert am': '', 'Bedingungen (Version)': '' })
    expect(Object.keys(anna)).toContain('Zeitzone')
    expect(anna.Zeitzone).toBe(tz)
  })

  test('the terms the buyer accepted: when (event time zone) and which version', async () => {
    const admin = await h().admin()
    const tz = 'Europe/Berlin'
    const { event, categories } = await paidEvent(admin, { event: { timezone: tz }, categories: [{ displayName: 'Sitz', grossPrice: 4000, taxCode: 'TAX_7' }] })
    expect((await admin.put(`/proxy/api/events/${event.id}/ticketTerms`, { termsText: 'Keine Rückgabe.', termsUrl: 'https://example.org/agb' })).status).toBe(200)
    const a = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email: 'terms@example.org', firstName: 'Tea', lastName: 'Terms' }))
    expect(a.status).toBe(201)
    // without the acceptance the transfer is refused; with it the order keeps when and what
    const o = `/proxy/api/guest/ticketOrder/${a.body.ticketOrderId}`
    expect((await h().request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: ADDRESS } })).body.step).toBe(8)
    expect((await h().request('POST', `${o}/proceed/paymentSelection`, { body: { paymentMethod: 'TRANSFER' } })).body.step).toBe(40)
    expect((await h().request('POST', `${o}/proceed/paymentPay`, { body: { paymentMethod: 'TRANSFER' } })).status).toBe(400)
    expect((await h().request('POST', `${o}/proceed/paymentPay`, { body: { paymentMethod: 'TRANSFER', acceptTerms: true } })).status).toBe(200)
    const row = await h().ctx.db.selectFrom('ticket_order').select(['id', 'terms_accepted_at', 'terms_version']).where('public_id', '=', a.body.ticketOrderId).executeTakeFirstOrThrow()
    expect(row.terms_version).toContain('https://example.org/agb')
    const detail = (await admin.get(`/proxy/api/events/${event.id}/orders/${row.id}`)).body
    expect(detail.termsAccepted).toMatchObject({ version: row.terms_version, text: 'Keine Rückgabe.' })
    const res = await admin.get(`/proxy/api/events/${event.id}/orders/export`)
    const rows = parse(res.text.replace(/^\uFEFF/, ''), { delimiter: ';', columns: true }) as Array<Record<string, string>>
    const at = new Date(String(row.terms_accepted_at)).toISOString()
    expect(rows[0]).toMatchObject({ 'E-Mail': 'terms@example.org', 'Bedingungen akzeptiert am': `${formatDate(at, tz)} ${formatTime(at, tz)}`, 'Bedingungen (Version)': row.terms_version! })
  })
})
