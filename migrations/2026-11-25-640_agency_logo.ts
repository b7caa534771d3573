// The agency's own logo (guest-side.md 2, shell: "header with the agency's logo"): shown in the guest
// pages' header and on the public event page. The document settings keep their own logo for tickets;
// documents fall back to this one when they have none.
import type { Kysely } from 'kysely'
import { types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('agency').addColumn('logo_asset_id', t.int).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('agency').dropColumn('logo_asset_id').execute()
}
