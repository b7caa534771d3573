// Issue 20 items 6, 14, 15, 23: what the pay page decides (pure, ui/apps/pay/model.ts) and the
// calls behind it: the waiting-list notice by button type, continue-and-reset only where the server
// resets, no step without a screen, each shown step its own number, the public page's total with the
// coupon the guest typed, the hold's countdown.
import { expect, test } from 'bun:test'
import { endedNotice, holdLeft, waitingNotice } from '../../../ui/apps/pay/model'
import { forEachDialect } from '../../testing/harness'
import { STEP, displayNumber, nextStep, shownSteps } from './orders/steps'
import { buy, buyer, paidEvent, pay } from './testing'

test('waiting list: SEND (a request) reads the request text, REGISTER the waiting-list text (§4)', () => {
  expect(waitingNotice('SEND')).toBe('ticketing.pay.waitingListRequest')
  expect(waitingNotice('REGISTER')).toBe('ticketing.pay.waitingList')
  expect(endedNotice({ status: 'WAITING_LIST', step: 1 }, 'SEND')?.key).toBe('ticketing.pay.waitingListRequest')
})

test('ended orders: a payment cancelled at the provider may be continued, the organiser\'s cancel is the order-cancelled notice', () => {
  expect(endedNotice({ status: 'CANCELED', step: 900, canContinue: true }, 'REGISTER')?.key).toBe('ticketing.pay.paymentCanceled')
  expect(endedNotice({ status: 'CANCELED', step: 900, canContinue: false }, 'REGISTER')?.key).toBe('ticketing.pay.canceled')
  expect(endedNotice({ status: 'CANCELED', step: 901 }, 'REGISTER')?.key).toBe('ticketing.pay.expired')
  expect(endedNotice({ status: 'OPEN', step: 40 }, 'REGISTER')).toBeNull()
})

test('step 10 is never entered; every shown step has its own number', () => {
  const base = { grossPrice: 2500, invoiceAddressDisabled: false, hasInvoiceAddress: true, requiredActions: [], paymentMethod: 'STRIPE', methodCount: 3, additionalApplies: true }
  expect(nextStep(base)).toBe(STEP.CONFIRMATION)
  expect(shownSteps(STEP.CONFIRMATION, base)).toEqual([1, 5, 8, 40])
  expect([1, 5, 8, 40].map((s) => displayNumber(s, base))).toEqual([{ n: 1, of: 4 }, { n: 2, of: 4 }, { n: 3, of: 4 }, { n: 4, of: 4 }])
  expect(displayNumber(STEP.CONFIRMATION, { ...base, additionalApplies: false })).toEqual({ n: 3, of: 3 })
  expect(displayNumber(STEP.CONFIRMATION, { ...base, grossPrice: 0 })).toEqual({ n: 2, of: 2 })
  expect(displayNumber(STEP.PAYMENT_DATA, base)).toBeNull()
})

test('the hold countdown: mm:ss, 00:00 once passed', () => {
  expect(holdLeft('2026-11-28T10:30:00Z', Date.parse('2026-11-28T10:00:00Z'))).toBe('30:00')
  expect(holdLeft('2026-11-28T10:30:00Z', Date.parse('2026-11-28T10:28:30.400Z'))).toBe('01:30')
  expect(holdLeft('2026-11-28T10:30:00Z', Date.parse('2026-11-28T11:00:00Z'))).toBe('00:00')
})

forEachDialect('pay page calls', (h) => {
  test('the public page prices a choice with its coupon before registering; a wrong code is a field error', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'FRUEH', valueType: 'PERCENT', reduction: 10 })
    const url = `/proxy/api/public/events/${event.id}/ticketPrice`
    const ok = await h().request('POST', url, { body: { tickets: [{ categoryId: categories[0].id, amount: 2 }], couponCode: 'frueh' } })
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ grossPrice: 4500, discount: 500, grossPriceText: '45,00 €', discountText: '5,00 €' })
    const bad = await h().request('POST', url, { body: { tickets: [{ categoryId: categories[0].id, amount: 2 }], couponCode: 'NIX' } })
    expect(bad.body.errorFields).toEqual([{ field: 'couponCode', errorType: 'COUPON_INVALID' }])
    // nothing was taken
    expect((await h().ctx.db.selectFrom('coupon').select('used').where('event_id', '=', event.id).executeTakeFirstOrThrow()).used).toBe(0)
  })

  test('the ticket info names the hold, whether the order may be continued, and where a finished order goes', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: { externalConfirmationLink: 'https://veranstalter.example/danke' } })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    const o = `/proxy/api/guest/ticketOrder/${r.body.ticketOrderId}`
    const info = (await h().request('GET', o)).body
    const left = Date.parse(info.ticketOrder.holdUntil) - h().ctx.clock.now().getTime()
    expect(left).toBeGreaterThan(25 * 60_000)
    expect(left).toBeLessThanOrEqual(30 * 60_000)
    expect(info.ticketOrder.canContinue).toBe(false)
    expect(info.redirectUrl).toBeNull()
    const done = await pay(h(), r.body.ticketOrderId, 'INVOICE')
    expect(done).toMatchObject({ step: 100, status: 'CONFIRMED', redirectUrl: 'https://veranstalter.example/danke' })
    expect((await h().request('GET', o)).body).toMatchObject({ redirectUrl: 'https://veranstalter.example/danke', ticketOrder: { holdUntil: null } })
    // cancelled by the organiser: the order-cancelled notice, no continue, and reset refuses
    const oid = (await admin.post(`/proxy/api/events/${event.id}/orders/search`, { page: 0, perPage: 10 })).body.items[0].id
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${oid}/cancel`)).status).toBe(200)
    expect((await h().request('GET', o)).body.ticketOrder).toMatchObject({ step: 900, status: 'CANCELED', canContinue: false })
    expect((await h().request('GET', `${o}/reset`)).body.errorType).toBe('ORDER_RESET_NOT_ALLOWED')
  })
})
