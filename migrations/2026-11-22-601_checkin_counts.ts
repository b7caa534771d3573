// Live counts of the check-in desk (registered, checked in, checked out) as counters, so the desk's
// poll (every 5 s per desk) reads one row instead of aggregating every registration of the event.
// Database triggers keep them in the same transaction as every write that changes them — check-in
// and check-out, status changes, person counts, escorts added or removed, rows inserted or deleted —
// whichever module writes: no code path can forget them.
//
// A registration counts while its status is CONFIRMED or APPEARED: `registered` adds its persons,
// `checked_in` its persons currently in (checked in and not out), `checked_out` those checked out.
// Each registration keeps its escorts' share in escorts_in / escorts_out (kept by the escort
// triggers), so a deleted registration gives back exactly what it added even when its escorts are
// removed by the cascade.
import { type Kysely, sql } from 'kysely'
import { isSqlite } from './helpers'

const ACTIVE = `('CONFIRMED', 'APPEARED')`

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('event_checkin_count')
    .addColumn('event_id', 'integer', (c) => c.primaryKey().references('event.id').onDelete('cascade'))
    .addColumn('registered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('checked_in', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('checked_out', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.alterTable('event_visitor').addColumn('escorts_in', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('event_visitor').addColumn('escorts_out', 'integer', (c) => c.notNull().defaultTo(0)).execute()

  if (isSqlite(db)) await sqliteTriggers(db)
  else await postgresTriggers(db)

  // what exists already
  const yes = isSqlite(db) ? sql`1` : sql`true`
  await sql`update event_visitor set
      escorts_in = (select count(*) from escort_person e where e.visitor_id = event_visitor.id and e.checked_in = ${yes} and e.checked_out <> ${yes}),
      escorts_out = (select count(*) from escort_person e where e.visitor_id = event_visitor.id and e.checked_out = ${yes})
    where exists (select 1 from escort_person e where e.visitor_id = event_visitor.id and (e.checked_in = ${yes} or e.checked_out = ${yes}))`.execute(db)
  await sql`insert into event_checkin_count (event_id, registered, checked_in, checked_out)
    select e.id,
      coalesce(sum(case when v.status in ${sql.raw(ACTIVE)} then v.visitor_count else 0 end), 0),
      coalesce(sum(case when v.status in ${sql.raw(ACTIVE)} then (case when v.main_guest_checked_in = ${yes} and v.main_guest_checked_out <> ${yes} then 1 else 0 end) + v.escorts_in else 0 end), 0),
      coalesce(sum(case when v.status in ${sql.raw(ACTIVE)} then (case when v.main_guest_checked_out = ${yes} then 1 else 0 end) + v.escorts_out else 0 end), 0)
    from event e left join event_visitor v on v.event_id = e.id
    group by e.id`.execute(db)
}

async function sqliteTriggers(db: Kysely<any>) {
  // contribution of a registration row (r = NEW or OLD): 0 unless CONFIRMED or APPEARED
  const reg = (r: string) => `(case when ${r}.status in ${ACTIVE} then ${r}.visitor_count else 0 end)`
  const cin = (r: string) => `(case when ${r}.status in ${ACTIVE} then (${r}.main_guest_checked_in and not ${r}.main_guest_checked_out) + ${r}.escorts_in else 0 end)`
  const cout = (r: string) => `(case when ${r}.status in ${ACTIVE} then ${r}.main_guest_checked_out + ${r}.escorts_out else 0 end)`
  const add = (r: string, sign: '+' | '-', where = '') =>
    `update event_checkin_count set registered = registered ${sign} ${reg(r)}, checked_in = checked_in ${sign} ${cin(r)}, checked_out = checked_out ${sign} ${cout(r)} where event_id = ${r}.event_id${where};`
  const statements = [
    `create trigger event_checkin_count_row after insert on event begin insert into event_checkin_count (event_id) values (new.id); end`,
    `create trigger event_visitor_counts_ins after insert on event_visitor when new.status in ${ACTIVE} begin ${add('new', '+')} end`,
    `create trigger event_visitor_counts_del after delete on event_visitor when old.status in ${ACTIVE} begin ${add('old', '-')} end`,
    `create trigger event_visitor_counts_upd after update of status, visitor_count, main_guest_checked_in, main_guest_checked_out, escorts_in, escorts_out, event_id on event_visitor
       when old.status in ${ACTIVE} or new.status in ${ACTIVE}
       begin
         update event_checkin_count set registered = registered + ${reg('new')} - ${reg('old')}, checked_in = checked_in + ${cin('new')} - ${cin('old')}, checked_out = checked_out + ${cout('new')} - ${cout('old')}
           where event_id = new.event_id and old.event_id = new.event_id;
         ${add('old', '-', ' and old.event_id <> new.event_id')}
         ${add('new', '+', ' and old.event_id <> new.event_id')}
       end`,
    `create trigger escort_person_counts_ins after insert on escort_person when new.checked_in or new.checked_out
       begin update event_visitor set escorts_in = escorts_in + (new.checked_in and not new.checked_out), escorts_out = escorts_out + new.checked_out where id = new.visitor_id; end`,
    `create trigger escort_person_counts_del after delete on escort_person when old.checked_in or old.checked_out
       begin update event_visitor set escorts_in = escorts_in - (old.checked_in and not old.checked_out), escorts_out = escorts_out - old.checked_out where id = old.visitor_id; end`,
    `create trigger escort_person_counts_upd after update of checked_in, checked_out, visitor_id on escort_person
       when old.checked_in <> new.checked_in or old.checked_out <> new.checked_out or old.visitor_id <> new.visitor_id
       begin
         update event_visitor set escorts_in = escorts_in - (old.checked_in and not old.checked_out), escorts_out = escorts_out - old.checked_out where id = old.visitor_id;
         update event_visitor set escorts_in = escorts_in + (new.checked_in and not new.checked_out), escorts_out = escorts_out + new.checked_out where id = new.visitor_id;
       end`,
  ]
  for (const s of statements) await sql.raw(s).execute(db)
}

