// Organiser setup of ticketing: categories (tax codes per currency, CHF rate by event date, quota
// never below sold, isPayedEvent), coupons, payment methods (IBAN/BIC), seller settings, ownership.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { createEvent } from '../../testing/organiser'
import { formatPrice, priceOrder, taxOfGross, taxRate } from './money'

export const category = (o: Record<string, unknown> = {}) => ({ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 10, ...o })
export const transfer = { method: 'TRANSFER', accountHolder: 'Agentur GmbH', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', bank: 'Commerzbank', transferReferencePrefix: 'SF-' }

test('money: tax in gross, CHF rate by event date, split to the cent, format', () => {
  expect(taxOfGross(2500, 1900)).toBe(399) // 25,00 / 1,19 = 21,008… → 21,01; tax 3,99
  expect(taxOfGross(1000, 700)).toBe(65)
  expect(taxRate('TAX_CH_NORMAL', '2023-12-31T12:00:00Z')).toBe(770)
  expect(taxRate('TAX_CH_NORMAL', '2024-01-01T12:00:00Z')).toBe(810)
  expect(taxRate('TAX_CH_REDUCED', '2025-05-01T12:00:00Z')).toBe(260)
  expect(taxRate('TAX_NONE', '2025-05-01T12:00:00Z')).toBe(0)
  expect(formatPrice(123456, 'EURO')).toBe('1.234,56 €')
  expect(formatPrice(5, 'CHF')).toBe('0,05 CHF')
  const cats = [
    { id: 1, displayName: 'A', grossPrice: 1000, taxCode: 'TAX_19', sortOrder: 0 },
    { id: 2, displayName: 'B', grossPrice: 333, taxCode: 'TAX_7', sortOrder: 1 },
  ]
  const p = priceOrder([{ category: cats[0], amount: 1 }, { category: cats[1], amount: 3 }], { code: 'X', valueType: 'FIXED', reduction: 1000, categoryId: null }, '2026-06-01T00:00:00Z', 'EURO')
  expect(p.discount).toBe(1000)
  expect(p.lines.reduce((s, l) => s + l.discount, 0)).toBe(1000)
  expect(p.grossPrice).toBe(999)
  expect(p.taxPrices.map((t) => t.taxCode)).toEqual(['TAX_19', 'TAX_7'])
  expect(p.taxPrices.reduce((s, t) => s + t.totalPrice, 0)).toBe(p.taxPrice)
  const free = priceOrder([{ category: cats[0], amount: 2 }], { code: 'F', valueType: 'PERCENT', reduction: 100, categoryId: null }, '2026-06-01T00:00:00Z', 'EURO')
  expect(free.grossPrice).toBe(0)
  const none = priceOrder([{ category: cats[0], amount: 2 }], { code: 'F', valueType: 'PERCENT', reduction: 50, categoryId: 2 }, '2026-06-01T00:00:00Z', 'EURO')
  expect(none.couponApplies).toBe(false)
  expect(none.grossPrice).toBe(2000)
})

forEachDialect('ticketing setup', (h) => {
  test('categories: tax code per currency, paid event, quota and delete rules, other agencies 404', async () => {
    const admin = await h().admin()
    const event = await createEvent(admin)
    expect((await admin.get(`/proxy/api/events/${event.id}`)).body.isPayedEvent).toBe(false)
    const bad = await admin.post(`/proxy/api/events/${event.id}/ticketCategories`, category({ taxCode: 'TAX_CH_NORMAL' }))
    expect(bad.status).toBe(400)
    expect(bad.body.errorFields).toEqual([{ field: 'taxCode', errorType: 'INVALID_TAX_CODE' }])
    expect(bad.body.errorMessage).toBeTruthy()
    const minMax = await admin.post(`/proxy/api/events/${event.id}/ticketCategories`, category({ minPerOrder: 5, maxPerOrder: 2 }))
    expect(minMax.body.errorFields).toEqual([{ field: 'minPerOrder', errorType: 'MIN_ABOVE_MAX' }])
    const r = await admin.post(`/proxy/api/events/${event.id}/ticketCategories`, category())
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 10, sold: 0, available: 10, minPerOrder: 0, maxPerOrder: 10 })
    expect((await admin.get(`/proxy/api/events/${event.id}`)).body.isPayedEvent).toBe(true)
    expect((await admin.get(`/proxy/api/public/events/${event.id}`)).body.isPayedEvent).toBe(true)
    expect((await admin.get(`/proxy/api/events/${event.id}/fields`)).body.isPayedEvent).toBe(true)
    const list = await admin.get(`/proxy/api/events/${event.id}/ticketCategories`)
    expect(list.body.taxCodes).toContain('TAX_19')
    expect(list.body.items.length).toBe(1)

    await h().ctx.db.updateTable('ticket_category').set({ sold: 4 }).where('id', '=', r.body.id).execute()
    const low = await admin.put(`/proxy/api/events/${event.id}/ticketCategories/${r.body.id}`, category({ quota: 3 }))
    expect(low.status).toBe(409)
    expect(low.body.errorType).toBe('QUOTA_BELOW_SOLD')
    expect((await admin.put(`/proxy/api/events/${event.id}/ticketCategories/${r.body.id}`, category({ quota: 4, grossPrice: 3000 }))).body.grossPrice).toBe(3000)
    expect((await admin.delete(`/proxy/api/events/${event.id}/ticketCategories/${r.body.id}`)).body.errorType).toBe('CATEGORY_HAS_ORDERS')
    await h().ctx.db.updateTable('ticket_category').set({ sold: 0 }).where('id', '=', r.body.id).execute()

    const other = await h().admin()
    expect((await other.get(`/proxy/api/events/${event.id}/ticketCategories`)).status).toBe(404)
    expect((await other.put(`/proxy/api/events/${event.id}/ticketCategories/${r.body.id}`, category())).status).toBe(404)
    const otherEvent = await createEvent(other)
    expect((await other.put(`/proxy/api/events/${otherEvent.id}/ticketCategories/${r.body.id}`, category())).status).toBe(404)

    expect((await admin.delete(`/proxy/api/events/${event.id}/ticketCategories/${r.body.id}`)).status).toBe(200)
    expect((await admin.get(`/proxy/api/events/${event.id}`)).body.isPayedEvent).toBe(false)
  })

  test('CHF events take the Swiss codes; copying an event copies its categories', async () => {
    const admin = await h().admin()
    const event = await createEvent(admin, { currency: 'CHF' })
    expect((await admin.post(`/proxy/api/events/${event.id}/ticketCategories`, category())).body.errorFields[0].errorType).toBe('INVALID_TAX_CODE')
    expect((await admin.post(`/proxy/api/events/${event.id}/ticketCategories`, category({ taxCode: 'TAX_CH_NORMAL' }))).status).toBe(201)
    const copy = await admin.post(`/proxy/api/events/${event.id}/copy`, { status: 'OK' })
    expect(copy.status).toBe(201)
    const cats = (await admin.get(`/proxy/api/events/${copy.body.id}/ticketCategories`)).body.items
    expect(cats.map((c: any) => [c.taxCode, c.sold])).toEqual([['TAX_CH_NORMAL', 0]])
    expect((await admin.get(`/proxy/api/events/${copy.body.id}`)).body.isPayedEvent).toBe(true)
  })

  test('coupons: code upper-cased and unique per event, percent at most 100, category of the event', async () => {
    const admin = await h().admin()
    const event = await createEvent(admin)
    const cat = (await admin.post(`/proxy/api/events/${event.id}/ticketCategories`, category())).body
    const c = await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'sommer-10', valueType: 'PERCENT', reduction: 10 })
    expect(c.status).toBe(201)
    expect(c.body.code).toBe('SOMMER-10')
    const dup = await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'SOMMER-10', valueType: 'FIXED', reduction: 500 })
    expect(dup.status).toBe(409)
    expect(dup.body.errorType).toBe('COUPON_CODE_TAKEN')
    expect((await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'ALLES', valueType: 'PERCENT', reduction: 150 })).body.errorFields).toEqual([{ field: 'reduction', errorType: 'TOO_BIG' }])
    const other = await createEvent(admin)
    const otherCat = (await admin.post(`/proxy/api/events/${other.id}/ticketCategories`, category())).body
    expect((await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'KAT', valueType: 'FIXED', reduction: 500, categoryId: otherCat.id })).body.errorFields).toEqual([{ field: 'categoryId', errorType: 'INVALID' }])
    expect((await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'KAT', valueType: 'FIXED', reduction: 500, categoryId: cat.id })).status).toBe(201)
    expect((await admin.get(`/proxy/api/events/${event.id}/coupons`)).body.map((x: any) => x.code)).toEqual(['KAT', 'SOMMER-10'])
    expect((await (await h().admin()).delete(`/proxy/api/events/${event.id}/coupons/${c.body.id}`)).status).toBe(404)
    expect((await admin.delete(`/proxy/api/events/${event.id}/coupons/${c.body.id}`)).status).toBe(200)
  })

  test('payment methods: IBAN and BIC checked, one per method and currency, enabled per event of the same currency', async () => {
    const admin = await h().admin()
    const badIban = await admin.post('/proxy/api/agency/paymentMethods', { ...transfer, iban: 'DE89 3704 0044 0532 0130 01', bic: 'NOTABIC' })
    expect(badIban.status).toBe(400)
    expect(badIban.body.errorFields).toEqual([
      { field: 'iban', errorType: 'INVALID_IBAN' },
      { field: 'bic', errorType: 'INVALID_BIC' },
    ])
    const t = await admin.post('/proxy/api/agency/paymentMethods', transfer)
    expect(t.status).toBe(201)
    expect(t.body).toMatchObject({ method: 'TRANSFER', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', currency: 'EURO' })
    expect((await admin.post('/proxy/api/agency/paymentMethods', transfer)).body.errorType).toBe('PAYMENT_METHOD_EXISTS')
    const inv = (await admin.post('/proxy/api/agency/paymentMethods', { method: 'INVOICE' })).body
    const chf = (await admin.post('/proxy/api/agency/paymentMethods', { method: 'LOCATION', currency: 'CHF' })).body
    const event = await createEvent(admin)
    expect((await admin.put(`/proxy/api/events/${event.id}/paymentMethods`, { ids: [t.body.id, chf.id] })).body.errorFields).toEqual([{ field: 'ids.1', errorType: 'CURRENCY_MISMATCH' }])
    const set = await admin.put(`/proxy/api/events/${event.id}/paymentMethods`, { ids: [t.body.id, inv.id] })
    expect(set.body.map((m: any) => m.method)).toEqual(['TRANSFER', 'INVOICE'])
    const other = await h().admin()
    expect((await other.put(`/proxy/api/agency/paymentMethods/${t.body.id}`, transfer)).status).toBe(404)
    const otherEvent = await createEvent(other)
    expect((await other.put(`/proxy/api/events/${otherEvent.id}/paymentMethods`, { ids: [t.body.id] })).body.errorFields).toEqual([{ field: 'ids.0', errorType: 'INVALID' }])
    expect((await other.get('/proxy/api/agency/paymentMethods')).body).toEqual([])
  })

  test('seller settings: defaults, save, links must be http(s)', async () => {
    const admin = await h().admin()
    expect((await admin.get('/proxy/api/agency/sellerSettings')).body).toMatchObject({ country: 'DEU', paymentTermsDays: 14, useInvoiceXML: false })
    const bad = await admin.put('/proxy/api/agency/sellerSettings', { imprintUrl: 'javascript:alert(1)' })
    expect(bad.body.errorFields).toEqual([{ field: 'imprintUrl', errorType: 'INVALID_URL' }])
    const s = await admin.put('/proxy/api/agency/sellerSettings', { name: 'Agentur GmbH', vatId: 'DE123456789', useInvoiceXML: true, requireReferenceId: true, imprintUrl: 'https://example.org/impressum', privacyUrl: 'https://example.org/datenschutz' })
    expect(s.status).toBe(200)
    expect(s.body).toMatchObject({ name: 'Agentur GmbH', useInvoiceXML: true, requireReferenceId: true, imprintUrl: 'https://example.org/impressum' })
    expect((await admin.put('/proxy/api/agency/sellerSettings', { name: 'Neu' })).body).toMatchObject({ name: 'Neu', useInvoiceXML: false })
  })
})
