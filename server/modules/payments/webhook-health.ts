// Whether each payment method's webhook works: a refused call (bad signature, not verifiable) and an
// accepted one are remembered per method. A method whose latest call was refused, within the last 7
// days, is "failing": app/init's agencyMessages tells the organiser (PAYMENT_WEBHOOK_FAILING), since
// payments then stay open until the buyer comes back or reconciliation finds them.
import type { AppContext } from '../../context'
import { isoNow } from '../../db/types'
import { AppError } from '../../shared/errors'

export const WEBHOOK_FAILING_WINDOW_MS = 7 * 24 * 3600_000

/**
 * An accepted call is written at most once a minute per method and process (issue 25: two statements,
 * one of them a write, on every webhook of an on-sale storm). A refused call is always written and
 * makes the next accepted one write again, so "failing" ends with the first accepted call after it.
 * Another process's refusal after our last written success shows until our next write (≤ a minute).
 */
export const SUCCESS_REWRITE_MS = 60_000
/** per database (the Kysely adapter, as db/generation-cache.ts): method id → when this process last wrote its success */
const successWritten = new WeakMap<object, Map<number, number>>()

async function record(ctx: AppContext, methodId: number, ok: boolean, reason: string | null) {
  const key = ctx.db.getExecutor().adapter
  let written = successWritten.get(key)
  if (!written) successWritten.set(key, (written = new Map()))
  const at = ctx.clock.now().getTime()
  if (ok) {
    const last = written.get(methodId)
    if (last !== undefined && at - last >= 0 && at - last < SUCCESS_REWRITE_MS) return
  } else written.delete(methodId)
  const method = await ctx.db.selectFrom('payment_method').select(['id', 'agency_id']).where('id', '=', methodId).executeTakeFirst()
  if (!method) return
  const now = isoNow(ctx.clock.now())
  const set = ok ? { last_success_at: now } : { last_failure_at: now, last_failure_reason: reason }
  await ctx.db
    .insertInto('payment_webhook_health')
    .values({ payment_method_id: method.id, agency_id: method.agency_id, last_failure_at: null, last_failure_reason: null, last_success_at: null, ...set })
    .onConflict((oc) => oc.column('payment_method_id').doUpdateSet(set))
    .execute()
  if (ok) written.set(methodId, at)
}

/** Runs a method's webhook handler and remembers whether the call was accepted or refused. */
export async function trackWebhook<T>(ctx: AppContext, methodId: number, handle: () => Promise<T>): Promise<T> {
  try {
    const r = await handle()
    await record(ctx, methodId, true, null)
    return r
  } catch (e) {
    if (e instanceof AppError && e.errorType === 'WEBHOOK_SIGNATURE_INVALID') await record(ctx, methodId, false, e.errorType)
    throw e
  }
}

/** Payment methods of an agency whose webhook is failing now (latest call refused, within 7 days). */
export async function failingWebhooks(ctx: AppContext, agencyId: number): Promise<Array<{ paymentMethodId: number; since: string }>> {
  const since = isoNow(new Date(ctx.clock.now().getTime() - WEBHOOK_FAILING_WINDOW_MS))
  const rows = await ctx.db.selectFrom('payment_webhook_health').selectAll().where('agency_id', '=', agencyId).where('last_failure_at', '>=', since).execute()
  const t = (v: unknown) => (v == null ? 0 : new Date(v as string).getTime())
  return rows.filter((r) => t(r.last_failure_at) > t(r.last_success_at)).map((r) => ({ paymentMethodId: r.payment_method_id, since: isoNow(new Date(t(r.last_failure_at))) }))
}
