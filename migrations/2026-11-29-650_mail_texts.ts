// Mail texts an agency edits (docs/mail.md, "Mail texts"): per mail kind and language its own
// subject and body in place of the catalogue's default. No row = the default applies.
import type { Kysely } from 'kysely'
import { nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await withId(db, db.schema.createTable('mail_text'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    /** INVITATION, APPROVED, PROMOTED, DECLINED, ACTIVATED, REGISTRATION_CONFIRMATION */
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('language', t.text, (c) => c.notNull())
    .addColumn('subject', t.text, (c) => c.notNull())
    .addColumn('body', t.text, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .addUniqueConstraint('mail_text_agency_kind_language', ['agency_id', 'kind', 'language'])
    .execute()
}
