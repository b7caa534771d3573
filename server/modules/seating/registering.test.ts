// Registering with seats: the visit's chair holds are fixed in the registration's transaction (a
// gone hold refuses it and writes nothing), declining or deleting gives the chairs back, one
// countdown for chairs and timeslots, and the seat shows in the guest list, detail and at the desk.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect, uniqueEmail } from '../../testing/harness'
import { createEvent } from '../../testing/organiser'

const plan = {
  priceCategories: [{ key: 'front', displayName: 'Parkett', color: '#d9480f' }],
  areas: [
    {
      displayName: 'Saal',
      chairs: [
        { label: 'A 1', priceCategory: 'front', percentX: 10, percentY: 10, percentWidth: 2, percentHeight: 3 },
        { label: 'A 2', priceCategory: 'front', percentX: 13, percentY: 10, percentWidth: 2, percentHeight: 3 },
        { label: 'Tisch 1', priceCategory: 'front', viewType: 'RECTANGLE', percentX: 40, percentY: 40, percentWidth: 10, percentHeight: 8, places: 8, minAmount: 1, maxAmount: 8 },
      ],
    },
  ],
}

forEachDialect('registering with seats', (h) => {
  let n = 0
  const visit = () => `reg-${Date.now().toString(36)}-${++n}`.padEnd(14, 'x')
  const guest = (extra: Record<string, unknown> = {}) => ({ salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: uniqueEmail('seat'), ...extra })
  async function setup(eventOver: Record<string, unknown> = {}) {
    const admin = (await h().admin()) as Agent
    const event = await createEvent(admin, eventOver)
    const saved = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, plan)
    expect(saved.status).toBe(200)
    const area = saved.body.areas[0]
    const chair = (label: string) => area.chairs.find((c: any) => c.label === label)
    return { admin, event, area, chair }
  }
  const reserve = async (eventId: number, chairId: number, identification: string, amount = 1) => {
    const r = await h().request('POST', `/api/public/events/${eventId}/seatingplan/reservation/chair`, { body: { chairId, identification, amount } })
    expect(r.status).toBe(200)
    return r.body.reservationToken as string
  }
  const register = (eventId: number, body: Record<string, unknown>) => h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body })
  const free = async (eventId: number, areaId: number, label: string) =>
    (await h().request('POST', `/api/public/events/${eventId}/seatingplanArea`, { body: { areaId } })).body.chairs.find((c: any) => c.label === label).freeChairs as number

  test('a guest registers with two held seats; the seats show in the list, the detail and at the desk; declining gives them back', async () => {
    const { admin, event, area, chair } = await setup()
    const me = visit()
    const a = await reserve(event.id, chair('A 1').id, me)
    const b = await reserve(event.id, chair('A 2').id, me)
    const email = uniqueEmail('seated')
    const r = await register(event.id, { ...guest({ email, escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] }), identification: me, chairReservations: [a, b] })
    expect(r.status).toBe(201)
    // the confirmation names the seats
    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(email))
    expect(mail.text).toMatch(/Ihre Plätze: A [12], A [12]/)
    // fixed: no longer a hold of the visit, no expiry, still taken
    const rows = await h().ctx.db.selectFrom('chair_reservation').select(['fixed', 'expires_at', 'visitor_id']).where('event_id', '=', event.id).execute()
    expect(rows).toHaveLength(2)
    expect(rows.every((x) => !!x.fixed && x.expires_at === null && x.visitor_id !== null)).toBe(true)
    expect(await free(event.id, area.id, 'A 1')).toBe(0)
    // the countdown running out does not free fixed chairs
    h().clock.advance(60 * 60_000)
    expect(await free(event.id, area.id, 'A 2')).toBe(0)

    const list = await admin.get(`/proxy/api/events/${event.id}/visitors`)
    const row = list.body.items[0]
    expect(row.chairs.map((c: any) => c.label).sort()).toEqual(['A 1', 'A 2'])
    const detail = await admin.get(`/proxy/api/events/${event.id}/visitors/${row.id}`)
    expect(detail.body.chairs.map((c: any) => c.label).sort()).toEqual(['A 1', 'A 2'])
    const desk = await admin.get(`/proxy/api/events/${event.id}/checkin/lookup?search=grete`)
    expect(desk.status).toBe(200)
    expect(desk.body.items[0].chairs.map((c: any) => c.label).sort()).toEqual(['A 1', 'A 2'])

    const declined = await admin.post(`/proxy/api/events/${event.id}/visitors/${row.id}/decline`, {})
    expect(declined.status).toBe(200)
    expect(declined.body.chairs).toEqual([])
    expect(await free(event.id, area.id, 'A 1')).toBe(1)
    expect(await free(event.id, area.id, 'A 2')).toBe(1)
    expect(await h().ctx.db.selectFrom('chair_reservation').select('id').where('event_id', '=', event.id).execute()).toHaveLength(0)
  })

  test('a gone hold refuses the registration and nothing is written; another visit\'s token is refused too', async () => {
    const { admin, event, area, chair } = await setup()
    const me = visit()
    const a = await reserve(event.id, chair('A 1').id, me)
    const other = visit()
    const theirs = await reserve(event.id, chair('A 2').id, other)
    // someone else's hold
    const stolen = await register(event.id, { ...guest(), identification: me, chairReservations: [a, theirs] })
    expect(stolen.status).toBe(409)
    expect(stolen.body).toMatchObject({ errorType: 'REGISTRATION_VALID_UNTIL_EXPIRED' })
    // no identification: refused before anything
    const anon = await register(event.id, { ...guest(), chairReservations: [a] })
    expect(anon.status).toBe(409)
    // the countdown ran out: the hold is gone
    h().clock.advance(16 * 60_000)
    const late = await register(event.id, { ...guest(), identification: me, chairReservations: [a] })
    expect(late.status).toBe(409)
    expect(late.body.errorType).toBe('REGISTRATION_VALID_UNTIL_EXPIRED')
    expect(late.body.errorMessage).toBeTruthy()
    // nothing written: no guest, no seat taken, the chairs come back
    expect((await admin.get(`/proxy/api/events/${event.id}/visitors`)).body.items).toHaveLength(0)
    const e = await h().ctx.db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()
    expect(e.seats_taken).toBe(0)
    expect(await free(event.id, area.id, 'A 1')).toBe(1)
    expect(await free(event.id, area.id, 'A 2')).toBe(1)
  })

  test('deleting a registration gives a table\'s places back; garbage tokens are a 400 or a 409, never a 500', async () => {
    const { admin, event, area, chair } = await setup()
    const me = visit()
    const t = await reserve(event.id, chair('Tisch 1').id, me, 3)
    const r = await register(event.id, { ...guest(), identification: me, chairReservations: [t] })
    expect(r.status).toBe(201)
    expect(await free(event.id, area.id, 'Tisch 1')).toBe(5)
    const id = (await admin.get(`/proxy/api/events/${event.id}/visitors`)).body.items[0].id
    expect((await admin.post(`/proxy/api/events/${event.id}/visitors/${id}/delete`, {})).status).toBe(200)
    expect(await free(event.id, area.id, 'Tisch 1')).toBe(8)
    // garbage
    expect((await register(event.id, { ...guest(), identification: me, chairReservations: 'x' })).status).toBe(400)
    expect((await register(event.id, { ...guest(), identification: me, chairReservations: ['short'] })).status).toBe(400)
    expect((await register(event.id, { ...guest(), identification: me, chairReservations: Array.from({ length: 101 }, (_, i) => `token-${i}-xxxxxxxx`) })).status).toBe(400)
    expect((await register(event.id, { ...guest(), identification: me, chairReservations: ['no-such-token-at-all'] })).status).toBe(409)
  })

  test('on the waiting list the guest holds no chair: the holds are given back', async () => {
    const { admin, event, area, chair } = await setup({ maxVisitors: 1 })
    expect((await admin.put(`/proxy/api/events/${event.id}/form-settings`, { waitingList: true })).status).toBe(200)
    expect((await register(event.id, guest())).status).toBe(201)
    const me = visit()
    const a = await reserve(event.id, chair('A 1').id, me)
    const r = await register(event.id, { ...guest(), identification: me, chairReservations: [a] })
    expect(r.status).toBe(201)
    expect(r.body.status).toBe('WAITING_LIST')
    expect(await free(event.id, area.id, 'A 1')).toBe(1)
    const items = (await admin.get(`/proxy/api/events/${event.id}/visitors`)).body.items
    expect(items.every((v: any) => v.chairs.length === 0)).toBe(true)
  })

  test('one countdown: a new hold and either renew move every hold of the visit to the same expiry', async () => {
    const { event, chair } = await setup()
    const me = visit()
    await reserve(event.id, chair('A 1').id, me)
    h().clock.advance(5 * 60_000)
    await reserve(event.id, chair('A 2').id, me)
    const expiries = async () => (await h().ctx.db.selectFrom('chair_reservation').select('expires_at').where('identification', '=', me).execute()).map((x) => String(x.expires_at))
    let e = await expiries()
    expect(new Set(e).size).toBe(1)
    // the timeslot renew renews the chairs (the form engine renews through it)
    h().clock.advance(14 * 60_000)
    const renewed = await h().request('POST', '/proxy/api/public/reservation/timeslot/renew', { body: { identification: me } })
    expect(renewed.status).toBe(200)
    e = await expiries()
    expect(new Set(e).size).toBe(1)
    expect(new Date(e[0]).getTime()).toBe(new Date(renewed.body.expireDate).getTime())
    // and the chair renew answers the same kind of expiry
    h().clock.advance(14 * 60_000)
    const again = await h().request('POST', `/api/public/events/${event.id}/seatingplan/reservation/chair/renew`, { body: { identification: me } })
    expect(again.status).toBe(200)
    expect(new Date((await expiries())[0]).getTime()).toBe(new Date(again.body.expireDate).getTime())
    // when everything ran out, both renews answer the expiry error
    h().clock.advance(16 * 60_000)
    const gone = await h().request('POST', '/proxy/api/public/reservation/timeslot/renew', { body: { identification: me } })
    expect(gone.status).toBe(409)
    expect(gone.body.errorType).toBe('REGISTRATION_VALID_UNTIL_EXPIRED')
  })
})
