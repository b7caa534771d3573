// Online payments (docs/payments.md): provider credentials on the payment method (secrets sealed),
// one row per payment attempt at a provider (one OPEN attempt per order), every provider event
// stored once, refunds with their provider id.
import { type Kysely, sql } from 'kysely'
import { boolDefault, nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('payment_method').addColumn('public_key', t.text).execute()
  await db.schema.alterTable('payment_method').addColumn('account_id', t.text).execute()
  await db.schema.alterTable('payment_method').addColumn('secret_sealed', t.text).execute()
  await db.schema.alterTable('payment_method').addColumn('test_mode', t.bool, boolDefault(true)).execute()
  await db.schema.alterTable('payment_method').addColumn('payment_types', t.json).execute()
  await db.schema.alterTable('payment_method').addColumn('disabled_fundings', t.json).execute()
  await withId(db, db.schema.createTable('payment_attempt'))
    .addColumn('order_id', t.int, (c) => c.notNull().references('ticket_order.id').onDelete('cascade'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('payment_method_id', t.int, (c) => c.references('payment_method.id').onDelete('set null'))
    .addColumn('provider', t.text, (c) => c.notNull())
    .addColumn('external_id', t.text)
    .addColumn('idempotency_key', t.text, (c) => c.notNull())
    .addColumn('amount', t.int, (c) => c.notNull())
    .addColumn('currency', t.text, (c) => c.notNull())
    /** OPEN (at the provider), PAID, FAILED, CANCELED */
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('client_secret', t.text)
    .addColumn('checkout_url', t.text)
    .addColumn('refunded_amount', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema.createIndex('payment_attempt_external').on('payment_attempt').columns(['provider', 'external_id']).unique().where(sql.ref('external_id'), 'is not', null).execute()
  await db.schema.createIndex('payment_attempt_idempotency').on('payment_attempt').columns(['idempotency_key']).unique().execute()
  // one open attempt per order: two tabs or a double click cannot start two payments
  await db.schema.createIndex('payment_attempt_one_open').on('payment_attempt').columns(['order_id']).unique().where(sql.ref('status'), '=', 'OPEN').execute()
  await db.schema.createIndex('payment_attempt_status').on('payment_attempt').columns(['status', 'created_at']).execute()
  await withId(db, db.schema.createTable('payment_event'))
    .addColumn('provider', t.text, (c) => c.notNull())
    .addColumn('external_id', t.text, (c) => c.notNull())
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('attempt_id', t.int, (c) => c.references('payment_attempt.id').onDelete('set null'))
    .addColumn('outcome', t.text, (c) => c.notNull())
    .addColumn('received_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema.createIndex('payment_event_external').on('payment_event').columns(['provider', 'external_id']).unique().execute()
  await withId(db, db.schema.createTable('payment_refund'))
    .addColumn('attempt_id', t.int, (c) => c.notNull().references('payment_attempt.id').onDelete('cascade'))
    .addColumn('order_id', t.int, (c) => c.notNull().references('ticket_order.id').onDelete('cascade'))
    .addColumn('provider_refund_id', t.text, (c) => c.notNull())
    .addColumn('amount', t.int, (c) => c.notNull())
    .addColumn('reason', t.text, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema.createIndex('payment_refund_order').on('payment_refund').columns(['order_id']).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('payment_refund').execute()
  await db.schema.dropTable('payment_event').execute()
  await db.schema.dropTable('payment_attempt').execute()
  for (const c of ['public_key', 'account_id', 'secret_sealed', 'test_mode', 'payment_types', 'disabled_fundings']) await db.schema.alterTable('payment_method').dropColumn(c).execute()
}
