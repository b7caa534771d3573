// Anonymous uploads count in a pool per client address until a registration claims them
// (EINLASS_UPLOAD_UNCLAIMED_POOL_MB): asset.client_key records the hashed address an anonymous upload
// came from (null for uploads of logged-in users and those made before).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>) {
  await db.schema.alterTable('asset').addColumn('client_key', 'text').execute()
  await db.schema.createIndex('asset_client_idx').on('asset').columns(['client_key', 'created_at']).where('client_key', 'is not', null).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('asset_client_idx').execute()
  await db.schema.alterTable('asset').dropColumn('client_key').execute()
}
