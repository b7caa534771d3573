// Refunds per line (issue 21; docs/ticketing.md "Refunds per line"): how many tickets of each order
// line went back (claimed with a conditional update, so two refunds never take one ticket twice), and
// the persons whose tickets were cancelled, so their personal QR codes are refused at the desk and
// their numbers are never given to a new escort.
import type { Kysely } from 'kysely'
import { types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('ticket_order_line').addColumn('refunded_quantity', t.int, (c) => c.notNull().defaultTo(0)).execute()
  await withId(db, db.schema.createTable('canceled_ticket_person'))
    .addColumn('order_id', t.int, (c) => c.notNull().references('ticket_order.id').onDelete('cascade'))
    .addColumn('visitor_id', t.int, (c) => c.notNull().references('event_visitor.id').onDelete('cascade'))
    .addColumn('person', t.int, (c) => c.notNull())
    .addColumn('name', t.text)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema.createIndex('canceled_ticket_person_idx').unique().on('canceled_ticket_person').columns(['visitor_id', 'person']).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('canceled_ticket_person').execute()
  await db.schema.alterTable('ticket_order_line').dropColumn('refunded_quantity').execute()
}
