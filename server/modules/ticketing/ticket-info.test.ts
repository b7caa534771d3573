// The Ticket info of guest-side.md §3 filled from real data: userAccount (firstName, lastName, email,
// address, invoiceAddress) from the registration and the order, fields (the appearance of each escort
// field) from the event's form.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { address, buy, buyer, paidEvent } from './testing'

const order = (id: string) => `/proxy/api/guest/ticketOrder/${id}`

forEachDialect('ticket info from real data', (h) => {
  test('userAccount names the buyer with their address; invoiceAddress once given; fields carry the escort fields\' appearance', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const added = await admin.post(`/proxy/api/events/${event.id}/fields`, { type: 'DYNAMIC_DEFAULT_FIELD', defaultField: 'ADDRESS', displayName: 'Adresse' })
    expect(added.status).toBe(201)
    const addr = added.body as { id: number }
    const b = buyer([{ categoryId: categories[0].id, amount: 1 }], { fields: { [addr.id]: { street: 'Lindenweg', streetNumber: '7', postCode: '04109', city: 'Leipzig', country: 'DEU' } } })
    const r = await buy(h(), event.id, b)
    expect(r.status).toBe(201)
    const o = order(r.body.ticketOrderId)
    let info = (await h().request('GET', o)).body
    expect(info.userAccount).toEqual({
      firstName: 'Berta',
      lastName: 'Käuferin',
      email: b.email,
      address: { street: 'Lindenweg', streetNumber: '7', postCode: '04109', city: 'Leipzig', country: 'DEU' },
      // not given yet: the registration's address is offered
      invoiceAddress: { receiver: 'Berta Käuferin', addition: null, street: 'Lindenweg', streetNumber: '7', postCode: '04109', city: 'Leipzig', country: 'DEU' },
    })
    const fields = (await admin.get(`/proxy/api/events/${event.id}/fields`)).body
    const defs = (fields.fields ?? fields) as Array<{ id: number; defaultField: string | null; appearance: string }>
    const escortDefs = defs.filter((f) => f.defaultField?.startsWith('ESCORT_'))
    // one appearance per escort property (the step-5 form reads it: escortAppearance in forms/engine.ts)
    const of = (code: string) => escortDefs.find((f) => f.defaultField === code)?.appearance ?? 'HIDDEN'
    expect(info.fields).toMatchObject({ name: of('ESCORT_NAME'), email: of('ESCORT_EMAIL'), company: of('ESCORT_COMPANY') })
    // the organiser makes the escorts' e-mail required: the ticket info says so
    const mail = escortDefs.find((f) => f.defaultField === 'ESCORT_EMAIL')!
    expect((await admin.put(`/proxy/api/events/${event.id}/fields/${mail.id}`, { ...mail, appearance: 'REQUIRED' })).status).toBe(200)
    info = (await h().request('GET', o)).body
    expect(info.fields.email).toBe('REQUIRED')
    // the invoice address entered on step 1 is the account's invoice address from then on
    expect((await h().request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: { ...address, receiver: 'Acme GmbH' } } })).status).toBe(200)
    info = (await h().request('GET', o)).body
    expect(info.userAccount.invoiceAddress).toMatchObject({ receiver: 'Acme GmbH', street: 'Hauptstraße', city: 'Berlin' })
  })

  test('without an address the registration offers no invoice address', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const b = buyer([{ categoryId: categories[0].id, amount: 1 }])
    const r = await buy(h(), event.id, b)
    const info = (await h().request('GET', order(r.body.ticketOrderId))).body
    expect(info.userAccount).toEqual({ firstName: 'Berta', lastName: 'Käuferin', email: b.email, address: null, invoiceAddress: null })
  })
})
