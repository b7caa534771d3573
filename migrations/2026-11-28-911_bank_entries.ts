// Bank statement entries (issue 21, docs/ticketing.md "Bank statements"): every credit of an
// imported CAMT.053 statement, once per agency (unique reference: the bank's AcctSvcrRef/NtryRef or
// a hash of the entry), with what became of it: matched to an order and marked paid, or listed for a
// person (partial, unknown, ambiguous, already paid) until assigned or dismissed.
import type { Kysely } from 'kysely'
import { types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await withId(db, db.schema.createTable('bank_entry'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('entry_ref', t.text, (c) => c.notNull())
    .addColumn('statement_id', t.text)
    .addColumn('account_iban', t.text)
    .addColumn('booking_date', t.text, (c) => c.notNull())
    .addColumn('amount_cents', t.bigint, (c) => c.notNull())
    .addColumn('currency', t.text, (c) => c.notNull())
    .addColumn('debtor_name', t.text)
    .addColumn('debtor_iban', t.text)
    .addColumn('remittance', t.text, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('order_id', t.int, (c) => c.references('ticket_order.id').onDelete('set null'))
    .addColumn('candidates', t.json, (c) => c.notNull().defaultTo('[]'))
    .addColumn('imported_at', t.timestamp, (c) => c.notNull())
    .addColumn('imported_by', t.int)
    .addColumn('decided_at', t.timestamp)
    .addColumn('decided_by', t.int)
    .execute()
  await db.schema.createIndex('bank_entry_ref_unique').on('bank_entry').columns(['agency_id', 'entry_ref']).unique().execute()
  await db.schema.createIndex('bank_entry_status').on('bank_entry').columns(['agency_id', 'status']).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('bank_entry').execute()
}
