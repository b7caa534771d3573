// The import task id on guests (see imports/service.ts); guest list sorts, filters and searches that stay fast at 50,000 guests (docs/benchmarks.md).
// The default order's index also carries every column the filters and the search read, so counting and
// searching walk one covering index instead of fetching each of the event's rows; sort by first name or
// company walks an index instead of sorting.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>) {
  // the import task that wrote a row, so a failed import can remove exactly its rows
  await db.schema.alterTable('event_visitor').addColumn('import_task_id', 'integer').execute()
  await db.schema.createIndex('event_visitor_import_idx').on('event_visitor').column('import_task_id').execute()
  await db.schema.dropIndex('event_visitor_event_name_idx').ifExists().execute()
  await db.schema
    .createIndex('event_visitor_event_list_idx')
    .on('event_visitor')
    .columns(['event_id', 'last_name', 'first_name', 'email', 'company', 'status', 'vip', 'mail_error', 'ticket_code'])
    .execute()
  await db.schema.createIndex('event_visitor_event_first_idx').on('event_visitor').columns(['event_id', 'first_name', 'last_name']).execute()
  await db.schema.createIndex('event_visitor_event_company_idx').on('event_visitor').columns(['event_id', 'company', 'last_name']).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('event_visitor_import_idx').ifExists().execute()
  await db.schema.alterTable('event_visitor').dropColumn('import_task_id').execute()
  for (const idx of ['event_visitor_event_list_idx', 'event_visitor_event_first_idx', 'event_visitor_event_company_idx']) await db.schema.dropIndex(idx).ifExists().execute()
  await db.schema.createIndex('event_visitor_event_name_idx').on('event_visitor').columns(['event_id', 'last_name', 'first_name']).execute()
}
