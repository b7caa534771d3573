// Organiser translations of event and agreement texts (docs/languages.md, "Organiser texts"):
// one row per event (agreement) and language; an empty field reads the German text.
import type { Kysely } from 'kysely'
import { nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await withId(db, db.schema.createTable('event_translation'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('language', t.text, (c) => c.notNull())
    .addColumn('display_name', t.text)
    .addColumn('sub_title', t.text)
    /** sanitised HTML, as the German description */
    .addColumn('description', t.text)
    .addColumn('location_name', t.text)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .addUniqueConstraint('event_translation_event_language', ['event_id', 'language'])
    .execute()
  await withId(db, db.schema.createTable('agreement_translation'))
    .addColumn('agreement_id', t.int, (c) => c.notNull().references('agreement.id').onDelete('cascade'))
    .addColumn('language', t.text, (c) => c.notNull())
    .addColumn('display_name', t.text)
    .addColumn('description', t.text)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .addUniqueConstraint('agreement_translation_agreement_language', ['agreement_id', 'language'])
    .execute()
}
