// The offline desk (issue 26, docs/checkin-offline.md): registered desks with the key that encrypts
// their local copy (bound to the login session that registered it: logout or revocation deletes it),
// the queued check-ins a desk sent (unique per desk and idempotency key: a batch sent twice counts
// once), the conflicts of two desks admitting one person, and a change feed (one row per change of
// a registration's check-in state, status, ticket code or names) for the desks' cursors and the live
// stream. Database triggers write the feed in the transaction of every change, whichever module makes
// it. On Postgres each row carries its transaction id, so a reader never skips a row of a transaction
// that commits after a later one (the cursor is the reader's snapshot xmin, see checkin/changes.ts).
import { type Kysely, sql } from 'kysely'
import { isSqlite, nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  const lite = isSqlite(db)
  await withId(db, db.schema.createTable('checkin_desk'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('account_id', t.int)
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema.createIndex('checkin_desk_event_idx').on('checkin_desk').column('event_id').execute()
  await db.schema
    .createTable('checkin_desk_key')
    .addColumn('desk_id', t.int, (c) => c.primaryKey().references('checkin_desk.id').onDelete('cascade'))
    .addColumn('session_id', t.text, (c) => c.notNull().references('session.id').onDelete('cascade'))
    .addColumn('key', t.text, (c) => c.notNull())
    .execute()
  await db.schema.createIndex('checkin_desk_key_session_idx').on('checkin_desk_key').column('session_id').execute()

  await withId(db, db.schema.createTable('checkin_conflict'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('visitor_id', t.int, (c) => c.notNull().references('event_visitor.id').onDelete('cascade'))
    .addColumn('person', t.int, (c) => c.notNull())
    .addColumn('list_id', t.int)
    .addColumn('first_desk_id', t.int)
    .addColumn('first_at', t.timestamp, (c) => c.notNull())
    .addColumn('second_desk_id', t.int)
    .addColumn('second_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .addColumn('seen_at', t.timestamp)
    .addColumn('seen_account_id', t.int)
    .execute()
  await db.schema.createIndex('checkin_conflict_event_idx').on('checkin_conflict').columns(['event_id', 'id']).execute()

  await withId(db, db.schema.createTable('checkin_sync_item'))
    .addColumn('desk_id', t.int, (c) => c.notNull().references('checkin_desk.id').onDelete('cascade'))
    .addColumn('key', t.text, (c) => c.notNull())
    .addColumn('event_id', t.int, (c) => c.notNull())
    .addColumn('visitor_id', t.int, (c) => c.notNull())
    .addColumn('person', t.int, (c) => c.notNull())
    .addColumn('action', t.text, (c) => c.notNull())
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .addColumn('list_id', t.int)
    .addColumn('result', t.text, (c) => c.notNull())
    .addColumn('reason', t.text)
    .addColumn('conflict_id', t.int)
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema.createIndex('checkin_sync_item_key_idx').unique().on('checkin_sync_item').columns(['desk_id', 'key']).execute()
  await db.schema.createIndex('checkin_sync_item_person_idx').on('checkin_sync_item').columns(['visitor_id', 'person']).execute()

  // tx: the writing transaction on Postgres (0 on SQLite, whose single writer makes id the commit order);
  // one index serves both readers: (event, tx = 0, id > cursor) and (event, tx >= cursor)
  await withId(db, db.schema.createTable('checkin_change'))
    .addColumn('event_id', t.int, (c) => c.notNull())
    .addColumn('visitor_id', t.int, (c) => c.notNull())
    .addColumn('tx', t.bigint, (c) => c.notNull().defaultTo(lite ? 0 : sql`(pg_current_xact_id()::text::bigint)`))
    .execute()
  await db.schema.createIndex('checkin_change_event_idx').on('checkin_change').columns(['event_id', 'tx', 'id']).execute()

  if (lite) await sqliteTriggers(db)
  else await postgresTriggers(db)
}

// what a desk sees of a registration and its persons: a change of any of these is fed
const VISITOR_COLUMNS = 'status, visitor_count, main_guest_checked_in, main_guest_checked_out, main_guest_checkin_date, main_guest_checkout_date, ticket_code, first_name, last_name, event_id'
const ESCORT_COLUMNS = 'checked_in, checked_out, checkin_date, checkout_date, first_name, last_name, visitor_id'

async function sqliteTriggers(db: Kysely<any>) {
  const feed = (r: string) => `insert into checkin_change (event_id, visitor_id) values (${r}.event_id, ${r}.id);`
  const feedOf = (r: string) => `insert into checkin_change (event_id, visitor_id) select v.event_id, v.id from event_visitor v where v.id = ${r}.visitor_id;`
  const statements = [
    `create trigger checkin_change_visitor_ins after insert on event_visitor begin ${feed('new')} end`,
    `create trigger checkin_change_visitor_upd after update of ${VISITOR_COLUMNS} on event_visitor begin ${feed('new')} end`,
    `create trigger checkin_change_visitor_del after delete on event_visitor begin ${feed('old')} end`,
    `create trigger checkin_change_escort_ins after insert on escort_person begin ${feedOf('new')} end`,
    `create trigger checkin_change_escort_upd after update of ${ESCORT_COLUMNS} on escort_person begin ${feedOf('new')} end`,
    `create trigger checkin_change_escort_del after delete on escort_person begin ${feedOf('old')} end`,
    `create trigger checkin_change_entry_ins after insert on checkin_list_entry begin ${feedOf('new')} end`,
    `create trigger checkin_change_entry_upd after update on checkin_list_entry begin ${feedOf('new')} end`,
    `create trigger checkin_change_order_upd after update of status on ticket_order begin ${feedOf('new')} end`,
  ]
  for (const s of statements) await sql.raw(s).execute(db)
}

async function postgresTriggers(db: Kysely<any>) {
  const statements = [
    `create function einlass_checkin_change() returns trigger language plpgsql as $$
     declare r record;
     begin
       if tg_op = 'DELETE' then r := old; else r := new; end if;
       if tg_table_name = 'event_visitor' then
         insert into checkin_change (event_id, visitor_id) values (r.event_id, r.id);
       else
         insert into checkin_change (event_id, visitor_id) select v.event_id, v.id from event_visitor v where v.id = r.visitor_id;
       end if;
       return null;
     end $$`,
    `create trigger checkin_change_visitor after insert or delete or update of ${VISITOR_COLUMNS} on event_visitor for each row execute function einlass_checkin_change()`,
    `create trigger checkin_change_escort after insert or delete or update of ${ESCORT_COLUMNS} on escort_person for each row execute function einlass_checkin_change()`,
    `create trigger checkin_change_entry after insert or update on checkin_list_entry for each row execute function einlass_checkin_change()`,
    `create trigger checkin_change_order after update of status on ticket_order for each row execute function einlass_checkin_change()`,
  ]
  for (const s of statements) await sql.raw(s).execute(db)
}

export async function down(db: Kysely<any>) {
  if (isSqlite(db)) {
    for (const t of ['visitor_ins', 'visitor_upd', 'visitor_del', 'escort_ins', 'escort_upd', 'escort_del', 'entry_ins', 'entry_upd', 'order_upd']) await sql.raw(`drop trigger if exists checkin_change_${t}`).execute(db)
  } else {
    for (const [t, on] of [['visitor', 'event_visitor'], ['escort', 'escort_person'], ['entry', 'checkin_list_entry'], ['order', 'ticket_order']]) await sql.raw(`drop trigger if exists checkin_change_${t} on ${on}`).execute(db)
    await sql.raw('drop function if exists einlass_checkin_change()').execute(db)
  }
  for (const t of ['checkin_change', 'checkin_sync_item', 'checkin_conflict', 'checkin_desk_key', 'checkin_desk']) await db.schema.dropTable(t).execute()
}
