// Holes in the money paths found by attacking the binary (issue 20): an online payment refunded
// "offline" (nothing went back, the provider refund then impossible), Stripe event ids answered
// "duplicate" at another agency's endpoint, refunds made in Mollie's dashboard and Mollie refunds that
// fail after they were made, and made-up provider keys saved unchecked.
import { afterAll, expect, test } from 'bun:test'
import { type Harness, forEachDialect } from '../../testing/harness'
import { MOLLIE, PAYPAL, SELLER, STRIPE, attemptsOf, invoicesOf, mollieHook, onlineEvent, orderRow, orderUrl, startFakes, stripeHook, toConfirmation } from './testing'

const fakes = startFakes()
afterAll(() => fakes.stop())

async function paidByStripe(h: Harness) {
  const admin = await h.admin()
  await admin.put('/proxy/api/agency/sellerSettings', SELLER)
  const { event, categories } = await onlineEvent(admin, STRIPE)
  const id = await toConfirmation(h, event.id, categories[0].id)
  await h.request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'STRIPE', stripePaymentType: 'CARD' } })
  const [a] = await attemptsOf(h, id)
  fakes.stripe.confirm(a.external_id!, 'ok')
  expect((await h.request('POST', `${orderUrl(id)}/stripe/success`)).body.status).toBe('PAID')
  const o = await orderRow(h, id)
  return { admin, event, id, o, attempt: a, methodId: a.payment_method_id!, url: `/proxy/api/events/${event.id}/orders/${o.id}` }
}

async function paidByMollie(h: Harness) {
  const admin = await h.admin()
  await admin.put('/proxy/api/agency/sellerSettings', SELLER)
  const { event, categories } = await onlineEvent(admin, MOLLIE)
  const id = await toConfirmation(h, event.id, categories[0].id)
  await h.request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'MOLLIE' } })
  const [a] = await attemptsOf(h, id)
  fakes.mollie.setStatus(a.external_id!, 'paid')
  expect((await mollieHook(h, a.external_id!)).body.outcome).toBe('PAID')
  const o = await orderRow(h, id)
  return { admin, event, id, o, attempt: a, url: `/proxy/api/events/${event.id}/orders/${o.id}` }
}

