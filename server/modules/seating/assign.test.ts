// Assign mode (agency-side.md §4): one chair per guest, chairs of another price category than the
// guest's refused with the rejection wrongPK: the category of the ticket bought (paid event), else of
// the chair the guest has; the guest detail names it (seatCategoryId) for the plan in the dialog.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent } from '../../testing/organiser'
import { buyer, paidEvent } from '../ticketing/testing'

const chairsOf = (cats: [string, string]) => [
  { label: 'A 1', priceCategory: cats[0], percentX: 10, percentY: 10, percentWidth: 2, percentHeight: 3 },
  { label: 'A 2', priceCategory: cats[0], percentX: 13, percentY: 10, percentWidth: 2, percentHeight: 3 },
  { label: 'R 1', priceCategory: cats[1], percentX: 10, percentY: 60, percentWidth: 2, percentHeight: 3 },
]

forEachDialect('assign mode on the plan', (h) => {
  test('a guest without a category may get any chair; then only chairs of that category (wrongPK), within it the chair moves', async () => {
    const admin = (await h().admin()) as Agent
    const e = await createEvent(admin)
    const saved = await admin.put(`/proxy/api/events/${e.id}/seatingplan`, {
      priceCategories: [
        { key: 'p', displayName: 'Parkett', color: '#2b8a3e' },
        { key: 'r', displayName: 'Rang', color: '#1d4ed8' },
      ],
      areas: [{ displayName: 'Saal', chairs: chairsOf(['p', 'r']) }],
    })
    const chair = (label: string) => saved.body.areas[0].chairs.find((c: any) => c.label === label)
    const g = await addGuest(admin, e.id, { status: 'CONFIRMED' })
    expect((await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)).body).toMatchObject({ chairs: [], seatCategoryId: null })
    expect((await admin.put(`/proxy/api/events/${e.id}/visitors/${g.id}/chair`, { chairId: chair('A 1').id })).status).toBe(200)
    expect((await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)).body.seatCategoryId).toBe(chair('A 1').priceCategory.id)
    const wrong = await admin.put(`/proxy/api/events/${e.id}/visitors/${g.id}/chair`, { chairId: chair('R 1').id })
    expect(wrong.status).toBe(409)
    expect(wrong.body).toMatchObject({ errorType: 'SEAT_NOT_RESERVED', succeeded: false, rejection: 'wrongPK', freeChairs: 1 })
    // nothing moved
    expect((await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)).body.chairs.map((c: any) => c.label)).toEqual(['A 1'])
    const moved = await admin.put(`/proxy/api/events/${e.id}/visitors/${g.id}/chair`, { chairId: chair('A 2').id })
    expect(moved.status).toBe(200)
    expect((await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)).body.chairs.map((c: any) => c.label)).toEqual(['A 2'])
  })

  test('on a paid event the ticket bought decides: a Rang buyer gets no Parkett chair', async () => {
    const admin = (await h().admin()) as Agent
    const { event, categories } = await paidEvent(admin, {
      categories: [
        { displayName: 'Parkett', grossPrice: 4000, taxCode: 'TAX_7', quota: 10 },
        { displayName: 'Rang', grossPrice: 2000, taxCode: 'TAX_7', quota: 10 },
      ],
    })
    const saved = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, {
      priceCategories: [
        { key: 'p', displayName: 'Parkett', color: '#2b8a3e', ticketCategoryId: categories[0].id },
        { key: 'r', displayName: 'Rang', color: '#1d4ed8', ticketCategoryId: categories[1].id },
      ],
      areas: [{ displayName: 'Saal', chairs: chairsOf(['p', 'r']) }],
    })
    expect(saved.status).toBe(200)
    const chair = (label: string) => saved.body.areas[0].chairs.find((c: any) => c.label === label)
    // a Rang ticket bought without a chair is refused (seat-bound); the organiser's guest has an order another way:
    // buy a Rang seat, then the organiser moves the guest
    const me = 'assign-visit-0001'
    const hold = await h().request('POST', `/api/public/events/${event.id}/seatingplan/reservation/chair`, { body: { chairId: chair('R 1').id, identification: me, amount: 1 } })
    const r = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: { ...buyer([]), identification: me, chairReservations: [hold.body.reservationToken] } })
    expect(r.status).toBe(201)
    expect((await admin.get(`/proxy/api/events/${event.id}/visitors/${r.body.visitorId}`)).body.seatCategoryId).toBe(chair('R 1').priceCategory.id)
    const wrong = await admin.put(`/proxy/api/events/${event.id}/visitors/${r.body.visitorId}/chair`, { chairId: chair('A 1').id })
    expect(wrong.status).toBe(409)
    expect(wrong.body.rejection).toBe('wrongPK')
  })
})
