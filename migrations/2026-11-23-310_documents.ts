// The guest's documents (issue 11, docs/guest-portal.md "Documents"): a download token per kind
// beside the existing PDF token (filled on first use, so registration inserts stay unchanged), a
// calendar SEQUENCE per event, and per agency the document settings (logo, Apple and Google Wallet
// credentials; private keys sealed with the data dir's key).
import { type Kysely, sql } from 'kysely'
import { nowDefault, types } from './helpers'

const TOKENS = [
  { column: 'download_token_ics', index: 'event_visitor_download_token_ics_uq' },
  { column: 'download_token_wallet', index: 'event_visitor_download_token_wallet_uq' },
] as const

export async function up(db: Kysely<any>) {
  const t = types(db)
  for (const k of TOKENS) {
    await db.schema.alterTable('event_visitor').addColumn(k.column, t.text).execute()
    await db.schema.createIndex(k.index).on('event_visitor').column(k.column).unique().where(sql.ref(k.column), 'is not', null).execute()
  }
  await db.schema.alterTable('event').addColumn('calendar_sequence', t.int, (c) => c.notNull().defaultTo(0)).execute()
  await db.schema
    .createTable('document_settings')
    .addColumn('agency_id', t.int, (c) => c.primaryKey().references('agency.id').onDelete('cascade'))
    .addColumn('logo_asset_id', t.int)
    .addColumn('apple_pass_type_id', t.text)
    .addColumn('apple_team_id', t.text)
    .addColumn('apple_certificate', t.text)
    .addColumn('apple_key_sealed', t.text)
    .addColumn('apple_key_passphrase_sealed', t.text)
    .addColumn('apple_wwdr', t.text)
    .addColumn('google_issuer_id', t.text)
    .addColumn('google_service_account', t.text)
    .addColumn('google_key_sealed', t.text)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('document_settings').ifExists().execute()
  await db.schema.alterTable('event').dropColumn('calendar_sequence').execute()
  for (const k of TOKENS) {
    await db.schema.dropIndex(k.index).ifExists().execute()
    await db.schema.alterTable('event_visitor').dropColumn(k.column).execute()
  }
}
