// Sales setup holes of issue 20: the currency of an event with categories, an event selling tickets
// without a payment method going online, the copy without payment methods and coupons, and
// "mark as paid" with amount, date, who, and its undo on the same day as a counter-entry.
import { expect, test } from 'bun:test'
import { eventBody, forEachDialect } from '../../testing/harness'
import { TRANSFER, buy, buyer, paidEvent, pay } from './testing'

forEachDialect('sales setup and mark paid (issue 20)', (h) => {
  test('an event with categories cannot change its currency (409 CURRENCY_HAS_CATEGORIES); without categories it can', async () => {
    const admin = await h().admin()
    const { event } = await paidEvent(admin)
    const r = await admin.put(`/proxy/api/events/${event.id}`, eventBody({ currency: 'CHF' }))
    expect(r.status).toBe(409)
    expect(r.body.errorType).toBe('CURRENCY_HAS_CATEGORIES')
    expect(r.body.errorMessage).toContain('Währung')
    expect(r.body.errorFields).toEqual([{ field: 'currency', errorType: 'CURRENCY_HAS_CATEGORIES' }])
    expect((await admin.get(`/proxy/api/events/${event.id}`)).body.currency).toBe('EURO')
    // the same currency again is no change
    expect((await admin.put(`/proxy/api/events/${event.id}`, eventBody({ currency: 'EURO', displayName: 'Neu' }))).status).toBe(200)
    const free = await admin.post('/proxy/api/events', eventBody())
    expect((await admin.put(`/proxy/api/events/${free.body.id}`, eventBody({ currency: 'CHF' }))).status).toBe(200)
  })

  test('an event that sells tickets without a payment method cannot go online (409 EVENT_NO_PAYMENT_METHOD); with one it can', async () => {
    const admin = await h().admin()
    const { event } = await paidEvent(admin, { event: { visibility: 'OFFLINE' } })
    expect((await admin.put(`/proxy/api/events/${event.id}/paymentMethods`, { ids: [] })).status).toBe(200)
    const r = await admin.put(`/proxy/api/events/${event.id}`, eventBody({ visibility: 'PUBLIC' }))
    expect(r.status).toBe(409)
    expect(r.body.errorType).toBe('EVENT_NO_PAYMENT_METHOD')
    expect(r.body.errorMessage).toContain('Zahlungsart')
    expect((await admin.get(`/proxy/api/events/${event.id}`)).body.visibility).toBe('OFFLINE')
    // other changes while offline are fine
    expect((await admin.put(`/proxy/api/events/${event.id}`, eventBody({ visibility: 'OFFLINE', displayName: 'Neu' }))).status).toBe(200)
    const methods = (await admin.get('/proxy/api/agency/paymentMethods')).body
    expect((await admin.put(`/proxy/api/events/${event.id}/paymentMethods`, { ids: [methods[0].id] })).status).toBe(200)
    expect((await admin.put(`/proxy/api/events/${event.id}`, eventBody({ visibility: 'PUBLIC' }))).status).toBe(200)
    // online: the last method cannot be taken away
    const off = await admin.put(`/proxy/api/events/${event.id}/paymentMethods`, { ids: [] })
    expect(off.status).toBe(409)
    expect(off.body.errorType).toBe('EVENT_NO_PAYMENT_METHOD')
    const publicCats = async () => (await h().request('GET', `/proxy/api/public/events/${event.id}/ticketCategories`)).body.items
    expect((await publicCats())[0].onSale).toBe(true)
    // the agency deletes the method: the public page says the tickets are not on sale (before the form, not after it)
    expect((await admin.delete(`/proxy/api/agency/paymentMethods/${methods[0].id}`)).status).toBe(200)
    expect((await publicCats())[0].onSale).toBe(false)
    // a free event (no categories) goes online without any method
    const free = await admin.post('/proxy/api/events', eventBody({ visibility: 'OFFLINE' }))
    expect((await admin.put(`/proxy/api/events/${free.body.id}`, eventBody({ visibility: 'PUBLIC' }))).status).toBe(200)
  })

  test('a copied event takes its payment methods and coupons along (coupons unused); the copy can go online and sell', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const coupon = await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'FRUEH', valueType: 'PERCENT', reduction: 10, maxUses: 5 })
    expect(coupon.status).toBe(201)
    const bought = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { couponCode: 'FRUEH' }))
    expect(bought.status).toBe(201)
    const copy = await admin.post(`/proxy/api/events/${event.id}/copy`, { displayName: 'Sommerfest 2027' })
    expect(copy.status).toBe(201)
    const before = (await admin.get(`/proxy/api/events/${event.id}/paymentMethods`)).body.map((m: any) => m.id)
    expect((await admin.get(`/proxy/api/events/${copy.body.id}/paymentMethods`)).body.map((m: any) => m.id)).toEqual(before)
    const coupons = (await admin.get(`/proxy/api/events/${copy.body.id}/coupons`)).body
    expect(coupons).toMatchObject([{ code: 'FRUEH', valueType: 'PERCENT', reduction: 10, maxUses: 5, used: 0 }])
    expect((await admin.put(`/proxy/api/events/${copy.body.id}`, eventBody({ visibility: 'PUBLIC', displayName: 'Sommerfest 2027' }))).status).toBe(200)
    const cats = (await admin.get(`/proxy/api/events/${copy.body.id}/ticketCategories`)).body.items
    const r = await buy(h(), copy.body.id, buyer([{ categoryId: cats[0].id, amount: 1 }], { couponCode: 'FRUEH' }))
    expect(r.status).toBe(201)
    expect(await pay(h(), r.body.ticketOrderId, 'TRANSFER')).toMatchObject({ step: 100 })
  })

  test('mark paid records amount, date and who; undone the same day by a counter-entry (order open again, nothing deleted); not the next day, not an online payment', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { methods: [TRANSFER, { method: 'INVOICE' }] })
    const a = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    expect(await pay(h(), a.body.ticketOrderId, 'TRANSFER')).toMatchObject({ step: 100, status: 'OPEN' })
    const list = (await admin.post(`/proxy/api/events/${event.id}/orders/search`, {})).body.items
    const url = `/proxy/api/events/${event.id}/orders/${list[0].id}`
    // an amount that is not a price is refused at the field
    const bad = await admin.post(`${url}/markPaid`, { amount: -5, paidAt: new Date().toISOString() })
    expect(bad.status).toBe(400)
    // money that has not come in yet: refused at the date
    const future = await admin.post(`${url}/markPaid`, { amount: 2500, paidAt: new Date(h().clock.now().getTime() + 3 * 86400_000).toISOString() })
    expect(future.status).toBe(400)
    expect(future.body.errorFields).toEqual([{ field: 'paidAt', errorType: 'INVALID' }])
    const paidAt = new Date(h().clock.now().getTime() - 86400_000).toISOString()
    const paid = await admin.post(`${url}/markPaid`, { amount: 2000, paidAt })
    expect(paid.status).toBe(200)
    expect(paid.body).toMatchObject({ status: 'PAID', paidAmount: 2000, paidAt, canUndoPaid: true })
    expect(paid.body.history.at(-1)).toMatchObject({ kind: 'MARKED_PAID', accountId: admin.accountId, data: { amount: 2000, paidAt, from: 'OPEN' } })
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/search`, {})).body.items[0]).toMatchObject({ status: 'PAID', canUndoPaid: true })
    const undo = await admin.post(`${url}/undoPaid`)
    expect(undo.status).toBe(200)
    expect(undo.body).toMatchObject({ status: 'OPEN', paidAmount: null, paidAt: null, canUndoPaid: false })
    // both entries stay: the payment and its counter-entry
    expect(undo.body.history.slice(-2).map((x: any) => [x.kind, x.data.amount, x.accountId])).toEqual([
      ['MARKED_PAID', 2000, admin.accountId],
      ['MARKED_PAID_UNDONE', -2000, admin.accountId],
    ])
    expect((await admin.post(`${url}/undoPaid`)).body.errorType).toBe('MARK_PAID_UNDO_NOT_ALLOWED')
    // paid again, and the next day it can no longer be undone
    expect((await admin.post(`${url}/markPaid`, { amount: 2500, paidAt })).body.status).toBe('PAID')
    h().clock.advance(86400_000)
    const late = await admin.post(`${url}/undoPaid`)
    expect(late.status).toBe(409)
    expect(late.body.errorType).toBe('MARK_PAID_UNDO_NOT_ALLOWED')
    expect(late.body.errorMessage).toContain('heute')
    expect((await admin.get(url)).body).toMatchObject({ status: 'PAID', canUndoPaid: false })
    // an invoice order goes back to CONFIRMED (to pay later), as it was
    const b = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    expect(await pay(h(), b.body.ticketOrderId, 'INVOICE')).toMatchObject({ status: 'CONFIRMED' })
    const bId = (await admin.post(`/proxy/api/events/${event.id}/orders/search`, { paymentMethod: 'INVOICE' })).body.items[0].id
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${bId}/markPaid`, { amount: 2500, paidAt })).body.status).toBe('PAID')
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${bId}/undoPaid`)).body.status).toBe('CONFIRMED')
    // another agency: 404
    const other = await h().admin()
    expect((await other.post(`/proxy/api/events/${event.id}/orders/${bId}/undoPaid`)).status).toBe(404)
  })
})
