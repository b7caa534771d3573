// Indexes on columns that a new registration or reservation leaves empty only index the rows that
// have a value: every public registration (and timed reservation) used to add an entry for NULL to
// each of them. The queries that use them all ask for a value (`= ?`, `like 'X%'`), which both
// SQLite and Postgres know to imply `is not null`, so they use the partial index as before.
// Uniqueness of ticket codes is unchanged (NULLs never clashed).
import { type Kysely, sql } from 'kysely'

const PARTIAL = [
  { name: 'event_visitor_import_idx', table: 'event_visitor', column: 'import_task_id', unique: false },
  { name: 'event_visitor_ticket_code_uq', table: 'event_visitor', column: 'ticket_code', unique: true },
  { name: 'timeslot_reservation_visitor_idx', table: 'timeslot_reservation', column: 'visitor_id', unique: false },
] as const

export async function up(db: Kysely<any>) {
  for (const i of PARTIAL) {
    await db.schema.dropIndex(i.name).ifExists().execute()
    let b = db.schema.createIndex(i.name).on(i.table).column(i.column)
    if (i.unique) b = b.unique()
    await b.where(sql.ref(i.column), 'is not', null).execute()
  }
}

export async function down(db: Kysely<any>) {
  for (const i of PARTIAL) {
    await db.schema.dropIndex(i.name).ifExists().execute()
    let b = db.schema.createIndex(i.name).on(i.table).column(i.column)
    if (i.unique) b = b.unique()
    await b.execute()
  }
}
