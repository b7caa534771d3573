// A counter the database raises whenever who receives organiser notifications could change
// (accounts, their users' status/address/language, notification settings). Every registration
// asks for the NEW_REGISTRATION recipients inside its transaction; with the counter the answer is
// cached per process and the cache checked by one primary-key read (notification-settings/service.ts).
// Triggers, not application code, raise it: every writer (other processes on one Postgres, imports,
// deletions, cascades) is covered without having to remember it.
import { type Kysely, sql } from 'kysely'
import { isSqlite } from './helpers'

const ACCOUNT_COLUMNS = 'user_id, agency_id, status, user_role'
const USER_COLUMNS = 'status, email, language'

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('cache_generation')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.insertInto('cache_generation').values({ name: 'recipients', n: 0 }).execute()
  const bump = `update cache_generation set n = n + 1 where name = 'recipients'`
  if (isSqlite(db)) {
    const triggers: Array<[string, string]> = [
      ['account_ins', 'after insert on account'],
      ['account_upd', `after update of ${ACCOUNT_COLUMNS} on account`],
      ['account_del', 'after delete on account'],
      ['app_user_upd', `after update of ${USER_COLUMNS} on app_user`],
      ['app_user_del', 'after delete on app_user'],
      ['notification_setting_ins', 'after insert on notification_setting'],
      ['notification_setting_upd', 'after update on notification_setting'],
      ['notification_setting_del', 'after delete on notification_setting'],
    ]
    for (const [name, when] of triggers) await sql.raw(`create trigger recipients_gen_${name} ${when} begin ${bump}; end`).execute(db)
    return
  }
  // the schema of the table that fired: the test harness runs each suite in its own schema
  await sql
    .raw(
      `create function recipients_generation_bump() returns trigger language plpgsql as $$
       begin
         execute format('update %I.cache_generation set n = n + 1 where name = ''recipients''', TG_TABLE_SCHEMA);
         return null;
       end $$`,
    )
    .execute(db)
  const triggers: Array<[string, string]> = [
    ['account', `after insert or delete or update of ${ACCOUNT_COLUMNS} on account`],
    ['app_user', `after delete or update of ${USER_COLUMNS} on app_user`],
    ['notification_setting', 'after insert or update or delete on notification_setting'],
  ]
  for (const [name, when] of triggers) await sql.raw(`create trigger recipients_gen_${name} ${when} for each statement execute function recipients_generation_bump()`).execute(db)
}

export async function down(db: Kysely<any>) {
  if (isSqlite(db)) {
    for (const name of ['account_ins', 'account_upd', 'account_del', 'app_user_upd', 'app_user_del', 'notification_setting_ins', 'notification_setting_upd', 'notification_setting_del']) {
      await sql.raw(`drop trigger if exists recipients_gen_${name}`).execute(db)
    }
  } else {
    for (const t of ['account', 'app_user', 'notification_setting']) await sql.raw(`drop trigger if exists recipients_gen_${t} on ${t}`).execute(db)
    await sql.raw('drop function if exists recipients_generation_bump()').execute(db)
  }
  await db.schema.dropTable('cache_generation').execute()
}
