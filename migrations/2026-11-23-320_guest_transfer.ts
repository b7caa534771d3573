// Passing a place on (guest portal, beyond the spec): an event allows it until a deadline, and every
// hand-over is kept as history for the organiser (who had the place, who has it now, when).
import type { Kysely } from 'kysely'
import { boolDefault, nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('event').addColumn('allow_transfer', t.bool, boolDefault(false)).execute()
  /** null = until the event starts */
  await db.schema.alterTable('event').addColumn('transfer_until', t.timestamp).execute()
  await withId(db, db.schema.createTable('visitor_transfer'))
    .addColumn('visitor_id', t.int, (c) => c.notNull().references('event_visitor.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('from_first_name', t.text)
    .addColumn('from_last_name', t.text)
    .addColumn('from_email', t.text)
    .addColumn('to_first_name', t.text, (c) => c.notNull())
    .addColumn('to_last_name', t.text, (c) => c.notNull())
    .addColumn('to_email', t.text, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema.createIndex('visitor_transfer_visitor_idx').on('visitor_transfer').column('visitor_id').execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('visitor_transfer').execute()
  await db.schema.alterTable('event').dropColumn('transfer_until').execute()
  await db.schema.alterTable('event').dropColumn('allow_transfer').execute()
}
