// A refund the provider accepted is not always a refund made: Mollie answers "queued" or "pending"
// and may fail or cancel it days later (docs/payments.md, "Refunds that fail later"). A refund row
// carries its state (DONE, PENDING until Mollie says refunded, FAILED), and the payment keeps what was
// credited by credit notes whose refund failed, so refunding it again issues no second credit note.
import type { Kysely } from 'kysely'
import { types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('payment_refund').addColumn('status', t.text, (c) => c.notNull().defaultTo('DONE')).execute()
  await db.schema.alterTable('payment_attempt').addColumn('failed_refund_credit', t.int, (c) => c.notNull().defaultTo(0)).execute()
  // an order's payments (its paid one for a refund, what failed refunds owe in the order list): by order, not a scan
  await db.schema.createIndex('payment_attempt_order').on('payment_attempt').columns(['order_id']).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('payment_attempt_order').execute()
  await db.schema.alterTable('payment_attempt').dropColumn('failed_refund_credit').execute()
  await db.schema.alterTable('payment_refund').dropColumn('status').execute()
}
