// Provider webhooks (docs/payments.md). A webhook only says "look again": the payment (and for a
// refund event, its refunds) is re-fetched from the provider and applyRemote checks amount,
// currency and order. Stripe's are
// verified with the endpoint's signing secret (constructEventAsync, the one that works under
// Bun); a bad signature is refused (400) and logged. Every event is stored once per provider and
// external id, so a second delivery changes nothing. A provider that cannot be reached for the
// re-fetch answers 503: the provider delivers again later.
import type Stripe from 'stripe'
import type { AppContext } from '../../context'
import { isUniqueViolation } from '../../db/database'
import { prepared } from '../../db/prepared'
import { isoNow } from '../../db/types'
import { AppError } from '../../shared/errors'
import { applyRemote, attemptByExternal } from './attempts'
import { fromDecimal, isoCurrency, mollieClient, payPalClient, payPalWebhookId, stripeClient, stripeSdk, stripeWebhookSecret } from './clients'
import type { PaymentMethodRow } from '../ticketing/ticketing.table'
import type { PaymentAttemptRow } from './payments.table'
import { callProvider, fetchRemote, refundStateOf } from './providers'
import { recordRefund } from './refunds'
import { checkPendingRefunds, settleRefund } from './refund-outcomes'

// the SDK's signature check needs an instance, not a key: made on the first webhook (SDK loaded lazily)
let verifier: Stripe | null = null

/**
 * Seen before at this payment method's endpoint. Per method, not per provider: an event id ignored at
 * another agency's endpoint (signed with its own secret, about a payment not its own) must still be
 * applied where it belongs.
 */
async function seen(ctx: AppContext, provider: string, methodId: number, externalId: string) {
  return !!(await seenQuery.first(ctx.db, { provider, methodId, externalId }))
}

// every webhook runs these: compiled once (db/prepared.ts)
const seenQuery = prepared((db, p: { provider: string; methodId: number; externalId: string }) =>
  db.selectFrom('payment_event').select('id').where('provider', '=', p.provider).where('payment_method_id', '=', p.methodId).where('external_id', '=', p.externalId),
)
const storeQuery = prepared((db, p: { provider: string; methodId: number; externalId: string; kind: string; attemptId: number | null; outcome: string; at: string }) =>
  db.insertInto('payment_event').values({ provider: p.provider, payment_method_id: p.methodId, external_id: p.externalId, kind: p.kind, attempt_id: p.attemptId, outcome: p.outcome, received_at: p.at }),
)
const stripeMethodQuery = prepared((db, p: { id: number }) => db.selectFrom('payment_method').selectAll().where('id', '=', p.id).where('method', '=', 'STRIPE'))

async function store(ctx: AppContext, e: { provider: string; payment_method_id: number; external_id: string; kind: string; attempt_id: number | null; outcome: string }) {
  try {
    await storeQuery(ctx.db, { provider: e.provider, methodId: e.payment_method_id, externalId: e.external_id, kind: e.kind, attemptId: e.attempt_id, outcome: e.outcome, at: isoNow(ctx.clock.now()) })
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
  }
}

