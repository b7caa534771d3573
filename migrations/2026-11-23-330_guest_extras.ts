// Guest extras (issue 11): what a guest signed, kept immutably with the agreement's text and version;
// reports, support messages and feedback from the guest pages; the agency's imprint and privacy texts;
// an index that pages a guest's notifications (their mails in the outbox) without a sort.
import type { Kysely } from 'kysely'
import { boolDefault, nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  const now = nowDefault(db)

  /** raised by every change of an agreement: a signature names the version it was given for */
  await db.schema.alterTable('agreement').addColumn('version', t.int, (c) => c.notNull().defaultTo(1)).execute()

  // append-only: one row per decision, never updated (visitor_agreement holds the current one)
  await withId(db, db.schema.createTable('agreement_signature'))
    .addColumn('visitor_id', t.int, (c) => c.notNull().references('event_visitor.id').onDelete('cascade'))
    .addColumn('agreement_id', t.int, (c) => c.notNull().references('agreement.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('signature', t.text)
    .addColumn('agreement_version', t.int, (c) => c.notNull())
    .addColumn('agreement_name', t.text, (c) => c.notNull())
    /** the description (HTML) exactly as it was shown */
    .addColumn('agreement_text', t.text, (c) => c.notNull())
    .addColumn('appearance', t.text, (c) => c.notNull())
    /** GUEST (dashboard), SELF_CHECKIN, DESK */
    .addColumn('origin', t.text, (c) => c.notNull())
    .addColumn('account_id', t.int)
    .addColumn('decided_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema.createIndex('agreement_signature_visitor_idx').on('agreement_signature').columns(['visitor_id', 'id']).execute()

  await withId(db, db.schema.createTable('guest_report'))
    .addColumn('agency_id', t.int, (c) => c.references('agency.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.references('event.id').onDelete('set null'))
    .addColumn('user_id', t.int, (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('report_type', t.text, (c) => c.notNull())
    .addColumn('origin', t.text)
    .addColumn('origin_url', t.text)
    .addColumn('event_name', t.text)
    .addColumn('agency_name', t.text)
    .addColumn('reason', t.text, (c) => c.notNull())
    .addColumn('important', t.bool, boolDefault(false))
    .addColumn('sexual_abuse', t.bool, boolDefault(false))
    .addColumn('submit_identity', t.bool, boolDefault(false))
    .addColumn('confirm_correct_data', t.bool, boolDefault(false))
    .addColumn('first_name', t.text)
    .addColumn('last_name', t.text)
    .addColumn('email', t.text)
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('guest_report_agency_idx').on('guest_report').columns(['agency_id', 'id']).execute()

  await withId(db, db.schema.createTable('support_message'))
    .addColumn('agency_id', t.int, (c) => c.references('agency.id').onDelete('set null'))
    .addColumn('event_id', t.int, (c) => c.references('event.id').onDelete('set null'))
    .addColumn('user_id', t.int, (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('user_email', t.text)
    .addColumn('subject', t.text, (c) => c.notNull())
    .addColumn('content', t.text, (c) => c.notNull())
    .addColumn('origin_url', t.text)
    .addColumn('state', t.text)
    .addColumn('dialog', t.text)
    .addColumn('additional_data', t.text)
    .addColumn('event_name', t.text)
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()

  await withId(db, db.schema.createTable('feedback'))
    .addColumn('user_id', t.int, (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('name', t.text)
    .addColumn('email', t.text)
    .addColumn('page', t.text)
    .addColumn('message', t.text, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()

  for (const col of ['imprint_text', 'imprint_url', 'privacy_text', 'privacy_url']) await db.schema.alterTable('agency').addColumn(col, t.text).execute()

  // a guest's notifications: their mails about registrations, newest first (POST /api/guest/notifications)
  await db.schema.createIndex('mail_outbox_guest_notification_idx').on('mail_outbox').columns(['user_id', 'id', 'visitor_id']).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('mail_outbox_guest_notification_idx').ifExists().execute()
  for (const col of ['imprint_text', 'imprint_url', 'privacy_text', 'privacy_url']) await db.schema.alterTable('agency').dropColumn(col).execute()
  for (const table of ['feedback', 'support_message', 'guest_report', 'agreement_signature']) await db.schema.dropTable(table).ifExists().execute()
  await db.schema.alterTable('agreement').dropColumn('version').execute()
}
