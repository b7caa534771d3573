// A session opened by a guest link in a mail (not by a password login) reaches only guest things
// for users who also log in with a password elsewhere (organisers, two-factor users): the column
// says which sessions those are.
import type { Kysely } from 'kysely'
import { boolDefault, types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('session').addColumn('via_link', t.bool, boolDefault(false)).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('session').dropColumn('via_link').execute()
}