export async function stripeWebhook(ctx: AppContext, methodId: number, body: string, signature: string | null) {
  const method = await stripeMethodQuery.first(ctx.db, { id: methodId })
  const secret = method ? stripeWebhookSecret(ctx, method) : null
  let event: Stripe.Event
  try {
    if (!method || !secret || !signature) throw new Error('no signing secret or signature')
    verifier ??= new (await stripeSdk())('sk_unused', {})
    event = await verifier.webhooks.constructEventAsync(body, signature, secret)
  } catch (e) {
    ctx.log.warn('stripe webhook refused: bad signature', { methodId, error: e instanceof Error ? e.message : String(e) })
    throw new AppError(400, 'WEBHOOK_SIGNATURE_INVALID')
  }
  if (await seen(ctx, 'STRIPE', methodId, event.id)) return { received: true, duplicate: true }
  // the payment the event is about: the intent itself, or the intent of a charge or refund (a refund
  // made in Stripe's dashboard arrives as charge.refunded / refund.created / refund.updated)
  const obj = event.data.object as { object?: string; id?: string; payment_intent?: unknown }
  const aboutRefund = obj.object === 'charge' || obj.object === 'refund'
  const intentId = obj.object === 'payment_intent' ? obj.id : aboutRefund && typeof obj.payment_intent === 'string' ? obj.payment_intent : undefined
  const attempt = intentId ? await attemptByExternal(ctx.db, 'STRIPE', intentId) : undefined
  if (!attempt || attempt.agency_id !== method!.agency_id) {
    await store(ctx, { provider: 'STRIPE', payment_method_id: methodId, external_id: event.id, kind: event.type, attempt_id: null, outcome: 'IGNORED' })
    return { received: true }
  }
  let outcome: string = await applyRemote(ctx, attempt, await fetchRemote(ctx, attempt, method!), 'webhook', method!)
  if (aboutRefund && outcome !== 'MISMATCH') outcome = await stripeRefunds(ctx, attempt, method!)
  await store(ctx, { provider: 'STRIPE', payment_method_id: methodId, external_id: event.id, kind: event.type, attempt_id: attempt.id, outcome })
  return { received: true, outcome }
}

/**
 * The refunds of a Stripe payment as Stripe lists them now (not as the event says), each recorded
 * once by its refund id: einlass's own are known already, one made in Stripe's dashboard gets its
 * credit note and mail, and the one that refunds the rest ends the order (902). A refund that would
 * exceed the payment, or in another currency, is refused and logged.
 */
async function stripeRefunds(ctx: AppContext, attempt: PaymentAttemptRow, method: PaymentMethodRow): Promise<string> {
  const list = await callProvider(ctx, 'stripe.refunds', async () => (await stripeClient(ctx, method)).refunds.list({ payment_intent: attempt.external_id!, limit: 100 }))
  let outcome = 'REFUND_KNOWN'
  // read once: recording a refund changes neither the attempt's status, currency nor amount; what
  // it adds (one refund row) is kept below in `known` and `sum`, as a fresh read would show it
  const current = await ctx.db.selectFrom('payment_attempt').select(['status', 'currency', 'amount']).where('id', '=', attempt.id).executeTakeFirstOrThrow()
  const recorded = await ctx.db.selectFrom('payment_refund').select(['id', 'provider_refund_id', 'amount', 'status']).where('attempt_id', '=', attempt.id).execute()
  const known = new Set(recorded.map((x) => x.provider_refund_id))
  // refunds recorded before, settled from the same list: einlass's own still on their way (SEPA)
  // made or failed, and any that failed after Stripe had made it (a card closed meanwhile)
  for (const own of recorded.filter((x) => x.status !== 'FAILED')) {
    const listed = list.data.find((x) => x.id === own.provider_refund_id)
    const state = listed ? refundStateOf('STRIPE', String(listed.status)) : 'PENDING'
    if (state === 'FAILED' || (state === 'DONE' && own.status === 'PENDING')) await settleRefund(ctx, own.id, state, String(listed!.status))
    if (state === 'FAILED') own.status = 'FAILED'
  }
  // against what is recorded and not failed (refunded_amount also counts einlass's own refunds still under way)
  let sum = recorded.filter((x) => x.status !== 'FAILED').reduce((a, x) => a + x.amount, 0)
  // oldest first: the order of the credit notes follows Stripe's
  for (const r of [...list.data].filter((x) => x.status === 'succeeded').sort((a, b) => a.created - b.created)) {
    if (known.has(r.id)) continue
    if (current.status !== 'PAID' || r.currency.toUpperCase() !== isoCurrency(current.currency) || r.amount <= 0 || sum + r.amount > current.amount) {
      ctx.log.warn('stripe refund refused: does not match the payment', { attemptId: attempt.id, refundId: r.id, amount: r.amount, currency: r.currency })
      return 'MISMATCH'
    }
    const done = await recordRefund(ctx, attempt.id, { providerRefundId: r.id, amount: r.amount, reason: 'PROVIDER', accountId: null, reserved: false })
    // recorded now, or just before by a concurrent delivery: either way the refund's row is there
    known.add(r.id)
    sum += r.amount
    if (done.recorded) outcome = done.ended ? 'REFUNDED' : 'PARTIAL_REFUND'
  }
  return outcome
}

