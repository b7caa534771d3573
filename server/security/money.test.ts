// Hostile: the money attacks of issue 20 stay closed. An organiser "refunding" an order paid online
// offline (the order would end REFUNDED with a credit note while the money stays at the provider, and
// the provider refund then be impossible), for each provider; and an attacker with an agency of their
// own replaying another agency's Stripe event id at their own endpoint first, so that the real
// delivery would be answered "duplicate" and the payment wait.
import { afterAll, expect, test } from 'bun:test'
import { MOLLIE, PAYPAL, STRIPE, attemptsOf, mollieHook, onlineEvent, orderRow, orderUrl, startFakes, stripeHook, toConfirmation } from '../modules/payments/testing'
import { type Harness, forEachDialect } from '../testing/harness'

const fakes = startFakes()
afterAll(() => fakes.stop())

async function paidOnline(h: Harness, method: typeof STRIPE | typeof MOLLIE | typeof PAYPAL) {
  const admin = await h.admin()
  const { event, categories } = await onlineEvent(admin, method)
  const id = await toConfirmation(h, event.id, categories[0].id)
  if (method.method === 'PAYPAL') {
    const orderID = (await h.request('POST', `${orderUrl(id)}/proceed/paypal/init`)).body.payPalPayment.orderID
    fakes.paypal.approve(orderID)
    expect((await h.request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })).body.status).toBe('PAID')
  } else {
    await h.request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
    const [a] = await attemptsOf(h, id)
    if (method.method === 'STRIPE') fakes.stripe.confirm(a.external_id!, 'ok')
    else fakes.mollie.setStatus(a.external_id!, 'paid')
    if (method.method === 'MOLLIE') await mollieHook(h, a.external_id!)
    else await h.request('POST', `${orderUrl(id)}/stripe/success`)
  }
  const o = await orderRow(h, id)
  expect(o.status).toBe('PAID')
  return { admin, event, id, o }
}

forEachDialect(
  'hostile: money (issue 20)',
  (h) => {
    test('an order paid online cannot be refunded offline, whichever provider; the money can still go back through it', async () => {
      for (const m of [STRIPE, MOLLIE, PAYPAL]) {
        const p = await paidOnline(h(), m)
        const r = await p.admin.post(`/proxy/api/events/${p.event.id}/orders/${p.o.id}/refund`)
        expect({ m: m.method, status: r.status, type: r.body.errorType }).toEqual({ m: m.method, status: 409, type: 'REFUND_ONLINE_PAYMENT' })
        expect((await orderRow(h(), p.id)).status).toBe('PAID')
        expect(await h().ctx.db.selectFrom('invoice').select('id').where('order_ref', '=', String(p.o.id)).where('kind', '=', 'CANCELLATION').execute()).toEqual([])
        expect((await p.admin.post(`/proxy/api/events/${p.event.id}/orders/${p.o.id}/refundPayment`, {})).status).toBe(200)
      }
    })

    test("another agency's endpoint seeing an event id first does not make the real delivery a duplicate", async () => {
      const victim = await h().admin()
      const { event, categories } = await onlineEvent(victim, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'STRIPE', stripePaymentType: 'CARD' } })
      const [a] = await attemptsOf(h(), id)
      fakes.stripe.confirm(a.external_id!, 'ok')
      const attacker = await h().admin()
      const own = (await attacker.post('/proxy/api/agency/paymentMethods', STRIPE)).body.id as number
      const eventId = `evt_hostile_${id}`
      expect((await stripeHook(h(), fakes.stripe, own, a.external_id!, { eventId })).body).toEqual({ received: true })
      // replayed at the attacker's own endpoint: a duplicate there, and only there
      expect((await stripeHook(h(), fakes.stripe, own, a.external_id!, { eventId })).body).toEqual({ received: true, duplicate: true })
      expect((await orderRow(h(), id)).status).toBe('OPEN')
      expect((await stripeHook(h(), fakes.stripe, a.payment_method_id!, a.external_id!, { eventId })).body).toMatchObject({ outcome: 'PAID' })
      expect((await orderRow(h(), id)).status).toBe('PAID')
    })
  },
  { env: fakes.env },
)
