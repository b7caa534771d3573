// A cancelled or refunded ticket order stays on the buyer's dashboard (issue 20, follow-up): its
// registration is DELETED with the order, and the dashboard used to drop it ("Hier sind noch keine
// Veranstaltungen."), so the texts guest.ticket.blocked.CANCELED/REFUNDED were never shown. As pretix
// and Hi.Events show a cancelled order with its state, the entry is listed under declinedEvents with
// its state and reason, no documents and no actions but its order's pay page. A registration deleted
// without such an order (the organiser removed a guest) stays hidden.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { createEvent } from '../../testing/organiser'
import { guestWithToken } from '../documents/test-helpers'
import { buy, buyer, guestOf, paidEvent, pay } from '../ticketing/testing'

forEachDialect('cancelled and refunded orders on the dashboard', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin()
  })

  async function bought() {
    const { event, categories } = await paidEvent(admin, { event: { allowTransfer: true, allowSelfCheckin: true, options: ['CAN_EDIT_REGISTRATION_DATA'] } })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    expect(r.status).toBe(201)
    expect((await pay(h(), r.body.ticketOrderId, 'TRANSFER')).step).toBe(100)
    const visitorId = r.body.visitorId as number
    const order = await h().ctx.db.selectFrom('ticket_order').select(['id', 'public_id']).where('visitor_id', '=', visitorId).executeTakeFirstOrThrow()
    return { event, visitorId, order, guest: await guestOf(h(), visitorId) }
  }
  const entryOf = async (guest: Agent, visitorId: number) => {
    const body = (await guest.get('/proxy/api/guest/events')).body
    for (const list of ['pendingEvents', 'confirmedEvents', 'invitedEvents', 'openEvents', 'declinedEvents']) {
      const e = body[list].find((x: any) => x.id === visitorId)
      if (e) return { list, e }
    }
    return null
  }

  test('a cancelled order: listed as declined with its state and reason, no documents, no actions but the pay page', async () => {
    const { event, visitorId, order, guest } = await bought()
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${order.id}/cancel`)).status).toBe(200)
    expect((await h().ctx.db.selectFrom('event_visitor').select('status').where('id', '=', visitorId).executeTakeFirstOrThrow()).status).toBe('DELETED')
    const found = await entryOf(guest, visitorId)
    expect(found?.list).toBe('declinedEvents')
    expect(found!.e).toMatchObject({ registrationStatus: { status: 'DELETED' }, ticketBlocked: 'CANCELED', tokens: {}, canTransfer: false, canEditRegistrationData: false, ticketOrder: { id: order.public_id, withdrawable: false } })
    // the documents and the registration's own calls stay closed
    expect((await guest.get(`/proxy/api/guest/events/visitors/${visitorId}/details`)).status).toBe(404)
    expect((await guest.get(`/proxy/api/guest/events/visitors/${visitorId}/ticket`)).body.errorType).toBe('NO_TICKET')
  })

  test('a refunded order: listed with REFUNDED', async () => {
    const { event, visitorId, order, guest } = await bought()
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${order.id}/deskPayment`)).status).toBe(200)
    const refund = await admin.post(`/proxy/api/events/${event.id}/orders/${order.id}/refund`)
    expect(refund.status).toBe(200)
    const found = await entryOf(guest, visitorId)
    expect(found?.list).toBe('declinedEvents')
    expect(found!.e).toMatchObject({ registrationStatus: { status: 'DELETED' }, ticketBlocked: 'REFUNDED', tokens: {}, ticketOrder: { id: order.public_id } })
  })

  test('a registration deleted without a cancelled order stays hidden', async () => {
    const e = await createEvent(admin)
    const g = await guestWithToken(h(), admin, e.id)
    expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/delete`, {})).status).toBe(200)
    expect((await h().ctx.db.selectFrom('event_visitor').select('status').where('id', '=', g.id).executeTakeFirstOrThrow()).status).toBe('DELETED')
    expect(await entryOf(g.guest, g.id)).toBeNull()
  })
})
