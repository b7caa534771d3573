// Several check-in lists per event (issue 21, docs/ticketing.md "Check-in lists"): a list names the
// ticket categories it admits (JSON array of ids; empty = every category and guests without ticket).
import type { Kysely } from 'kysely'
import { nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await withId(db, db.schema.createTable('checkin_list'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('category_ids', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema.createIndex('checkin_list_event_idx').on('checkin_list').column('event_id').execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('checkin_list').execute()
}
