// Who is in on which check-in list (docs/ticketing.md "Check-in lists"): one row per list and person
// of a registration, unique, so two desks scanning one ticket at once check it in once. A person out
// again has checked_out_at set; re-entry clears it. A list with rows cannot be deleted.
import type { Kysely } from 'kysely'
import { types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await withId(db, db.schema.createTable('checkin_list_entry'))
    .addColumn('list_id', t.int, (c) => c.notNull().references('checkin_list.id'))
    .addColumn('visitor_id', t.int, (c) => c.notNull().references('event_visitor.id').onDelete('cascade'))
    .addColumn('person', t.int, (c) => c.notNull())
    .addColumn('checkin_at', t.timestamp, (c) => c.notNull())
    .addColumn('checkout_at', t.timestamp)
    .addColumn('checkin_account_id', t.int)
    .execute()
  await db.schema.createIndex('checkin_list_entry_person_idx').unique().on('checkin_list_entry').columns(['list_id', 'visitor_id', 'person']).execute()
  await db.schema.createIndex('checkin_list_entry_visitor_idx').on('checkin_list_entry').column('visitor_id').execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('checkin_list_entry').execute()
}