async function postgresTriggers(db: Kysely<any>) {
  const statements = [
    `create function einlass_event_checkin_count_row() returns trigger language plpgsql as $$
     begin
       insert into event_checkin_count (event_id) values (new.id);
       return null;
     end $$`,
    `create trigger event_checkin_count_row after insert on event for each row execute function einlass_event_checkin_count_row()`,
    `create function einlass_event_visitor_counts() returns trigger language plpgsql as $$
     declare
       o_reg int := 0; o_in int := 0; o_out int := 0;
       n_reg int := 0; n_in int := 0; n_out int := 0;
     begin
       if tg_op <> 'INSERT' and old.status in ${ACTIVE} then
         o_reg := old.visitor_count;
         o_in := (old.main_guest_checked_in and not old.main_guest_checked_out)::int + old.escorts_in;
         o_out := old.main_guest_checked_out::int + old.escorts_out;
       end if;
       if tg_op <> 'DELETE' and new.status in ${ACTIVE} then
         n_reg := new.visitor_count;
         n_in := (new.main_guest_checked_in and not new.main_guest_checked_out)::int + new.escorts_in;
         n_out := new.main_guest_checked_out::int + new.escorts_out;
       end if;
       if tg_op = 'UPDATE' and old.event_id = new.event_id then
         if n_reg <> o_reg or n_in <> o_in or n_out <> o_out then
           update event_checkin_count set registered = registered + n_reg - o_reg, checked_in = checked_in + n_in - o_in, checked_out = checked_out + n_out - o_out where event_id = new.event_id;
         end if;
         return null;
       end if;
       if tg_op <> 'INSERT' and (o_reg <> 0 or o_in <> 0 or o_out <> 0) then
         update event_checkin_count set registered = registered - o_reg, checked_in = checked_in - o_in, checked_out = checked_out - o_out where event_id = old.event_id;
       end if;
       if tg_op <> 'DELETE' and (n_reg <> 0 or n_in <> 0 or n_out <> 0) then
         update event_checkin_count set registered = registered + n_reg, checked_in = checked_in + n_in, checked_out = checked_out + n_out where event_id = new.event_id;
       end if;
       return null;
     end $$`,
    `create trigger event_visitor_counts after insert or delete or update of status, visitor_count, main_guest_checked_in, main_guest_checked_out, escorts_in, escorts_out, event_id
       on event_visitor for each row execute function einlass_event_visitor_counts()`,
    `create function einlass_escort_person_counts() returns trigger language plpgsql as $$
     declare
       o_in int := 0; o_out int := 0; n_in int := 0; n_out int := 0;
     begin
       if tg_op <> 'INSERT' then
         o_in := (old.checked_in and not old.checked_out)::int;
         o_out := old.checked_out::int;
       end if;
       if tg_op <> 'DELETE' then
         n_in := (new.checked_in and not new.checked_out)::int;
         n_out := new.checked_out::int;
       end if;
       if tg_op = 'UPDATE' and old.visitor_id = new.visitor_id then
         if n_in <> o_in or n_out <> o_out then
           update event_visitor set escorts_in = escorts_in + n_in - o_in, escorts_out = escorts_out + n_out - o_out where id = new.visitor_id;
         end if;
         return null;
       end if;
       if o_in <> 0 or o_out <> 0 then
         update event_visitor set escorts_in = escorts_in - o_in, escorts_out = escorts_out - o_out where id = old.visitor_id;
       end if;
       if n_in <> 0 or n_out <> 0 then
         update event_visitor set escorts_in = escorts_in + n_in, escorts_out = escorts_out + n_out where id = new.visitor_id;
       end if;
       return null;
     end $$`,
    `create trigger escort_person_counts after insert or delete or update of checked_in, checked_out, visitor_id
       on escort_person for each row execute function einlass_escort_person_counts()`,
  ]
  for (const s of statements) await sql.raw(s).execute(db)
}

export async function down(db: Kysely<any>) {
  if (isSqlite(db)) {
    for (const t of ['event_checkin_count_row', 'event_visitor_counts_ins', 'event_visitor_counts_del', 'event_visitor_counts_upd', 'escort_person_counts_ins', 'escort_person_counts_del', 'escort_person_counts_upd']) {
      await sql.raw(`drop trigger if exists ${t}`).execute(db)
    }
  } else {
    await sql.raw('drop trigger if exists event_checkin_count_row on event').execute(db)
    await sql.raw('drop trigger if exists event_visitor_counts on event_visitor').execute(db)
    await sql.raw('drop trigger if exists escort_person_counts on escort_person').execute(db)
    for (const f of ['einlass_event_checkin_count_row', 'einlass_event_visitor_counts', 'einlass_escort_person_counts']) await sql.raw(`drop function if exists ${f}()`).execute(db)
  }
  await db.schema.alterTable('event_visitor').dropColumn('escorts_in').execute()
  await db.schema.alterTable('event_visitor').dropColumn('escorts_out').execute()
  await db.schema.dropTable('event_checkin_count').execute()
}
