// The background task that looks at every open payment attempt (docs/payments.md): the browser's
// polling (80, every 5000 ms) and the webhooks are not the only way an order learns it was paid.
// Every RECONCILE_EVERY_MS the attempt is re-fetched; one the guest never finished (still "open"
// at the provider) is given up after GIVE_UP_MS: cancelled at Stripe, and the order expires (901)
// with its tickets released. A payment that still arrives later is a late payment (attempts.ts).
import type { AppContext } from '../../context'
import { isoNow } from '../../db/types'
import { enqueueTask, registerTaskHandler } from '../tasks/runner'
import { GIVE_UP_MS, RECONCILE_EVERY_MS, RECONCILE_TASK, applyRemote } from './attempts'
import { stripeClient } from './clients'
import { fetchRemote } from './providers'

export async function reconcileAttempt(ctx: AppContext, attemptId: number): Promise<string> {
  const a = await ctx.db.selectFrom('payment_attempt').selectAll().where('id', '=', attemptId).executeTakeFirst()
  if (!a || a.status !== 'OPEN') return 'DONE'
  const method = a.payment_method_id == null ? null : await ctx.db.selectFrom('payment_method').selectAll().where('id', '=', a.payment_method_id).executeTakeFirst()
  const now = ctx.clock.now()
  const old = now.getTime() - new Date(a.created_at).getTime() > GIVE_UP_MS
  const again = () => enqueueTask(ctx.clock, ctx.db, { kind: RECONCILE_TASK, agencyId: a.agency_id, payload: { attemptId }, runAfter: new Date(now.getTime() + RECONCILE_EVERY_MS) })
  if (!method || !a.external_id) {
    // never reached the provider (or the method is gone): nothing can arrive for it
    if (old || !method) await ctx.db.updateTable('payment_attempt').set({ status: 'CANCELED', updated_at: isoNow(now) }).where('id', '=', a.id).where('status', '=', 'OPEN').execute()
    else await again()
    return 'CANCELED'
  }
  let remote
  try {
    remote = await fetchRemote(ctx, a, method)
  } catch {
    await again()
    return 'PROVIDER_DOWN'
  }
  if (remote.status === 'open' && old) {
    if (a.provider === 'STRIPE') {
      try {
        await (await stripeClient(ctx, method)).paymentIntents.cancel(a.external_id)
      } catch {
        // succeeded meanwhile, or Stripe is down: look again next time
        await again()
        return 'PENDING'
      }
    }
    return applyRemote(ctx, a, { ...remote, status: 'expired' }, 'task')
  }
  const outcome = await applyRemote(ctx, a, remote, 'task')
  if (outcome === 'PENDING' || outcome === 'WAITING') await again()
  return outcome
}

registerTaskHandler(RECONCILE_TASK, async (ctx, _task, payload: { attemptId: number }) => ({ state: await reconcileAttempt(ctx, payload.attemptId) }), { lane: 'QUICK' })
