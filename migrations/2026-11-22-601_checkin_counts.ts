// Live counts of the check-in desk (registered, checked in, checked out) as counters, so the desk's
// poll (every 5 s per desk) sums a few rows instead of aggregating every registration of the event.
// Database triggers keep them in the same transaction as every write that changes them — check-in
// and check-out, status changes, person counts, escorts added or removed, rows inserted or deleted —
// whichever module writes: no code path can forget them.
//
// A registration counts while its status is CONFIRMED or APPEARED: `registered` adds its persons,
// `checked_in` its persons currently in (checked in and not out), `checked_out` those checked out.
// Each registration keeps its escorts' share in escorts_in / escorts_out (kept by the escort
// triggers), so a deleted registration gives back exactly what it added even when its escorts are
// removed by the cascade.
//
// The counts of an event are spread over SHARDS rows (by registration id) and summed when read: on
// Postgres every writer holds the row it updated until it commits, and one row per event would make
// all check-ins of an event wait for each other. Rows are created by the first write (upsert).
import { type Kysely, sql } from 'kysely'
import { isSqlite } from './helpers'

const ACTIVE = `('CONFIRMED', 'APPEARED')`
const SHARDS = 16

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('event_checkin_count')
    .addColumn('event_id', 'integer', (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('registered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('checked_in', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('checked_out', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('event_checkin_count_pk', ['event_id', 'shard'])
    .execute()
  await db.schema.alterTable('event_visitor').addColumn('escorts_in', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('event_visitor').addColumn('escorts_out', 'integer', (c) => c.notNull().defaultTo(0)).execute()

  // what exists already (before the triggers, which would count these updates a second time)
  const yes = isSqlite(db) ? sql`1` : sql`true`
  await sql`update event_visitor set
      escorts_in = (select count(*) from escort_person e where e.visitor_id = event_visitor.id and e.checked_in = ${yes} and e.checked_out <> ${yes}),
      escorts_out = (select count(*) from escort_person e where e.visitor_id = event_visitor.id and e.checked_out = ${yes})
    where exists (select 1 from escort_person e where e.visitor_id = event_visitor.id and (e.checked_in = ${yes} or e.checked_out = ${yes}))`.execute(db)
  await sql`insert into event_checkin_count (event_id, shard, registered, checked_in, checked_out)
    select v.event_id, v.id % ${sql.raw(String(SHARDS))},
      coalesce(sum(case when v.status in ${sql.raw(ACTIVE)} then v.visitor_count else 0 end), 0),
      coalesce(sum(case when v.status in ${sql.raw(ACTIVE)} then (case when v.main_guest_checked_in = ${yes} and v.main_guest_checked_out <> ${yes} then 1 else 0 end) + v.escorts_in else 0 end), 0),
      coalesce(sum(case when v.status in ${sql.raw(ACTIVE)} then (case when v.main_guest_checked_out = ${yes} then 1 else 0 end) + v.escorts_out else 0 end), 0)
    from event_visitor v
    where v.status in ${sql.raw(ACTIVE)}
    group by v.event_id, v.id % ${sql.raw(String(SHARDS))}`.execute(db)

  if (isSqlite(db)) await sqliteTriggers(db)
  else await postgresTriggers(db)
}

async function sqliteTriggers(db: Kysely<any>) {
  // contribution of a registration row (r = NEW or OLD): 0 unless CONFIRMED or APPEARED
  const reg = (r: string) => `(case when ${r}.status in ${ACTIVE} then ${r}.visitor_count else 0 end)`
  const cin = (r: string) => `(case when ${r}.status in ${ACTIVE} then (${r}.main_guest_checked_in and not ${r}.main_guest_checked_out) + ${r}.escorts_in else 0 end)`
  const cout = (r: string) => `(case when ${r}.status in ${ACTIVE} then ${r}.main_guest_checked_out + ${r}.escorts_out else 0 end)`
  /** adds the values to the row's shard of the event's counts (created by the first write) */
  const upsert = (r: string, values: [string, string, string], where = '') =>
    `insert into event_checkin_count (event_id, shard, registered, checked_in, checked_out) select ${r}.event_id, ${r}.id % ${SHARDS}, ${values.join(', ')} where true${where}
       on conflict (event_id, shard) do update set registered = registered + excluded.registered, checked_in = checked_in + excluded.checked_in, checked_out = checked_out + excluded.checked_out;`
  const plus = (r: string): [string, string, string] => [reg(r), cin(r), cout(r)]
  const minus = (r: string): [string, string, string] => [`-${reg(r)}`, `-${cin(r)}`, `-${cout(r)}`]
  const statements = [
    `create trigger event_visitor_counts_ins after insert on event_visitor when new.status in ${ACTIVE} begin ${upsert('new', plus('new'))} end`,
    // a deleted registration only lowers its shard (which exists since it was counted); when the whole
    // event is deleted, the cascade may have removed the counts already, and nothing is re-created
    `create trigger event_visitor_counts_del after delete on event_visitor when old.status in ${ACTIVE}
       begin update event_checkin_count set registered = registered - ${reg('old')}, checked_in = checked_in - ${cin('old')}, checked_out = checked_out - ${cout('old')} where event_id = old.event_id and shard = old.id % ${SHARDS}; end`,
    `create trigger event_visitor_counts_upd after update of status, visitor_count, main_guest_checked_in, main_guest_checked_out, escorts_in, escorts_out, event_id on event_visitor
       when old.status in ${ACTIVE} or new.status in ${ACTIVE}
       begin
         ${upsert('new', [`${reg('new')} - ${reg('old')}`, `${cin('new')} - ${cin('old')}`, `${cout('new')} - ${cout('old')}`], ' and old.event_id = new.event_id')}
         ${upsert('old', minus('old'), ' and old.event_id <> new.event_id')}
         ${upsert('new', plus('new'), ' and old.event_id <> new.event_id')}
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
           insert into event_checkin_count as c (event_id, shard, registered, checked_in, checked_out) values (new.event_id, new.id % ${SHARDS}, n_reg - o_reg, n_in - o_in, n_out - o_out)
             on conflict (event_id, shard) do update set registered = c.registered + excluded.registered, checked_in = c.checked_in + excluded.checked_in, checked_out = c.checked_out + excluded.checked_out;
         end if;
         return null;
       end if;
       if tg_op <> 'INSERT' and (o_reg <> 0 or o_in <> 0 or o_out <> 0) then
         -- only lowers the shard, which exists since it was counted (a deleted event's may be gone)
         update event_checkin_count set registered = registered - o_reg, checked_in = checked_in - o_in, checked_out = checked_out - o_out where event_id = old.event_id and shard = old.id % ${SHARDS};
       end if;
       if tg_op <> 'DELETE' and (n_reg <> 0 or n_in <> 0 or n_out <> 0) then
         insert into event_checkin_count as c (event_id, shard, registered, checked_in, checked_out) values (new.event_id, new.id % ${SHARDS}, n_reg, n_in, n_out)
           on conflict (event_id, shard) do update set registered = c.registered + excluded.registered, checked_in = c.checked_in + excluded.checked_in, checked_out = c.checked_out + excluded.checked_out;
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
    for (const t of ['event_visitor_counts_ins', 'event_visitor_counts_del', 'event_visitor_counts_upd', 'escort_person_counts_ins', 'escort_person_counts_del', 'escort_person_counts_upd']) {
      await sql.raw(`drop trigger if exists ${t}`).execute(db)
    }
  } else {
    await sql.raw('drop trigger if exists event_visitor_counts on event_visitor').execute(db)
    await sql.raw('drop trigger if exists escort_person_counts on escort_person').execute(db)
    for (const f of ['einlass_event_visitor_counts', 'einlass_escort_person_counts']) await sql.raw(`drop function if exists ${f}()`).execute(db)
  }
  await db.schema.alterTable('event_visitor').dropColumn('escorts_in').execute()
  await db.schema.alterTable('event_visitor').dropColumn('escorts_out').execute()
  await db.schema.dropTable('event_checkin_count').execute()
}
