// Issue 20, item 8: the pay page's step 5 keeps the escort data the registration form stored
// (updated in place, never deleted and inserted again), asks for what the event's ESCORT_* settings
// require, and checks it like the registration form; two step-5 calls at once answer 409, never 500.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { address, buy, buyer, paidEvent } from './testing'

const order = (id: string) => `/proxy/api/guest/ticketOrder/${id}`

forEachDialect('pay page step 5: escort persons', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }

  /** a paid event whose escorts are asked for e-mail (shown) and company (required) */
  async function setup() {
    admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const fields = (await admin.get(`/proxy/api/events/${event.id}/fields`)).body.fields as Array<{ id: number; defaultField: string | null; [k: string]: unknown }>
    for (const [code, appearance] of [
      ['ESCORT_EMAIL', 'VISIBLE'],
      ['ESCORT_COMPANY', 'REQUIRED'],
      ['ESCORT_PHONE_NUMBER', 'VISIBLE'],
    ] as const) {
      const f = fields.find((x) => x.defaultField === code)!
      expect((await admin.put(`/proxy/api/events/${event.id}/fields/${f.id}`, { ...f, appearance })).status).toBe(200)
    }
    return { event, categories }
  }
  const escorts = (visitorId: number) => h().ctx.db.selectFrom('escort_person').selectAll().where('visitor_id', '=', visitorId).orderBy('number').execute()

  test('what the registration form stored stays (same rows, e-mail, company, phone); the missing escort is asked with the event\'s rules', async () => {
    const { event, categories } = await setup()
    const eva = { firstName: 'Eva', lastName: 'Escort', email: 'eva@example.org', company: 'ACME', phoneNumber: '+49 30 1234567' }
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 3 }], { escortPersons: [eva] }))
    expect(r.status).toBe(201)
    const id = r.body.ticketOrderId as string
    const before = await escorts(r.body.visitorId)
    expect(before).toHaveLength(1)
    expect(before[0]).toMatchObject({ email: 'eva@example.org', company: 'ACME', phone_number: '+49301234567' })

    const info = (await h().request('GET', order(id))).body
    expect(info.requiredActions).toEqual(['REQUIRE_ESCORT_PERSONS'])
    // the page gets the stored escorts whole and what the event asks for
    expect(info.escortPersons).toMatchObject([{ number: 1, firstName: 'Eva', lastName: 'Escort', email: 'eva@example.org', company: 'ACME', phoneNumber: '+49301234567' }])
    expect(info.fields).toMatchObject({ name: 'REQUIRED', email: 'VISIBLE', company: 'REQUIRED', phoneNumber: 'VISIBLE' })
    expect((await h().request('POST', `${order(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step).toBe(5)

    // validated as the registration form: the company is required, the e-mail must be one
    const bad = await h().request('POST', `${order(id)}/proceed/additionalInformations`, {
      body: { escortPersons: [{ ...info.escortPersons[0] }, { firstName: 'Max', lastName: 'Muster', email: 'kein-mail' }] },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.errorType).toBe('FIELD_ERROR')
    const fieldsOf = (bad.body.errorFields as Array<{ field: string }>).map((f) => f.field).sort()
    expect(fieldsOf).toEqual(['escortPersons.1.company', 'escortPersons.1.email'])
    expect(await escorts(r.body.visitorId)).toEqual(before)

    const ok = await h().request('POST', `${order(id)}/proceed/additionalInformations`, {
      body: { escortPersons: [{ ...info.escortPersons[0], lastName: 'Escort-Neu' }, { firstName: 'Max', lastName: 'Muster', company: 'Beta GmbH', email: 'max@example.org' }] },
    })
    expect(ok.status).toBe(200)
    expect(ok.body.step).toBe(8)
    const after = await escorts(r.body.visitorId)
    // Eva is the same row with her data; Max is number 2
    expect(after[0]).toMatchObject({ id: before[0]!.id, number: 1, last_name: 'Escort-Neu', email: 'eva@example.org', company: 'ACME', phone_number: '+49301234567' })
    expect(after[1]).toMatchObject({ number: 2, first_name: 'Max', company: 'Beta GmbH', email: 'max@example.org' })
  })

  test('a property the event hides is not overwritten; a name is not enough when the company is required', async () => {
    const { event, categories } = await setup()
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 2 }], { escortPersons: [{ firstName: 'Eva', lastName: 'Escort', company: 'ACME', email: 'eva@example.org' }] }))
    const id = r.body.ticketOrderId as string
    // the organiser hides the e-mail afterwards: the page does not ask for it and it stays stored
    const fields = (await admin.get(`/proxy/api/events/${event.id}/fields`)).body.fields as Array<{ id: number; defaultField: string | null }>
    const mail = fields.find((x) => x.defaultField === 'ESCORT_EMAIL')!
    expect((await admin.put(`/proxy/api/events/${event.id}/fields/${mail.id}`, { ...mail, appearance: 'HIDDEN' })).status).toBe(200)
    // every escort is named: the order goes on to the payment method; step 5 stays editable
    expect((await h().request('POST', `${order(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step).toBe(8)
    expect((await h().request('POST', `${order(id)}/proceed/reset`, { body: { step: 5 } })).body.step).toBe(5)
    const ok = await h().request('POST', `${order(id)}/proceed/additionalInformations`, { body: { escortPersons: [{ number: 1, firstName: 'Eva', lastName: 'Escort', company: 'ACME' }] } })
    expect(ok.status).toBe(200)
    expect((await escorts(r.body.visitorId))[0]).toMatchObject({ email: 'eva@example.org', company: 'ACME' })
    expect((await h().request('POST', `${order(id)}/proceed/reset`, { body: { step: 5 } })).body.step).toBe(5)
    const namesOnly = await h().request('POST', `${order(id)}/proceed/additionalInformations`, { body: { escortPersons: [{ number: 1, firstName: 'Eva', lastName: 'Escort' }] } })
    expect(namesOnly.status).toBe(400)
    expect(namesOnly.body.errorFields).toEqual([{ field: 'escortPersons.0.company', errorType: 'REQUIRED' }])
    // an unknown number is refused
    const stranger = await h().request('POST', `${order(id)}/proceed/additionalInformations`, { body: { escortPersons: [{ number: 7, firstName: 'X', lastName: 'Y', company: 'Z' }] } })
    expect(stranger.status).toBe(400)
  })

  test('two step-5 calls at once: one goes on, the other answers 409 in the error shape, never 500', async () => {
    const { event, categories } = await setup()
    for (let round = 0; round < 3; round++) {
      const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 2 }]))
      const id = r.body.ticketOrderId as string
      await h().request('POST', `${order(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => h().request('POST', `${order(id)}/proceed/additionalInformations`, { body: { escortPersons: [{ firstName: `Gast${i}`, lastName: 'Neu', company: 'ACME' }] } })),
      )
      const statuses = results.map((x) => x.status)
      expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([])
      expect(statuses.filter((s) => s === 200)).toHaveLength(1)
      for (const x of results.filter((y) => y.status === 409)) expect(typeof x.body.errorMessage).toBe('string')
      expect(await escorts(r.body.visitorId)).toHaveLength(1)
    }
  })
})
