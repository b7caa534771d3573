// Two-factor recovery codes (issue 10, item 16): one-time codes a user keeps on paper to log in when
// the authenticator or the mailbox is gone. Only a SHA-256 of each code is stored; a used code keeps
// its row with used_at so the account page can say how many are left.
// (Every decision on an agreement is kept, never updated, in agreement_signature: migration 330.)
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

}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('user_tfa_recovery').ifExists().execute()
}
