// A second cache counter (see 2026-11-22-701): 'setup' rises whenever an event's payment methods,
// its seating price categories or the agreements change. Every ticket purchase reads the first two
// and every registration and self check-in the agreements; with the counter those answers are
// cached per process (db/generation-cache.ts) and checked by one primary-key read. Triggers raise
// it, so every writer (other processes, cascades, imports) is covered.
import { type Kysely, sql } from 'kysely'
import { isSqlite } from './helpers'

const TABLES = ['payment_method', 'event_payment_method', 'seating_price_category', 'agreement']

export async function up(db: Kysely<any>) {
  await db.insertInto('cache_generation').values({ name: 'setup', n: 0 }).execute()
  if (isSqlite(db)) {
    const bump = `update cache_generation set n = n + 1 where name = 'setup'`
    for (const table of TABLES) {
      for (const op of ['insert', 'update', 'delete']) await sql.raw(`create trigger setup_gen_${table}_${op} after ${op} on ${table} begin ${bump}; end`).execute(db)
    }
    return
  }
  // the schema of the table that fired: the test harness runs each suite in its own schema
  await sql
    .raw(
      `create function setup_generation_bump() returns trigger language plpgsql as $$
       begin
         execute format('update %I.cache_generation set n = n + 1 where name = ''setup''', TG_TABLE_SCHEMA);
         return null;
       end $$`,
    )
    .execute(db)
  for (const table of TABLES) await sql.raw(`create trigger setup_gen_${table} after insert or update or delete on ${table} for each statement execute function setup_generation_bump()`).execute(db)
}

export async function down(db: Kysely<any>) {
  if (isSqlite(db)) {
    for (const table of TABLES) for (const op of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists setup_gen_${table}_${op}`).execute(db)
  } else {
    for (const table of TABLES) await sql.raw(`drop trigger if exists setup_gen_${table} on ${table}`).execute(db)
    await sql.raw('drop function if exists setup_generation_bump()').execute(db)
  }
  await db.deleteFrom('cache_generation').where('name', '=', 'setup').execute()
}
