// Timeslot reservations of guest-side.md 7 on both dialects: reserve, renew, delete, availabilities,
// expiry released by the server, registration only with valid reservations, and no overselling.
import { expect, test } from 'bun:test'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { releaseFieldPlaces, takeFieldPlaces } from './service'

let n = 0
const ident = () => `browser${Date.now().toString(36)}${(n++).toString(36)}`

forEachDialect('timeslot reservations', (h) => {
  async function setup(field: Record<string, unknown> = {}, event: Record<string, unknown> = {}) {
    const admin = await h().admin()
    const ev = await admin.post('/proxy/api/events', eventBody(event))
    const f = await admin.post(`/proxy/api/events/${ev.body.id}/fields`, {
      type: 'TIMESLOT',
      displayName: 'Zeitfenster',
      appearance: 'REQUIRED',
      timeslots: [
        { displayName: '10:00', capacity: 2 },
        { displayName: '11:00', capacity: 1 },
      ],
      ...field,
    })
    expect(f.status).toBe(201)
    return { admin, eventId: ev.body.id as number, field: f.body, slots: f.body.timeslots.map((s: any) => s.id) as number[] }
  }
  const reserve = (body: Record<string, unknown>) => h().request('POST', '/api/public/reservation/timeslot', { body })
  const guest = (fieldId: number, pick: Record<string, unknown>, identification: string) => ({
    salutation: 'Frau',
    firstName: 'Grete',
    lastName: 'Gast',
    email: uniqueEmail('slot'),
    identification,
    fields: { [fieldId]: [pick] },
  })

  test('reserve answers succeeded, token, expireDate and freeSlots; availabilities shows the hold', async () => {
    const { eventId, slots } = await setup()
    const id = ident()
    const r = await reserve({ timeslotId: slots[0], identification: id, amount: 1, registrationChange: false })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ succeeded: true, freeSlots: 1 })
    expect(typeof r.body.reservationToken).toBe('string')
    const left = new Date(r.body.expireDate).getTime() - h().clock.now().getTime()
    expect(left).toBeGreaterThan(15 * 60_000 - 2000)
    expect(left).toBeLessThanOrEqual(15 * 60_000)
    const av = await h().request('POST', '/api/public/reservation/availabilities', { body: { eventId } })
    expect(av.status).toBe(200)
    expect(av.body).toEqual({ [slots[0]]: 1, [slots[1]]: 1 })
  })

  test('a full slot: 409 with the spec\'s message and freeSlots 0; other refusals: could not be reserved', async () => {
    const { slots } = await setup({ multiple: true })
    expect((await reserve({ timeslotId: slots[1], identification: ident(), amount: 1 })).status).toBe(200)
    const full = await reserve({ timeslotId: slots[1], identification: ident(), amount: 1 })
    expect(full.status).toBe(409)
    expect(full.body).toMatchObject({ errorType: 'TIMESLOT_NOT_AVAILABLE', errorMessage: 'Diese Zeitslot steht leider nicht mehr zur Verfügung.', succeeded: false, freeSlots: 0 })
    const tooMany = await reserve({ timeslotId: slots[0], identification: ident(), amount: 2 })
    expect(tooMany.status).toBe(409)
    expect(tooMany.body).toMatchObject({ errorType: 'TIMESLOT_NOT_RESERVED', errorMessage: 'Der Zeitslot konnte nicht reserviert werden.', succeeded: false })
    const missing = await reserve({ timeslotId: 99999999, identification: ident(), amount: 1 })
    expect(missing.body.errorType).toBe('TIMESLOT_NOT_RESERVED')
    const bad = await reserve({ timeslotId: slots[0], identification: 'x', amount: 1 })
    expect(bad.status).toBe(400)
    expect(bad.body.errorType).toBe('FIELD_ERROR')
  })

  test('single choice holds one slot per visitor; multiple choice honours maxPerGuest', async () => {
    const single = await setup()
    const id = ident()
    expect((await reserve({ timeslotId: single.slots[0], identification: id })).status).toBe(200)
    expect((await reserve({ timeslotId: single.slots[1], identification: id })).body.errorType).toBe('TIMESLOT_NOT_RESERVED')
    const multi = await setup({ multiple: true, maxPerGuest: 1, timeslots: [{ displayName: 'a', capacity: 5 }, { displayName: 'b', capacity: 5 }] })
    const id2 = ident()
    expect((await reserve({ timeslotId: multi.slots[0], identification: id2 })).status).toBe(200)
    expect((await reserve({ timeslotId: multi.slots[1], identification: id2 })).body.errorType).toBe('TIMESLOT_NOT_RESERVED')
  })

  test('renew extends every timed reservation; after expiry it answers REGISTRATION_VALID_UNTIL_EXPIRED', async () => {
    const { slots } = await setup({ multiple: true })
    const id = ident()
    await reserve({ timeslotId: slots[0], identification: id })
    await reserve({ timeslotId: slots[1], identification: id })
    h().clock.advance(10 * 60_000)
    const r = await h().request('POST', '/api/public/reservation/timeslot/renew', { body: { identification: id } })
    expect(r.status).toBe(200)
    expect(Math.abs(new Date(r.body.expireDate).getTime() - (h().clock.now().getTime() + 15 * 60_000))).toBeLessThan(2000)
    const rows = await h().ctx.db.selectFrom('timeslot_reservation').select('expires_at').where('identification', '=', id).execute()
    expect(rows.map((x) => x.expires_at)).toEqual([r.body.expireDate, r.body.expireDate])
    h().clock.advance(16 * 60_000)
    const late = await h().request('POST', '/api/public/reservation/timeslot/renew', { body: { identification: id } })
    expect(late.status).toBe(409)
    expect(late.body.errorType).toBe('REGISTRATION_VALID_UNTIL_EXPIRED')
  })

  test('the server releases expired reservations itself', async () => {
    const { eventId, slots } = await setup()
    await reserve({ timeslotId: slots[1], identification: ident() })
    expect((await reserve({ timeslotId: slots[1], identification: ident() })).body.freeSlots).toBe(0)
    h().clock.advance(15 * 60_000 + 1000)
    // a new reservation finds the place free again
    const again = await reserve({ timeslotId: slots[1], identification: ident() })
    expect(again.status).toBe(200)
    h().clock.advance(15 * 60_000 + 1000)
    const av = await h().request('POST', '/api/public/reservation/availabilities', { body: { eventId } })
    expect(av.body[slots[1]]).toBe(1)
    const t = await h().ctx.db.selectFrom('timeslot').select('taken').where('id', '=', slots[1]).executeTakeFirstOrThrow()
    expect(t.taken).toBe(0)
  })

  test('delete by token, all timed ones, and the revoke error', async () => {
    const { eventId, slots } = await setup({ multiple: true })
    const id = ident()
    const a = await reserve({ timeslotId: slots[0], identification: id })
    await reserve({ timeslotId: slots[1], identification: id })
    const d = await h().request('DELETE', '/api/public/reservation/timeslot', { body: { reservationToken: a.body.reservationToken } })
    expect(d.status).toBe(200)
    expect(d.body.deleted).toBe(1)
    const again = await h().request('DELETE', '/api/public/reservation/timeslot', { body: { reservationToken: a.body.reservationToken } })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ errorType: 'UNABLE_TO_REVOKE_RESERVATION', errorMessage: 'unable to revoke reservation.' })
    const all = await h().request('DELETE', '/api/public/reservation/timeslot', { body: { deleteAllTimed: true, identification: id } })
    expect(all.body.deleted).toBe(1)
    expect((await h().request('POST', '/api/public/reservation/availabilities', { body: { eventId } })).body).toEqual({ [slots[0]]: 2, [slots[1]]: 1 })
    const neither = await h().request('DELETE', '/api/public/reservation/timeslot', { body: {} })
    expect(neither.status).toBe(400)
  })

  test('a registration needs a valid reservation for what it selects, and fixes it', async () => {
    const { eventId, field, slots } = await setup()
    const id = ident()
    const noToken = await h().request('POST', `/api/public/events/${eventId}/registrations`, { body: guest(field.id, { timeslotId: slots[0], amount: 1 }, id) })
    expect(noToken.status).toBe(400)
    expect(noToken.body.errorFields).toEqual([{ field: `fields.${field.id}`, errorType: 'REGISTRATION_VALID_UNTIL_EXPIRED' }])
    const forged = await h().request('POST', `/api/public/events/${eventId}/registrations`, { body: guest(field.id, { timeslotId: slots[0], amount: 1, reservationToken: 'forged-token-123' }, id) })
    expect(forged.status).toBe(409)
    expect(forged.body.errorType).toBe('REGISTRATION_VALID_UNTIL_EXPIRED')
    const res = await reserve({ timeslotId: slots[0], identification: id })
    h().clock.advance(15 * 60_000 + 1)
    const expired = await h().request('POST', `/api/public/events/${eventId}/registrations`, { body: guest(field.id, { timeslotId: slots[0], amount: 1, reservationToken: res.body.reservationToken }, id) })
    expect(expired.status).toBe(409)
    expect(expired.body.errorType).toBe('REGISTRATION_VALID_UNTIL_EXPIRED')
    const seats = await h().ctx.db.selectFrom('event').select('seats_taken').where('id', '=', eventId).executeTakeFirstOrThrow()
    expect(seats.seats_taken).toBe(0)

    const fresh = await reserve({ timeslotId: slots[0], identification: id })
    const ok = await h().request('POST', `/api/public/events/${eventId}/registrations`, { body: guest(field.id, { timeslotId: slots[0], amount: 1, reservationToken: fresh.body.reservationToken }, id) })
    expect(ok.status).toBe(201)
    const row = await h().ctx.db.selectFrom('timeslot_reservation').selectAll().where('token', '=', fresh.body.reservationToken).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ fixed: 1, visitor_id: ok.body.visitorId, expires_at: null })
    // fixed places are never released by expiry or by deleteAllTimed
    h().clock.advance(60 * 60_000)
    await h().request('DELETE', '/api/public/reservation/timeslot', { body: { deleteAllTimed: true, identification: id } })
    expect((await h().request('POST', '/api/public/reservation/availabilities', { body: { eventId } })).body[slots[0]]).toBe(1)
    // the organiser reads the chosen slot
    const fields = await (await h().admin()).get(`/proxy/api/events/${eventId}/visitors/${ok.body.visitorId}/fields`)
    expect(fields.status).toBe(404) // another agency
  })

  test('reservations refuse while registration is closed', async () => {
    const { slots } = await setup({}, { registrationUntil: new Date(Date.now() - 60_000).toISOString() })
    const r = await reserve({ timeslotId: slots[0], identification: ident() })
    expect(r.status).toBe(409)
    expect(r.body.errorType).toBe('TIMESLOT_NOT_RESERVED')
  })

  test('200 concurrent reservations for 50 free places: exactly 50 succeed', async () => {
    const { eventId, slots } = await setup({ timeslots: [{ displayName: 'Groß', capacity: 50 }] })
    // 200 browsers behind as many addresses (one address may hold only what one registration takes)
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => h().request('POST', '/api/public/reservation/timeslot', { body: { timeslotId: slots[0], identification: ident(), amount: 1 }, headers: { 'x-forwarded-for': `10.20.${i >> 8}.${i & 255}` } })),
    )
    const ok = results.filter((r) => r.status === 200)
    expect(ok.length).toBe(50)
    expect(results.filter((r) => r.status === 409).every((r) => r.body.errorType === 'TIMESLOT_NOT_AVAILABLE' && r.body.freeSlots === 0)).toBe(true)
    const t = await h().ctx.db.selectFrom('timeslot').select('taken').where('id', '=', slots[0]).executeTakeFirstOrThrow()
    expect(t.taken).toBe(50)
    const held = await h().ctx.db.selectFrom('timeslot_reservation').select((eb) => eb.fn.countAll<number>().as('n')).where('event_id', '=', eventId).executeTakeFirstOrThrow()
    expect(Number(held.n)).toBe(50)
  })

  test('a registration\'s choices give their places back and take them again', async () => {
    const { admin, eventId, field, slots } = await setup()
    const ws = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'SMARTLIST', displayName: 'Workshop', definedValues: [{ displayName: 'Töpfern', capacity: 1 }] })
    const id = ident()
    const res = await reserve({ timeslotId: slots[1], identification: id })
    const r = await h().request('POST', `/api/public/events/${eventId}/registrations`, {
      body: { ...guest(field.id, { timeslotId: slots[1], amount: 1, reservationToken: res.body.reservationToken }, id), fields: { [field.id]: [{ timeslotId: slots[1], amount: 1, reservationToken: res.body.reservationToken }], [ws.body.id]: [{ fieldValueId: ws.body.definedValues[0].id, amount: 1 }] } },
    })
    expect(r.status).toBe(201)
    const counts = async () => ({
      slot: (await h().ctx.db.selectFrom('timeslot').select('taken').where('id', '=', slots[1]).executeTakeFirstOrThrow()).taken,
      value: (await h().ctx.db.selectFrom('field_value').select('taken').where('id', '=', ws.body.definedValues[0].id).executeTakeFirstOrThrow()).taken,
    })
    expect(await counts()).toEqual({ slot: 1, value: 1 })
    await h().ctx.db.transaction().execute((trx) => releaseFieldPlaces(trx, r.body.visitorId))
    expect(await counts()).toEqual({ slot: 0, value: 0 })
    await h().ctx.db.transaction().execute((trx) => takeFieldPlaces(trx, r.body.visitorId, eventId, new Date()))
    expect(await counts()).toEqual({ slot: 1, value: 1 })
    // released again, someone else takes the last slot: taking back fails and changes nothing
    await h().ctx.db.transaction().execute((trx) => releaseFieldPlaces(trx, r.body.visitorId))
    expect((await reserve({ timeslotId: slots[1], identification: ident() })).status).toBe(200)
    const again = await h().ctx.db.transaction().execute((trx) => takeFieldPlaces(trx, r.body.visitorId, eventId, new Date())).catch((e) => e)
    expect(again.errorType).toBe('FIELD_ERROR')
    expect(await counts()).toEqual({ slot: 1, value: 0 })
  })
})
