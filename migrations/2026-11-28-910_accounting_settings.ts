// The accountant's settings per agency for the DATEV export (issue 21, docs/invoices.md "DATEV"):
// consultant and client number, fiscal year start, account length, chart, the debtor or clearing
// account and per tax rate a revenue account with its BU-Schlüssel (JSON list). A table of its own,
// beside seller_settings, so the seller settings' call and form stay as they are.
import type { Kysely } from 'kysely'
import { types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema
    .createTable('accounting_settings')
    .addColumn('agency_id', t.int, (c) => c.primaryKey().references('agency.id').onDelete('cascade'))
    .addColumn('consultant_number', t.int)
    .addColumn('client_number', t.int)
    .addColumn('fiscal_year_start_month', t.int, (c) => c.notNull().defaultTo(1))
    .addColumn('account_length', t.int, (c) => c.notNull().defaultTo(4))
    .addColumn('chart', t.text, (c) => c.notNull().defaultTo('SKR03'))
    .addColumn('debtor_account', t.text)
    .addColumn('revenue_accounts', t.json, (c) => c.notNull().defaultTo('[]'))
    .addColumn('updated_at', t.timestamp)
    .execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('accounting_settings').execute()
}
