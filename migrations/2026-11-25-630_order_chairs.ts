// The chairs a ticket order bought (issue 14, a paid event where the seat decides the price): one
// row per chair with the ticket category it was priced by and its label as sold, so the order shows
// `chairInfo` per ticket line, gives the chairs back when it is released and takes them again on reset.
import type { Kysely } from 'kysely'
import { types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await withId(db, db.schema.createTable('ticket_order_chair'))
    .addColumn('order_id', t.int, (c) => c.notNull().references('ticket_order.id').onDelete('cascade'))
    .addColumn('chair_id', t.int, (c) => c.notNull().references('seating_chair.id').onDelete('cascade'))
    .addColumn('category_id', t.int)
    .addColumn('label', t.text, (c) => c.notNull())
    .addColumn('amount', t.int, (c) => c.notNull())
    .execute()
  await db.schema.createIndex('ticket_order_chair_order').on('ticket_order_chair').columns(['order_id']).execute()
  await db.schema.createIndex('ticket_order_chair_chair').on('ticket_order_chair').columns(['chair_id']).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('ticket_order_chair').execute()
}
