// Identity, part 2: two-factor methods, notification settings, introduction keys, rate-limit
// counters shared by every server process, invitations and the deletion workflow.
import type { Kysely } from 'kysely'
import { boolDefault, nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  const now = nowDefault(db)

  await withId(db, db.schema.createTable('user_tfa'))
    .addColumn('user_id', t.int, (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('display_name', t.text, (c) => c.notNull())
    .addColumn('tfa_type', t.text, (c) => c.notNull())
    .addColumn('secret', t.text)
    .addColumn('enabled', t.bool, boolDefault(false))
    .addColumn('linked', t.bool, boolDefault(false))
    .addColumn('last_used_step', t.bigint)
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('user_tfa_user_idx').on('user_tfa').column('user_id').execute()

  await withId(db, db.schema.createTable('notification_setting'))
    .addColumn('user_id', t.int, (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('scope', t.text, (c) => c.notNull())
    .addColumn('scope_id', t.int, (c) => c.notNull())
    .addColumn('code', t.text, (c) => c.notNull())
    .addColumn('enabled', t.bool)
    .execute()
  await db.schema.createIndex('notification_setting_uq').on('notification_setting').columns(['user_id', 'scope', 'scope_id', 'code']).unique().execute()

  await db.schema
    .createTable('user_introduction')
    .addColumn('user_id', t.int, (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('key', t.text, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('user_introduction_pk', ['user_id', 'key'])
    .execute()

  await db.schema
    .createTable('rate_limit')
    .addColumn('bucket', t.text, (c) => c.primaryKey())
    .addColumn('window_start', t.timestamp, (c) => c.notNull())
    .addColumn('hits', t.int, (c) => c.notNull())
    .execute()

  await db.schema.alterTable('account').addColumn('deletion_in_progress', t.bool, boolDefault(false)).execute()
  await db.schema.alterTable('account').addColumn('deletion_reason', t.text).execute()
  await db.schema.alterTable('account').addColumn('invited_at', t.timestamp).execute()
  await db.schema.alterTable('account').addColumn('invited_by_user_id', t.int).execute()

  await db.schema.alterTable('app_user').addColumn('require_deletion', t.bool, boolDefault(false)).execute()
  await db.schema.alterTable('app_user').addColumn('final_deletion_date', t.timestamp).execute()
  await db.schema.alterTable('app_user').addColumn('deletion_reason', t.text).execute()
  // hashes of the browsers this user logged in with (newest last), for the new-device mail
  await db.schema.alterTable('app_user').addColumn('known_devices', t.json, (c) => c.notNull().defaultTo('[]')).execute()
}

export async function down(db: Kysely<any>) {
  for (const c of ['deletion_in_progress', 'deletion_reason', 'invited_at', 'invited_by_user_id']) await db.schema.alterTable('account').dropColumn(c).execute()
  for (const c of ['require_deletion', 'final_deletion_date', 'deletion_reason', 'known_devices']) await db.schema.alterTable('app_user').dropColumn(c).execute()
  for (const table of ['rate_limit', 'user_introduction', 'notification_setting', 'user_tfa']) await db.schema.dropTable(table).ifExists().execute()
}
