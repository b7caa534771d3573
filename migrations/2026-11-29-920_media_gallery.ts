// The media gallery (issue 23, agency-side.md 2.8 and 3 "Media gallery", docs/media.md): an agency's
// categories (the galleries, listed with their entry counts) and the entries in them, each naming an
// uploaded asset with display name, copyright, note and an optional validity window.
import type { Kysely } from 'kysely'
import { nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await withId(db, db.schema.createTable('media_category'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('display_name', t.text, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema.createIndex('media_category_agency_idx').on('media_category').column('agency_id').execute()
  await withId(db, db.schema.createTable('media_entry'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('category_id', t.int, (c) => c.notNull().references('media_category.id').onDelete('cascade'))
    .addColumn('asset_id', t.int, (c) => c.notNull())
    .addColumn('display_name', t.text, (c) => c.notNull())
    .addColumn('copyright', t.text)
    .addColumn('note', t.text)
    .addColumn('valid_from', t.timestamp)
    .addColumn('valid_until', t.timestamp)
    .addColumn('last_modified', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema.createIndex('media_entry_category_idx').on('media_entry').column('category_id').execute()
  await db.schema.createIndex('media_entry_asset_idx').on('media_entry').column('asset_id').execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('media_entry').execute()
  await db.schema.dropTable('media_category').execute()
}
