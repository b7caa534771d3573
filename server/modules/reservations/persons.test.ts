// Issue 10 item 6: a timeslot or a defined value chosen without amount selection holds a place per
// person of the registration (main guest and escorts), on both dialects, also under concurrency.
import { expect, test } from 'bun:test'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'

let n = 0
const ident = () => `persons${Date.now().toString(36)}${(n++).toString(36)}`

forEachDialect('choices hold a place per person', (h) => {
  async function setup(field: Record<string, unknown>) {
    const admin = await h().admin()
    const ev = (await admin.post('/proxy/api/events', eventBody({ maxVisitors: null }))).body
    const f = await admin.post(`/proxy/api/events/${ev.id}/fields`, { appearance: 'REQUIRED', ...field })
    expect(f.status).toBe(201)
    return { admin, eventId: ev.id as number, field: f.body }
  }
  const escorts = (k: number) => Array.from({ length: k }, (_, i) => ({ firstName: `Eva${i}`, lastName: 'Escort' }))
  // each visit is another guest on another device: holds are limited per client address too
  const addresses = new Map<string, string>()
  const from = (identification: unknown) => {
    const key = String(identification ?? '')
    if (!addresses.has(key)) addresses.set(key, `10.30.${addresses.size >> 8}.${addresses.size & 255}`)
    return { 'x-forwarded-for': addresses.get(key)! }
  }
  const reserve = (timeslotId: number, identification: string, amount = 1) => h().request('POST', '/api/public/reservation/timeslot', { body: { timeslotId, identification, amount }, headers: from(identification) })
  const register = (eventId: number, body: Record<string, unknown>) =>
    h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: uniqueEmail('p'), ...body }, headers: from(body.identification) })
  const availability = async (eventId: number) => (await h().request('POST', '/api/public/reservation/availabilities', { body: { eventId } })).body
  const slotTaken = async (id: number) => (await h().ctx.db.selectFrom('timeslot').select('taken').where('id', '=', id).executeTakeFirstOrThrow()).taken

  test('a 2-place slot refuses a guest with two escorts and keeps its places; a guest with one escort takes both', async () => {
    const { eventId, field } = await setup({ type: 'TIMESLOT', displayName: 'Führung', timeslots: [{ displayName: '10:00', capacity: 2 }] })
    const slot = field.timeslots[0].id
    const id1 = ident()
    const hold = await reserve(slot, id1)
    expect(hold.status).toBe(200)
    const three = await register(eventId, { identification: id1, escortPersons: escorts(2), fields: { [field.id]: [{ timeslotId: slot, amount: 1, reservationToken: hold.body.reservationToken }] } })
    expect(three.status).toBe(409)
    expect(three.body.errorFields).toEqual([{ field: `fields.${field.id}`, errorType: 'TIMESLOT_NOT_AVAILABLE' }])
    // the refused registration changed nothing: its hold of one place is still the only one
    expect(await slotTaken(slot)).toBe(1)
    await h().request('DELETE', '/api/public/reservation/timeslot', { body: { deleteAllTimed: true, identification: id1 } })
    expect(await slotTaken(slot)).toBe(0)

    const id2 = ident()
    const hold2 = await reserve(slot, id2)
    const two = await register(eventId, { identification: id2, escortPersons: escorts(1), fields: { [field.id]: [{ timeslotId: slot, amount: 1, reservationToken: hold2.body.reservationToken }] } })
    expect(two.status).toBe(201)
    expect(await slotTaken(slot)).toBe(2)
    expect((await availability(eventId))[slot]).toBe(0)
    const held = await h().ctx.db.selectFrom('timeslot_reservation').select(['amount', 'fixed']).where('timeslot_id', '=', slot).execute()
    expect(held.map((r) => [r.amount, Number(r.fixed)])).toEqual([[2, 1]])
  })

  test('"1 frei" is right: a 3-place slot after a guest with one escort', async () => {
    const { eventId, field } = await setup({ type: 'TIMESLOT', displayName: 'Führung', timeslots: [{ displayName: '10:00', capacity: 3 }] })
    const slot = field.timeslots[0].id
    const id = ident()
    const hold = await reserve(slot, id)
    expect((await register(eventId, { identification: id, escortPersons: escorts(1), fields: { [field.id]: [{ timeslotId: slot, amount: 1, reservationToken: hold.body.reservationToken }] } })).status).toBe(201)
    expect((await availability(eventId))[slot]).toBe(1)
    const pub = await h().request('GET', `/proxy/api/public/events/${eventId}`)
    expect(pub.status).toBe(200)
  })

  test('a defined value without amount selection takes a place per person; with amount selection the amount', async () => {
    const { eventId, field } = await setup({ type: 'SMARTLIST', displayName: 'Menü', definedValues: [{ displayName: 'Vegan', capacity: 3 }] })
    const value = field.definedValues[0].id
    const taken = async () => (await h().ctx.db.selectFrom('field_value').select('taken').where('id', '=', value).executeTakeFirstOrThrow()).taken
    const big = await register(eventId, { escortPersons: escorts(3), fields: { [field.id]: [{ fieldValueId: value, amount: 1 }] } })
    expect(big.status).toBe(409)
    expect(big.body.errorFields).toEqual([{ field: `fields.${field.id}`, errorType: 'VALUE_UNAVAILABLE' }])
    expect(await taken()).toBe(0)
    expect((await register(eventId, { escortPersons: escorts(1), fields: { [field.id]: [{ fieldValueId: value, amount: 1 }] } })).status).toBe(201)
    expect(await taken()).toBe(2)

    const amounts = await setup({ type: 'SMARTLIST', displayName: 'Getränke', amountSelection: true, definedValues: [{ displayName: 'Saft', capacity: 10 }] })
    const juice = amounts.field.definedValues[0].id
    expect((await register(amounts.eventId, { escortPersons: escorts(2), fields: { [amounts.field.id]: [{ fieldValueId: juice, amount: 1 }] } })).status).toBe(201)
    const j = await h().ctx.db.selectFrom('field_value').select('taken').where('id', '=', juice).executeTakeFirstOrThrow()
    expect(j.taken).toBe(1)
  })

  test('concurrent registrations of three persons for a 7-place slot: two get it, never more than 7 places', async () => {
    const { eventId, field } = await setup({ type: 'TIMESLOT', displayName: 'Führung', timeslots: [{ displayName: '10:00', capacity: 7 }] })
    const slot = field.timeslots[0].id
    // three guests hold one place each while filling in, then register for three persons each:
    // 3 held + 4 free places are enough for two of them (2 × 3), not for the third
    const ids = Array.from({ length: 3 }, ident)
    const holds = await Promise.all(ids.map((id) => reserve(slot, id)))
    expect(holds.every((r) => r.status === 200)).toBe(true)
    const results = await Promise.all(
      ids.map((id, i) => register(eventId, { identification: id, escortPersons: escorts(2), fields: { [field.id]: [{ timeslotId: slot, amount: 1, reservationToken: holds[i].body.reservationToken }] } })),
    )
    const ok = results.filter((r) => r.status === 201).length
    expect(results.filter((r) => r.status !== 201).every((r) => r.status === 409 && r.body.errorFields?.[0]?.errorType === 'TIMESLOT_NOT_AVAILABLE')).toBe(true)
    // two registrations of three hold 6 fixed places; the refused one still holds its one place
    expect(ok).toBe(2)
    const fixed = await h().ctx.db.selectFrom('timeslot_reservation').select((eb) => eb.fn.sum<number>('amount').as('n')).where('timeslot_id', '=', slot).where('fixed', '=', true as never).executeTakeFirstOrThrow()
    expect(Number(fixed.n)).toBe(6)
    expect(await slotTaken(slot)).toBe(7)
    await h().ctx.db.deleteFrom('mail_outbox').where('status', '=', 'PENDING').execute()
  })
})
