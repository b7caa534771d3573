// Issue 20, items 1, 9 and 10: escort persons after registering, on both dialects.
// - one ticket is one person: a guest with one ticket cannot add escorts (portal), the organiser only
//   free of charge (recorded in the order's history), removing a name keeps the ticket's person;
// - escort changes move the timeslot and defined-value places chosen for the whole registration, and
//   an expired or refunded order gives back what the escorts took;
// - two escort edits at once: one wins, the other answers 409 in the spec's error shape, never 500.
import { expect, test } from 'bun:test'
import { type Agent, type Harness, eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { addGuest } from '../../testing/organiser'
import { buy, buyer, guestOf, paidEvent, pay } from '../ticketing/testing'

const people = (names: string[]) => names.map((n) => ({ firstName: n, lastName: 'Begleitung' }))

async function seatsConsistent(h: Harness, eventId: number) {
  const e = await h.ctx.db.selectFrom('event').select('seats_taken').where('id', '=', eventId).executeTakeFirstOrThrow()
  const held = await h.ctx.db.selectFrom('event_visitor').select((eb) => eb.fn.sum<number>('seats_held').as('n')).where('event_id', '=', eventId).executeTakeFirst()
  expect(Number(held?.n ?? 0)).toBe(e.seats_taken)
  return e.seats_taken
}

forEachDialect('escort persons after registering', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin()
  })
  const visitor = (id: number) => h().ctx.db.selectFrom('event_visitor').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const escortRows = (id: number) => h().ctx.db.selectFrom('escort_person').selectAll().where('visitor_id', '=', id).orderBy('number').execute()
  const guestBody = (v: { first_name: string | null; last_name: string | null; email: string | null }, escortPersons: unknown[], extra: Record<string, unknown> = {}) => ({
    salutation: 'Frau',
    firstName: v.first_name,
    lastName: v.last_name,
    email: v.email,
    escortPersons,
    ...extra,
  })

  test('item 1: a guest with one ticket cannot add escorts through the portal (409 with a German text); the order, places and desk stay at one person', async () => {
    admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    expect(r.status).toBe(201)
    const guest = await guestOf(h(), r.body.visitorId)
    // the details say how many persons the tickets allow (the dialog offers no more)
    expect((await guest.get(`/proxy/api/guest/events/visitors/${r.body.visitorId}/details`)).body.ticketPersons).toBe(1)
    const add = await guest.patch(`/proxy/api/guest/events/visitors/${r.body.visitorId}`, { escortPersons: people(['A', 'B', 'C', 'D']) })
    expect(add.status).toBe(409)
    expect(add.body).toMatchObject({ status: 409, errorType: 'ESCORTS_NEED_TICKETS' })
    expect(add.body.errorMessage).toContain('Ticket')
    const v = await visitor(r.body.visitorId)
    expect(v.visitor_count).toBe(1)
    expect(await escortRows(v.id)).toEqual([])
    expect(await seatsConsistent(h(), event.id)).toBe(1)
  })

  test('item 1: with three tickets the guest names two escorts; a third is refused; removing a name keeps the ticket\'s person and place', async () => {
    admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 3 }]))
    const guest = await guestOf(h(), r.body.visitorId)
    const url = `/proxy/api/guest/events/visitors/${r.body.visitorId}`
    const two = await guest.patch(url, { escortPersons: people(['Eva', 'Max']) })
    expect(two.status).toBe(200)
    expect(two.body.visitorCount).toBe(3)
    expect((await guest.patch(url, { escortPersons: people(['Eva', 'Max', 'Zoe']) })).body.errorType).toBe('ESCORTS_NEED_TICKETS')
    const eva = two.body.escortPersons[0]
    const one = await guest.patch(url, { escortPersons: [{ id: eva.id, firstName: 'Eva', lastName: 'Begleitung' }] })
    expect(one.status).toBe(200)
    // three tickets are three persons: the unnamed one keeps the place (named again on the pay page or in the portal)
    expect(one.body.visitorCount).toBe(3)
    expect((await visitor(r.body.visitorId)).seats_held).toBe(3)
    expect(await seatsConsistent(h(), event.id)).toBe(3)
  })

  test('item 1: the organiser adds escorts to a ticket holder only free of charge, which the order\'s history records; the guest may keep them', async () => {
    admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    const v = await visitor(r.body.visitorId)
    const url = `/proxy/api/events/${event.id}/visitors/${v.id}`
    const refused = await admin.put(url, guestBody(v, people(['Eva'])))
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ errorType: 'ESCORTS_NOT_PAID' })
    expect((await visitor(v.id)).visitor_count).toBe(1)
    const free = await admin.put(url, guestBody(v, people(['Eva', 'Max']), { escortsFreeOfCharge: true }))
    expect(free.status).toBe(200)
    expect(free.body.visitorCount).toBe(3)
    expect((await visitor(v.id)).free_persons).toBe(2)
    const order = await h().ctx.db.selectFrom('ticket_order').select('id').where('visitor_id', '=', v.id).executeTakeFirstOrThrow()
    const detail = await admin.get(`/proxy/api/events/${event.id}/orders/${order.id}`)
    expect(detail.body.history.find((x: { kind: string }) => x.kind === 'ESCORTS_FREE_OF_CHARGE')).toMatchObject({ accountId: admin.accountId, data: { persons: 2, tickets: 1 } })
    // the guest edits the names of what was granted, and no more
    const guest = await guestOf(h(), v.id)
    const rows = await escortRows(v.id)
    const renamed = await guest.patch(`/proxy/api/guest/events/visitors/${v.id}`, { escortPersons: rows.map((e) => ({ id: e.id, firstName: e.first_name, lastName: 'Neu' })) })
    expect(renamed.status).toBe(200)
    expect((await guest.patch(`/proxy/api/guest/events/visitors/${v.id}`, { escortPersons: people(['A', 'B', 'C']) })).body.errorType).toBe('ESCORTS_NEED_TICKETS')
    expect(await seatsConsistent(h(), event.id)).toBe(3)
  })

  test('item 1: a guest the organiser adds to a paid event gets escorts only free of charge', async () => {
    admin = await h().admin()
    const { event } = await paidEvent(admin)
    const refused = await admin.post(`/proxy/api/events/${event.id}/visitors`, { firstName: 'Olga', lastName: 'Organisiert', email: uniqueEmail('o'), status: 'CONFIRMED', escortPersons: people(['Eva']) })
    expect(refused.status).toBe(409)
    expect(refused.body.errorType).toBe('ESCORTS_NOT_PAID')
    const ok = await addGuest(admin, event.id, { status: 'CONFIRMED', escortPersons: people(['Eva']), escortsFreeOfCharge: true })
    expect((await visitor(ok.id)).free_persons).toBe(1)
    // a free event needs no flag
    const free = (await admin.post('/proxy/api/events', eventBody())).body
    const g = await addGuest(admin, free.id, { status: 'CONFIRMED', escortPersons: people(['Eva', 'Max']) })
    const v = await visitor(g.id)
    expect((await admin.put(`/proxy/api/events/${free.id}/visitors/${g.id}`, guestBody(v, people(['Eva', 'Max', 'Zoe'])))).status).toBe(200)
  })

  async function slotEvent(capacity: number, extra: Record<string, unknown> = {}) {
    const ev = (await admin.post('/proxy/api/events', eventBody({ maxVisitors: null, ...extra }))).body
    const f = await admin.post(`/proxy/api/events/${ev.id}/fields`, { appearance: 'VISIBLE', type: 'TIMESLOT', displayName: 'Führung', timeslots: [{ displayName: '10:00', capacity }] })
    const d = await admin.post(`/proxy/api/events/${ev.id}/fields`, { appearance: 'VISIBLE', type: 'SMARTLIST', displayName: 'Menü', definedValues: [{ displayName: 'Vegan', capacity }] })
    expect(f.status).toBe(201)
    expect(d.status).toBe(201)
    return { eventId: ev.id as number, slotField: f.body, slot: f.body.timeslots[0].id as number, menuField: d.body, menu: d.body.definedValues[0].id as number }
  }
  const taken = async (s: { slot: number; menu: number }) => ({
    slot: (await h().ctx.db.selectFrom('timeslot').select('taken').where('id', '=', s.slot).executeTakeFirstOrThrow()).taken,
    menu: (await h().ctx.db.selectFrom('field_value').select('taken').where('id', '=', s.menu).executeTakeFirstOrThrow()).taken,
  })

  test('item 9: the guest\'s and the organiser\'s escort changes take and give back timeslot and defined-value places; full refuses and changes nothing', async () => {
    admin = await h().admin()
    const s = await slotEvent(3)
    const identification = `esc${Date.now().toString(36)}`
    const hold = await h().request('POST', '/api/public/reservation/timeslot', { body: { timeslotId: s.slot, identification, amount: 1 } })
    expect(hold.status).toBe(200)
    const reg = await h().request('POST', `/proxy/api/public/events/${s.eventId}/registrations`, {
      body: {
        salutation: 'Frau',
        firstName: 'Grete',
        lastName: 'Gast',
        email: uniqueEmail('slot'),
        identification,
        fields: { [s.slotField.id]: [{ timeslotId: s.slot, amount: 1, reservationToken: hold.body.reservationToken }], [s.menuField.id]: [{ fieldValueId: s.menu, amount: 1 }] },
      },
    })
    expect(reg.status).toBe(201)
    const vid = reg.body.visitorId as number
    expect(await taken(s)).toEqual({ slot: 1, menu: 1 })
    const v = await visitor(vid)
    const url = `/proxy/api/events/${s.eventId}/visitors/${vid}`
    expect((await admin.put(url, guestBody(v, people(['Eva'])))).status).toBe(200)
    expect(await taken(s)).toEqual({ slot: 2, menu: 2 })
    // the guest adds one more through the portal
    const guest = await guestOf(h(), vid)
    const rows = await escortRows(vid)
    const three = await guest.patch(`/proxy/api/guest/events/visitors/${vid}`, { escortPersons: [{ id: rows[0]!.id, firstName: 'Eva', lastName: 'Begleitung' }, { firstName: 'Max', lastName: 'Begleitung' }] })
    expect(three.status).toBe(200)
    expect(await taken(s)).toEqual({ slot: 3, menu: 3 })
    // the slot holds 3: a fourth person is refused, nothing changed
    const four = await admin.put(url, guestBody(await visitor(vid), [...(await escortRows(vid)).map((e) => ({ id: e.id, firstName: e.first_name, lastName: e.last_name })), { firstName: 'Zoe', lastName: 'Z' }]))
    expect(four.status).toBe(409)
    expect(four.body.errorType).toBe('FIELD_ERROR')
    expect(await taken(s)).toEqual({ slot: 3, menu: 3 })
    expect((await visitor(vid)).visitor_count).toBe(3)
    // removing gives back
    expect((await guest.patch(`/proxy/api/guest/events/visitors/${vid}`, { escortPersons: [] })).status).toBe(200)
    expect(await taken(s)).toEqual({ slot: 1, menu: 1 })
    // declining gives back exactly what is held
    expect((await admin.post(`/proxy/api/events/${s.eventId}/visitors/${vid}/decline`, {})).status).toBe(200)
    expect(await taken(s)).toEqual({ slot: 0, menu: 0 })
  })

  test('item 9: an expired order and a refunded order give back the places free-of-charge escorts took', async () => {
    admin = await h().admin()
    for (const end of ['expire', 'refund'] as const) {
      const { event, categories } = await paidEvent(admin)
      const f = await admin.post(`/proxy/api/events/${event.id}/fields`, { appearance: 'VISIBLE', type: 'SMARTLIST', displayName: 'Menü', definedValues: [{ displayName: 'Vegan', capacity: 10 }] })
      const menu = f.body.definedValues[0].id as number
      const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { fields: { [f.body.id]: [{ fieldValueId: menu, amount: 1 }] } }))
      expect(r.status).toBe(201)
      const menuTaken = async () => (await h().ctx.db.selectFrom('field_value').select('taken').where('id', '=', menu).executeTakeFirstOrThrow()).taken
      expect(await menuTaken()).toBe(1)
      if (end === 'refund') {
        await pay(h(), r.body.ticketOrderId, 'TRANSFER')
        const oid = (await h().ctx.db.selectFrom('ticket_order').select('id').where('public_id', '=', r.body.ticketOrderId).executeTakeFirstOrThrow()).id
        expect((await admin.post(`/proxy/api/events/${event.id}/orders/${oid}/markPaid`, { amount: 2500, paidAt: h().clock.now().toISOString() })).status).toBe(200)
      }
      const v = await visitor(r.body.visitorId)
      expect((await admin.put(`/proxy/api/events/${event.id}/visitors/${v.id}`, guestBody(v, people(['Eva', 'Max']), { escortsFreeOfCharge: true }))).status).toBe(200)
      expect(await menuTaken()).toBe(3)
      expect(await seatsConsistent(h(), event.id)).toBe(3)
      if (end === 'expire') {
        h().clock.advance(31 * 60_000)
        await h().tasks.runOnce()
        expect((await h().ctx.db.selectFrom('ticket_order').select('status').where('public_id', '=', r.body.ticketOrderId).executeTakeFirstOrThrow()).status).toBe('CANCELED')
      } else {
        const oid = (await h().ctx.db.selectFrom('ticket_order').select('id').where('public_id', '=', r.body.ticketOrderId).executeTakeFirstOrThrow()).id
        const refund = await admin.post(`/proxy/api/events/${event.id}/orders/${oid}/refund`, {})
        expect(refund.status).toBe(200)
      }
      expect(await menuTaken()).toBe(0)
      expect(await seatsConsistent(h(), event.id)).toBe(0)
      if (end === 'expire') {
        // continuing the expired order takes the free persons' places again, choices included
        expect((await h().request('GET', `/proxy/api/guest/ticketOrder/${r.body.ticketOrderId}/reset`)).status).toBe(200)
        expect(await menuTaken()).toBe(3)
        expect(await seatsConsistent(h(), event.id)).toBe(3)
      }
    }
  })

  test('item 10: concurrent escort edits of one registration: one wins, the others answer 409 with a German text, never 500; numbers stay unique', async () => {
    admin = await h().admin()
    const ev = (await admin.post('/proxy/api/events', eventBody({ maxVisitors: null }))).body
    const reg = await h().request('POST', `/proxy/api/public/events/${ev.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: uniqueEmail('race'), escortPersons: people(['Eva']) } })
    expect(reg.status).toBe(201)
    const g = { id: reg.body.visitorId as number }
    const guest = await guestOf(h(), g.id)
    const eva = (await escortRows(g.id))[0]!
    for (let round = 0; round < 3; round++) {
      const v = await visitor(g.id)
      const keep = (await escortRows(g.id)).filter((e) => e.id === eva.id).map((e) => ({ id: e.id, firstName: e.first_name, lastName: e.last_name }))
      const calls = Array.from({ length: 8 }, (_, i) =>
        i % 2
          ? guest.patch(`/proxy/api/guest/events/visitors/${g.id}`, { escortPersons: [...keep, { firstName: `Gast${round}${i}`, lastName: 'Neu' }] })
          : admin.put(`/proxy/api/events/${ev.id}/visitors/${g.id}`, guestBody(v, [...keep, { firstName: `Org${round}${i}`, lastName: 'Neu' }])),
      )
      const results = await Promise.all(calls)
      const statuses = results.map((r) => r.status)
      expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([])
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1)
      for (const r of results.filter((x) => x.status === 409)) {
        expect(r.body).toMatchObject({ status: 409, errorType: 'ESCORTS_CHANGED_MEANWHILE' })
        expect(r.body.errorMessage).toContain('Begleitpersonen')
      }
      const rows = await escortRows(g.id)
      expect(new Set(rows.map((e) => e.number)).size).toBe(rows.length)
      const after = await visitor(g.id)
      expect(after.visitor_count).toBe(1 + rows.length)
      expect(rows.length).toBe(2)
    }
    expect(await seatsConsistent(h(), ev.id)).toBe(3)
  })
})
