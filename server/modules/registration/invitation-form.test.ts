// Issue 10 item 5: an invited guest confirms through the registration form. The form is pre-filled
// with what the organiser knows (the e-mail locked), the registration becomes the invitation (no
// second entry), required answers and agreements count as for everyone, a reserved place (PENDING) is
// kept exactly once, and the guest can still decline afterwards unless the event hides it.
import { expect, test } from 'bun:test'
import { eventBody, forEachDialect } from '../../testing/harness'
import { addGuest } from '../../testing/organiser'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'

forEachDialect('confirming an invitation through the form', (h) => {
  async function invited(opts: { reservePlace?: boolean; event?: Record<string, unknown> } = {}) {
    const admin = await h().admin()
    const event = (await admin.post('/proxy/api/events', eventBody({ maxVisitors: 10, ...opts.event }))).body
    const hotel = (await admin.post(`/proxy/api/events/${event.id}/fields`, { type: 'YES_NO', displayName: 'Hotel benötigt', appearance: 'REQUIRED' })).body
    const g = await addGuest(admin, event.id, { salutation: 'Herr', firstName: 'Hans', lastName: 'Huber', company: 'ACME' })
    expect((await admin.post(`/proxy/api/events/${event.id}/visitors/${g.id}/invite`, { reservePlace: !!opts.reservePlace })).status).toBe(200)
    const v = await h().ctx.db.selectFrom('event_visitor').select('user_id').where('id', '=', g.id).executeTakeFirstOrThrow()
    const guest = h().agent()
    guest.headers['x-guest-token'] = await h().ctx.db.transaction().execute((trx) => issueAccessToken(h().ctx, trx, v.user_id!, GUEST_ACCESS))
    return { admin, event, hotel, g, guest }
  }
  const seats = async (eventId: number) => (await h().ctx.db.selectFrom('event').select('seats_taken').where('id', '=', eventId).executeTakeFirstOrThrow()).seats_taken

  test('the form is pre-filled from the invitation with the e-mail locked', async () => {
    const { event, g, guest } = await invited()
    const pre = await guest.get(`/proxy/api/public/events/${event.id}/prefill`)
    expect(pre.status).toBe(200)
    expect(pre.body.values).toMatchObject({ salutation: 'Herr', firstName: 'Hans', lastName: 'Huber', email: g.email })
    expect(pre.body.locked).toContain('email')
    expect(pre.body.invitation).toEqual({ visitorId: g.id, status: 'INVITED' })
    // somebody else's browser learns nothing
    expect((await h().request('GET', `/proxy/api/public/events/${event.id}/prefill`)).body).toEqual({ values: {}, locked: [] })
  })

  test('registering confirms the invitation itself; required answers count; then the guest can decline', async () => {
    const { admin, event, hotel, g, guest } = await invited()
    const body = { salutation: 'Herr', firstName: 'Hans', lastName: 'Huber', email: g.email }
    const missing = await guest.post(`/proxy/api/public/events/${event.id}/registrations`, body)
    expect(missing.status).toBe(400)
    expect(missing.body.errorFields).toEqual([{ field: `fields.${hotel.id}`, errorType: 'REQUIRED' }])
    const r = await guest.post(`/proxy/api/public/events/${event.id}/registrations`, { ...body, fields: { [hotel.id]: true } })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ visitorId: g.id, status: 'CONFIRMED' })
    const list = await admin.get(`/proxy/api/events/${event.id}/visitors`)
    expect(list.body.items.map((x: any) => [x.id, x.status])).toEqual([[g.id, 'CONFIRMED']])
    expect(await seats(event.id)).toBe(1)
    const no = await guest.post(`/proxy/api/guest/events/${event.id}/reject`, { visitor: g.id, reason: 'krank' })
    expect(no.status).toBe(200)
    expect(no.body.status).toBe('VISITOR_DECLINED')
    expect(await seats(event.id)).toBe(0)
  })

  test('a reserved place (PENDING) is confirmed through the form and counted once; not by a stranger', async () => {
    const { event, hotel, g, guest } = await invited({ reservePlace: true, event: { requireApproval: true } })
    expect(await seats(event.id)).toBe(1)
    const stranger = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: { salutation: 'Herr', firstName: 'X', lastName: 'Y', email: g.email, fields: { [hotel.id]: true } } })
    expect(stranger.status).toBe(409)
    expect(stranger.body.errorType).toBe('ALREADY_INVITED')
    expect(await seats(event.id)).toBe(1)
    const r = await guest.post(`/proxy/api/public/events/${event.id}/registrations`, {
      salutation: 'Herr',
      firstName: 'Hans',
      lastName: 'Huber',
      email: g.email,
      fields: { [hotel.id]: false },
      escortPersons: [{ firstName: 'Eva', lastName: 'Huber' }],
    })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ visitorId: g.id, status: 'CONFIRMED', visitorCount: 2 })
    expect(await seats(event.id)).toBe(2)
    // the confirmed registration cannot be registered over from another browser
    const other = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: { salutation: 'Herr', firstName: 'X', lastName: 'Y', email: g.email, fields: { [hotel.id]: true } } })
    expect(other.status).toBe(409)
    expect(other.body.errorType).toBe('ALREADY_REGISTERED')
  })

  test('hideDeclineButton: no decline after confirming', async () => {
    const { event, hotel, g, guest } = await invited({ event: { hideDeclineButton: true } })
    expect((await guest.post(`/proxy/api/public/events/${event.id}/registrations`, { salutation: 'Herr', firstName: 'Hans', lastName: 'Huber', email: g.email, fields: { [hotel.id]: true } })).status).toBe(201)
    const no = await guest.post(`/proxy/api/guest/events/${event.id}/reject`, { visitor: g.id })
    expect(no.status).toBe(409)
    expect(no.body.errorType).toBe('DECLINE_NOT_ALLOWED')
  })
})
