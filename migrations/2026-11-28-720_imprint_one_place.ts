// The imprint and privacy addresses live in one place, the agency (issue 20, item 26): the seller
// settings ("Verkauf") read and write the agency's imprint_url / privacy_url, which "Impressum und
// Kontakt" edits and the guest pages show. Addresses entered only under "Verkauf" move over (an
// address the agency already has wins); the seller settings' own columns go.
import { type Kysely, sql } from 'kysely'
import { types } from './helpers'

export async function up(db: Kysely<any>): Promise<void> {
  for (const col of ['imprint_url', 'privacy_url']) {
    await sql`update agency set ${sql.ref(col)} = (select s.${sql.ref(col)} from seller_settings s where s.agency_id = agency.id)
      where ${sql.ref(col)} is null and exists (select 1 from seller_settings s where s.agency_id = agency.id and s.${sql.ref(col)} is not null)`.execute(db)
    await db.schema.alterTable('seller_settings').dropColumn(col).execute()
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const t = types(db)
  for (const col of ['imprint_url', 'privacy_url']) {
    await db.schema.alterTable('seller_settings').addColumn(col, t.text).execute()
    await sql`update seller_settings set ${sql.ref(col)} = (select a.${sql.ref(col)} from agency a where a.id = seller_settings.agency_id)`.execute(db)
  }
}
