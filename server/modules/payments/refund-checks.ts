// When to look again at a refund the provider accepted but has not made yet (Mollie: queued, pending,
// processing; Stripe: pending, e.g. SEPA; docs/payments.md, "Refunds that fail later"). Only the
// schedule lives here, so the places that record refunds (refunds.ts, attempts.ts) plan a check
// without importing what checks.
import type { Clock } from '../../clock'
import type { Db } from '../../db/database'
import { enqueueTask } from '../tasks/runner'

export const REFUND_CHECK_TASK = 'payments.refundCheck'
/** Mollie makes most refunds within a working day, Stripe SEPA ones within days; looked at every 6 hours … */
export const REFUND_CHECK_EVERY_MS = 6 * 3600_000
/** … for 30 days; one still not made then is left as it is (and named in the refund list as pending). */
export const REFUND_CHECK_FOR_MS = 30 * 86400_000

export function scheduleRefundCheck(clock: Clock, db: Db, t: { agencyId: number; refundId: number }) {
  return enqueueTask(clock, db, { kind: REFUND_CHECK_TASK, agencyId: t.agencyId, payload: { refundId: t.refundId }, runAfter: new Date(clock.now().getTime() + REFUND_CHECK_EVERY_MS) })
}
