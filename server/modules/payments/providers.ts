// STRIPE, MOLLIE and PAYPAL as providers of the order step machine (docs/payments.md):
// - STRIPE: paymentPay creates the PaymentIntent (prepare, outside the order's transaction) and
//   moves the order to PROCESSING (80); the page confirms with the clientSecret of the ticket
//   info's stripePayment, Stripe returns to successUrl, stripe/success and the webhook re-fetch.
// - MOLLIE: paymentPay (or mollie/init) creates the payment and sends the guest to the checkout
//   (70); mollie/success re-fetches: paid → 100, else SYSTEM_PAYMENT_WAIT (90) until the webhook
//   or the background task says paid.
// - PAYPAL: paypal/init creates the PayPal order (orderID for the JS SDK buttons); after the
//   buyer approved, paymentPay captures it (prepare) and the order is paid at once.
import type { AppContext } from '../../context'
import { AppError } from '../../shared/errors'
import { registerPaymentProvider } from '../ticketing/payment-methods'
import { STEP } from '../ticketing/orders/steps'
import type { PaymentMethodRow, TicketOrderRow } from '../ticketing/ticketing.table'
import { type RemoteState, applyRemote, attachExternal, dropAttempt, openAttempt, setWholeRefund } from './attempts'
import { decimal, fromDecimal, isoCurrency, mollieClient, payPalClient, providerDown, providerTimeout, stripeClient, withTimeout } from './clients'
import type { PaymentAttemptRow } from './payments.table'

const einlassCurrency = (c: string) => (c.toUpperCase() === 'EUR' ? 'EURO' : c.toUpperCase())
const stepChanged = (o: TicketOrderRow) => new AppError(409, 'ORDER_STEP_CHANGED', { extra: { step: o.step, orderStatus: o.status } })

/** Runs a provider call; a failure or timeout is PAYMENT_PROVIDER_UNAVAILABLE and logged. */
export async function callProvider<T>(ctx: AppContext, what: string, f: () => Promise<T>): Promise<T> {
  try {
    return await withTimeout(f(), providerTimeout())
  } catch (e) {
    if (e instanceof AppError) throw e
    ctx.log.warn('payment provider call failed', { what, error: e instanceof Error ? e.message : String(e) })
    throw providerDown(e)
  }
}

// ---- re-fetching a payment (webhooks and returns are only hints) -----------------------------

export async function fetchRemote(ctx: AppContext, attempt: PaymentAttemptRow, method: PaymentMethodRow): Promise<RemoteState> {
  if (!attempt.external_id) throw new AppError(409, 'PAYMENT_NOT_STARTED')
  const id = attempt.external_id
  if (attempt.provider === 'STRIPE') {
    const pi = await callProvider(ctx, 'stripe.retrieve', async () => (await stripeClient(ctx, method)).paymentIntents.retrieve(id))
    const err = pi.last_payment_error
    const status: RemoteState['status'] =
      pi.status === 'succeeded' ? 'paid' : pi.status === 'canceled' ? 'canceled' : pi.status === 'requires_payment_method' ? (err ? 'failed' : 'open') : 'pending'
    return { status, amount: pi.amount, currency: einlassCurrency(pi.currency), orderRef: pi.metadata?.orderRef ?? null, errorCode: err?.code ?? null, errorMessage: err?.message ?? null }
  }
  if (attempt.provider === 'MOLLIE') {
    const p = await callProvider(ctx, 'mollie.get', async () => (await mollieClient(ctx, method)).payments.get(id))
    const s = String(p.status)
    const status: RemoteState['status'] = s === 'paid' ? 'paid' : s === 'open' ? 'open' : s === 'pending' || s === 'authorized' ? 'pending' : s === 'failed' ? 'failed' : s === 'expired' ? 'expired' : 'canceled'
    return { status, amount: fromDecimal(p.amount.value), currency: einlassCurrency(p.amount.currency), orderRef: ((p.metadata ?? {}) as { orderRef?: string }).orderRef ?? null }
  }
  if (attempt.provider === 'PAYPAL') {
    const r = await callProvider(ctx, 'paypal.get', () => payPalClient(ctx, method).getOrder(id))
    if (r.status !== 200) throw providerDown()
    const o = r.json
    const unit = o.purchase_units?.[0] ?? {}
    const status: RemoteState['status'] = o.status === 'COMPLETED' ? 'paid' : o.status === 'VOIDED' ? 'canceled' : o.status === 'APPROVED' ? 'pending' : 'open'
    return { status, amount: fromDecimal(unit.amount?.value ?? '0'), currency: einlassCurrency(unit.amount?.currency_code ?? ''), orderRef: unit.custom_id ?? null }
  }
  throw new AppError(409, 'PAYMENT_METHOD_NOT_AVAILABLE')
}

// ---- refunds through the provider -----------------------------------------------------------

/**
 * A refund through the provider: its id, and `pending` when the provider accepted it without having
 * made it yet (Mollie: queued, pending, processing; Stripe: pending, e.g. SEPA; it may still fail:
 * refund-outcomes.ts looks again).
 */
