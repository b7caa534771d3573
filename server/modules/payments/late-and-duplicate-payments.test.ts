// A second payment for an order that is already paid (docs/payments.md, "Late payments"): the guest
// left Mollie's checkout open, reset on the wait step and paid by card; then Mollie's payment
// arrives too. It goes back by itself (DUPLICATE_PAYMENT); the order stays paid by the card, and the
// organiser's refund and cancel work on the card payment — not on the duplicate, which has nothing
// left. When the automatic refund fails at Mollie, the money is owed: the order list shows it and
// the refund button gives it back, without a credit note (the duplicate was never invoiced) and
// without ending the order. The same for a late payment whose tickets were gone (the order ended
// REFUNDED by it).
import { afterAll, expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { address, buy, buyer, paidEvent } from '../ticketing/testing'
import { MOLLIE, SELLER, STRIPE, attemptsOf, expiredMollieOrder, invoicesOf, mollieHook, onlineEvent, orderRow, orderUrl, startFakes, stripeHook } from './testing'

const fakes = startFakes()
afterAll(() => fakes.stop())

forEachDialect(
  'payments that arrive twice or late',
  (h) => {
    /** An order paid by card after a Mollie payment was left open; then Mollie's payment arrives too. */
    async function paidTwice() {
      const admin = await h().admin()
      await admin.put('/proxy/api/agency/sellerSettings', SELLER)
      const { event, categories } = await paidEvent(admin, { methods: [MOLLIE, STRIPE], categories: [{ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 10 }] })
      const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
      const id = r.body.ticketOrderId as string
      const step = async (path: string, body: unknown) => (await h().request('POST', `${orderUrl(id)}/${path}`, { body })).body.step
      expect(await step('proceed/invoiceAddress', { invoiceAddress: address })).toBe(8)
      expect(await step('proceed/paymentSelection', { paymentMethod: 'MOLLIE' })).toBe(40)
      const methods = (await h().request('GET', orderUrl(id))).body.paymentMethods as Array<{ id: number; method: string }>
      const stripeMethod = methods.find((m) => m.method === 'STRIPE')!.id
      expect(await step('proceed/mollie/init', undefined)).toBe(70)
      expect(await step('mollie/success', undefined)).toBe(90)
      // the reset goes back to the choice of method (the event has two): card this time
      expect((await h().request('GET', `${orderUrl(id)}/reset`)).body.step).toBe(8)
      expect(await step('proceed/paymentSelection', { paymentMethod: 'STRIPE' })).toBe(40)
      await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'STRIPE' } })
      const [mollie, card] = await attemptsOf(h(), id)
      expect([mollie.provider, card.provider]).toEqual(['MOLLIE', 'STRIPE'])
      fakes.stripe.confirm(card.external_id!, 'ok')
      expect((await stripeHook(h(), fakes.stripe, stripeMethod, card.external_id!)).body.outcome).toBe('PAID')
      fakes.mollie.setStatus(mollie.external_id!, 'paid')
      expect((await mollieHook(h(), mollie.external_id!)).body.outcome).toBe('DUPLICATE_REFUNDED')
      const o = await orderRow(h(), id)
      expect(o).toMatchObject({ status: 'PAID', payment_method: 'STRIPE' })
      const url = `/proxy/api/events/${event.id}/orders/${o.id}`
      const owed = async () => (await admin.post(`/proxy/api/events/${event.id}/orders/search`, {})).body.items.find((x: any) => x.id === o.id).refundOwed
      const refunds = async () => (await h().ctx.db.selectFrom('payment_refund').select(['attempt_id', 'amount', 'reason', 'status']).where('order_id', '=', o.id).orderBy('id').execute()).map((r) => [r.attempt_id === card.id ? 'card' : 'mollie', r.amount, r.reason, r.status])
      return { admin, id, o, url, mollie, card, owed, refunds }
    }

    test('the organiser refunds and cancels the card payment that paid the order, not the duplicate', async () => {
      const p = await paidTwice()
      expect(await p.refunds()).toEqual([['mollie', 2500, 'DUPLICATE_PAYMENT', 'PENDING']])
      expect(await p.owed()).toBe(0)
      const part = await p.admin.post(`${p.url}/refundPayment`, { amount: 1000 })
      expect(part.status).toBe(200)
      expect(await p.refunds()).toEqual([
        ['mollie', 2500, 'DUPLICATE_PAYMENT', 'PENDING'],
        ['card', 1000, 'ORGANISER', 'DONE'],
      ])
      expect(fakes.stripe.refunds.filter((r) => r.payment_intent === p.card.external_id).map((r) => r.amount)).toEqual([1000])
      // cancelling refunds the rest of the card payment and ends the order
      expect((await p.admin.post(`${p.url}/cancel`)).status).toBe(200)
      expect(await orderRow(h(), p.id)).toMatchObject({ status: 'REFUNDED' })
      expect(fakes.stripe.refunds.filter((r) => r.payment_intent === p.card.external_id).map((r) => r.amount)).toEqual([1000, 1500])
      expect(await invoicesOf(h(), p.o.id)).toEqual([['INVOICE', 2500], ['CANCELLATION', -1000], ['CANCELLATION', -1500]])
    })

    test('the duplicate\'s automatic refund fails at Mollie: owed in the list, refunded again through Mollie, no credit note, the order stays paid', async () => {
      const p = await paidTwice()
      const [auto] = await h().ctx.db.selectFrom('payment_refund').select('provider_refund_id').where('attempt_id', '=', p.mollie.id).execute()
      fakes.mollie.setRefundStatus(auto.provider_refund_id, 'failed')
      await mollieHook(h(), p.mollie.external_id!)
      expect(await p.refunds()).toEqual([['mollie', 2500, 'DUPLICATE_PAYMENT', 'FAILED']])
      expect(await p.owed()).toBe(2500)
      // more than is owed: refused at the field
      const tooMuch = await p.admin.post(`${p.url}/refundPayment`, { amount: 2600 })
      expect([tooMuch.status, tooMuch.body.errorType]).toEqual([409, 'REFUND_TOO_LARGE'])
      const again = await p.admin.post(`${p.url}/refundPayment`, {})
      expect(again.status).toBe(200)
      expect(again.body.refundOwed).toBe(0)
      expect(await p.refunds()).toEqual([
        ['mollie', 2500, 'DUPLICATE_PAYMENT', 'FAILED'],
        ['mollie', 2500, 'DUPLICATE_PAYMENT', 'PENDING'],
      ])
      expect(await p.owed()).toBe(0)
      expect(await orderRow(h(), p.id)).toMatchObject({ status: 'PAID' })
      expect(await invoicesOf(h(), p.o.id)).toEqual([['INVOICE', 2500]])
      // the card payment is still there to refund
      expect((await p.admin.post(`${p.url}/refundPayment`, {})).body.status).toBe('REFUNDED')
      expect(await invoicesOf(h(), p.o.id)).toEqual([['INVOICE', 2500], ['CANCELLATION', -2500]])
    })

    test('a late payment for sold-out tickets whose automatic refund fails: owed on the ended order, refunded again with its reason, nothing invoiced', async () => {
      const admin = await h().admin()
      await admin.put('/proxy/api/agency/sellerSettings', SELLER)
      const { event, categories } = await onlineEvent(admin, MOLLIE, 1)
      const { id, attempt: a } = await expiredMollieOrder(h(), event.id, categories[0].id)
      expect((await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))).status).toBe(201)
      fakes.mollie.setStatus(a.external_id!, 'paid')
      expect((await mollieHook(h(), a.external_id!)).body.outcome).toBe('LATE_REFUNDED')
      const o = await orderRow(h(), id)
      expect(o).toMatchObject({ status: 'REFUNDED', step: 902 })
      const [auto] = await h().ctx.db.selectFrom('payment_refund').select(['provider_refund_id', 'reason']).where('attempt_id', '=', a.id).execute()
      expect(auto.reason).toBe('LATE_PAYMENT')
      fakes.mollie.setRefundStatus(auto.provider_refund_id, 'failed')
      await mollieHook(h(), a.external_id!)
      const search = async () => (await admin.post(`/proxy/api/events/${event.id}/orders/search`, {})).body.items.find((x: any) => x.id === o.id)
      // the list offers the online refund: the order names its provider
      expect(await search()).toMatchObject({ status: 'REFUNDED', refundOwed: 2500, paymentMethod: 'MOLLIE' })
      const again = await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/refundPayment`, {})
      expect(again.status).toBe(200)
      expect(again.body.refunds.map((r: any) => [r.amount, r.reason, r.status])).toEqual([
        [2500, 'LATE_PAYMENT', 'FAILED'],
        [2500, 'LATE_PAYMENT', 'PENDING'],
      ])
      expect(await search()).toMatchObject({ status: 'REFUNDED', refundOwed: 0 })
      expect(await invoicesOf(h(), o.id)).toEqual([])
      // nothing is left to give back
      expect((await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/refundPayment`, {})).body.errorType).toBe('ORDER_NOT_PAID')
    })
  },
  { env: fakes.env },
)
