// Ticket orders: creation with held tickets, the §7 calls and the step machine (steps, display
// numbers, back rules, stale calls), the offline methods with the EPC GiroCode, coupons, invoice
// address rules, expiry by the task runner and reset.
import { expect, test } from 'bun:test'
import jsQR from 'jsqr'
// @ts-expect-error pngjs ships no types (qrcode's dependency)
import { PNG } from 'pngjs'
import { forEachDialect } from '../../testing/harness'
import { address, buy, buyer, paidEvent, TRANSFER } from './testing'

const decodeQr = (dataUrl: string) => {
  const png = PNG.sync.read(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'))
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null
}
const order = (id: string) => `/proxy/api/guest/ticketOrder/${id}`

forEachDialect('ticket orders', (h) => {
  test('two tickets with a coupon, paid by transfer: held quota, steps 1 → 5 → 8 → 40 → 100, GiroCode, mail; organiser data intact', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'FRUEH', valueType: 'PERCENT', reduction: 10, maxUses: 5 })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 2 }], { couponCode: 'frueh' }))
    expect(r.status).toBe(201)
    expect(r.body.status).toBe('PENDING')
    expect(r.body.visitorCount).toBe(2)
    const id = r.body.ticketOrderId as string
    expect(id).toMatch(/^[a-z2-7]{24}$/)
    const db = h().ctx.db
    expect((await db.selectFrom('ticket_category').select('sold').where('id', '=', categories[0].id).executeTakeFirstOrThrow()).sold).toBe(2)
    expect((await db.selectFrom('coupon').select('used').where('event_id', '=', event.id).executeTakeFirstOrThrow()).used).toBe(1)
    expect((await db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken).toBe(2)

    let info = (await h().request('GET', order(id))).body
    expect(info.ticketOrder).toMatchObject({ step: 1, displayStep: 1, displaySteps: 4, status: 'OPEN', grossPrice: 4500, grossPriceText: '45,00 €', currency: 'EURO', discount: 500, tax: 718, paymentMethod: null })
    expect(info.ticketOrder.taxPrices).toEqual([{ taxCode: 'TAX_19', taxValue: 19, totalPrice: 718, grossPrice: 4500 }])
    expect(info.ticketOrder.visitorTickets).toMatchObject([{ amount: 2, displayName: 'Stehplatz', grossPrice: 4500, unitPrice: 2500, discount: 500 }])
    expect(info.ticketOrder.usedCoupons).toEqual([{ code: 'FRUEH', valueType: 'PERCENT', reduction: 10 }])
    expect(info.requiredActions).toEqual(['REQUIRE_ESCORT_PERSONS'])
    expect(info.paymentMethods.map((m: any) => m.method)).toEqual(['TRANSFER', 'INVOICE', 'LOCATION'])

    // a call for another step changes nothing and answers the current step
    const early = await h().request('POST', `${order(id)}/proceed/paymentSelection`, { body: { paymentMethod: 'TRANSFER' } })
    expect(early.status).toBe(409)
    expect(early.body).toMatchObject({ errorType: 'ORDER_STEP_CHANGED', step: 1, orderStatus: 'OPEN' })
    const bad = await h().request('POST', `${order(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: { ...address, city: '' } } })
    expect(bad.status).toBe(400)
    expect(bad.body.errorType).toBe('FIELD_ERROR')
    expect(bad.body.errorFields).toEqual([{ field: 'invoiceAddress.city', errorType: 'REQUIRED' }])
    const a = await h().request('POST', `${order(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })
    expect(a.body).toMatchObject({ step: 5, displayStep: 2 })
    // the same call replayed: nothing changes
    expect((await h().request('POST', `${order(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: { ...address, city: 'Hamburg' } } })).body).toMatchObject({ errorType: 'ORDER_STEP_CHANGED', step: 5 })
    const missing = await h().request('POST', `${order(id)}/proceed/additionalInformations`, { body: { escortPersons: [{ firstName: 'Eva' }] } })
    expect(missing.body.errorFields).toEqual([{ field: 'escortPersons.0.lastName', errorType: 'ESCORT_LAST_NAME_REQUIRED' }])
    expect((await h().request('POST', `${order(id)}/proceed/additionalInformations`, { body: { escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] } })).body).toMatchObject({ step: 8, displayStep: 3 })
    expect((await h().request('POST', `${order(id)}/proceed/paymentSelection`, { body: { paymentMethod: 'PAYPAL' } })).body.errorFields).toEqual([{ field: 'paymentMethod', errorType: 'INVALID' }])
    expect((await h().request('POST', `${order(id)}/proceed/paymentSelection`, { body: { paymentMethod: 'INVOICE' } })).body).toMatchObject({ step: 40, displayStep: 4 })
    // back to the payment method clears it; back to the invoice address keeps the rest
    info = (await h().request('GET', order(id))).body
    expect(info.ticketOrder.editableSteps).toEqual([1, 5, 8])
    expect((await h().request('POST', `${order(id)}/proceed/reset`, { body: { step: 8 } })).body).toMatchObject({ step: 8 })
    expect((await h().request('GET', order(id))).body.ticketOrder.paymentMethod).toBeNull()
    expect((await h().request('POST', `${order(id)}/proceed/reset`, { body: { step: 40 } })).body.errorType).toBe('ORDER_BACK_NOT_ALLOWED')
    expect((await h().request('POST', `${order(id)}/proceed/paymentSelection`, { body: { paymentMethod: 'TRANSFER' } })).body.step).toBe(40)

    // double click on pay: one wins, the other answers the step
    const [p1, p2] = await Promise.all([1, 2].map(() => h().request('POST', `${order(id)}/proceed/paymentPay`, { body: { paymentMethod: 'TRANSFER', fullName: 'Berta Käuferin' } })))
    const won = [p1, p2].find((p) => p.status === 200)!
    const lost = [p1, p2].find((p) => p.status !== 200)!
    expect(won.body).toMatchObject({ step: 100, status: 'OPEN' })
    expect(lost.body).toMatchObject({ errorType: 'ORDER_STEP_CHANGED', step: 100 })
    const text = decodeQr(won.body.qrCode)
    const number = (await h().request('GET', order(id))).body.ticketOrder.number
    expect(text).toBe(['BCD', '002', '1', 'SCT', 'COBADEFFXXX', 'Agentur GmbH', 'DE89370400440532013000', 'EUR45.00', '', '', `SF-${number}`].join('\n'))
    info = (await h().request('GET', order(id))).body
    expect(info.ticketOrder).toMatchObject({ step: 100, status: 'OPEN', transferReference: `SF-${number}`, editableSteps: [] })
    expect((await h().request('POST', `${order(id)}/proceed/reset`, { body: { step: 1 } })).body.errorType).toBe('ORDER_BACK_NOT_ALLOWED')
    const visitor = await db.selectFrom('event_visitor').select(['status', 'seats_held']).where('id', '=', r.body.visitorId).executeTakeFirstOrThrow()
    expect(visitor).toEqual({ status: 'CONFIRMED', seats_held: 2 })
    expect((await db.selectFrom('escort_person').select('last_name').where('visitor_id', '=', r.body.visitorId).execute()).map((e) => e.last_name)).toEqual(['Escort'])

    await h().deliverMail()
    const mail = h().smtp.mails.find((m) => m.subject.includes(number))!
    expect(mail).toBeTruthy()
    expect(mail.text).toContain(`SF-${number}`)
    expect(mail.text).toContain('45,00 €')
    expect(mail.parsed.attachments.some((x) => x.filename === `girocode-${number}.png`)).toBe(true)
  })

  test('a 100 % coupon makes the order free: no invoice address, method COUPON, the confirmation is its only step (1 of 1), paid at once', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'GRATIS', valueType: 'PERCENT', reduction: 100 })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { couponCode: 'GRATIS' }))
    expect(r.status).toBe(201)
    const info = (await h().request('GET', order(r.body.ticketOrderId))).body
    expect(info.ticketOrder).toMatchObject({ step: 40, displayStep: 1, displaySteps: 1, grossPrice: 0, paymentMethod: 'COUPON', invoiceAddressDisabled: true, editableSteps: [] })
    expect((await h().request('POST', `${order(r.body.ticketOrderId)}/proceed/reset`, { body: { step: 1 } })).body.errorType).toBe('ORDER_BACK_NOT_ALLOWED')
    const pay = await h().request('POST', `${order(r.body.ticketOrderId)}/proceed/paymentPay`, { body: {} })
    expect(pay.body).toMatchObject({ step: 100, status: 'PAID', qrCode: null })
    const o = await h().ctx.db.selectFrom('ticket_order').select(['paid_amount', 'paid_at', 'status']).where('public_id', '=', r.body.ticketOrderId).executeTakeFirstOrThrow()
    expect(o.status).toBe('PAID')
    expect(o.paid_amount).toBe(0)
    expect((await h().ctx.db.selectFrom('event_visitor').select('status').where('id', '=', r.body.visitorId).executeTakeFirstOrThrow()).status).toBe('CONFIRMED')
  })

  test('coupons and picks are checked: unknown, wrong category, used up; min/max per order; no tickets', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, {
      categories: [
        { displayName: 'Sitz', grossPrice: 4000, taxCode: 'TAX_7', quota: 5, minPerOrder: 2, maxPerOrder: 3 },
        { displayName: 'Steh', grossPrice: 1000, taxCode: 'TAX_19' },
      ],
    })
    await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'SITZ', valueType: 'FIXED', reduction: 1000, categoryId: categories[0].id })
    await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'EINMAL', valueType: 'FIXED', reduction: 100, maxUses: 1 })
    const [sitz, steh] = categories
    const fields = async (body: Record<string, unknown>) => (await buy(h(), event.id, body)).body.errorFields
    expect(await fields(buyer([{ categoryId: steh.id, amount: 1 }], { couponCode: 'NIX' }))).toEqual([{ field: 'couponCode', errorType: 'COUPON_INVALID' }])
    expect(await fields(buyer([{ categoryId: steh.id, amount: 1 }], { couponCode: 'SITZ' }))).toEqual([{ field: 'couponCode', errorType: 'COUPON_NO_TICKETS' }])
    expect(await fields(buyer([{ categoryId: sitz.id, amount: 1 }]))).toEqual([{ field: 'tickets.0.amount', errorType: 'BELOW_MIN_PER_ORDER' }])
    expect(await fields(buyer([{ categoryId: sitz.id, amount: 4 }]))).toEqual([{ field: 'tickets.0.amount', errorType: 'ABOVE_MAX_PER_ORDER' }])
    expect(await fields(buyer([]))).toEqual([{ field: 'tickets', errorType: 'TICKETS_REQUIRED' }])
    expect(await fields(buyer([{ categoryId: 999999, amount: 1 }]))).toEqual([{ field: 'tickets.0.categoryId', errorType: 'INVALID' }])
    // two tax codes summed separately, the fixed coupon only on its category
    const ok = await buy(h(), event.id, buyer([{ categoryId: sitz.id, amount: 2 }, { categoryId: steh.id, amount: 1 }], { couponCode: 'SITZ' }))
    expect(ok.status).toBe(201)
    const t = (await h().request('GET', order(ok.body.ticketOrderId))).body.ticketOrder
    expect(t.grossPrice).toBe(8000)
    expect(t.taxPrices).toEqual([
      { taxCode: 'TAX_19', taxValue: 19, totalPrice: 160, grossPrice: 1000 },
      { taxCode: 'TAX_7', taxValue: 7, totalPrice: 458, grossPrice: 7000 },
    ])
    expect(t.tax).toBe(618)
    expect((await buy(h(), event.id, buyer([{ categoryId: steh.id, amount: 1 }], { couponCode: 'EINMAL' }))).status).toBe(201)
    expect(await fields(buyer([{ categoryId: steh.id, amount: 1 }], { couponCode: 'EINMAL' }))).toEqual([{ field: 'couponCode', errorType: 'COUPON_INVALID' }])
    // quota: 5 seats, 2 taken; 3 more fit, then TICKETS_SOLD_OUT and nothing half-written
    expect((await buy(h(), event.id, buyer([{ categoryId: sitz.id, amount: 3 }]))).status).toBe(201)
    const out = await buy(h(), event.id, buyer([{ categoryId: sitz.id, amount: 2 }, { categoryId: steh.id, amount: 1 }]))
    expect(out.status).toBe(409)
    expect(out.body.errorType).toBe('TICKETS_SOLD_OUT')
    const sold = await h().ctx.db.selectFrom('ticket_category').select(['id', 'sold']).where('event_id', '=', event.id).orderBy('id').execute()
    expect(sold.map((s) => s.sold)).toEqual([5, 2])
  })

  test('invoice address: reference number required only with requireReferenceId, Leitweg-ID check digits', async () => {
    const admin = await h().admin()
    await admin.put('/proxy/api/agency/sellerSettings', { name: 'Agentur', useInvoiceXML: true, requireReferenceId: true })
    const { event, categories } = await paidEvent(admin, { methods: [{ method: 'INVOICE' }] })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    const id = r.body.ticketOrderId
    const info = (await h().request('GET', order(id))).body
    expect(info).toMatchObject({ useInvoiceXML: true, requireReferenceId: true })
    expect((await h().request('POST', `${order(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.errorFields).toEqual([{ field: 'referenceNumber', errorType: 'REQUIRED' }])
    expect((await h().request('POST', `${order(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address, referenceNumber: '04011000-1234512345-07' } })).body.errorFields).toEqual([{ field: 'referenceNumber', errorType: 'INVALID_LEITWEG_ID' }])
    // a single method is preselected: the payment method step is skipped and cannot be gone back to
    const ok = await h().request('POST', `${order(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address, referenceNumber: '04011000-1234512345-06', taxIdentificationNumber: 'DE123456789' } })
    expect(ok.body).toMatchObject({ step: 40, displayStep: 2 })
    const t = (await h().request('GET', order(id))).body.ticketOrder
    expect(t).toMatchObject({ paymentMethod: 'INVOICE', referenceNumber: '04011000-1234512345-06', taxIdentificationNumber: 'DE123456789', invoiceAddress: { ...address, country: 'DEU', addition: null }, editableSteps: [1] })
    expect((await h().request('POST', `${order(id)}/proceed/reset`, { body: { step: 8 } })).body.errorType).toBe('ORDER_BACK_NOT_ALLOWED')
    const pay = await h().request('POST', `${order(id)}/proceed/paymentPay`, { body: { paymentMethod: 'INVOICE' } })
    expect(pay.body).toMatchObject({ step: 100, status: 'CONFIRMED' })
  })

  test('the hold expires by the task runner (twice is once): tickets, places and coupon given back; reset takes them again', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'ZEHN', valueType: 'FIXED', reduction: 1000 })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 3 }], { couponCode: 'ZEHN' }))
    const id = r.body.ticketOrderId
    const db = h().ctx.db
    const counts = async () => ({
      sold: (await db.selectFrom('ticket_category').select('sold').where('id', '=', categories[0].id).executeTakeFirstOrThrow()).sold,
      seats: (await db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken,
      used: (await db.selectFrom('coupon').select('used').where('event_id', '=', event.id).executeTakeFirstOrThrow()).used,
    })
    expect(await counts()).toEqual({ sold: 3, seats: 3, used: 1 })
    await h().tasks.runOnce()
    expect((await h().request('GET', `${order(id)}/orderState`)).body).toMatchObject({ step: 1, status: 'OPEN' })
    h().clock.advance(31 * 60_000)
    await h().tasks.runOnce()
    expect((await h().request('GET', `${order(id)}/orderState`)).body).toMatchObject({ step: 901, status: 'CANCELED' })
    expect(await counts()).toEqual({ sold: 0, seats: 0, used: 0 })
    const { expireOrder } = await import('./orders/expiry')
    const oid = (await db.selectFrom('ticket_order').select('id').where('public_id', '=', id).executeTakeFirstOrThrow()).id
    expect(await expireOrder(h().ctx, oid)).toBe(false)
    expect(await counts()).toEqual({ sold: 0, seats: 0, used: 0 })
    expect((await db.selectFrom('event_visitor').select('status').where('id', '=', r.body.visitorId).executeTakeFirstOrThrow()).status).toBe('DELETED')
    expect((await h().request('POST', `${order(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.errorType).toBe('ORDER_NOT_PAYABLE')
    const reset = await h().request('GET', `${order(id)}/reset`)
    expect(reset.body).toMatchObject({ step: 1, status: 'OPEN' })
    expect(await counts()).toEqual({ sold: 3, seats: 3, used: 1 })
    expect((await h().request('GET', `${order(id)}/reset`)).body.errorType).toBe('ORDER_RESET_NOT_ALLOWED')
    await h().deliverMail()
    expect(h().smtp.mails.some((m) => m.subject.startsWith('Bestellung abgelaufen'))).toBe(true)
  })

  test('unknown or malformed order ids answer 404; the numeric id is never an order id', async () => {
    expect((await h().request('GET', order('aaaaaaaaaaaaaaaaaaaaaaaa'))).status).toBe(404)
    expect((await h().request('GET', order('1'))).status).toBe(404)
    expect((await h().request('POST', `${order('1')}/proceed/paymentPay`, { body: {} })).status).toBe(404)
  })

  test('a paid event without an enabled method refuses a priced order; TRANSFER needs the transfer data', async () => {
    const admin = await h().admin()
    // an online event cannot drop its last method (issue 20); the agency deleting the method leaves it without one
    const { event, categories } = await paidEvent(admin, { methods: [{ method: 'INVOICE' }] })
    expect((await admin.put(`/proxy/api/events/${event.id}/paymentMethods`, { ids: [] })).body.errorType).toBe('EVENT_NO_PAYMENT_METHOD')
    const [invoice] = (await admin.get(`/proxy/api/events/${event.id}/paymentMethods`)).body
    expect((await admin.delete(`/proxy/api/agency/paymentMethods/${invoice.id}`)).status).toBe(200)
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    expect(r.status).toBe(409)
    expect(r.body.errorType).toBe('PAYMENT_METHOD_NOT_AVAILABLE')
    expect((await admin.post('/proxy/api/agency/paymentMethods', { ...TRANSFER, iban: null })).body.errorFields).toEqual([{ field: 'iban', errorType: 'REQUIRED' }])
  })
})
