// PayPal webhooks against the local fake: verified through PayPal's verify-webhook-signature for
// the method's (sealed) webhook id, bad signatures refused and logged, every event stored once,
// treated as a hint (re-fetch, check, then settle): an approval the buyer never came back from is
// captured, a capture settles, deliveries twice or out of order change nothing twice, refunds made
// by einlass are not recorded again and refunds made in PayPal's dashboard are recorded with their
// credit note, the last one ending the order REFUNDED (902).
import { afterAll, expect, test } from 'bun:test'
import type { Logger } from '../../logger'
import { type Harness, forEachDialect } from '../../testing/harness'
import { PAYPAL, attemptsOf, invoicesOf, onlineEvent, orderRow, orderUrl, soldOf, startFakes, toConfirmation } from './testing'

const fakes = startFakes()
afterAll(() => fakes.stop())
const WEBHOOK_ID = 'WH-EINLASS-0001'
fakes.paypal.webhookIds.add(WEBHOOK_ID)
fakes.paypal.webhookIds.add('WH-OTHER-APP')
const PAYPAL_WH = { ...PAYPAL, webhookId: WEBHOOK_ID }
const warnings: string[] = []
const log: Logger = { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {}, enabled: () => false }

type Delivery = { body: string; headers: Record<string, string> }
const deliver = (h: Harness, methodId: number, d: Delivery) =>
  h.app
    .handle(new Request(`http://localhost/proxy/api/payments/paypal/webhook/${methodId}`, { method: 'POST', headers: { 'content-type': 'application/json', ...d.headers }, body: d.body }))
    .then(async (r) => ({ status: r.status, body: await r.json() }))

/** An order at step 40 with its PayPal order created (the buttons' createOrder); answers both ids. */
async function started(h: Harness) {
  const admin = await h.admin()
  await admin.put('/proxy/api/agency/sellerSettings', { name: 'Agentur GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-', contactName: 'Ada Admin', phone: '+49 30 123456', email: 'kasse@agentur.example' })
  const { event, categories } = await onlineEvent(admin, PAYPAL_WH)
  const methodId = (await admin.get('/proxy/api/agency/paymentMethods')).body.find((m: any) => m.method === 'PAYPAL').id as number
  const id = await toConfirmation(h, event.id, categories[0]!.id)
  const orderID = (await h.request('POST', `${orderUrl(id)}/proceed/paypal/init`)).body.payPalPayment.orderID as string
  return { admin, event, categories, methodId, id, orderID }
}

/** PayPal captured the order without einlass hearing the answer (as after a lost response). */
function capturedAtPayPal(orderID: string) {
  const o = fakes.paypal.orders.get(orderID)!
  o.status = 'COMPLETED'
  o.purchase_units[0]!.payments = { captures: [{ id: `CAP${orderID}`, status: 'COMPLETED', amount: o.purchase_units[0]!.amount }] }
  return `CAP${orderID}`
}

