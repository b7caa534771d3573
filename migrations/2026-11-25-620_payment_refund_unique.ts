// A provider refund is recorded once per payment (docs/payments.md, "Refunds"): the organiser's own
// refund and the provider's webhook about it (PayPal PAYMENT.CAPTURE.REFUNDED) may arrive in any
// order; whichever records it second finds it there.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>) {
  await db.schema.createIndex('payment_refund_provider_id').on('payment_refund').columns(['attempt_id', 'provider_refund_id']).unique().execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('payment_refund_provider_id').execute()
}