forEachDialect(
  'money holes (issue 20)',
  (h) => {
    test('the offline refund refuses an order paid online (REFUND_ONLINE_PAYMENT, German); the provider refund still works afterwards', async () => {
      const p = await paidByStripe(h())
      const r = await p.admin.post(`${p.url}/refund`)
      expect(r.status).toBe(409)
      expect(r.body.errorType).toBe('REFUND_ONLINE_PAYMENT')
      expect(r.body.errorMessage).toContain('Stripe')
      expect(await orderRow(h(), p.id)).toMatchObject({ status: 'PAID', step: 100 })
      expect(await invoicesOf(h(), p.o.id)).toEqual([['INVOICE', 2500]])
      const through = await p.admin.post(`${p.url}/refundPayment`, {})
      expect(through.status).toBe(200)
      expect(through.body).toMatchObject({ status: 'REFUNDED', step: 902 })
      expect(fakes.stripe.refunds.filter((x) => x.payment_intent === p.attempt.external_id).map((x) => x.amount)).toEqual([2500])
    })

    test('Stripe event ids are de-duplicated per payment method: an id ignored at another agency\'s endpoint still pays at the right one', async () => {
      const p = await paidByStripe(h())
      const other = await h().admin()
      const otherMethod = (await other.post('/proxy/api/agency/paymentMethods', STRIPE)).body.id as number
      // a fresh intent of the first agency, paid at Stripe, not yet known to einlass as paid
      const { event, categories } = await onlineEvent(p.admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'STRIPE', stripePaymentType: 'CARD' } })
      const [a] = await attemptsOf(h(), id)
      fakes.stripe.confirm(a.external_id!, 'ok')
      const eventId = `evt_cross_${id}`
      const wrong = await stripeHook(h(), fakes.stripe, otherMethod, a.external_id!, { eventId })
      expect(wrong.body).toEqual({ received: true })
      expect((await orderRow(h(), id)).status).toBe('OPEN')
      const right = await stripeHook(h(), fakes.stripe, a.payment_method_id!, a.external_id!, { eventId })
      expect(right.body).toMatchObject({ received: true, outcome: 'PAID' })
      expect((await orderRow(h(), id)).status).toBe('PAID')
      // the same delivery again at the right endpoint: a duplicate
      expect((await stripeHook(h(), fakes.stripe, a.payment_method_id!, a.external_id!, { eventId })).body).toEqual({ received: true, duplicate: true })
    })

    test("a refund made in Mollie's dashboard is recorded once from Mollie's webhook with its credit note; the last ends the order (902)", async () => {
      const p = await paidByMollie(h())
      const part = fakes.mollie.refundOutside(p.attempt.external_id!, 1000, 'refunded')
      expect((await mollieHook(h(), p.attempt.external_id!)).status).toBe(200)
      expect(await invoicesOf(h(), p.o.id)).toEqual([['INVOICE', 2500], ['CANCELLATION', -1000]])
      const rows = async () => (await h().ctx.db.selectFrom('payment_refund').select(['provider_refund_id', 'amount', 'reason', 'status']).where('order_id', '=', p.o.id).orderBy('id').execute())
      expect(await rows()).toEqual([{ provider_refund_id: part.id, amount: 1000, reason: 'PROVIDER', status: 'DONE' }])
      // told twice: recorded once
      await mollieHook(h(), p.attempt.external_id!)
      expect((await rows()).length).toBe(1)
      expect((await orderRow(h(), p.id)).status).toBe('PAID')
      // a refund still on its way at Mollie is recorded PENDING, the rest ends the order
      fakes.mollie.refundOutside(p.attempt.external_id!, 1500, 'refunded')
      await mollieHook(h(), p.attempt.external_id!)
      expect(await orderRow(h(), p.id)).toMatchObject({ status: 'REFUNDED', step: 902 })
      expect(await invoicesOf(h(), p.o.id)).toEqual([['INVOICE', 2500], ['CANCELLATION', -1000], ['CANCELLATION', -1500]])
    })

    test('a Mollie refund that fails after Mollie had made it is noticed at the next webhook: owed again, told once', async () => {
      const p = await paidByMollie(h())
      const first = await p.admin.post(`${p.url}/refundPayment`, { amount: 1000 })
      expect(first.status).toBe(200)
      const reId = first.body.refunds[0].providerRefundId as string
      fakes.mollie.setRefundStatus(reId, 'refunded')
      await mollieHook(h(), p.attempt.external_id!)
      expect((await h().ctx.db.selectFrom('payment_refund').select('status').where('provider_refund_id', '=', reId).executeTakeFirstOrThrow()).status).toBe('DONE')
      // the customer's account was closed: Mollie fails the refund days later
      fakes.mollie.setRefundStatus(reId, 'failed')
      await mollieHook(h(), p.attempt.external_id!)
      await mollieHook(h(), p.attempt.external_id!)
      expect((await h().ctx.db.selectFrom('payment_refund').select('status').where('provider_refund_id', '=', reId).executeTakeFirstOrThrow()).status).toBe('FAILED')
      const a = await h().ctx.db.selectFrom('payment_attempt').selectAll().where('id', '=', p.attempt.id).executeTakeFirstOrThrow()
      expect(a).toMatchObject({ refunded_amount: 0, failed_refund_credit: 1000 })
      const kinds = (await h().ctx.db.selectFrom('ticket_order_history').select('kind').where('order_id', '=', p.o.id).execute()).map((x) => x.kind)
      expect(kinds.filter((k) => k === 'REFUND_FAILED').length).toBe(1)
    })

    test('provider keys are checked when saved: made-up Stripe, Mollie and PayPal keys are refused with a German message; real ones (the fakes) pass; a blank secret on edit keeps the checked one', async () => {
      const admin = await h().admin()
      const stripe = await admin.post('/proxy/api/agency/paymentMethods', { ...STRIPE, secretKey: 'sk_test_madeUpKey123' })
      expect(stripe.status).toBe(400)
      expect(stripe.body.errorType).toBe('PAYMENT_KEYS_REJECTED')
      expect(stripe.body.errorMessage).toContain('Stripe')
      expect(stripe.body.errorFields).toEqual([{ field: 'secretKey', errorType: 'PAYMENT_KEYS_REJECTED' }])
      const mollie = await admin.post('/proxy/api/agency/paymentMethods', { ...MOLLIE, secretKey: 'test_madeUpMollieKey0123456789abcd' })
      expect(mollie.status).toBe(400)
      expect(mollie.body.errorMessage).toContain('Mollie')
      const paypal = await admin.post('/proxy/api/agency/paymentMethods', { ...PAYPAL, secretKey: 'made-up' })
      expect(paypal.status).toBe(400)
      expect(paypal.body.errorMessage).toContain('PayPal')
      expect((await admin.get('/proxy/api/agency/paymentMethods')).body).toEqual([])
      // the provider cannot be reached: said so, nothing saved
      fakes.stripe.fail = '500'
      const down = await admin.post('/proxy/api/agency/paymentMethods', STRIPE)
      fakes.stripe.fail = null
      expect(down.status).toBe(502)
      expect(down.body.errorType).toBe('PAYMENT_PROVIDER_UNAVAILABLE')
      const ok = await admin.post('/proxy/api/agency/paymentMethods', STRIPE)
      expect(ok.status).toBe(201)
      expect((await admin.post('/proxy/api/agency/paymentMethods', MOLLIE)).status).toBe(201)
      expect((await admin.post('/proxy/api/agency/paymentMethods', PAYPAL)).status).toBe(201)
      // edit: confirmation text changed, the secret left blank (kept); a wrong new secret refused and the old one kept
      const edit = await admin.put(`/proxy/api/agency/paymentMethods/${ok.body.id}`, { ...STRIPE, secretKey: '', webhookSecret: '', confirmationText: 'Danke!' })
      expect(edit.status).toBe(200)
      expect(edit.body.confirmationText).toBe('Danke!')
      const wrong = await admin.put(`/proxy/api/agency/paymentMethods/${ok.body.id}`, { ...STRIPE, secretKey: 'sk_test_madeUpKey123' })
      expect(wrong.status).toBe(400)
      expect(wrong.body.errorType).toBe('PAYMENT_KEYS_REJECTED')
      const { event, categories } = await onlineEvent(admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      expect((await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'STRIPE', stripePaymentType: 'CARD' } })).body.step).toBe(80)
    })
  },
  { env: fakes.env },
)