export async function providerRefund(ctx: AppContext, attempt: PaymentAttemptRow, method: PaymentMethodRow, amount: number, key: string): Promise<ProviderRefund> {
  const id = attempt.external_id!
  if (attempt.provider === 'STRIPE') {
    const r = await callProvider(ctx, 'stripe.refund', async () => (await stripeClient(ctx, method)).refunds.create({ payment_intent: id, amount }, { idempotencyKey: key }))
    // a card refund succeeds at once; a SEPA Direct Debit one is pending for days and may fail
    return { id: r.id, pending: r.status !== 'succeeded' }
  }
  if (attempt.provider === 'MOLLIE') {
    const r = await callProvider(ctx, 'mollie.refund', async () => (await mollieClient(ctx, method)).paymentRefunds.create({ paymentId: id, amount: { currency: isoCurrency(attempt.currency), value: decimal(amount) }, idempotencyKey: key } as any))
    return { id: r.id, pending: r.status !== 'refunded' }
  }
  if (attempt.provider === 'PAYPAL') {
    const client = payPalClient(ctx, method)
    const o = await callProvider(ctx, 'paypal.get', () => client.getOrder(id))
    const capture = o.json?.purchase_units?.[0]?.payments?.captures?.[0]?.id
    if (!capture) throw new AppError(409, 'PAYMENT_NOT_STARTED')
    const r = await callProvider(ctx, 'paypal.refund', () => client.refund(capture, { value: decimal(amount), currency_code: isoCurrency(attempt.currency) }, key))
    if (r.status === 422) throw new AppError(409, 'REFUND_TOO_LARGE')
    if (r.status !== 201 && r.status !== 200) throw providerDown()
    // PENDING when PayPal cannot make it yet (e.g. the seller's balance is short): looked at again like Mollie's
    return { id: r.json.id, pending: r.json.status !== 'COMPLETED' }
  }
  throw new AppError(409, 'PAYMENT_METHOD_NOT_AVAILABLE')
}
export interface ProviderRefund {
  id: string
  pending: boolean
}

/**
 * Where a refund stands now at its provider: made, failed (failed or canceled), or still on its way;
 * with the provider's own status. Refunds are recorded before they are made when the provider says
 * they are on their way (Mollie's always, Stripe's SEPA ones, PayPal's PENDING ones).
 */
export async function providerRefundState(ctx: AppContext, attempt: PaymentAttemptRow, method: PaymentMethodRow, refundId: string): Promise<{ state: 'DONE' | 'FAILED' | 'PENDING'; status: string }> {
  let status: string
  if (attempt.provider === 'STRIPE') status = String((await callProvider(ctx, 'stripe.refund.get', async () => (await stripeClient(ctx, method)).refunds.retrieve(refundId))).status)
  else if (attempt.provider === 'PAYPAL') {
    const r = await callProvider(ctx, 'paypal.getRefund', () => payPalClient(ctx, method).getRefund(refundId))
    if (r.status !== 200) throw providerDown()
    status = String(r.json?.status)
  } else status = String((await callProvider(ctx, 'mollie.refund.get', async () => (await mollieClient(ctx, method)).paymentRefunds.get(refundId, { paymentId: attempt.external_id! }))).status)
  return { state: refundStateOf(attempt.provider, status), status }
}

/** A provider's refund status as einlass keeps it: made (Stripe succeeded, Mollie refunded, PayPal COMPLETED), failed or canceled, else on its way. */
export function refundStateOf(provider: string, status: string): 'DONE' | 'FAILED' | 'PENDING' {
  const made = { STRIPE: 'succeeded', MOLLIE: 'refunded', PAYPAL: 'COMPLETED' }[provider]
  if (status === made) return 'DONE'
  return ['failed', 'canceled', 'FAILED', 'CANCELLED'].includes(status) ? 'FAILED' : 'PENDING'
}
setWholeRefund(providerRefund)

// ---- starting payments ----------------------------------------------------------------------

const payUrl = (ctx: AppContext, order: TicketOrderRow) => `${ctx.config.baseUrl}/pay/${order.public_id}`

/** Creates the attempt's payment at the provider once (idempotency key); an error leaves nothing behind. */
async function started(ctx: AppContext, order: TicketOrderRow, method: PaymentMethodRow, create: (a: PaymentAttemptRow) => Promise<{ external_id: string; client_secret?: string | null; checkout_url?: string | null }>) {
  let a = await openAttempt(ctx, order, method)
  if (a.external_id) {
    // an attempt from before a reset (SYSTEM_PAYMENT_WAIT → continue): reused only while the
    // provider still takes it; paid meanwhile → the order is paid; ended → a new one
    const remote = await fetchRemote(ctx, a, method)
    if (remote.status === 'open') return a
    if (remote.status === 'paid' || remote.status === 'pending') {
      await applyRemote(ctx, a, remote, 'return')
      throw stepChanged((await ctx.db.selectFrom('ticket_order').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow()) as TicketOrderRow)
    }
    await applyRemote(ctx, a, remote, 'return')
    a = await openAttempt(ctx, order, method)
    if (a.external_id) throw stepChanged(order)
  }
  try {
    return await attachExternal(ctx, a, await create(a))
  } catch (e) {
    await dropAttempt(ctx, a)
    throw e
  }
}

