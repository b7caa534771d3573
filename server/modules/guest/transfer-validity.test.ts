// Passing a place on needs a valid ticket (issue 20, follow-up of B): an order waiting for its
// transfer has no ticket yet, so the dashboard does not offer "Platz weitergeben" (its hint promises the
// new person a ticket by mail) and the transfer call refuses it with a German reason; once paid, it works.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect, uniqueEmail } from '../../testing/harness'
import { buy, buyer, guestOf, paidEvent, pay } from '../ticketing/testing'

forEachDialect('passing on needs a valid ticket', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin()
  })

  test('an unpaid transfer order: no "pass on" on the dashboard, the call refused; after payment both work', async () => {
    const { event, categories } = await paidEvent(admin, { event: { allowTransfer: true } })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    expect(r.status).toBe(201)
    const visitorId = r.body.visitorId as number
    expect((await pay(h(), r.body.ticketOrderId, 'TRANSFER')).step).toBe(100)
    const guest = await guestOf(h(), visitorId)
    const entry = async () => (await guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === visitorId)
    expect((await entry()).ticketBlocked).toBe('UNPAID')
    expect((await entry()).canTransfer).toBe(false)
    const refused = await guest.post(`/proxy/api/guest/events/visitors/${visitorId}/transfer`, { firstName: 'Tom', lastName: 'Neu', email: uniqueEmail('tom') })
    expect([refused.status, refused.body.errorType]).toEqual([409, 'TRANSFER_TICKET_NOT_VALID'])
    expect(refused.body.errorMessage).toContain('bezahlt')
    // nothing changed
    const v = await h().ctx.db.selectFrom('event_visitor').select(['first_name', 'user_id']).where('id', '=', visitorId).executeTakeFirstOrThrow()
    expect(v.first_name).toBe('Berta')
    // paid: offered and done
    const order = await h().ctx.db.selectFrom('ticket_order').select('id').where('visitor_id', '=', visitorId).executeTakeFirstOrThrow()
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${order.id}/deskPayment`)).status).toBe(200)
    expect((await entry()).canTransfer).toBe(true)
    const done = await guest.post(`/proxy/api/guest/events/visitors/${visitorId}/transfer`, { firstName: 'Tom', lastName: 'Neu', email: uniqueEmail('tom') })
    expect(done.status).toBe(200)
  })
})
