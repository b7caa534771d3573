// Deleting or declining a guest in the guest list cancels their ticket order through the
// organiser's cancel service, in one transaction with the registration's change; twice is once.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { address, buy, buyer, paidEvent } from './testing'

const order = (id: string) => `/proxy/api/guest/ticketOrder/${id}`
const SELLER = { name: 'Agentur GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-', contactName: 'Ada Admin', phone: '+49 30 123456', email: 'rechnung@agentur.example' }

forEachDialect('guest list and ticket orders', (h) => {
  test('deleting a guest in checkout cancels the open order: tickets, coupon use and places back; a second delete changes nothing', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'ZEHN', valueType: 'PERCENT', reduction: 10, maxUses: 3 })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 2 }], { couponCode: 'ZEHN', escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] }))
    expect(r.status).toBe(201)
    const db = h().ctx.db
    const counts = async () => ({
      sold: (await db.selectFrom('ticket_category').select('sold').where('id', '=', categories[0].id).executeTakeFirstOrThrow()).sold,
      used: (await db.selectFrom('coupon').select('used').where('event_id', '=', event.id).executeTakeFirstOrThrow()).used,
      seats: (await db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken,
    })
    expect(await counts()).toEqual({ sold: 2, used: 1, seats: 2 })

    const del = await admin.post(`/proxy/api/events/${event.id}/visitors/${r.body.visitorId}/delete`)
    expect(del.status).toBe(200)
    expect(del.body.status).toBe('DELETED')
    expect(await counts()).toEqual({ sold: 0, used: 0, seats: 0 })
    expect((await h().request('GET', order(r.body.ticketOrderId))).body.ticketOrder).toMatchObject({ status: 'CANCELED', step: 900 })
    const o = await db.selectFrom('ticket_order').select('id').where('public_id', '=', r.body.ticketOrderId).executeTakeFirstOrThrow()
    const detail = await admin.get(`/proxy/api/events/${event.id}/orders/${o.id}`)
    expect(detail.body.history.at(-1)).toMatchObject({ kind: 'CANCELED', data: { via: 'GUEST_LIST', action: 'delete' } })

    const again = await admin.post(`/proxy/api/events/${event.id}/visitors/${r.body.visitorId}/delete`)
    expect(again.status).toBe(409)
    expect(again.body.errorType).toBe('STATUS_TRANSITION_NOT_ALLOWED')
    expect(await counts()).toEqual({ sold: 0, used: 0, seats: 0 })
    await h().deliverMail()
    expect(h().smtp.mails.filter((m) => m.subject.includes('storniert')).length).toBe(1)
  })

  test('declining a guest with a paid transfer order cancels it with its cancellation invoice, once, also when two organisers decline at once', async () => {
    const admin = await h().admin()
    await admin.put('/proxy/api/agency/sellerSettings', SELLER)
    const { event, categories } = await paidEvent(admin)
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    const o = order(r.body.ticketOrderId)
    expect((await h().request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step).toBe(8)
    expect((await h().request('POST', `${o}/proceed/paymentSelection`, { body: { paymentMethod: 'TRANSFER' } })).body.step).toBe(40)
    expect((await h().request('POST', `${o}/proceed/paymentPay`, { body: { paymentMethod: 'TRANSFER' } })).body).toMatchObject({ step: 100, status: 'OPEN' })
    const db = h().ctx.db
    const oid = (await db.selectFrom('ticket_order').select('id').where('public_id', '=', r.body.ticketOrderId).executeTakeFirstOrThrow()).id
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${oid}/markPaid`, { amount: 2500, paidAt: '2026-11-24T10:00:00Z' })).body.status).toBe('PAID')

    const [a, b] = await Promise.all([
      admin.post(`/proxy/api/events/${event.id}/visitors/${r.body.visitorId}/decline`, { reason: 'Doppelt angemeldet' }),
      admin.post(`/proxy/api/events/${event.id}/visitors/${r.body.visitorId}/decline`, { reason: 'Doppelt angemeldet' }),
    ])
    expect([a.status, b.status].sort()).toEqual([200, 409])
    expect((a.status === 200 ? a : b).body.status).toBe('DECLINED')
    const invoices = await db.selectFrom('invoice').select(['kind', 'number', 'gross_cents']).where('order_ref', '=', String(oid)).orderBy('id').execute()
    expect(invoices.map((i) => [i.kind, i.number])).toEqual([
      ['INVOICE', 'RE-00001'],
      ['CANCELLATION', 'RE-00002'],
    ])
    expect((await db.selectFrom('ticket_category').select('sold').where('id', '=', categories[0].id).executeTakeFirstOrThrow()).sold).toBe(0)
    expect((await db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken).toBe(0)
    const detail = (await admin.get(`/proxy/api/events/${event.id}/orders/${oid}`)).body
    expect(detail).toMatchObject({ status: 'CANCELED', step: 900 })
    expect(detail.history.filter((x: any) => x.kind === 'CANCELED')).toMatchObject([{ data: { via: 'GUEST_LIST', action: 'decline', refundAmount: 2500 } }])
  })

  test('the registration is changed with the order or not at all; a guest without an order is deleted as before', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    // deleted already (by the order screen): the guest list's decline of a DELETED registration is refused, the order untouched
    const db = h().ctx.db
    const oid = (await db.selectFrom('ticket_order').select('id').where('public_id', '=', r.body.ticketOrderId).executeTakeFirstOrThrow()).id
    await admin.post(`/proxy/api/events/${event.id}/orders/${oid}/cancel`)
    expect((await admin.post(`/proxy/api/events/${event.id}/visitors/${r.body.visitorId}/decline`)).body.errorType).toBe('STATUS_TRANSITION_NOT_ALLOWED')
    expect((await admin.post(`/proxy/api/events/${event.id}/visitors/${r.body.visitorId}/restore`)).body.status).toBe('ADDED')
    expect((await admin.post(`/proxy/api/events/${event.id}/visitors/${r.body.visitorId}/delete`)).body.status).toBe('DELETED')

    // a decline the registration refuses (checked in) leaves the order open
    const r2 = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    await db.updateTable('event_visitor').set({ status: 'APPEARED' }).where('id', '=', r2.body.visitorId).execute()
    expect((await admin.post(`/proxy/api/events/${event.id}/visitors/${r2.body.visitorId}/decline`)).body.errorType).toBe('STATUS_TRANSITION_NOT_ALLOWED')
    expect((await h().request('GET', order(r2.body.ticketOrderId))).body.ticketOrder.status).toBe('OPEN')
    // another agency cannot reach it
    const other = await h().admin()
    expect((await other.post(`/proxy/api/events/${event.id}/visitors/${r2.body.visitorId}/delete`)).status).toBe(404)
    expect((await h().request('GET', order(r2.body.ticketOrderId))).body.ticketOrder.status).toBe('OPEN')
  })
})
