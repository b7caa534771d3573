// Payments the order could not take (docs/payments.md, "Late payments"): one that arrived after the
// order expired and its tickets were gone, or a second one for an order already paid. They go back
// whole by themselves (attempts.ts refundUnwanted) with one of these refund reasons; such an attempt is
// recorded PAID but is never the order's payment, was never invoiced, and what its refund did not
// give back is owed. A leaf module: ticketing's order list reads it without importing payments' services.
import type { ExpressionBuilder } from 'kysely'
import type { DB } from '../../db/schema'

export type UnwantedReason = 'LATE_PAYMENT' | 'DUPLICATE_PAYMENT'
export const UNWANTED: readonly UnwantedReason[] = ['LATE_PAYMENT', 'DUPLICATE_PAYMENT']
export const isUnwanted = (reason: string): reason is UnwantedReason => (UNWANTED as readonly string[]).includes(reason)

/** SQL: the attempt has a refund of a late or second payment (an index on payment_refund.attempt_id answers it). */
export const unwantedAttempt = (eb: ExpressionBuilder<DB, 'payment_attempt'>) =>
  eb.exists(eb.selectFrom('payment_refund').select('payment_refund.id').whereRef('payment_refund.attempt_id', '=', 'payment_attempt.id').where('payment_refund.reason', 'in', UNWANTED))
