// Two-factor recovery codes (issue 10, item 16): one-time codes a user keeps on paper to log in when
// the authenticator or the mailbox is gone. Only a SHA-256 of each code is stored; a used code keeps
// its row with used_at so the account page can say how many are left.
// Agreement consents (issue 10, item 3): every decision on an agreement (at registration, on the
// dashboard, at the desk) is kept as written, never updated: the name and text as shown, the
// agreement's version, the signature image, the time and where it was given. `agreement.version`
// counts the organiser's edits, so a consent names the text it was given to.
import type { Kysely } from 'kysely'
import { nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await withId(db, db.schema.createTable('user_tfa_recovery'))
    .addColumn('user_id', t.int, (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('code_hash', t.text, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema.createIndex('user_tfa_recovery_user_idx').on('user_tfa_recovery').column('user_id').execute()

  await db.schema.alterTable('agreement').addColumn('version', t.int, (c) => c.notNull().defaultTo(1)).execute()
  await withId(db, db.schema.createTable('agreement_consent'))
    .addColumn('visitor_id', t.int, (c) => c.notNull().references('event_visitor.id').onDelete('cascade'))
    .addColumn('agreement_id', t.int, (c) => c.notNull().references('agreement.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('display_name', t.text, (c) => c.notNull())
    .addColumn('text', t.text, (c) => c.notNull())
    .addColumn('version', t.int, (c) => c.notNull())
    .addColumn('signature', t.text)
    .addColumn('origin', t.text, (c) => c.notNull())
    .addColumn('account_id', t.int)
    .addColumn('decided_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema.createIndex('agreement_consent_visitor_idx').on('agreement_consent').column('visitor_id').execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('agreement_consent').ifExists().execute()
  await db.schema.alterTable('agreement').dropColumn('version').execute()
  await db.schema.dropTable('user_tfa_recovery').ifExists().execute()
}
