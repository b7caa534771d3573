// Provider webhooks (docs/payments.md). A webhook only says "look again": the payment is
// re-fetched from the provider and applyRemote checks amount, currency and order. Stripe's are
// verified with the endpoint's signing secret (constructEventAsync, the one that works under
// Bun); a bad signature is refused (400) and logged. Every event is stored once per provider and
// external id, so a second delivery changes nothing. A provider that cannot be reached for the
// re-fetch answers 503: the provider delivers again later.
import Stripe from 'stripe'
import type { AppContext } from '../../context'
import { isUniqueViolation } from '../../db/database'
import { isoNow } from '../../db/types'
import { AppError } from '../../shared/errors'
import { applyRemote, attemptByExternal } from './attempts'
import { stripeWebhookSecret } from './clients'
import { fetchRemote } from './providers'

const verifier = new Stripe('sk_unused', {})

async function seen(ctx: AppContext, provider: string, externalId: string) {
  return !!(await ctx.db.selectFrom('payment_event').select('id').where('provider', '=', provider).where('external_id', '=', externalId).executeTakeFirst())
}

async function store(ctx: AppContext, e: { provider: string; external_id: string; kind: string; attempt_id: number | null; outcome: string }) {
  try {
    await ctx.db.insertInto('payment_event').values({ ...e, received_at: isoNow(ctx.clock.now()) }).execute()
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
  }
}

export async function stripeWebhook(ctx: AppContext, methodId: number, body: string, signature: string | null) {
  const method = await ctx.db.selectFrom('payment_method').selectAll().where('id', '=', methodId).where('method', '=', 'STRIPE').executeTakeFirst()
  const secret = method ? stripeWebhookSecret(ctx, method) : null
  let event: Stripe.Event
  try {
    if (!method || !secret || !signature) throw new Error('no signing secret or signature')
    event = await verifier.webhooks.constructEventAsync(body, signature, secret)
  } catch (e) {
    ctx.log.warn('stripe webhook refused: bad signature', { methodId, error: e instanceof Error ? e.message : String(e) })
    throw new AppError(400, 'WEBHOOK_SIGNATURE_INVALID')
  }
  if (await seen(ctx, 'STRIPE', event.id)) return { received: true, duplicate: true }
  const obj = event.data.object as { object?: string; id?: string }
  const attempt = obj.object === 'payment_intent' && obj.id ? await attemptByExternal(ctx.db, 'STRIPE', obj.id) : undefined
  if (!attempt || attempt.agency_id !== method!.agency_id) {
    await store(ctx, { provider: 'STRIPE', external_id: event.id, kind: event.type, attempt_id: null, outcome: 'IGNORED' })
    return { received: true }
  }
  const outcome = await applyRemote(ctx, attempt, await fetchRemote(ctx, attempt, method!), 'webhook')
  await store(ctx, { provider: 'STRIPE', external_id: event.id, kind: event.type, attempt_id: attempt.id, outcome })
  return { received: true, outcome }
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
  if (await seen(ctx, 'MOLLIE', key)) return { received: true, duplicate: true }
  const outcome = await applyRemote(ctx, attempt, remote, 'webhook')
  await store(ctx, { provider: 'MOLLIE', external_id: key, kind: `payment.${remote.status}`, attempt_id: attempt.id, outcome })
  return { received: true, outcome }
}
