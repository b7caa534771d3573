// Invoices: numbers per agency without gaps or duplicates (one sequence row, locked in the
// issuing transaction), each invoice a frozen snapshot the PDF and the XML are rendered from.
import type { Kysely } from 'kysely'
import { nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema
    .createTable('invoice_sequence')
    .addColumn('agency_id', t.int, (c) => c.primaryKey().references('agency.id').onDelete('cascade'))
    .addColumn('next_number', t.int, (c) => c.notNull().defaultTo(1))
    .execute()
  await withId(db, db.schema.createTable('invoice'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.references('event.id').onDelete('set null'))
    .addColumn('order_ref', t.text, (c) => c.notNull())
    /** what makes issuing idempotent: order:<ref> for an order's invoice, cancel:<id>:<what> for a cancellation */
    .addColumn('issue_key', t.text, (c) => c.notNull())
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('number', t.text, (c) => c.notNull())
    .addColumn('cancels_invoice_id', t.int, (c) => c.references('invoice.id'))
    .addColumn('currency', t.text, (c) => c.notNull())
    .addColumn('gross_cents', t.int, (c) => c.notNull())
    .addColumn('snapshot', t.json, (c) => c.notNull())
    .addColumn('issued_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema.createIndex('invoice_agency_number').on('invoice').columns(['agency_id', 'number']).unique().execute()
  await db.schema.createIndex('invoice_agency_issue_key').on('invoice').columns(['agency_id', 'issue_key']).unique().execute()
  await db.schema.createIndex('invoice_event').on('invoice').columns(['event_id', 'id']).execute()
  await db.schema.createIndex('invoice_order').on('invoice').columns(['order_ref']).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('invoice').execute()
  await db.schema.dropTable('invoice_sequence').execute()
}
