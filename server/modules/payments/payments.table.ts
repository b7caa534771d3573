// Tables of online payments (migrations 2026-11-23-430_payments, 2026-11-27-710_refund_status; docs/payments.md).
import type { Generated, Selectable } from 'kysely'
import type { Id, Timestamp } from '../../db/types'

export type AttemptStatus = 'OPEN' | 'PAID' | 'FAILED' | 'CANCELED'

export interface PaymentAttemptTable {
  id: Id
  order_id: number
  agency_id: number
  payment_method_id: number | null
  provider: string
  external_id: string | null
  idempotency_key: string
  amount: number
  currency: string
  status: AttemptStatus
  client_secret: string | null
  checkout_url: string | null
  refunded_amount: Generated<number>
  /** cents credited by credit notes whose refund failed later: a refund that makes them good issues no second credit note */
  failed_refund_credit: Generated<number>
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
}
export type PaymentAttemptRow = Selectable<PaymentAttemptTable>

export interface PaymentEventTable {
  id: Id
  provider: string
  external_id: string
  /** the method whose endpoint received it (0: none); events are unique per provider, method and id (migration 2026-11-28-300) */
  payment_method_id: Generated<number>
  kind: string
  attempt_id: number | null
  outcome: string
  received_at: Generated<Timestamp>
}

export interface PaymentRefundTable {
  id: Id
  attempt_id: number
  order_id: number
  provider_refund_id: string
  amount: number
  reason: string
  /** DONE; PENDING while the provider has accepted but not yet made it (Mollie); FAILED when it failed or was cancelled */
  status: Generated<RefundStatus>
  created_at: Generated<Timestamp>
}
export type RefundStatus = 'DONE' | 'PENDING' | 'FAILED'

/** Whether a payment method's webhook works: its last refused and last accepted call (webhook-health.ts). */
export interface PaymentWebhookHealthTable {
  payment_method_id: number
  agency_id: number
  last_failure_at: Timestamp | null
  last_failure_reason: string | null
  last_success_at: Timestamp | null
}

export interface PaymentsTables {
  payment_webhook_health: PaymentWebhookHealthTable
  payment_attempt: PaymentAttemptTable
  payment_event: PaymentEventTable
  payment_refund: PaymentRefundTable
}
