// Orders of REQUIRE_APPROVAL and WAITING_LIST registrations move on to payment when the organiser
// approves or moves the guest up: the tickets are taken then (never oversold; sold out refuses the
// approval in German), the guest gets the /pay link, the step machine continues.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { address, buy, buyer, guestOf, paidEvent } from './testing'

const order = (id: string) => `/proxy/api/guest/ticketOrder/${id}`

forEachDialect('approval and waiting list orders', (h) => {
  test('approving takes the tickets, mails the pay link and holds them for days; sold out refuses the next approval cleanly', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: { requireApproval: true }, categories: [{ displayName: 'Loge', grossPrice: 9000, taxCode: 'TAX_19', quota: 1 }] })
    const db = h().ctx.db
    const sold = async () => (await db.selectFrom('ticket_category').select('sold').where('id', '=', categories[0].id).executeTakeFirstOrThrow()).sold
    const a = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email: 'anna.approval@example.org' }))
    const b = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email: 'bert.approval@example.org' }))
    expect([a.body.status, b.body.status]).toEqual(['REQUIRE_APPROVAL', 'REQUIRE_APPROVAL'])
    expect(await sold()).toBe(0)
    expect((await h().request('GET', order(a.body.ticketOrderId))).body.ticketOrder).toMatchObject({ status: 'REQUIRE_APPROVAL' })
    expect((await h().request('POST', `${order(a.body.ticketOrderId)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.errorType).toBe('ORDER_NOT_PAYABLE')

    const ok = await admin.post(`/proxy/api/events/${event.id}/visitors/${a.body.visitorId}/approve`)
    expect(ok.status).toBe(200)
    expect(ok.body.status).toBe('PENDING')
    expect(await sold()).toBe(1)
    let info = (await h().request('GET', order(a.body.ticketOrderId))).body
    expect(info.ticketOrder).toMatchObject({ status: 'OPEN', step: 1 })
    const held = (until: string) => (Date.parse(until) - h().clock.now().getTime()) / 3600_000
    expect(held(info.ticketOrder.holdUntil)).toBeCloseTo(72, 2)
    await h().deliverMail()
    const mail = h().smtp.to('anna.approval@example.org').find((m) => m.subject.startsWith('Ihre Anmeldung ist bestätigt'))!
    expect(mail.text).toContain(`/pay/${a.body.ticketOrderId}`)
    expect(mail.text).toContain('90,00 €')

    // the second approval finds the tickets gone: refused in German, nothing changed
    const refused = await admin.post(`/proxy/api/events/${event.id}/visitors/${b.body.visitorId}/approve`)
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ errorType: 'APPROVAL_TICKETS_SOLD_OUT', errorMessage: 'Die Tickets dieser Bestellung sind ausverkauft: Die Anmeldung kann nicht bestätigt werden.' })
    expect((await db.selectFrom('event_visitor').select('status').where('id', '=', b.body.visitorId).executeTakeFirstOrThrow()).status).toBe('REQUIRE_APPROVAL')
    expect((await h().request('GET', order(b.body.ticketOrderId))).body.ticketOrder.status).toBe('REQUIRE_APPROVAL')
    expect(await sold()).toBe(1)

    // the step machine continues; going on does not shorten the days the tickets are held
    h().clock.advance(3600_000)
    expect((await h().request('POST', `${order(a.body.ticketOrderId)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step).toBe(8)
    info = (await h().request('GET', order(a.body.ticketOrderId))).body
    expect(held(info.ticketOrder.holdUntil)).toBeCloseTo(71, 2)
    expect((await h().request('POST', `${order(a.body.ticketOrderId)}/proceed/paymentSelection`, { body: { paymentMethod: 'INVOICE' } })).body.step).toBe(40)
    expect((await h().request('POST', `${order(a.body.ticketOrderId)}/proceed/paymentPay`, { body: { paymentMethod: 'INVOICE' } })).body).toMatchObject({ step: 100, status: 'CONFIRMED' })
    expect((await db.selectFrom('event_visitor').select('status').where('id', '=', a.body.visitorId).executeTakeFirstOrThrow()).status).toBe('CONFIRMED')
  })

  test('a guest leaves the waiting list: the waiting order is cancelled, no ticket or place given back that it never took', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: { maxVisitors: 1 } })
    expect((await admin.put(`/proxy/api/events/${event.id}/form-settings`, { waitingList: true })).status).toBe(200)
    const first = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    const waiting = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    expect([first.body.status, waiting.body.status]).toEqual(['PENDING', 'WAITING_LIST'])
    const db = h().ctx.db
    const counts = async () => ({
      sold: (await db.selectFrom('ticket_category').select('sold').where('id', '=', categories[0].id).executeTakeFirstOrThrow()).sold,
      seats: (await db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken,
    })
    expect(await counts()).toEqual({ sold: 1, seats: 1 })
    const guest = await guestOf(h(), waiting.body.visitorId)
    const dash = (await guest.get('/proxy/api/guest/events')).body
    expect(dash.openEvents.map((e: { ticketOrder: unknown }) => e.ticketOrder)).toEqual([{ id: waiting.body.ticketOrderId, status: 'WAITING_LIST', step: expect.any(Number), withdrawable: true }])
    const left = await guest.post(`/proxy/api/guest/events/${event.id}/reject`, { visitor: waiting.body.visitorId })
    expect(left.status).toBe(200)
    expect(left.body.status).toBe('VISITOR_DECLINED')
    expect((await h().request('GET', order(waiting.body.ticketOrderId))).body.ticketOrder.status).toBe('CANCELED')
    // the first guest's ticket and place stay theirs
    expect(await counts()).toEqual({ sold: 1, seats: 1 })
    expect((await h().request('GET', order(first.body.ticketOrderId))).body.ticketOrder.status).toBe('OPEN')
  })

  test('moving up from the waiting list: the freed place and the tickets go to the waiting guest’s order', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: { maxVisitors: 1 } })
    expect((await admin.put(`/proxy/api/events/${event.id}/form-settings`, { waitingList: true })).status).toBe(200)
    const first = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    const waiting = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email: 'wanda.wartend@example.org' }))
    expect([first.body.status, waiting.body.status]).toEqual(['PENDING', 'WAITING_LIST'])
    expect((await h().request('GET', order(waiting.body.ticketOrderId))).body.ticketOrder.status).toBe('WAITING_LIST')
    // no place yet: moving up is refused by the event's capacity
    expect((await admin.post(`/proxy/api/events/${event.id}/visitors/${waiting.body.visitorId}/approve`)).body.errorType).toBe('EVENT_FULL')
    // the first guest is deleted from the guest list: their order is cancelled, place and ticket free
    expect((await admin.post(`/proxy/api/events/${event.id}/visitors/${first.body.visitorId}/delete`)).body.status).toBe('DELETED')
    const up = await admin.post(`/proxy/api/events/${event.id}/visitors/${waiting.body.visitorId}/approve`)
    expect(up.body.status).toBe('PENDING')
    expect((await h().request('GET', order(waiting.body.ticketOrderId))).body.ticketOrder).toMatchObject({ status: 'OPEN', step: 1 })
    const db = h().ctx.db
    expect((await db.selectFrom('ticket_category').select('sold').where('id', '=', categories[0].id).executeTakeFirstOrThrow()).sold).toBe(1)
    expect((await db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken).toBe(1)
    await h().deliverMail()
    expect(h().smtp.to('wanda.wartend@example.org').some((m) => m.subject.startsWith('Ihre Anmeldung ist bestätigt: Bestellung'))).toBe(true)
    // not yet paid and past the hold: the server gives everything back by itself
    h().clock.advance(71 * 3600_000)
    await h().tasks.runOnce()
    expect((await h().request('GET', order(waiting.body.ticketOrderId))).body.ticketOrder.status).toBe('OPEN')
    h().clock.advance(2 * 3600_000)
    await h().tasks.runOnce()
    expect((await h().request('GET', order(waiting.body.ticketOrderId))).body.ticketOrder).toMatchObject({ status: 'CANCELED', step: 901 })
    expect((await db.selectFrom('ticket_category').select('sold').where('id', '=', categories[0].id).executeTakeFirstOrThrow()).sold).toBe(0)
    expect((await db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken).toBe(0)
  })
})
