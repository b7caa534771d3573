// The organiser workspace (issue 4): tags and campaigns (per agency, on events and guests), short
// links, agreements and their signatures, ticket codes and presence periods for check-in, idempotent
// check-in requests, invitations bookkeeping and stored CSV imports.
import type { Kysely } from 'kysely'
import { boolDefault, nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  const now = nowDefault(db)

  for (const table of ['tag', 'campaign'] as const) {
    await withId(db, db.schema.createTable(table))
      .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
      .addColumn('type', t.text, (c) => c.notNull().defaultTo('DEFAULT'))
      .addColumn('display_name', t.text, (c) => c.notNull())
      .addColumn('group_name', t.text)
      .addColumn('name', t.text, (c) => c.notNull())
      /** lower-cased display name: duplicates differing only in case select the existing row */
      .addColumn('name_key', t.text, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
      .execute()
    await db.schema.createIndex(`${table}_agency_key_uq`).on(table).columns(['agency_id', 'type', 'name_key']).unique().execute()
  }

  await db.schema
    .createTable('event_tag')
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('tag_id', t.int, (c) => c.notNull().references('tag.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('event_tag_pk', ['event_id', 'tag_id'])
    .execute()
  await db.schema.createIndex('event_tag_tag_idx').on('event_tag').column('tag_id').execute()
  await db.schema
    .createTable('event_campaign')
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('campaign_id', t.int, (c) => c.notNull().references('campaign.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('event_campaign_pk', ['event_id', 'campaign_id'])
    .execute()
  await db.schema.createIndex('event_campaign_campaign_idx').on('event_campaign').column('campaign_id').execute()
  await db.schema
    .createTable('visitor_tag')
    .addColumn('visitor_id', t.int, (c) => c.notNull().references('event_visitor.id').onDelete('cascade'))
    .addColumn('tag_id', t.int, (c) => c.notNull().references('tag.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('visitor_tag_pk', ['visitor_id', 'tag_id'])
    .execute()
  await db.schema.createIndex('visitor_tag_tag_idx').on('visitor_tag').columns(['tag_id', 'visitor_id']).execute()
  await db.schema
    .createTable('visitor_campaign')
    .addColumn('visitor_id', t.int, (c) => c.notNull().references('event_visitor.id').onDelete('cascade'))
    .addColumn('campaign_id', t.int, (c) => c.notNull().references('campaign.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('visitor_campaign_pk', ['visitor_id', 'campaign_id'])
    .execute()
  await db.schema.createIndex('visitor_campaign_campaign_idx').on('visitor_campaign').columns(['campaign_id', 'visitor_id']).execute()

  await withId(db, db.schema.createTable('short_link'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('code', t.text, (c) => c.notNull().unique())
    .addColumn('campaign_id', t.int, (c) => c.references('campaign.id').onDelete('set null'))
    .addColumn('tag_ids', t.json, (c) => c.notNull().defaultTo('[]'))
    .addColumn('clicks', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('created_by_account_id', t.int)
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('short_link_agency_idx').on('short_link').columns(['agency_id', 'event_id']).execute()

  await withId(db, db.schema.createTable('agreement'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.references('event.id').onDelete('cascade'))
    /** GLOBAL (agency default for every event) or EVENT */
    .addColumn('validity', t.text, (c) => c.notNull())
    .addColumn('display_name', t.text, (c) => c.notNull())
    .addColumn('description', t.text, (c) => c.notNull().defaultTo(''))
    /** VISIBLE (optional) or REQUIRED */
    .addColumn('appearance', t.text, (c) => c.notNull().defaultTo('REQUIRED'))
    .addColumn('active', t.bool, boolDefault(true))
    .addColumn('sort_order', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('agreement_agency_idx').on('agreement').columns(['agency_id', 'validity']).execute()
  await db.schema.createIndex('agreement_event_idx').on('agreement').column('event_id').execute()

  await withId(db, db.schema.createTable('visitor_agreement'))
    .addColumn('visitor_id', t.int, (c) => c.notNull().references('event_visitor.id').onDelete('cascade'))
    .addColumn('agreement_id', t.int, (c) => c.notNull().references('agreement.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('status', t.text, (c) => c.notNull())
    /** PNG data URL of the drawn signature (CONFIRMED) */
    .addColumn('signature', t.text)
    .addColumn('decided_at', t.timestamp, (c) => c.notNull())
    .addColumn('confirm_date', t.timestamp)
    .addColumn('decline_date', t.timestamp)
    /** GUEST, SELF_CHECKIN, DESK */
    .addColumn('origin', t.text, (c) => c.notNull())
    .addColumn('account_id', t.int)
    .execute()
  await db.schema.createIndex('visitor_agreement_uq').on('visitor_agreement').columns(['visitor_id', 'agreement_id']).unique().execute()
  await db.schema.createIndex('visitor_agreement_agreement_idx').on('visitor_agreement').columns(['agreement_id', 'status']).execute()
  await db.schema.createIndex('visitor_agreement_event_idx').on('visitor_agreement').columns(['event_id', 'decided_at']).execute()

  await db.schema.alterTable('event_visitor').addColumn('ticket_code', t.text).execute()
  await db.schema.alterTable('event_visitor').addColumn('invited_at', t.timestamp).execute()
  await db.schema.alterTable('event_visitor').addColumn('invitation_count', t.int, (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('event_visitor').addColumn('note', t.text).execute()
  await db.schema.alterTable('event_visitor').addColumn('decided_at', t.timestamp).execute()
  await db.schema.createIndex('event_visitor_ticket_code_uq').on('event_visitor').column('ticket_code').unique().execute()
  await db.schema.createIndex('event_visitor_event_registered_idx').on('event_visitor').columns(['event_id', 'registered_at']).execute()

  await withId(db, db.schema.createTable('presence'))
    .addColumn('visitor_id', t.int, (c) => c.notNull().references('event_visitor.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    /** 0 = main guest, n = escort person number n */
    .addColumn('person', t.int, (c) => c.notNull())
    .addColumn('checkin_at', t.timestamp, (c) => c.notNull())
    .addColumn('checkout_at', t.timestamp)
    .addColumn('checkin_account_id', t.int)
    .addColumn('checkout_account_id', t.int)
    .addColumn('note', t.text)
    /** DESK or SELF */
    .addColumn('origin', t.text, (c) => c.notNull())
    .execute()
  await db.schema.createIndex('presence_visitor_idx').on('presence').columns(['visitor_id', 'person']).execute()
  await db.schema.createIndex('presence_event_idx').on('presence').columns(['event_id', 'checkin_at']).execute()

  await db.schema
    .createTable('checkin_request')
    .addColumn('nonce', t.text, (c) => c.primaryKey())
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('status', t.int, (c) => c.notNull())
    .addColumn('response', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()

  await withId(db, db.schema.createTable('import_file'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('account_id', t.int)
    .addColumn('file_name', t.text, (c) => c.notNull())
    /** the file decoded to text */
    .addColumn('content', t.text, (c) => c.notNull())
    .addColumn('delimiter', t.text, (c) => c.notNull())
    .addColumn('row_count', t.int, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()
}

export async function down(db: Kysely<any>) {
  for (const table of ['import_file', 'checkin_request', 'presence', 'visitor_agreement', 'agreement', 'short_link', 'visitor_campaign', 'visitor_tag', 'event_campaign', 'event_tag', 'campaign', 'tag']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
  for (const idx of ['event_visitor_ticket_code_uq', 'event_visitor_event_registered_idx']) await db.schema.dropIndex(idx).ifExists().execute()
  for (const col of ['ticket_code', 'invited_at', 'invitation_count', 'note', 'decided_at']) await db.schema.alterTable('event_visitor').dropColumn(col).execute()
}
