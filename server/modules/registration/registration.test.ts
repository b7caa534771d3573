import { expect, test } from 'bun:test'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { linkIn as link } from '../../testing/smtp-sink'

forEachDialect('public registration', (h) => {
  async function publicEvent(overrides: Record<string, unknown> = {}) {
    const admin = await h().admin()
    const r = await admin.post('/proxy/api/events', eventBody(overrides))
    expect(r.status).toBe(201)
    return { admin, event: r.body }
  }
  const guest = (email = uniqueEmail('guest')) => ({ salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email })

  test('a guest registers, gets the mail and sees the event on the dashboard; the organiser sees the guest', async () => {
    const { admin, event } = await publicEvent()
    const pub = await h().request('GET', `/proxy/api/public/events/${event.id}`)
    expect(pub.status).toBe(200)
    expect(pub.body.registrationState).toBe('OPEN')

    const email = uniqueEmail('grete')
    const r = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: guest(email) })
    expect(r.status).toBe(201)
    expect(r.body.status).toBe('CONFIRMED')

    await h().deliverMail()
    const mail = await h().smtp.waitFor((m) => m.to.includes(email))
    expect(mail.subject).toBe('Ihre Anmeldung: Sommerfest')
    const url = new URL(link(mail, '/guest/dashboard?token='))
    const token = url.searchParams.get('token')!

    const dash = await h().request('GET', '/proxy/api/guest/events', { headers: { 'x-guest-token': token } })
    expect(dash.status).toBe(200)
    expect(dash.body.confirmedEvents).toHaveLength(1)
    expect(dash.body.confirmedEvents[0].event.displayName).toBe('Sommerfest')

    const list = await admin.get(`/proxy/api/events/${event.id}/visitors`)
    expect(list.status).toBe(200)
    expect(list.body.items.map((v: any) => v.email)).toEqual([email])
  })

  test('refuses with EVENT_FULL when the places are gone, and takes nothing', async () => {
    const { event } = await publicEvent({ maxVisitors: 2 })
    const one = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: { ...guest(), escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] } })
    expect(one.status).toBe(201)
    const two = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: guest() })
    expect(two.status).toBe(409)
    expect(two.body).toMatchObject({ status: 409, errorType: 'EVENT_FULL', errorMessage: 'Die Veranstaltung ist leider ausgebucht.' })
    const e = await h().ctx.db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()
    expect(e.seats_taken).toBe(2)
  })

  test('refuses with REGISTRATION_CLOSED after registrationUntil', async () => {
    const { event } = await publicEvent({ registrationUntil: new Date(Date.now() - 60_000).toISOString() })
    const r = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: guest() })
    expect(r.status).toBe(409)
    expect(r.body.errorType).toBe('REGISTRATION_CLOSED')
    expect(r.body.errorMessage).toBe('Die Anmeldung ist geschlossen.')
  })

  test('bad input gives FIELD_ERROR with the fields', async () => {
    const { event } = await publicEvent()
    const r = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: { firstName: '', lastName: 'X', email: 'nope' } })
    expect(r.status).toBe(400)
    expect(r.body.errorType).toBe('FIELD_ERROR')
    expect(r.body.errorFields).toEqual(
      expect.arrayContaining([
        { field: 'salutation', errorType: 'SALUTATION_REQUIRED' },
        { field: 'firstName', errorType: 'FIRST_NAME_REQUIRED' },
        { field: 'email', errorType: 'INVALID_EMAIL' },
      ]),
    )
  })
})