forEachDialect(
  'paypal webhooks',
  (h) => {
    test('the webhook id is sealed with the secret and never answered; a blank keeps it', async () => {
      const admin = await h().admin()
      const r = await admin.post('/proxy/api/agency/paymentMethods', PAYPAL_WH)
      expect(r.status).toBe(201)
      expect(JSON.stringify(r.body)).not.toContain(WEBHOOK_ID)
      const row = await h().ctx.db.selectFrom('payment_method').selectAll().where('id', '=', r.body.id).executeTakeFirstOrThrow()
      expect(JSON.stringify(row)).not.toContain(WEBHOOK_ID)
      expect((await admin.put(`/proxy/api/agency/paymentMethods/${r.body.id}`, { ...PAYPAL_WH, secretKey: '', webhookId: '' })).status).toBe(200)
      const { methodSecrets } = await import('../ticketing/payment-methods')
      const again = await h().ctx.db.selectFrom('payment_method').selectAll().where('id', '=', r.body.id).executeTakeFirstOrThrow()
      expect(methodSecrets(h().ctx.secrets, again)).toMatchObject({ secretKey: PAYPAL.secretKey, webhookId: WEBHOOK_ID })
      // set later, as the organiser screen does once PayPal made the webhook for this method's address
      expect((await admin.put(`/proxy/api/agency/paymentMethods/${r.body.id}`, { ...PAYPAL, webhookId: 'WH-SECOND-0002' })).status).toBe(200)
      const later = await h().ctx.db.selectFrom('payment_method').selectAll().where('id', '=', r.body.id).executeTakeFirstOrThrow()
      expect(methodSecrets(h().ctx.secrets, later)).toMatchObject({ secretKey: PAYPAL.secretKey, webhookId: 'WH-SECOND-0002' })
      expect((await admin.put(`/proxy/api/agency/paymentMethods/${r.body.id}`, { ...PAYPAL, webhookId: 'WH bad/../' })).status).toBe(400)
    })

    test('bad signatures are refused (400) and logged: forged, signed for another webhook, headers missing, a method without webhook id; nothing stored or changed', async () => {
      const { admin, methodId, id, orderID } = await started(h())
      fakes.paypal.approve(orderID)
      const resource = fakes.paypal.resourceOf('order', orderID)
      warnings.length = 0
      const forged = await deliver(h(), methodId, fakes.paypal.webhook('CHECKOUT.ORDER.APPROVED', resource, { badSignature: true }))
      expect(forged.status).toBe(400)
      expect(forged.body.errorType).toBe('WEBHOOK_SIGNATURE_INVALID')
      expect(warnings).toContain('paypal webhook refused: bad signature')
      // genuine PayPal signature, but for another app's webhook: not ours
      expect((await deliver(h(), methodId, fakes.paypal.webhook('CHECKOUT.ORDER.APPROVED', resource, { webhookId: 'WH-OTHER-APP' }))).status).toBe(400)
      // a body changed after signing
      const d = fakes.paypal.webhook('CHECKOUT.ORDER.APPROVED', resource)
      expect((await deliver(h(), methodId, { ...d, body: d.body.replace('"event_version":"1.0"', '"event_version":"1.1"') })).status).toBe(400)
      expect((await deliver(h(), methodId, { body: d.body, headers: {} })).status).toBe(400)
      const plain = await admin.post('/proxy/api/agency/paymentMethods', { ...PAYPAL, currency: 'CHF' })
      expect((await deliver(h(), plain.body.id, fakes.paypal.webhook('CHECKOUT.ORDER.APPROVED', resource))).status).toBe(400)
      expect(await h().ctx.db.selectFrom('payment_event').select('id').where('provider', '=', 'PAYPAL').where('external_id', 'like', 'WH%').execute()).toEqual([])
      expect(await orderRow(h(), id)).toMatchObject({ status: 'OPEN', step: 40 })
      expect(fakes.paypal.orders.get(orderID)!.status).toBe('APPROVED')
    })

    test('approved and the buyer never came back: the webhook captures and pays (100); the same delivery twice and the later capture event change nothing', async () => {
      const { methodId, id, orderID } = await started(h())
      fakes.paypal.approve(orderID)
      const approved = fakes.paypal.webhook('CHECKOUT.ORDER.APPROVED', fakes.paypal.resourceOf('order', orderID))
      expect((await deliver(h(), methodId, approved)).body).toMatchObject({ received: true, outcome: 'PAID' })
      expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID', step: 100, paid_amount: 2500, payment_method: 'PAYPAL' })
      expect((await deliver(h(), methodId, approved)).body).toEqual({ received: true, duplicate: true })
      const capture = fakes.paypal.captureOf(orderID)!
      expect((await deliver(h(), methodId, fakes.paypal.webhook('PAYMENT.CAPTURE.COMPLETED', fakes.paypal.resourceOf('capture', capture)))).body.outcome).toBe('ALREADY')
      expect(fakes.paypal.orders.get(orderID)!.purchase_units[0]!.payments!.captures.length).toBe(1)
      const o = await orderRow(h(), id)
      const history = await h().ctx.db.selectFrom('ticket_order_history').select('kind').where('order_id', '=', o.id).execute()
      expect(history.filter((x) => x.kind === 'PAID_ONLINE').length).toBe(1)
      // the guest's page comes back after all: the order is paid already, no second capture
      expect((await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })).status).toBe(409)
      expect((await h().ctx.db.selectFrom('invoice').select('kind').where('order_ref', '=', String(o.id)).execute()).map((x) => x.kind)).toEqual(['INVOICE'])
    })

    test('out of order: the capture event before the approval event pays once; an amount that differs at PayPal is refused', async () => {
      const { methodId, id, orderID } = await started(h())
      const capture = capturedAtPayPal(orderID)
      const completed = fakes.paypal.webhook('PAYMENT.CAPTURE.COMPLETED', fakes.paypal.resourceOf('capture', capture))
      expect((await deliver(h(), methodId, completed)).body.outcome).toBe('PAID')
      const approved = fakes.paypal.webhook('CHECKOUT.ORDER.APPROVED', { ...fakes.paypal.resourceOf('order', orderID), status: 'APPROVED' })
      expect((await deliver(h(), methodId, approved)).body.outcome).toBe('ALREADY')
      expect(fakes.paypal.calls.filter((c) => c.path === `/v2/checkout/orders/${orderID}/capture`).length).toBe(0)
      expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID', step: 100 })

      // the event claims a capture of an order whose amount at PayPal is not the order's
      const other = await started(h())
      const cap2 = capturedAtPayPal(other.orderID)
      fakes.paypal.orders.get(other.orderID)!.purchase_units[0]!.amount.value = '1.00'
      warnings.length = 0
      expect((await deliver(h(), other.methodId, fakes.paypal.webhook('PAYMENT.CAPTURE.COMPLETED', fakes.paypal.resourceOf('capture', cap2)))).body.outcome).toBe('MISMATCH')
      expect(warnings).toContain('payment refused: provider state does not match the order')
      expect(await orderRow(h(), other.id)).toMatchObject({ status: 'OPEN' })
    })

    test("refunds: einlass's own refund is not recorded twice; refunds made in PayPal's dashboard are recorded once with their credit note; the last ends the order (902)", async () => {
      const { admin, event, categories, methodId, id, orderID } = await started(h())
      fakes.paypal.approve(orderID)
      expect((await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })).body.status).toBe('PAID')
      const o = await orderRow(h(), id)
      const capture = fakes.paypal.captureOf(orderID)!
      const own = await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/refundPayment`, { amount: 500 })
      expect(own.status).toBe(200)
      const ownRefund = own.body.refunds[0].providerRefundId as string
      expect((await deliver(h(), methodId, fakes.paypal.webhook('PAYMENT.CAPTURE.REFUNDED', fakes.paypal.resourceOf('refund', ownRefund)))).body.outcome).toBe('REFUND_KNOWN')

      const outside = fakes.paypal.refundOutside(capture, '10.00')
      const hook = fakes.paypal.webhook('PAYMENT.CAPTURE.REFUNDED', fakes.paypal.resourceOf('refund', outside.id))
      expect((await deliver(h(), methodId, hook)).body.outcome).toBe('PARTIAL_REFUND')
      expect((await deliver(h(), methodId, hook)).body).toEqual({ received: true, duplicate: true })
      // the same refund under another event (a reversal notice): still once
      expect((await deliver(h(), methodId, fakes.paypal.webhook('PAYMENT.CAPTURE.REVERSED', fakes.paypal.resourceOf('refund', outside.id)))).body.outcome).toBe('REFUND_KNOWN')
      let refunds = await h().ctx.db.selectFrom('payment_refund').selectAll().where('order_id', '=', o.id).orderBy('id').execute()
      expect(refunds.map((r) => [r.provider_refund_id, r.amount, r.reason])).toEqual([
        [ownRefund, 500, 'ORGANISER'],
        [outside.id, 1000, 'PROVIDER'],
      ])
      expect((await attemptsOf(h(), id))[0]!.refunded_amount).toBe(1500)
      expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID' })
      // the rest refunded at PayPal: recorded, credit note for exactly the rest, order REFUNDED, tickets back
      const last = fakes.paypal.refundOutside(capture, '10.00')
      expect((await deliver(h(), methodId, fakes.paypal.webhook('PAYMENT.CAPTURE.REFUNDED', fakes.paypal.resourceOf('refund', last.id)))).body.outcome).toBe('REFUNDED')
      refunds = await h().ctx.db.selectFrom('payment_refund').selectAll().where('order_id', '=', o.id).orderBy('id').execute()
      expect(refunds.reduce((s, r) => s + r.amount, 0)).toBe(2500)
      expect(await orderRow(h(), id)).toMatchObject({ status: 'REFUNDED', step: 902 })
      expect(await soldOf(h(), categories[0]!.id)).toBe(0)
      expect(await invoicesOf(h(), o.id)).toEqual([
        ['INVOICE', 2500],
        ['CANCELLATION', -500],
        ['CANCELLATION', -1000],
        ['CANCELLATION', -1000],
      ])
      // a refund webhook about another agency's PayPal order is ignored
      const stranger = await started(h())
      fakes.paypal.approve(stranger.orderID)
      await h().request('POST', `${orderUrl(stranger.id)}/proceed/paymentPay`, { body: {} })
      const foreign = fakes.paypal.refundOutside(fakes.paypal.captureOf(stranger.orderID)!, '25.00')
      expect((await deliver(h(), methodId, fakes.paypal.webhook('PAYMENT.CAPTURE.REFUNDED', fakes.paypal.resourceOf('refund', foreign.id)))).body).toEqual({ received: true })
      expect(await orderRow(h(), stranger.id)).toMatchObject({ status: 'PAID' })
    })
  },
  { env: fakes.env, log },
)
