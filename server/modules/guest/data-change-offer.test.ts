// "Angaben ändern" (issue 20, item 26): offered only when the registration form has something the
// guest may change; the change form then holds exactly those fields, with the basic data (name,
// e-mail) shown for reference. An event with only the default form opened an empty dialog.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { createEvent } from '../../testing/organiser'
import { guestWithToken } from '../documents/test-helpers'

forEachDialect('data change: offered only with fields to change', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin()
  })
  const entryOf = async (g: Awaited<ReturnType<typeof guestWithToken>>) => (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id)

  test('the default form (names, e-mail, escorts) offers no change; a field the guest may fill does', async () => {
    const e = await createEvent(admin, { options: ['CAN_EDIT_REGISTRATION_DATA'] })
    const g = await guestWithToken(h(), admin, e.id, { escortPersons: [] })
    expect((await entryOf(g)).canEditRegistrationData).toBe(false)
    expect((await g.guest.get(`/proxy/api/guest/events/visitors/${g.id}/details`)).body.canEditRegistrationData).toBe(false)
    // a hidden field or a separator is nothing to change either
    expect((await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'TEXT', displayName: 'Intern', appearance: 'HIDDEN' })).status).toBe(201)
    expect((await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'SEPARATOR', displayName: 'Abschnitt' })).status).toBe(201)
    expect((await entryOf(g)).canEditRegistrationData).toBe(false)
    const wish = await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'TEXT', displayName: 'Essenswunsch' })
    expect(wish.status).toBe(201)
    expect((await entryOf(g)).canEditRegistrationData).toBe(true)
    expect((await g.guest.get(`/proxy/api/guest/events/visitors/${g.id}/details`)).body.canEditRegistrationData).toBe(true)
    const form = await g.guest.get(`/proxy/api/guest/events/visitors/${g.id}/data`)
    expect(form.status).toBe(200)
    expect(form.body.fields.map((f: any) => f.displayName)).toEqual(['Abschnitt', 'Essenswunsch'])
    expect(form.body.values).toMatchObject({ firstName: 'Grete', lastName: 'Gast', email: g.email })
  })

  test('without the event option nothing is offered', async () => {
    const e = await createEvent(admin)
    expect((await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'TEXT', displayName: 'Essenswunsch' })).status).toBe(201)
    const g = await guestWithToken(h(), admin, e.id, { escortPersons: [] })
    expect((await entryOf(g)).canEditRegistrationData).toBe(false)
  })
})
