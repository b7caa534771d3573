// Provider events are stored once per payment method, not once per provider (issue 20): a Stripe
// event id first delivered to another agency's endpoint (signed with that agency's secret, ignored
// there) must still be applied at the endpoint of the method it is about. The events seen so far
// take the method of their payment; those ignored (no payment) keep 0 ("no method").
import { type Kysely, sql } from 'kysely'
import { types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('payment_event').addColumn('payment_method_id', t.int, (c) => c.notNull().defaultTo(0)).execute()
  await sql`update payment_event set payment_method_id = coalesce((select a.payment_method_id from payment_attempt a where a.id = payment_event.attempt_id), 0) where attempt_id is not null`.execute(db)
  await db.schema.dropIndex('payment_event_external').execute()
  await db.schema.createIndex('payment_event_external').on('payment_event').columns(['provider', 'payment_method_id', 'external_id']).unique().execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('payment_event_external').execute()
  // ids seen at several methods become one again
  await sql`delete from payment_event where id not in (select min(id) from payment_event group by provider, external_id)`.execute(db)
  await db.schema.createIndex('payment_event_external').on('payment_event').columns(['provider', 'external_id']).unique().execute()
  await db.schema.alterTable('payment_event').dropColumn('payment_method_id').execute()
}
