// Mail settings per agency (docs/mail.md): an agency's own SMTP server or a sending domain of its own
// (SPF + a DKIM key einlass generates), and who a mail comes from at agency, event and guest level.
import type { Kysely } from 'kysely'
import { nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await withId(db, db.schema.createTable('mail_settings'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    /** SMTP or DOMAIN */
    .addColumn('type', t.text, (c) => c.notNull())
    .addColumn('display_name', t.text, (c) => c.notNull())
    .addColumn('smtp_host', t.text)
    .addColumn('smtp_port', t.int)
    /** NONE, STARTTLS or TLS */
    .addColumn('smtp_tls', t.text)
    .addColumn('smtp_user', t.text)
    /** sealed with the data dir's key (identity/secret-box.ts), never sent back */
    .addColumn('smtp_password', t.text)
    /** JSON [{name, prefix}] */
    .addColumn('smtp_domains', t.json, (c) => c.notNull().defaultTo('[]'))
    .addColumn('domain_name', t.text)
    .addColumn('prefix', t.text)
    .addColumn('dkim_selector', t.text)
    .addColumn('dkim_private_key', t.text)
    .addColumn('dkim_public_key', t.text)
    /** OK or INVALID; INVALID until a check passed */
    .addColumn('status', t.text, (c) => c.notNull().defaultTo('INVALID'))
    .addColumn('status_message', t.text)
    .addColumn('checked_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
  await db.schema.createIndex('mail_settings_agency').on('mail_settings').columns(['agency_id', 'display_name']).execute()

  // One row per level that sets a sender: the agency's (event and visitor null), an event's
  // override, a guest's override. No row at event or guest level = the override is off.
  await withId(db, db.schema.createTable('mail_sender'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.references('event.id').onDelete('cascade'))
    .addColumn('visitor_id', t.int, (c) => c.references('event_visitor.id').onDelete('cascade'))
    /** A:<agency>, E:<event> or V:<visitor>: one row per level */
    .addColumn('scope', t.text, (c) => c.notNull().unique())
    .addColumn('sender_name', t.text)
    .addColumn('address_name', t.text)
    /** SYSTEM, AGENCY or the domain name of the chosen mail settings */
    .addColumn('address_domain', t.text)
    .addColumn('mail_settings_id', t.int, (c) => c.references('mail_settings.id'))
    .execute()

  // the sender a mail went out under (name <address>), set when it is sent or fails
  await db.schema.alterTable('mail_outbox').addColumn('from_address', t.text).execute()
  // the SMTP server's answer when a guest's address was refused (bounce), shown beside mail_error
  await db.schema.alterTable('event_visitor').addColumn('mail_error_text', t.text).execute()
}
