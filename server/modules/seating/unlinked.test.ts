// Issue 20 C: a seat plan whose price categories are not linked to ticket categories does not control
// what is sold. On a paid event with such a plan no ticket is sold (409 SEATING_NOT_LINKED, in
// German), the organiser's plan answer says which categories are unlinked, and once linked the chair's
// price category decides the ticket category bought (a bound category is never sold without a chair).
import { expect, test } from 'bun:test'
import { type Agent, eventBody, forEachDialect } from '../../testing/harness'
import { buyer, paidEvent } from '../ticketing/testing'

forEachDialect('a seat plan not linked to the ticket categories', (h) => {
  let n = 0
  const visit = () => `unl-${Date.now().toString(36)}-${++n}`.padEnd(14, 'x')
  const plan = (links: { p: number | null; l: number | null }) => ({
    priceCategories: [
      { key: 'p', displayName: 'Parkett', color: '#2b8a3e', ticketCategoryId: links.p },
      { key: 'l', displayName: 'Loge', color: '#d9480f', ticketCategoryId: links.l },
      // not used by any chair: its missing link does not matter
      { key: 'x', displayName: 'Reserve', color: '#1d4ed8', ticketCategoryId: null },
    ],
    areas: [
      {
        displayName: 'Saal',
        chairs: [
          { label: 'A 1', priceCategory: 'p', percentX: 10, percentY: 10, percentWidth: 2, percentHeight: 3 },
          { label: 'Loge 1', priceCategory: 'l', percentX: 40, percentY: 40, percentWidth: 10, percentHeight: 8, places: 4, minAmount: 1, maxAmount: 4 },
        ],
      },
    ],
  })
  async function setup() {
    const admin = (await h().admin()) as Agent
    const { event, categories } = await paidEvent(admin, {
      categories: [
        { displayName: 'Parkett', grossPrice: 4000, taxCode: 'TAX_7', quota: 100 },
        { displayName: 'Loge', grossPrice: 9000, taxCode: 'TAX_19', quota: 100 },
      ],
    })
    return { admin, event, parkett: categories[0], loge: categories[1] }
  }
  const register = (eventId: number, body: Record<string, unknown>) => h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body })

  test('unlinked categories with chairs: no ticket is sold and the guest reads why; the plan answer names them', async () => {
    const { admin, event, parkett, loge } = await setup()
    const saved = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, plan({ p: null, l: loge.id }))
    expect(saved.status).toBe(200)
    expect(saved.body.unlinkedPriceCategories).toEqual(['Parkett'])
    expect((await admin.get(`/proxy/api/events/${event.id}/seatingplan`)).body.unlinkedPriceCategories).toEqual(['Parkett'])
    const r = await register(event.id, { ...buyer([{ categoryId: parkett.id, amount: 1 }]), identification: visit() })
    expect(r.status).toBe(409)
    expect(r.body.errorType).toBe('SEATING_NOT_LINKED')
    expect(r.body.errorMessage).toContain('Saalplan')
    expect(await h().ctx.db.selectFrom('ticket_order').select('id').where('event_id', '=', event.id).execute()).toEqual([])
    // the tickets tab's warning reads the same from the sales setup
    const cats = await admin.get(`/proxy/api/events/${event.id}/seatingplan`)
    expect(cats.body.priceCategories.map((c: any) => c.ticketCategoryId)).toEqual([null, loge.id, null])
  })

  test('once linked, the chair decides the ticket category: no Parkett ticket without its chair', async () => {
    const { admin, event, parkett, loge } = await setup()
    expect((await admin.put(`/proxy/api/events/${event.id}/seatingplan`, plan({ p: null, l: null }))).status).toBe(200)
    const linked = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, plan({ p: parkett.id, l: loge.id }))
    expect(linked.status).toBe(200)
    expect(linked.body.unlinkedPriceCategories).toEqual([])
    const without = await register(event.id, { ...buyer([{ categoryId: parkett.id, amount: 1 }]), identification: visit() })
    expect(without.status).toBe(400)
    expect(without.body.errorFields).toEqual([{ field: 'tickets.0.amount', errorType: 'SEATS_REQUIRED' }])
    const me = visit()
    const loge1 = linked.body.areas[0].chairs.find((c: any) => c.label === 'Loge 1')
    const hold = await h().request('POST', `/api/public/events/${event.id}/seatingplan/reservation/chair`, { body: { chairId: loge1.id, identification: me, amount: 2 } })
    expect(hold.status).toBe(200)
    const r = await register(event.id, { ...buyer([]), identification: me, chairReservations: [hold.body.reservationToken] })
    expect(r.status).toBe(201)
    const order = await h().ctx.db.selectFrom('ticket_order').select('id').where('visitor_id', '=', r.body.visitorId).executeTakeFirstOrThrow()
    const lines = await h().ctx.db.selectFrom('ticket_order_line').select(['category_id', 'amount']).where('order_id', '=', order.id).execute()
    expect(lines).toEqual([{ category_id: loge.id, amount: 2 }])
  })

  test('a deleted ticket category unlinks its price category: the sale stops and the plan says so', async () => {
    const { admin, event, parkett, loge } = await setup()
    expect((await admin.put(`/proxy/api/events/${event.id}/seatingplan`, plan({ p: parkett.id, l: loge.id }))).status).toBe(200)
    // a sale while linked fills the process's cache of the plan's categories
    const me = visit()
    const linked = (await admin.get(`/proxy/api/events/${event.id}/seatingplan`)).body
    const a1 = linked.areas[0].chairs.find((c: any) => c.label === 'A 1')
    const hold = await h().request('POST', `/api/public/events/${event.id}/seatingplan/reservation/chair`, { body: { chairId: a1.id, identification: me } })
    expect((await register(event.id, { ...buyer([]), identification: me, chairReservations: [hold.body.reservationToken] })).status).toBe(201)
    expect((await admin.delete(`/proxy/api/events/${event.id}/ticketCategories/${loge.id}`)).status).toBe(200)
    expect((await admin.get(`/proxy/api/events/${event.id}/seatingplan`)).body.unlinkedPriceCategories).toEqual(['Loge'])
    const r = await register(event.id, { ...buyer([]), identification: visit() })
    expect(r.status).toBe(409)
    expect(r.body.errorType).toBe('SEATING_NOT_LINKED')
  })

  test('a free event with an unlinked plan registers as before', async () => {
    const admin = (await h().admin()) as Agent
    const event = (await admin.post('/proxy/api/events', eventBody())).body
    expect((await admin.put(`/proxy/api/events/${event.id}/seatingplan`, plan({ p: null, l: null }))).body.unlinkedPriceCategories).toEqual([])
  })
})
