// A guest's request to cancel a paid order (issue 21, docs/ticketing.md "Cancellation requests"):
// with the guest's reason; the organiser grants it (refund + credit note) or declines it (with a
// reason). One open request per order: a partial unique index, so two at once end in the index.
import { type Kysely, sql } from 'kysely'
import { types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await withId(db, db.schema.createTable('order_cancellation_request'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('order_id', t.int, (c) => c.notNull().references('ticket_order.id').onDelete('cascade'))
    .addColumn('status', t.text, (c) => c.notNull().defaultTo('OPEN'))
    .addColumn('reason', t.text, (c) => c.notNull())
    .addColumn('decline_reason', t.text)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('decided_at', t.timestamp)
    .addColumn('decided_by', t.int)
    .execute()
  await db.schema.createIndex('order_cancellation_request_open').on('order_cancellation_request').column('order_id').unique().where(sql.ref('status'), '=', 'OPEN').execute()
  await db.schema.createIndex('order_cancellation_request_event').on('order_cancellation_request').columns(['event_id', 'status']).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('order_cancellation_request').execute()
}
