// A ticket order and its registration move together (docs/ticketing.md, "Guest list and orders"):
// the form's choices (defined values, timeslots) hold their places exactly while the order holds its
// tickets (expiry, refund and reset move them with the tickets); a guest cannot confirm a registration
// whose order is unpaid; withdrawing cancels an order with nothing paid or owed, and is refused for
// bought tickets (the organiser cancels those).
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { buy, buyer, guestOf as guestOfIn, paidEvent, pay } from './testing'

forEachDialect('orders and their registrations', (h) => {
  async function setup() {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const ws = (await admin.post(`/proxy/api/events/${event.id}/fields`, { type: 'SMARTLIST', displayName: 'Workshop', definedValues: [{ displayName: 'Töpfern', capacity: 1 }] })).body
    const slotField = (await admin.post(`/proxy/api/events/${event.id}/fields`, { type: 'TIMESLOT', displayName: 'Führung', timeslots: [{ displayName: '10:00', capacity: 1 }] })).body
    const valueId = ws.definedValues[0].id as number
    const slotId = slotField.timeslots[0].id as number
    const db = h().ctx.db
    const taken = async () => ({
      value: (await db.selectFrom('field_value').select('taken').where('id', '=', valueId).executeTakeFirstOrThrow()).taken,
      slot: (await db.selectFrom('timeslot').select('taken').where('id', '=', slotId).executeTakeFirstOrThrow()).taken,
      sold: (await db.selectFrom('ticket_category').select('sold').where('id', '=', categories[0].id).executeTakeFirstOrThrow()).sold,
      seats: (await db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken,
    })
    /** buys one ticket with the workshop value and the held timeslot */
    async function order() {
      const identification = `order${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
      const hold = await h().request('POST', '/api/public/reservation/timeslot', { body: { timeslotId: slotId, identification, amount: 1 } })
      expect(hold.status).toBe(200)
      const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { identification, fields: { [ws.id]: [{ fieldValueId: valueId, amount: 1 }], [slotField.id]: [{ timeslotId: slotId, amount: 1, reservationToken: hold.body.reservationToken }] } }))
      expect(r.status).toBe(201)
      return { publicId: r.body.ticketOrderId as string, visitorId: r.body.visitorId as number, email: r.body.email ?? null }
    }
    return { admin, event, taken, order }
  }
  const orderRow = (publicId: string) => h().ctx.db.selectFrom('ticket_order').selectAll().where('public_id', '=', publicId).executeTakeFirstOrThrow()
  const visitor = (id: number) => h().ctx.db.selectFrom('event_visitor').select(['status', 'seats_held', 'email']).where('id', '=', id).executeTakeFirstOrThrow()
  const guestOf = (visitorId: number) => guestOfIn(h(), visitorId)

  test('expiry gives the defined value and timeslot back with the tickets; reset takes them again; an offline refund gives them back', async () => {
    const { admin, event, taken, order } = await setup()
    const o = await order()
    expect(await taken()).toEqual({ value: 1, slot: 1, sold: 1, seats: 1 })
    h().clock.advance(31 * 60_000)
    await h().tasks.runOnce()
    expect((await orderRow(o.publicId)).status).toBe('CANCELED')
    expect(await taken()).toEqual({ value: 0, slot: 0, sold: 0, seats: 0 })
    // a second expiry run gives back nothing twice
    await h().tasks.runOnce()
    expect(await taken()).toEqual({ value: 0, slot: 0, sold: 0, seats: 0 })

    // reset: everything again, each with its conditional update
    expect((await h().request('GET', `/proxy/api/guest/ticketOrder/${o.publicId}/reset`)).body).toMatchObject({ status: 'OPEN' })
    expect(await taken()).toEqual({ value: 1, slot: 1, sold: 1, seats: 1 })
    expect(await pay(h(), o.publicId, 'TRANSFER')).toMatchObject({ step: 100 })
    const id = (await orderRow(o.publicId)).id
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${id}/markPaid`, { amount: 2500, paidAt: '2026-11-20T10:00:00Z' })).status).toBe(200)
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${id}/refund`)).status).toBe(200)
    expect(await taken()).toEqual({ value: 0, slot: 0, sold: 0, seats: 0 })
    expect(await visitor(o.visitorId)).toMatchObject({ status: 'DELETED', seats_held: 0 })
  })

  test('a reset refused because the value went meanwhile changes nothing', async () => {
    const { taken, order } = await setup()
    const first = await order()
    h().clock.advance(31 * 60_000)
    await h().tasks.runOnce()
    expect(await taken()).toEqual({ value: 0, slot: 0, sold: 0, seats: 0 })
    await order() // a second buyer takes the last workshop place and slot
    const reset = await h().request('GET', `/proxy/api/guest/ticketOrder/${first.publicId}/reset`)
    expect(reset.status).toBe(409)
    expect(reset.body.errorType).toBe('FIELD_ERROR')
    expect((await orderRow(first.publicId)).status).toBe('CANCELED')
    expect(await taken()).toEqual({ value: 1, slot: 1, sold: 1, seats: 1 })
  })

  test('neither the guest nor the organiser confirms a registration around its unpaid order', async () => {
    const { admin, event, order } = await setup()
    const o = await order()
    const guest = await guestOf(o.visitorId)
    // the dashboard sends them to pay instead
    const dash = (await guest.get('/proxy/api/guest/events')).body
    expect(dash.pendingEvents.map((e: any) => e.ticketOrder)).toEqual([{ id: o.publicId, status: 'OPEN', step: 1, withdrawable: true }])
    const act = await guest.post(`/proxy/api/guest/events/${event.id}/activate`, { visitor: o.visitorId })
    expect(act.status).toBe(409)
    expect(act.body).toMatchObject({ errorType: 'ORDER_PAYMENT_REQUIRED', errorMessage: 'Bitte schließen Sie zuerst Ihre Bestellung ab.' })
    expect(await visitor(o.visitorId)).toMatchObject({ status: 'PENDING', seats_held: 1 })
    expect((await orderRow(o.publicId)).status).toBe('OPEN')
    // nor the organiser around the order: it is marked paid (or cancelled) instead; the guest's detail
    // names the order, so the guest dialog offers no approving (ui/apps/organiser/guest-dialog.tsx)
    expect((await admin.get(`/proxy/api/events/${event.id}/visitors/${o.visitorId}`)).body.ticketOrder).toEqual({ number: (await orderRow(o.publicId)).number, status: 'OPEN' })
    const approve = await admin.post(`/proxy/api/events/${event.id}/visitors/${o.visitorId}/approve`, {})
    expect(approve.status).toBe(409)
    expect(approve.body).toMatchObject({ errorType: 'ORDER_AWAITS_PAYMENT', errorMessage: 'Diese Anmeldung wartet auf die Bezahlung ihrer Bestellung. Markieren Sie die Bestellung als bezahlt oder stornieren Sie sie.' })
    expect(await visitor(o.visitorId)).toMatchObject({ status: 'PENDING', seats_held: 1 })
    // paid at the venue: the detail follows the order
    expect(await pay(h(), o.publicId, 'LOCATION')).toMatchObject({ status: 'CONFIRMED' })
    expect((await admin.get(`/proxy/api/events/${event.id}/visitors/${o.visitorId}`)).body.ticketOrder).toEqual({ number: (await orderRow(o.publicId)).number, status: 'CONFIRMED' })
  })

  test('withdrawing cancels an unpaid order (tickets, value, timeslot back; the order mail); bought tickets are refused', async () => {
    const { event, taken, order } = await setup()
    const o = await order()
    const guest = await guestOf(o.visitorId)
    const rej = await guest.post(`/proxy/api/guest/events/${event.id}/reject`, { visitor: o.visitorId, reason: 'verhindert' })
    expect(rej.status).toBe(200)
    expect(rej.body.status).toBe('VISITOR_DECLINED')
    expect(await taken()).toEqual({ value: 0, slot: 0, sold: 0, seats: 0 })
    const row = await orderRow(o.publicId)
    expect(row.status).toBe('CANCELED')
    const history = await h().ctx.db.selectFrom('ticket_order_history').select(['kind', 'data']).where('order_id', '=', row.id).execute()
    expect(history.map((x) => x.kind)).toContain('CANCELED')
    // twice: nothing left to withdraw
    expect((await guest.post(`/proxy/api/guest/events/${event.id}/reject`, { visitor: o.visitorId })).body.errorType).toBe('STATUS_TRANSITION_NOT_ALLOWED')

    // bought (confirmed to pay at the venue): only the organiser cancels
    const b = await order()
    expect(await pay(h(), b.publicId, 'LOCATION')).toMatchObject({ status: 'CONFIRMED' })
    const guestB = await guestOf(b.visitorId)
    expect((await guestB.get('/proxy/api/guest/events')).body.confirmedEvents.map((e: any) => e.ticketOrder)).toEqual([{ id: b.publicId, status: 'CONFIRMED', step: 100, withdrawable: false }])
    const refused = await guestB.post(`/proxy/api/guest/events/${event.id}/reject`, { visitor: b.visitorId })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ errorType: 'ORDER_CANCEL_NOT_ALLOWED', errorMessage: 'Gekaufte Tickets kann nur der Veranstalter stornieren. Bitte wenden Sie sich an den Veranstalter.' })
    expect((await orderRow(b.publicId)).status).toBe('CONFIRMED')
    expect(await visitor(b.visitorId)).toMatchObject({ status: 'CONFIRMED', seats_held: 1 })
    expect(await taken()).toEqual({ value: 1, slot: 1, sold: 1, seats: 1 })
  })
})
