// REQUIRE_FIELDS: required fields added after the guest registered are listed as missingFields, asked
// for on step 5 (fieldData) and stored on the registration; the payment waits until they are filled.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { address, buy, buyer, paidEvent } from './testing'

const order = (id: string) => `/proxy/api/guest/ticketOrder/${id}`

forEachDialect('missing fields on the pay page', (h) => {
  test('a field made required after registering: listed, asked on step 5, stored; paymentPay refuses while one is missing', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    expect(r.status).toBe(201)
    const o = order(r.body.ticketOrderId)
    let info = (await h().request('GET', o)).body
    expect(info.requiredActions).toEqual([])
    expect(info.missingFields).toEqual([])

    const firma = await admin.post(`/proxy/api/events/${event.id}/fields`, { type: 'TEXT', displayName: 'Firma', appearance: 'REQUIRED' })
    expect(firma.status).toBe(201)
    // a choice is not asked on the pay page: it does not hold the order up
    expect((await admin.post(`/proxy/api/events/${event.id}/fields`, { type: 'YES_NO', displayName: 'Mit Übernachtung?', appearance: 'REQUIRED' })).status).toBe(201)
    info = (await h().request('GET', o)).body
    expect(info.requiredActions).toEqual(['REQUIRE_FIELDS'])
    expect(info.missingFields).toEqual([{ defaultField: null, fieldId: firma.body.id, field: `fields.${firma.body.id}`, displayName: 'Firma', type: 'TEXT' }])

    expect((await h().request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body).toMatchObject({ step: 5, displayStep: 2 })
    const empty = await h().request('POST', `${o}/proceed/additionalInformations`, { body: { escortPersons: [], fieldData: { [`fields.${firma.body.id}`]: '  ' } } })
    expect(empty.status).toBe(400)
    expect(empty.body.errorFields).toEqual([{ field: `fields.${firma.body.id}`, errorType: expect.any(String) }])
    expect((await h().request('GET', o)).body.ticketOrder.step).toBe(5)
    expect((await h().request('POST', `${o}/proceed/additionalInformations`, { body: { escortPersons: [], fieldData: { [`fields.${firma.body.id}`]: 'Acme GmbH' } } })).body).toMatchObject({ step: 8 })
    const stored = await h().ctx.db.selectFrom('visitor_field_value').select(['value', 'data']).where('visitor_id', '=', r.body.visitorId).where('field_id', '=', firma.body.id).executeTakeFirstOrThrow()
    expect(JSON.parse(stored.value)).toBe('Acme GmbH')
    info = (await h().request('GET', o)).body
    expect(info.missingFields).toEqual([])
    expect(info.requiredActions).toEqual([])

    expect((await h().request('POST', `${o}/proceed/paymentSelection`, { body: { paymentMethod: 'INVOICE' } })).body.step).toBe(40)
    // the organiser makes the title required meanwhile: the payment waits, the guest goes back to step 5
    const fields = (await admin.get(`/proxy/api/events/${event.id}/fields`)).body
    const title = (fields.fields ?? fields).find((f: any) => f.defaultField === 'TITLE')
    const put = await admin.put(`/proxy/api/events/${event.id}/fields/${title.id}`, { ...title, appearance: 'REQUIRED' })
    expect(put.status).toBe(200)
    const refused = await h().request('POST', `${o}/proceed/paymentPay`, { body: { paymentMethod: 'INVOICE' } })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ errorType: 'ORDER_FIELDS_MISSING', errorMessage: 'Bitte ergänzen Sie zuerst die fehlenden Angaben.', step: 40 })
    info = (await h().request('GET', o)).body
    expect(info.missingFields.map((m: any) => [m.defaultField, m.field])).toEqual([['TITLE', 'title']])
    expect(info.ticketOrder.editableSteps).toContain(5)
    expect((await h().request('POST', `${o}/proceed/reset`, { body: { step: 5 } })).body.step).toBe(5)
    expect((await h().request('POST', `${o}/proceed/additionalInformations`, { body: { escortPersons: [], fieldData: { title: 'Dr.' } } })).body.step).toBe(40)
    expect((await h().ctx.db.selectFrom('event_visitor').select('title').where('id', '=', r.body.visitorId).executeTakeFirstOrThrow()).title).toBe('Dr.')
    expect((await h().request('POST', `${o}/proceed/paymentPay`, { body: { paymentMethod: 'INVOICE' } })).body).toMatchObject({ step: 100, status: 'CONFIRMED' })
    // a finished order lists nothing any more
    expect((await h().request('GET', o)).body.missingFields).toEqual([])
  })
})