export async function mollieWebhook(ctx: AppContext, body: string) {
  const id = new URLSearchParams(body).get('id') ?? ''
  // unknown ids get the same answer as known ones (no probing of payment ids)
  if (!/^tr_\w{1,40}$/.test(id)) return { received: true }
  const attempt = await attemptByExternal(ctx.db, 'MOLLIE', id)
  if (!attempt || attempt.payment_method_id == null) return { received: true }
  const method = await ctx.db.selectFrom('payment_method').selectAll().where('id', '=', attempt.payment_method_id).executeTakeFirst()
  if (!method) return { received: true }
  const remote = await fetchRemote(ctx, attempt, method)
  // Mollie's webhook has no id of its own: the payment and the state it reports make the event
  const key = `${id}:${remote.status}`
  const duplicate = await seen(ctx, 'MOLLIE', method.id, key)
  let outcome: string = duplicate ? 'ALREADY' : await applyRemote(ctx, attempt, remote, 'webhook', method)
  // Mollie calls the payment's webhook after its refunds change too (the payment's state may be the
  // same): its refunds are read from Mollie every time
  if (outcome !== 'MISMATCH') {
    const refunds = await mollieRefunds(ctx, attempt, method)
    if (refunds !== 'REFUND_KNOWN') outcome = refunds
  }
  if (duplicate) return { received: true, duplicate: true }
  await store(ctx, { provider: 'MOLLIE', payment_method_id: method.id, external_id: key, kind: `payment.${remote.status}`, attempt_id: attempt.id, outcome })
  return { received: true, outcome }
}

/**
 * The refunds of a Mollie payment as Mollie lists them now: einlass's own still on their way made or
 * failed, one that failed after Mollie had made it (the customer's account closed) owed again, and one
 * made in Mollie's dashboard recorded once with its credit note (PENDING while on its way, like
 * einlass's own); the one that refunds the rest ends the order (902). A refund that would exceed the
 * payment, or in another currency, is refused and logged.
 */
async function mollieRefunds(ctx: AppContext, attempt: PaymentAttemptRow, method: PaymentMethodRow): Promise<string> {
  const current = await ctx.db.selectFrom('payment_attempt').select(['status', 'currency', 'amount']).where('id', '=', attempt.id).executeTakeFirstOrThrow()
  const recorded = await ctx.db.selectFrom('payment_refund').select(['id', 'provider_refund_id', 'amount', 'status']).where('attempt_id', '=', attempt.id).execute()
  // a payment not paid (open, failed, expired) has no refunds: Mollie is not asked
  if (current.status !== 'PAID' && !recorded.length) return 'REFUND_KNOWN'
  const list = [...(await callProvider(ctx, 'mollie.refunds', async () => (await mollieClient(ctx, method)).paymentRefunds.page({ paymentId: attempt.external_id!, limit: 250 })))]
  for (const own of recorded.filter((x) => x.status !== 'FAILED')) {
    const listed = list.find((x) => x.id === own.provider_refund_id)
    if (!listed) continue
    const state = refundStateOf('MOLLIE', String(listed.status))
    if (state === 'FAILED' || (state === 'DONE' && own.status === 'PENDING')) await settleRefund(ctx, own.id, state, String(listed.status))
    if (state === 'FAILED') own.status = 'FAILED'
  }
  let outcome = 'REFUND_KNOWN'
  const known = new Set(recorded.map((x) => x.provider_refund_id))
  let sum = recorded.filter((x) => x.status !== 'FAILED').reduce((a, x) => a + x.amount, 0)
  // oldest first (Mollie lists the newest first): the credit notes follow Mollie's order
  for (const r of [...list].reverse()) {
    const state = refundStateOf('MOLLIE', String(r.status))
    if (known.has(r.id) || state === 'FAILED') continue
    const amount = fromDecimal(r.amount.value)
    if (current.status !== 'PAID' || r.amount.currency !== isoCurrency(current.currency) || amount <= 0 || sum + amount > current.amount) {
      ctx.log.warn('mollie refund refused: does not match the payment', { attemptId: attempt.id, refundId: r.id, amount, currency: r.amount.currency })
      return 'MISMATCH'
    }
    const done = await recordRefund(ctx, attempt.id, { providerRefundId: r.id, amount, reason: 'PROVIDER', accountId: null, reserved: false, pending: state === 'PENDING' })
    known.add(r.id)
    sum += amount
    if (done.recorded) outcome = done.ended ? 'REFUNDED' : 'PARTIAL_REFUND'
  }
  return outcome
}

