// Stripe on the step machine against the local fake: credentials sealed and never sent out,
// PaymentIntent at paymentPay (80), the page's clientSecret, webhooks verified and stored once,
// the return without a webhook, a declined card, amount mismatch, double click, provider down.
import { afterAll, expect, test } from 'bun:test'
import type { Logger } from '../../logger'
import { type Harness, forEachDialect } from '../../testing/harness'
import { setProviderTimeout } from './clients'
import { STRIPE, attemptsOf, invoicesOf, onlineEvent, orderRow, orderUrl, soldOf, startFakes, stripeHook, toConfirmation } from './testing'

const fakes = startFakes()
afterAll(() => fakes.stop())
const warnings: string[] = []
const log: Logger = { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {}, enabled: () => false }

const webhook = (h: Harness, methodId: number, piId: string, opts: Parameters<typeof fakes.stripe.webhook>[1] = {}) => stripeHook(h, fakes.stripe, methodId, piId, opts)

forEachDialect(
  'stripe payments',
  (h) => {
    test('credentials: secret key and signing secret sealed at rest, never answered; test mode shown; a blank secret keeps the stored one', async () => {
      const admin = await h().admin()
      const bad = await admin.post('/proxy/api/agency/paymentMethods', { method: 'STRIPE', publicKey: 'nope', secretKey: 'sk_test_x' })
      expect(bad.status).toBe(400)
      expect(bad.body.errorFields).toEqual([{ field: 'publicKey', errorType: 'INVALID' }, { field: 'webhookSecret', errorType: 'REQUIRED' }])
      const r = await admin.post('/proxy/api/agency/paymentMethods', STRIPE)
      expect(r.status).toBe(201)
      expect(r.body).toMatchObject({ method: 'STRIPE', publicKey: 'pk_test_einlass', testMode: true, hasSecretKey: true, paymentTypes: ['CARD', 'SEPA'] })
      expect(JSON.stringify(r.body)).not.toContain('sk_test_einlass')
      expect(JSON.stringify(r.body)).not.toContain('whsec_')
      const row = await h().ctx.db.selectFrom('payment_method').selectAll().where('id', '=', r.body.id).executeTakeFirstOrThrow()
      expect(row.secret_sealed).toMatch(/^v1\./)
      expect(row.secret_sealed).not.toContain('sk_test')
      const put = await admin.put(`/proxy/api/agency/paymentMethods/${r.body.id}`, { ...STRIPE, secretKey: '', webhookSecret: '' })
      expect(put.status).toBe(200)
      expect(put.body.hasSecretKey).toBe(true)
      const list = await admin.get('/proxy/api/agency/paymentMethods')
      expect(JSON.stringify(list.body)).not.toContain('sk_test')
    })

    test('card paid: paymentPay → 80 with the clientSecret in stripePayment, webhook re-fetches → PAID 100 with mail; the same event twice and a second event change nothing', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      let info = (await h().request('GET', orderUrl(id))).body
      expect(info.stripePayment).toMatchObject({ publicKey: 'pk_test_einlass', accountId: null, clientSecret: null, successUrl: `http://localhost/pay/${id}#success` })
      expect(info.paymentMethods[0]).toMatchObject({ method: 'STRIPE', paymentTypes: ['CARD', 'SEPA'], hasSecretKey: true })
      expect(JSON.stringify(info)).not.toContain('sk_test')
      const pay = await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'STRIPE', stripePaymentType: 'CARD', fullName: 'Berta Käuferin' } })
      expect(pay.status).toBe(200)
      expect(pay.body).toMatchObject({ step: 80, status: 'OPEN' })
      const [a] = await attemptsOf(h(), id)
      expect(a).toMatchObject({ provider: 'STRIPE', status: 'OPEN', amount: 2500, currency: 'EURO' })
      const pi = fakes.stripe.intents.get(a.external_id!)!
      expect(pi).toMatchObject({ amount: 2500, currency: 'eur', metadata: { orderRef: id } })
      expect(fakes.stripe.calls.find((c) => c.path === '/v1/payment_intents' && c.idempotencyKey === a.idempotency_key)).toBeTruthy()
      info = (await h().request('GET', orderUrl(id))).body
      expect(info.stripePayment.clientSecret).toBe(pi.client_secret)
      // a webhook before the guest confirmed: the intent is not paid, nothing changes
      const early = await webhook(h(), info.paymentMethods[0].id, pi.id, { type: 'payment_intent.created' })
      expect(early.status).toBe(200)
      expect((await orderRow(h(), id)).step).toBe(80)

      fakes.stripe.confirm(pi.id, 'ok')
      const w = await webhook(h(), info.paymentMethods[0].id, pi.id, { eventId: `evt_paid_${id}` })
      expect(w.body).toMatchObject({ received: true, outcome: 'PAID' })
      const o = await orderRow(h(), id)
      expect(o).toMatchObject({ status: 'PAID', step: 100, paid_amount: 2500, payment_method: 'STRIPE' })
      const again = await webhook(h(), info.paymentMethods[0].id, pi.id, { eventId: `evt_paid_${id}` })
      expect(again.body).toEqual({ received: true, duplicate: true })
      const other = await webhook(h(), info.paymentMethods[0].id, pi.id)
      expect(other.body.outcome).toBe('ALREADY')
      // the return after the webhook: still paid once
      expect((await h().request('POST', `${orderUrl(id)}/stripe/success`)).body).toMatchObject({ step: 100, status: 'PAID' })
      const history = await h().ctx.db.selectFrom('ticket_order_history').select('kind').where('order_id', '=', o.id).execute()
      expect(history.filter((x) => x.kind === 'PAID_ONLINE').length).toBe(1)
      const events = await h().ctx.db.selectFrom('payment_event').selectAll().where('attempt_id', '=', a.id).execute()
      expect(events.filter((e) => e.outcome === 'PAID').length).toBe(1)
      await h().deliverMail()
      expect(h().smtp.mails.filter((m) => m.subject.includes(o.number)).length).toBe(1)
      expect(await soldOf(h(), categories[0].id)).toBe(1)
    })

    test("refunds made in Stripe's dashboard are recorded once with their credit note (charge.refunded, refund.created/updated); einlass's own are not counted twice; the last ends the order (902)", async () => {
      const admin = await h().admin()
      // seller data: the payment is invoiced, so every refund gets its credit note
      await admin.put('/proxy/api/agency/sellerSettings', { name: 'Agentur GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-', contactName: 'Ada Admin', phone: '+49 30 123456', email: 'kasse@agentur.example' })
      const { event, categories } = await onlineEvent(admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      const methodId = (await h().request('GET', orderUrl(id))).body.paymentMethods[0].id as number
      await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'STRIPE', stripePaymentType: 'CARD', fullName: 'Berta Käuferin' } })
      const [a] = await attemptsOf(h(), id)
      fakes.stripe.confirm(a.external_id!, 'ok')
      expect((await webhook(h(), methodId, a.external_id!)).body.outcome).toBe('PAID')
      const o = await orderRow(h(), id)
      const refundsOf = () => h().ctx.db.selectFrom('payment_refund').select(['provider_refund_id', 'amount', 'reason']).where('order_id', '=', o.id).orderBy('id').execute()
      // einlass's own refund, then Stripe's notice about it: known, not counted again
      const own = await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/refundPayment`, { amount: 500 })
      expect(own.status).toBe(200)
      expect((await webhook(h(), methodId, a.external_id!, { about: 'charge' })).body.outcome).toBe('REFUND_KNOWN')
      // 10 € refunded in Stripe's dashboard: recorded once, with its credit note
      const outside = fakes.stripe.refundOutside(a.external_id!, 1000)
      const notice = { about: 'charge' as const, eventId: `evt_refund_${id}` }
      expect((await webhook(h(), methodId, a.external_id!, notice)).body.outcome).toBe('PARTIAL_REFUND')
      expect((await webhook(h(), methodId, a.external_id!, notice)).body).toEqual({ received: true, duplicate: true })
      expect((await webhook(h(), methodId, a.external_id!, { about: { refund: outside.id }, type: 'refund.updated' })).body.outcome).toBe('REFUND_KNOWN')
      expect((await refundsOf()).map((r) => [r.amount, r.reason])).toEqual([
        [500, 'ORGANISER'],
        [1000, 'PROVIDER'],
      ])
      expect((await attemptsOf(h(), id))[0]!.refunded_amount).toBe(1500)
      expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID' })
      // a refund still pending at Stripe is not money back yet
      const pending = fakes.stripe.refundOutside(a.external_id!, 400, 'pending')
      expect((await webhook(h(), methodId, a.external_id!, { about: { refund: pending.id } })).body.outcome).toBe('REFUND_KNOWN')
      pending.status = 'failed'
      // more than was paid (no provider lists that; refused and logged, nothing recorded)
      const tooMuch = fakes.stripe.refundOutside(a.external_id!, 5000)
      warnings.length = 0
      expect((await webhook(h(), methodId, a.external_id!, { about: { refund: tooMuch.id } })).body.outcome).toBe('MISMATCH')
      expect(warnings.some((w) => w.includes('stripe refund refused'))).toBe(true)
      expect(await refundsOf()).toHaveLength(2)
      fakes.stripe.refunds.splice(fakes.stripe.refunds.indexOf(tooMuch), 1)
      // the rest in the dashboard: the order ends REFUNDED (902), its ticket back, credit notes for each refund
      const last = fakes.stripe.refundOutside(a.external_id!, 1000)
      expect((await webhook(h(), methodId, a.external_id!, { about: { refund: last.id } })).body.outcome).toBe('REFUNDED')
      expect((await refundsOf()).reduce((sum, r) => sum + r.amount, 0)).toBe(2500)
      expect(await orderRow(h(), id)).toMatchObject({ status: 'REFUNDED', step: 902 })
      expect(await soldOf(h(), categories[0].id)).toBe(0)
      expect(await invoicesOf(h(), o.id)).toEqual([
        ['INVOICE', 2500],
        ['CANCELLATION', -500],
        ['CANCELLATION', -1000],
        ['CANCELLATION', -1000],
      ])
    })

    test('return without webhook: stripe/success re-fetches and pays; a declined card fails (910) with its code, tickets back, and the order is payable again after reset', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { fullName: 'Berta Käuferin' } })
      let [a] = await attemptsOf(h(), id)
      fakes.stripe.confirm(a.external_id!, 'declined')
      const back = await h().request('POST', `${orderUrl(id)}/stripe/success`)
      expect(back.body).toMatchObject({ step: 910, status: 'CANCELED', errorCode: 'card_declined' })
      expect(await soldOf(h(), categories[0].id)).toBe(0)
      const reset = await h().request('GET', `${orderUrl(id)}/reset`)
      expect(reset.body.step).toBe(40)
      expect(await soldOf(h(), categories[0].id)).toBe(1)
      const pay = await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
      expect(pay.body.step).toBe(80)
      const all = await attemptsOf(h(), id)
      expect(all.map((x) => x.status)).toEqual(['FAILED', 'OPEN'])
      a = all[1]
      // 3-D Secure still pending: the return leaves the order processing
      fakes.stripe.confirm(a.external_id!, '3ds')
      expect((await h().request('POST', `${orderUrl(id)}/stripe/success`)).body).toMatchObject({ step: 80, status: 'OPEN' })
      fakes.stripe.confirm(a.external_id!, 'ok')
      expect((await h().request('POST', `${orderUrl(id)}/stripe/success`)).body).toMatchObject({ step: 100, status: 'PAID' })
    })

    test('bad signature refused and logged; an amount that differs at the provider is refused', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
      const [a] = await attemptsOf(h(), id)
      const methodId = a.payment_method_id!
      fakes.stripe.confirm(a.external_id!, 'ok')
      warnings.length = 0
      const forged = await webhook(h(), methodId, a.external_id!, { secret: 'whsec_wrong' })
      expect(forged.status).toBe(400)
      expect(forged.body.errorType).toBe('WEBHOOK_SIGNATURE_INVALID')
      expect(warnings).toContain('stripe webhook refused: bad signature')
      const unsigned = await h().app.handle(new Request(`http://localhost/proxy/api/payments/stripe/webhook/${methodId}`, { method: 'POST', body: '{}' }))
      expect(unsigned.status).toBe(400)
      expect((await orderRow(h(), id)).status).toBe('OPEN')
      // the provider says 1,00 € was paid for a 25,00 € order: refused, logged, nothing changes
      fakes.stripe.intents.get(a.external_id!)!.amount = 100
      const w = await webhook(h(), methodId, a.external_id!)
      expect(w.body.outcome).toBe('MISMATCH')
      expect(warnings).toContain('payment refused: provider state does not match the order')
      expect(await orderRow(h(), id)).toMatchObject({ status: 'OPEN', step: 80, paid_at: null })
      fakes.stripe.intents.get(a.external_id!)!.amount = 2500
    })

    test('processing (80) reconciled by the background task: paid without webhook or return; an intent never confirmed is cancelled at Stripe after 30 minutes (901, tickets back)', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
      const [a] = await attemptsOf(h(), id)
      const id2 = await toConfirmation(h(), event.id, categories[0].id)
      await h().request('POST', `${orderUrl(id2)}/proceed/paymentPay`, { body: {} })
      const [b] = await attemptsOf(h(), id2)
      fakes.stripe.confirm(a.external_id!, 'ok')
      h().clock.advance(6 * 60_000)
      await h().tasks.runOnce()
      expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID', step: 100 })
      expect(await orderRow(h(), id2)).toMatchObject({ status: 'OPEN', step: 80 })
      for (let i = 0; i < 6; i++) {
        h().clock.advance(5 * 60_000)
        await h().tasks.runOnce()
      }
      expect(await orderRow(h(), id2)).toMatchObject({ status: 'CANCELED', step: 901 })
      expect(fakes.stripe.intents.get(b.external_id!)!.status).toBe('canceled')
      expect(await soldOf(h(), categories[0].id)).toBe(1)
    })

    test('double click: two paymentPay at once make one PaymentIntent and one attempt', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      const before = fakes.stripe.intents.size
      const [x, y] = await Promise.all([1, 2].map(() => h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })))
      expect([x.status, y.status].sort()).toEqual([200, 409])
      expect(fakes.stripe.intents.size - before).toBe(1)
      expect((await attemptsOf(h(), id)).length).toBe(1)
    })

    test('provider down (500, then no answer): clear German error, nothing written, the order still payable later', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      fakes.stripe.fail = '500'
      const r = await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
      expect(r.status).toBe(502)
      expect(r.body.errorType).toBe('PAYMENT_PROVIDER_UNAVAILABLE')
      expect(r.body.errorMessage).toContain('Der Zahlungsdienst ist gerade nicht erreichbar')
      fakes.stripe.fail = 'timeout'
      setProviderTimeout(300)
      const t = await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
      setProviderTimeout(10_000)
      fakes.stripe.fail = null
      expect(t.status).toBe(502)
      expect(await attemptsOf(h(), id)).toEqual([])
      expect(await orderRow(h(), id)).toMatchObject({ status: 'OPEN', step: 40 })
      const ok = await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
      expect(ok.body.step).toBe(80)
    })
  },
  { env: fakes.env, log },
)

forEachDialect('pay page CSP', (h) => {
  test('the pay page may load the configured provider scripts; other pages keep the strict policy', async () => {
    const pay = await h().request('GET', '/pay/abcdefghijklmnopqrstuvwx')
    const csp = pay.headers.get('content-security-policy')!
    expect(csp).toContain('script-src \'self\' http://127.0.0.1:')
    expect(csp).toContain('https://js.stripe.com')
    expect(csp).toContain('frame-src')
    const other = await h().request('GET', '/events')
    expect(other.headers.get('content-security-policy')).toContain("script-src 'self';")
  })
}, { env: { ...fakes.env, EINLASS_STRIPE_JS_URL: `${fakes.stripe.url}/stripe.js` } })
