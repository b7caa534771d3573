// Mails rendered when the worker delivers them instead of inside the transaction that queued them
// (mail/templates.ts): the row keeps the template's name and parameters until it is sent. The
// registration's transaction, the single writer on SQLite, no longer renders nor writes ~4 KB of
// HTML and text per guest.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>) {
  await db.schema.alterTable('mail_outbox').addColumn('template', 'text').execute()
  await db.schema.alterTable('mail_outbox').addColumn('params', 'text').execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('mail_outbox').dropColumn('params').execute()
  await db.schema.alterTable('mail_outbox').dropColumn('template').execute()
}
