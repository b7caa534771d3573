// A paid event where the seat decides the price (issue 14): each held chair becomes a ticket of its
// price category's ticket category (price, tax, quota), `chairInfo` names the chairs per ticket line,
// the order is accepted only with valid holds for the chairs it names (one transaction, nothing written
// otherwise), a seat-bound category is never sold without a chair, and a released order gives its
// chairs back and takes them again on reset.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect, uniqueEmail } from '../../testing/harness'
import { orderRow } from '../payments/testing'
import { buyer, paidEvent, pay } from '../ticketing/testing'

forEachDialect('a paid event where the seat decides the price', (h) => {
  let n = 0
  const visit = () => `paid-${Date.now().toString(36)}-${++n}`.padEnd(14, 'x')
  async function setup(eventOpts: Record<string, unknown> = {}) {
    const admin = (await h().admin()) as Agent
    const { event, categories } = await paidEvent(admin, {
      event: eventOpts,
      categories: [
        { displayName: 'Parkett', grossPrice: 4000, taxCode: 'TAX_7', quota: 100 },
        { displayName: 'Loge', grossPrice: 9000, taxCode: 'TAX_19', quota: 100 },
        { displayName: 'Stehplatz', grossPrice: 1500, taxCode: 'TAX_19', quota: 2 },
      ],
    })
    const [parkett, loge, steh] = categories
    const saved = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, {
      priceCategories: [
        { key: 'p', displayName: 'Parkett', color: '#2b8a3e', ticketCategoryId: parkett.id },
        { key: 'l', displayName: 'Loge', color: '#d9480f', ticketCategoryId: loge.id },
      ],
      areas: [
        {
          displayName: 'Saal',
          chairs: [
            { label: 'A 1', priceCategory: 'p', percentX: 10, percentY: 10, percentWidth: 2, percentHeight: 3 },
            { label: 'A 2', priceCategory: 'p', percentX: 13, percentY: 10, percentWidth: 2, percentHeight: 3 },
            { label: 'Loge 1', priceCategory: 'l', viewType: 'RECTANGLE', percentX: 40, percentY: 40, percentWidth: 10, percentHeight: 8, places: 4, minAmount: 1, maxAmount: 4 },
          ],
        },
      ],
    })
    expect(saved.status).toBe(200)
    const chair = (label: string) => saved.body.areas[0].chairs.find((c: any) => c.label === label)
    return { admin, event, parkett, loge, steh, chair, areaId: saved.body.areas[0].id as number }
  }
  const reserve = async (eventId: number, chairId: number, identification: string, amount = 1) => {
    const r = await h().request('POST', `/api/public/events/${eventId}/seatingplan/reservation/chair`, { body: { chairId, identification, amount } })
    expect(r.status).toBe(200)
    return r.body.reservationToken as string
  }
  const register = (eventId: number, body: Record<string, unknown>) => h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body })
  const free = async (eventId: number, areaId: number, label: string) =>
    (await h().request('POST', `/api/public/events/${eventId}/seatingplanArea`, { body: { areaId } })).body.chairs.find((c: any) => c.label === label).freeChairs as number
  const sold = async (id: number) => (await h().ctx.db.selectFrom('ticket_category').select('sold').where('id', '=', id).executeTakeFirstOrThrow()).sold

  test('two Parkett chairs, two places of the Loge and a Stehplatz: the chairs price the order, chairInfo names them', async () => {
    const { event, parkett, loge, steh, chair, areaId } = await setup()
    const me = visit()
    const tokens = [await reserve(event.id, chair('A 1').id, me), await reserve(event.id, chair('A 2').id, me), await reserve(event.id, chair('Loge 1').id, me, 2)]
    const r = await register(event.id, { ...buyer([{ categoryId: steh.id, amount: 1 }]), identification: me, chairReservations: tokens })
    expect(r.status).toBe(201)
    expect(r.body.visitorCount).toBe(5)
    const info = (await h().request('GET', `/proxy/api/guest/ticketOrder/${r.body.ticketOrderId}`)).body
    expect(info.ticketOrder.grossPrice).toBe(2 * 4000 + 2 * 9000 + 1500)
    const lines = info.ticketOrder.visitorTickets.map((t: any) => ({ displayName: t.displayName, amount: t.amount, grossPrice: t.grossPrice, taxCode: t.taxCode, chairInfo: t.chairInfo }))
    expect(lines).toEqual(
      expect.arrayContaining([
        { displayName: 'Parkett', amount: 2, grossPrice: 8000, taxCode: 'TAX_7', chairInfo: 'A 1, A 2' },
        { displayName: 'Loge', amount: 2, grossPrice: 18000, taxCode: 'TAX_19', chairInfo: 'Loge 1 (2)' },
        { displayName: 'Stehplatz', amount: 1, grossPrice: 1500, taxCode: 'TAX_19', chairInfo: null },
      ]),
    )
    expect(lines).toHaveLength(3)
    expect(info.ticketOrder.taxPrices.map((t: any) => t.taxCode).sort()).toEqual(['TAX_19', 'TAX_7'])
    expect([await sold(parkett.id), await sold(loge.id), await sold(steh.id)]).toEqual([2, 2, 1])
    // fixed to the registration: no longer a hold, still taken
    expect(await free(event.id, areaId, 'A 1')).toBe(0)
    expect(await free(event.id, areaId, 'Loge 1')).toBe(2)
    h().clock.advance(20 * 60_000)
    expect(await free(event.id, areaId, 'A 2')).toBe(0)
  })

  test('a seat-bound category is not sold without its chairs; an amount that differs from the chairs is refused', async () => {
    const { event, parkett, steh, chair } = await setup()
    const without = await register(event.id, buyer([{ categoryId: parkett.id, amount: 2 }]))
    expect(without.status).toBe(400)
    expect(without.body.errorFields).toEqual([{ field: 'tickets.0.amount', errorType: 'SEATS_REQUIRED' }])
    const me = visit()
    const a = await reserve(event.id, chair('A 1').id, me)
    const more = await register(event.id, { ...buyer([{ categoryId: parkett.id, amount: 2 }, { categoryId: steh.id, amount: 1 }]), identification: me, chairReservations: [a] })
    expect(more.status).toBe(400)
    expect(more.body.errorFields).toEqual([{ field: 'tickets.0.amount', errorType: 'SEATS_REQUIRED' }])
    // the same amount as the chairs give is fine (a client that names it)
    const same = await register(event.id, { ...buyer([{ categoryId: parkett.id, amount: 1 }]), identification: me, chairReservations: [a] })
    expect(same.status).toBe(201)
    expect(await sold(parkett.id)).toBe(1)
    // no ticket and no chair: nothing to buy
    expect((await register(event.id, buyer([]))).body.errorFields).toEqual([{ field: 'tickets', errorType: 'TICKETS_REQUIRED' }])
  })

  test('gone, foreign or partly given back holds refuse the order and nothing is written', async () => {
    const { event, parkett, loge, chair, areaId } = await setup()
    const me = visit()
    const a = await reserve(event.id, chair('A 1').id, me)
    const theirs = await reserve(event.id, chair('A 2').id, visit())
    const db = h().ctx.db
    const count = async () => (await db.selectFrom('ticket_order').select('id').where('event_id', '=', event.id).execute()).length
    const foreign = await register(event.id, { ...buyer([]), identification: me, chairReservations: [a, theirs] })
    expect(foreign.status).toBe(409)
    expect(foreign.body.errorType).toBe('REGISTRATION_VALID_UNTIL_EXPIRED')
    const noVisit = await register(event.id, { ...buyer([]), chairReservations: [a] })
    expect(noVisit.status).toBe(409)
    // expired hold
    h().clock.advance(60 * 60_000)
    const late = await register(event.id, { ...buyer([]), identification: me, chairReservations: [a] })
    expect(late.status).toBe(409)
    expect(late.body.errorType).toBe('REGISTRATION_VALID_UNTIL_EXPIRED')
    expect(await count()).toBe(0)
    expect(await sold(parkett.id)).toBe(0)
    expect((await db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken).toBe(0)
    // a table's hold given back in part after it was read: the transaction sees it and refuses
    const { fixOrderChairs, seatTickets } = await import('./orders')
    const me2 = visit()
    const t = await reserve(event.id, chair('Loge 1').id, me2, 3)
    const seats = await seatTickets(db, event.id, me2, [t], h().clock.now())
    expect(seats.chairs).toEqual([expect.objectContaining({ amount: 3, categoryId: loge.id, label: 'Loge 1' })])
    expect((await h().request('DELETE', `/api/public/events/${event.id}/seatingplan/reservation/chair`, { body: { reservationToken: t, amount: 1, identification: me2 } })).status).toBe(200)
    const visitorId = (await db.selectFrom('event_visitor').select('id').limit(1).executeTakeFirst())?.id ?? 1
    await expect(db.transaction().execute((trx) => fixOrderChairs(trx, h().clock.now(), 1, visitorId, event.id, me2, seats))).rejects.toMatchObject({ errorType: 'REGISTRATION_VALID_UNTIL_EXPIRED' })
    expect(await free(event.id, areaId, 'Loge 1')).toBe(2)
  })

  test('an expired order gives its chairs back; reset takes the same chairs again, or refuses when someone else sits there', async () => {
    const { event, parkett, chair, areaId } = await setup()
    const me = visit()
    const a = await reserve(event.id, chair('A 1').id, me)
    const b = await reserve(event.id, chair('A 2').id, me)
    const r = await register(event.id, { ...buyer([]), identification: me, chairReservations: [a, b] })
    expect(r.status).toBe(201)
    const id = r.body.ticketOrderId
    h().clock.advance(31 * 60_000)
    await h().tasks.runOnce()
    expect((await h().request('GET', `/proxy/api/guest/ticketOrder/${id}/orderState`)).body).toMatchObject({ status: 'CANCELED' })
    expect(await free(event.id, areaId, 'A 1')).toBe(1)
    expect(await free(event.id, areaId, 'A 2')).toBe(1)
    expect(await sold(parkett.id)).toBe(0)
    const reset = await h().request('GET', `/proxy/api/guest/ticketOrder/${id}/reset`)
    expect(reset.body).toMatchObject({ step: 1, status: 'OPEN' })
    expect(await free(event.id, areaId, 'A 1')).toBe(0)
    expect(await free(event.id, areaId, 'A 2')).toBe(0)
    expect((await h().request('GET', `/proxy/api/guest/ticketOrder/${id}`)).body.ticketOrder.visitorTickets[0].chairInfo).toBe('A 1, A 2')
    // expired again, and another guest takes A 2 meanwhile: reset refuses, nothing is taken
    h().clock.advance(31 * 60_000)
    await h().tasks.runOnce()
    expect(await free(event.id, areaId, 'A 1')).toBe(1)
    await reserve(event.id, chair('A 2').id, visit())
    const again = await h().request('GET', `/proxy/api/guest/ticketOrder/${id}/reset`)
    expect(again.status).toBe(409)
    expect(await free(event.id, areaId, 'A 1')).toBe(1)
    expect(await sold(parkett.id)).toBe(0)
  })

  test('the last chair: of many buyers with the same held chair only its holder orders; a price category names only this event\'s ticket categories', async () => {
    const { admin, event, chair } = await setup()
    const me = visit()
    const a = await reserve(event.id, chair('A 1').id, me)
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => register(event.id, { ...buyer([], { email: uniqueEmail(`race${i}`) }), identification: i === 0 ? me : visit(), chairReservations: [a] })))
    expect(results.filter((x) => x.status === 201)).toHaveLength(1)
    const other = await paidEvent(admin)
    const bad = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, { priceCategories: [{ key: 'x', displayName: 'Fremd', color: '#000000', ticketCategoryId: other.categories[0].id }], areas: [] })
    expect(bad.status).toBe(400)
    expect(bad.body.errorFields).toEqual([{ field: 'priceCategories.0.ticketCategoryId', errorType: 'INVALID' }])
  })
  test('a waiting-list order keeps the chosen chairs as its chairs: moving up takes them again, or is refused when one went', async () => {
    const { admin, event, parkett, chair, areaId } = await setup({ maxVisitors: 1 })
    expect((await admin.put(`/proxy/api/events/${event.id}/form-settings`, { waitingList: true })).status).toBe(200)
    const first = visit()
    const a1 = await register(event.id, { ...buyer([]), identification: first, chairReservations: [await reserve(event.id, chair('A 1').id, first)] })
    expect(a1.body.status).toBe('PENDING')
    const second = visit()
    const w = await register(event.id, { ...buyer([]), identification: second, chairReservations: [await reserve(event.id, chair('A 2').id, second)] })
    expect(w.status).toBe(201)
    expect(w.body.status).toBe('WAITING_LIST')
    // on the waiting list the chair is free for others
    expect(await free(event.id, areaId, 'A 2')).toBe(1)
    expect(await sold(parkett.id)).toBe(1)
    const approve = (vid: number) => admin.post(`/proxy/api/events/${event.id}/visitors/${vid}/approve`, {})

    // the first order expires: the place is free, the waiting guest moves up with their chair
    h().clock.advance(31 * 60_000)
    await h().tasks.runOnce()
    expect(await free(event.id, areaId, 'A 1')).toBe(1)
    const up = await approve(w.body.visitorId)
    expect(up.status).toBe(200)
    expect(up.body.status).toBe('PENDING')
    expect(await free(event.id, areaId, 'A 2')).toBe(0)
    expect(await sold(parkett.id)).toBe(1)
    const info = (await h().request('GET', `/proxy/api/guest/ticketOrder/${w.body.ticketOrderId}`)).body
    expect(info.ticketOrder).toMatchObject({ status: 'OPEN', grossPrice: 4000 })
    expect(info.ticketOrder.visitorTickets.map((t: any) => t.chairInfo)).toEqual(['A 2'])
    // the order's chair is the registration's: cancelling gives it back
    const oid = (await h().ctx.db.selectFrom('ticket_order').select('id').where('public_id', '=', w.body.ticketOrderId).executeTakeFirstOrThrow()).id
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${oid}/cancel`)).status).toBe(200)
    expect(await free(event.id, areaId, 'A 2')).toBe(1)

    // another waiting guest wants A 1, which someone else holds when the organiser moves them up
    const third = visit()
    const fill = await register(event.id, { ...buyer([]), identification: third, chairReservations: [await reserve(event.id, chair('A 2').id, third)] })
    expect(fill.body.status).toBe('PENDING')
    const fourth = visit()
    const w2 = await register(event.id, { ...buyer([]), identification: fourth, chairReservations: [await reserve(event.id, chair('A 1').id, fourth)] })
    expect(w2.body.status).toBe('WAITING_LIST')
    await h().ctx.db.updateTable('event').set({ max_visitors: 2 }).where('id', '=', event.id).execute()
    await reserve(event.id, chair('A 1').id, visit())
    const refused = await approve(w2.body.visitorId)
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ errorType: 'APPROVAL_SEAT_NOT_AVAILABLE', errorMessage: 'Ein Platz, den der Gast gewählt hat, ist inzwischen vergeben: Die Anmeldung kann nicht bestätigt werden.' })
    expect((await h().ctx.db.selectFrom('event_visitor').select(['status', 'seats_held']).where('id', '=', w2.body.visitorId).executeTakeFirstOrThrow())).toEqual({ status: 'WAITING_LIST', seats_held: 0 })
    expect(await sold(parkett.id)).toBe(1)
  })
  test('a refund per line gives its chairs back: one Parkett chair and one place of the Loge free again, the rest stay the order\'s', async () => {
    const { admin, event, parkett, loge, chair, areaId } = await setup()
    const me = visit()
    const tokens = [await reserve(event.id, chair('A 1').id, me), await reserve(event.id, chair('A 2').id, me), await reserve(event.id, chair('Loge 1').id, me, 2)]
    const escortPersons = ['Eva', 'Emil', 'Ella'].map((firstName) => ({ firstName, lastName: 'Escort' }))
    const r = await register(event.id, { ...buyer([], { escortPersons }), identification: me, chairReservations: tokens })
    expect(r.status).toBe(201)
    expect((await pay(h(), r.body.ticketOrderId, 'TRANSFER')).step).toBe(100)
    const row = await orderRow(h(), r.body.ticketOrderId)
    const url = `/proxy/api/events/${event.id}/orders/${row.id}`
    expect((await admin.post(`${url}/markPaid`, { amount: row.gross_price, paidAt: '2026-11-24T10:00:00Z' })).body.status).toBe('PAID')
    const lines = (await admin.get(url)).body.lines as Array<{ id: number; displayName: string }>
    const line = (name: string) => lines.find((l) => l.displayName === name)!.id
    // two of the three escorts leave with the two tickets
    const ids = (await h().ctx.db.selectFrom('escort_person').select('id').where('visitor_id', '=', row.visitor_id!).orderBy('number').execute()).map((e) => e.id)
    const back = await admin.post(`${url}/refundLines`, { lines: [{ lineId: line('Parkett'), quantity: 1 }, { lineId: line('Loge'), quantity: 1 }], escortIds: ids.slice(1) })
    expect(back.status).toBe(200)
    expect([await sold(parkett.id), await sold(loge.id)]).toEqual([1, 1])
    // exactly one of the two Parkett chairs is free again, the Loge has one place more
    expect((await free(event.id, areaId, 'A 1')) + (await free(event.id, areaId, 'A 2'))).toBe(1)
    expect(await free(event.id, areaId, 'Loge 1')).toBe(3)
    const kept = await h().ctx.db.selectFrom('ticket_order_chair').select(['label', 'amount']).where('order_id', '=', row.id).orderBy('label').execute()
    expect(kept.map((k) => k.amount).reduce((a, b) => a + b, 0)).toBe(2)
    expect(kept.find((k) => k.label === 'Loge 1')?.amount).toBe(1)
    // another guest takes the freed Parkett chair
    const freed = (await free(event.id, areaId, 'A 1')) === 1 ? 'A 1' : 'A 2'
    const other = visit()
    const t2 = await reserve(event.id, chair(freed).id, other)
    expect((await register(event.id, { ...buyer([]), identification: other, chairReservations: [t2] })).status).toBe(201)
  })
})
