// Ticketing (issue 12, docs/ticketing.md): ticket categories with quotas, coupons, payment methods
// per agency enabled per event, seller settings, ticket orders with their lines and history.
// Quotas and coupon uses are counters changed only by conditional updates (like event seats).
import type { Kysely } from 'kysely'
import { boolDefault, nowDefault, types, withId } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  const now = nowDefault(db)

  /** an event is paid while it has ticket categories (isPayedEvent); kept by ticketing/categories.ts */
  await db.schema.alterTable('event').addColumn('is_paid', t.bool, boolDefault(false)).execute()

  await withId(db, db.schema.createTable('ticket_category'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('display_name', t.text, (c) => c.notNull())
    .addColumn('translations', t.json, (c) => c.notNull().defaultTo('[]'))
    /** gross price in cents */
    .addColumn('gross_price', t.int, (c) => c.notNull())
    .addColumn('tax_code', t.text, (c) => c.notNull())
    /** tickets for sale; null = only the event's capacity limits */
    .addColumn('quota', t.int)
    /** tickets held by open and paid orders; only changed by conditional updates */
    .addColumn('sold', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('sale_from', t.timestamp)
    .addColumn('sale_until', t.timestamp)
    .addColumn('min_per_order', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('max_per_order', t.int, (c) => c.notNull().defaultTo(10))
    .addColumn('sort_order', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('ticket_category_event_idx').on('ticket_category').columns(['event_id', 'sort_order']).execute()

  await withId(db, db.schema.createTable('coupon'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    /** upper-cased */
    .addColumn('code', t.text, (c) => c.notNull())
    /** PERCENT or FIXED */
    .addColumn('value_type', t.text, (c) => c.notNull())
    /** percent (1–100) or cents */
    .addColumn('reduction', t.int, (c) => c.notNull())
    .addColumn('category_id', t.int, (c) => c.references('ticket_category.id').onDelete('cascade'))
    .addColumn('max_uses', t.int)
    .addColumn('used', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('valid_from', t.timestamp)
    .addColumn('valid_until', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('coupon_event_code_uq').on('coupon').columns(['event_id', 'code']).unique().execute()

  await withId(db, db.schema.createTable('payment_method'))
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('method', t.text, (c) => c.notNull())
    .addColumn('currency', t.text, (c) => c.notNull().defaultTo('EURO'))
    .addColumn('confirmation_text', t.text)
    .addColumn('account_holder', t.text)
    .addColumn('iban', t.text)
    .addColumn('bic', t.text)
    .addColumn('bank', t.text)
    .addColumn('transfer_reference_prefix', t.text)
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('payment_method_agency_uq').on('payment_method').columns(['agency_id', 'method', 'currency']).unique().execute()

  await db.schema
    .createTable('event_payment_method')
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('payment_method_id', t.int, (c) => c.notNull().references('payment_method.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('event_payment_method_pk', ['event_id', 'payment_method_id'])
    .execute()

  await db.schema
    .createTable('seller_settings')
    .addColumn('agency_id', t.int, (c) => c.primaryKey().references('agency.id').onDelete('cascade'))
    .addColumn('name', t.text)
    .addColumn('street', t.text)
    .addColumn('street_number', t.text)
    .addColumn('post_code', t.text)
    .addColumn('city', t.text)
    .addColumn('country', t.text, (c) => c.notNull().defaultTo('DEU'))
    .addColumn('vat_id', t.text)
    .addColumn('tax_number', t.text)
    /** the seller's contact on invoices (XRechnung asks for name, phone and e-mail) */
    .addColumn('contact_name', t.text)
    .addColumn('phone', t.text)
    .addColumn('email', t.text)
    .addColumn('invoice_number_prefix', t.text)
    .addColumn('use_invoice_xml', t.bool, boolDefault(false))
    .addColumn('require_reference_id', t.bool, boolDefault(false))
    .addColumn('payment_terms_days', t.int, (c) => c.notNull().defaultTo(14))
    .addColumn('imprint_url', t.text)
    .addColumn('privacy_url', t.text)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()

  await withId(db, db.schema.createTable('ticket_order'))
    /** the unguessable id of /pay/{id} */
    .addColumn('public_id', t.text, (c) => c.notNull().unique())
    /** shown to guests and in the transfer reference */
    .addColumn('number', t.text, (c) => c.notNull().unique())
    .addColumn('agency_id', t.int, (c) => c.notNull().references('agency.id').onDelete('cascade'))
    .addColumn('event_id', t.int, (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('visitor_id', t.int, (c) => c.references('event_visitor.id').onDelete('set null'))
    .addColumn('email', t.text)
    .addColumn('full_name', t.text)
    .addColumn('language', t.text, (c) => c.notNull().defaultTo('de'))
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('step', t.int, (c) => c.notNull())
    .addColumn('currency', t.text, (c) => c.notNull())
    .addColumn('gross_price', t.int, (c) => c.notNull())
    .addColumn('tax_price', t.int, (c) => c.notNull())
    .addColumn('discount', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('coupon_id', t.int, (c) => c.references('coupon.id').onDelete('set null'))
    /** 1 while the order holds a coupon use */
    .addColumn('coupon_held', t.int, (c) => c.notNull().defaultTo(0))
    /** places of event.seats_taken the order holds (released exactly once) */
    .addColumn('seats_held', t.int, (c) => c.notNull().defaultTo(0))
    /** 1 while the lines' quota_taken are held */
    .addColumn('tickets_held', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('payment_method', t.text)
    .addColumn('invoice_address', t.json)
    .addColumn('tax_identification_number', t.text)
    .addColumn('reference_number', t.text)
    .addColumn('additional_invoice_text', t.text)
    .addColumn('invoice_receiver', t.text)
    .addColumn('invoice_address_disabled', t.bool, boolDefault(false))
    .addColumn('hold_until', t.timestamp)
    .addColumn('payment_due_at', t.timestamp)
    .addColumn('paid_amount', t.int)
    .addColumn('paid_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('ticket_order_event_created_idx').on('ticket_order').columns(['event_id', 'created_at']).execute()
  await db.schema.createIndex('ticket_order_event_status_idx').on('ticket_order').columns(['event_id', 'status']).execute()
  await db.schema.createIndex('ticket_order_event_email_idx').on('ticket_order').columns(['event_id', 'email']).execute()
  await db.schema.createIndex('ticket_order_visitor_idx').on('ticket_order').column('visitor_id').execute()
  await db.schema.createIndex('ticket_order_hold_idx').on('ticket_order').columns(['status', 'hold_until']).execute()

  await withId(db, db.schema.createTable('ticket_order_line'))
    .addColumn('order_id', t.int, (c) => c.notNull().references('ticket_order.id').onDelete('cascade'))
    .addColumn('category_id', t.int, (c) => c.references('ticket_category.id').onDelete('set null'))
    .addColumn('amount', t.int, (c) => c.notNull())
    .addColumn('display_name', t.text, (c) => c.notNull())
    .addColumn('unit_price', t.int, (c) => c.notNull())
    /** line total after coupon reduction, cents */
    .addColumn('gross_price', t.int, (c) => c.notNull())
    .addColumn('discount', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('tax_code', t.text, (c) => c.notNull())
    /** basis points (1900 = 19 %) */
    .addColumn('tax_rate', t.int, (c) => c.notNull())
    .addColumn('tax_price', t.int, (c) => c.notNull())
    .addColumn('sort_order', t.int, (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('ticket_order_line_order_idx').on('ticket_order_line').column('order_id').execute()
  await db.schema.createIndex('ticket_order_line_category_idx').on('ticket_order_line').column('category_id').execute()

  await withId(db, db.schema.createTable('ticket_order_history'))
    .addColumn('order_id', t.int, (c) => c.notNull().references('ticket_order.id').onDelete('cascade'))
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('account_id', t.int)
    .addColumn('data', t.json, (c) => c.notNull().defaultTo('{}'))
    .execute()
  await db.schema.createIndex('ticket_order_history_order_idx').on('ticket_order_history').columns(['order_id', 'id']).execute()
}

export async function down(db: Kysely<any>) {
  for (const table of ['ticket_order_history', 'ticket_order_line', 'ticket_order', 'seller_settings', 'event_payment_method', 'payment_method', 'coupon', 'ticket_category']) {
    await db.schema.dropTable(table).execute()
  }
  await db.schema.alterTable('event').dropColumn('is_paid').execute()
}
