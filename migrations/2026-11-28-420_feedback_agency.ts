// Feedback about an event goes to its agency (the organiser's reports page lists guests' reports,
// support questions and feedback): feedback gets the agency and event it is about, like support
// messages have; both get an index for the agency's page.
import type { Kysely } from 'kysely'
import { types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('feedback').addColumn('agency_id', t.int, (c) => c.references('agency.id').onDelete('set null')).execute()
  await db.schema.alterTable('feedback').addColumn('event_id', t.int, (c) => c.references('event.id').onDelete('set null')).execute()
  await db.schema.alterTable('feedback').addColumn('event_name', t.text).execute()
  await db.schema.createIndex('feedback_agency_idx').on('feedback').columns(['agency_id', 'id']).execute()
  await db.schema.createIndex('support_message_agency_idx').on('support_message').columns(['agency_id', 'id']).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('support_message_agency_idx').execute()
  await db.schema.dropIndex('feedback_agency_idx').execute()
  for (const col of ['event_name', 'event_id', 'agency_id']) await db.schema.alterTable('feedback').dropColumn(col).execute()
}