export const startStripe = (ctx: AppContext, order: TicketOrderRow, method: PaymentMethodRow) =>
  started(ctx, order, method, async (a) => {
    const pi = await callProvider(ctx, 'stripe.create', async () =>
      (await stripeClient(ctx, method)).paymentIntents.create(
        { amount: order.gross_price, currency: isoCurrency(order.currency).toLowerCase(), description: `Bestellung ${order.number}`, metadata: { orderRef: order.public_id, orderNumber: order.number }, automatic_payment_methods: { enabled: true } },
        { idempotencyKey: a.idempotency_key },
      ),
    )
    return { external_id: pi.id, client_secret: pi.client_secret }
  })

export const startMollie = (ctx: AppContext, order: TicketOrderRow, method: PaymentMethodRow) =>
  started(ctx, order, method, async (a) => {
    const p = await callProvider(ctx, 'mollie.create', async () =>
      (await mollieClient(ctx, method)).payments.create({
        amount: { currency: isoCurrency(order.currency), value: decimal(order.gross_price) },
        description: `Bestellung ${order.number}`,
        redirectUrl: `${payUrl(ctx, order)}#mollie`,
        webhookUrl: `${ctx.config.baseUrl}/proxy/api/payments/mollie/webhook`,
        metadata: { orderRef: order.public_id },
        idempotencyKey: a.idempotency_key,
      } as any),
    )
    return { external_id: p.id, checkout_url: p.getCheckoutUrl() }
  })

export const startPayPal = (ctx: AppContext, order: TicketOrderRow, method: PaymentMethodRow) =>
  started(ctx, order, method, async (a) => {
    const r = await callProvider(ctx, 'paypal.create', () => payPalClient(ctx, method).createOrder({ amount: decimal(order.gross_price), currency: isoCurrency(order.currency), customId: order.public_id, description: `Bestellung ${order.number}` }, a.idempotency_key))
    if (r.status !== 201 && r.status !== 200) throw providerDown()
    return { external_id: r.json.id }
  })

registerPaymentProvider({
  method: 'STRIPE',
  prepare: (ctx, order, method) => startStripe(ctx, order, method),
  async pay(_ctx, _trx, order, _m, input) {
    if (!input.prepared) throw stepChanged(order)
    return { step: STEP.PROCESSING, status: 'OPEN' }
  },
})

registerPaymentProvider({
  method: 'MOLLIE',
  prepare: (ctx, order, method) => startMollie(ctx, order, method),
  async pay(_ctx, _trx, order, _m, input) {
    const a = input.prepared as PaymentAttemptRow | undefined
    if (!a) throw stepChanged(order)
    return { step: STEP.EXTERNAL_SITE, status: 'OPEN', redirectUrl: a.checkout_url }
  },
})

export interface PayPalCaptured {
  settled: true
  attempt: PaymentAttemptRow
  outcome: string
}

registerPaymentProvider({
  method: 'PAYPAL',
  /** after the buyer approved in the PayPal window: capture, then the order is paid (applyRemote) */
  async prepare(ctx, order, method): Promise<PayPalCaptured> {
    const a = await ctx.db.selectFrom('payment_attempt').selectAll().where('order_id', '=', order.id).where('status', '=', 'OPEN').where('provider', '=', 'PAYPAL').executeTakeFirst()
    if (!a?.external_id) throw new AppError(409, 'PAYMENT_NOT_STARTED')
    // a PayPal order is captured at most once (a second capture answers ORDER_ALREADY_CAPTURED), so
    // each try gets its own request id: a declined try must not be replayed after the buyer re-approved
    const r = await callProvider(ctx, 'paypal.capture', () => payPalClient(ctx, method).capture(a.external_id!, `${a.idempotency_key}-capture-${crypto.randomUUID()}`))
    if (r.status === 422 && JSON.stringify(r.json).includes('INSTRUMENT_DECLINED')) throw new AppError(402, 'PAYMENT_DECLINED', { extra: { code: 'INSTRUMENT_DECLINED' } })
    if (r.status === 422 && !JSON.stringify(r.json).includes('ORDER_ALREADY_CAPTURED')) throw new AppError(409, 'PAYMENT_NOT_STARTED')
    if (r.status >= 400 && r.status !== 422) throw providerDown()
    const outcome = await applyRemote(ctx, a, await fetchRemote(ctx, a, method), 'capture')
    return { settled: true, attempt: a, outcome }
  },
  async pay(_ctx, _trx, order) {
    // the capture settled the order already (prepare); reaching here means it did not
    throw stepChanged(order)
  },
})
