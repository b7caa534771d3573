// The audit log (issue 22 "Seeing inside"): who changed what and when, append-only. The database
// refuses every UPDATE, and every DELETE of a row younger than 30 days, on both dialects (triggers),
// so no code path — a bug, a future endpoint, a hand-written query — can rewrite the record; the
// retention sweep (audit.retention_days, at least 30) is the only thing that deletes, and only rows
// past it.
import { type Kysely, sql } from 'kysely'
import { isSqlite, nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await withId(db, db.schema.createTable('audit_log'))
    .addColumn('agency_id', t.int)
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .addColumn('actor_user_id', t.int)
    .addColumn('actor_email', t.text)
    .addColumn('actor_ip', t.text)
    .addColumn('request_id', t.text)
    /** what happened: `event.update`, `auth.login.failed`, `guests.export` … */
    .addColumn('action', t.text, (c) => c.notNull())
    .addColumn('entity_type', t.text)
    .addColumn('entity_id', t.text)
    .addColumn('event_id', t.int)
    /** JSON {field: [before, after]} of the fields that changed */
    .addColumn('changes', t.json)
    /** JSON of anything else worth keeping (counts, reasons, the filter of an export) */
    .addColumn('detail', t.json)
    .execute()
  await db.schema.createIndex('audit_log_agency_time').on('audit_log').columns(['agency_id', 'created_at']).execute()
  await db.schema.createIndex('audit_log_event_time').on('audit_log').columns(['event_id', 'created_at']).execute()
  if (isSqlite(db)) {
    await sql.raw(`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only'); end`).execute(db)
    await sql
      .raw(
        `create trigger audit_log_keep before delete on audit_log when old.created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days') begin select raise(abort, 'audit_log rows are kept at least 30 days'); end`,
      )
      .execute(db)
  } else {
    await sql
      .raw(
        `create function audit_log_guard() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then raise exception 'audit_log is append-only'; end if;
  if tg_op = 'TRUNCATE' then raise exception 'audit_log is append-only'; end if;
  if old.created_at > now() - interval '30 days' then raise exception 'audit_log rows are kept at least 30 days'; end if;
  return old;
end $$`,
      )
      .execute(db)
    await sql.raw(`create trigger audit_log_guard before update or delete on audit_log for each row execute function audit_log_guard()`).execute(db)
    await sql.raw(`create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_guard()`).execute(db)
  }
}

export async function down(db: Kysely<any>) {
  if (!isSqlite(db)) {
    await sql.raw('drop trigger audit_log_no_truncate on audit_log').execute(db)
    await sql.raw('drop trigger audit_log_guard on audit_log').execute(db)
    await sql.raw('drop function audit_log_guard()').execute(db)
  }
  await db.schema.dropTable('audit_log').execute()
}