// ---- PayPal (docs/payments.md, "PayPal webhooks") ------------------------------------------

const PAYPAL_HEADERS = ['paypal-auth-algo', 'paypal-cert-url', 'paypal-transmission-id', 'paypal-transmission-sig', 'paypal-transmission-time'] as const

/**
 * A PayPal webhook of one payment method. Genuine only when PayPal's verify-webhook-signature says
 * SUCCESS for the method's webhook id; stored once per event id; then only a hint: the order,
 * capture or refund is fetched from PayPal again and checked before anything changes.
 * CHECKOUT.ORDER.APPROVED captures (the buyer approved but never came back), PAYMENT.CAPTURE.COMPLETED
 * settles, PAYMENT.CAPTURE.REFUNDED / REVERSED records the refund (once per refund id).
 */
export async function payPalWebhook(ctx: AppContext, methodId: number, body: string, headers: Headers) {
  const method = await ctx.db.selectFrom('payment_method').selectAll().where('id', '=', methodId).where('method', '=', 'PAYPAL').executeTakeFirst()
  const webhookId = method ? payPalWebhookId(ctx, method) : null
  const h = Object.fromEntries(PAYPAL_HEADERS.map((k) => [k, headers.get(k)]))
  const refuse = (why: string) => {
    ctx.log.warn('paypal webhook refused: bad signature', { methodId, why, transmissionId: h['paypal-transmission-id'] ?? null })
    return new AppError(400, 'WEBHOOK_SIGNATURE_INVALID')
  }
  if (!method || !webhookId) throw refuse('no webhook id for this payment method')
  if (PAYPAL_HEADERS.some((k) => !h[k])) throw refuse('transmission headers missing')
  let event: { id?: string; event_type?: string; resource?: Record<string, any> }
  try {
    event = JSON.parse(body)
  } catch {
    throw refuse('body is not JSON')
  }
  if (typeof event.id !== 'string' || typeof event.event_type !== 'string') throw refuse('not an event')
  const client = payPalClient(ctx, method)
  const verdict = await callProvider(ctx, 'paypal.verifyWebhook', () =>
    client.verifyWebhook({ authAlgo: h['paypal-auth-algo']!, certUrl: h['paypal-cert-url']!, transmissionId: h['paypal-transmission-id']!, transmissionSig: h['paypal-transmission-sig']!, transmissionTime: h['paypal-transmission-time']! }, webhookId, body),
  )
  if (verdict.status !== 200 || verdict.json?.verification_status !== 'SUCCESS') throw refuse(`PayPal answered ${verdict.json?.verification_status ?? verdict.status}`)
  if (await seen(ctx, 'PAYPAL', methodId, event.id)) return { received: true, duplicate: true }
  const store1 = (attemptId: number | null, outcome: string) => store(ctx, { provider: 'PAYPAL', payment_method_id: methodId, external_id: event.id!, kind: event.event_type!, attempt_id: attemptId, outcome })
  const resource = event.resource ?? {}
  let orderId: string | null = null
  let refund: { id: string; amount: number; currency: string; captureId: string } | null = null
  if (event.event_type === 'CHECKOUT.ORDER.APPROVED' || event.event_type === 'CHECKOUT.ORDER.COMPLETED') orderId = typeof resource.id === 'string' ? resource.id : null
  else if (event.event_type === 'PAYMENT.CAPTURE.COMPLETED') {
    // the capture as PayPal has it now (not as the event says), and its order
    const c = typeof resource.id === 'string' ? await callProvider(ctx, 'paypal.getCapture', () => client.getCapture(resource.id)) : null
    orderId = c?.status === 200 ? (c.json?.supplementary_data?.related_ids?.order_id ?? null) : null
  } else if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED' || event.event_type === 'PAYMENT.CAPTURE.REVERSED') {
    const r = typeof resource.id === 'string' ? await callProvider(ctx, 'paypal.getRefund', () => client.getRefund(resource.id)) : null
    const up = r?.status === 200 && r.json?.status === 'COMPLETED' ? (r.json.links ?? []).find((l: { rel: string }) => l.rel === 'up') : null
    const captureId = up ? String(up.href).split('/').pop() : null
    const c = captureId ? await callProvider(ctx, 'paypal.getCapture', () => client.getCapture(captureId)) : null
    orderId = c?.status === 200 ? (c.json?.supplementary_data?.related_ids?.order_id ?? null) : null
    if (orderId && captureId) refund = { id: r!.json.id, amount: fromDecimal(r!.json.amount?.value ?? '0'), currency: r!.json.amount?.currency_code ?? '', captureId }
  }
  const attempt = orderId ? await attemptByExternal(ctx.db, 'PAYPAL', orderId) : undefined
  if (!attempt || attempt.agency_id !== method.agency_id) {
    await store1(null, 'IGNORED')
    return { received: true }
  }
  let remote = await fetchRemote(ctx, attempt, method)
  if (event.event_type === 'CHECKOUT.ORDER.APPROVED' && remote.status === 'pending' && attempt.status === 'OPEN') {
    // approved, and the buyer never came back to the page: capture it here (PayPal captures once)
    const cap = await callProvider(ctx, 'paypal.capture', () => client.capture(orderId!, `${attempt.idempotency_key}-capture-${event.id}`))
    if (cap.status >= 400 && !JSON.stringify(cap.json).includes('ORDER_ALREADY_CAPTURED')) {
      await store1(attempt.id, 'CAPTURE_REFUSED')
      return { received: true, outcome: 'CAPTURE_REFUSED' }
    }
    remote = await fetchRemote(ctx, attempt, method)
  }
  let outcome: string = await applyRemote(ctx, attempt, remote, 'webhook', method!)
  if (refund && outcome !== 'MISMATCH') {
    const current = (await ctx.db.selectFrom('payment_attempt').selectAll().where('id', '=', attempt.id).executeTakeFirstOrThrow())
    if (current.status !== 'PAID' || isoCurrency(current.currency) !== refund.currency || refund.amount <= 0 || refund.amount > current.amount) {
      ctx.log.warn('paypal refund refused: does not match the payment', { attemptId: attempt.id, refundId: refund.id, amount: refund.amount, currency: refund.currency })
      outcome = 'MISMATCH'
    } else {
      const r = await recordRefund(ctx, attempt.id, { providerRefundId: refund.id, amount: refund.amount, reason: 'PROVIDER', accountId: null, reserved: false })
      outcome = r.recorded ? (r.ended ? 'REFUNDED' : 'PARTIAL_REFUND') : 'REFUND_KNOWN'
      // einlass's own refunds PayPal had left PENDING: looked at now (this one may be among them)
      await checkPendingRefunds(ctx, attempt.id)
    }
  }
  await store1(attempt.id, outcome)
  return { received: true, outcome }
}
