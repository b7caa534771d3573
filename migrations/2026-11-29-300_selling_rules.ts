// Selling rules organisers set (issue 21, docs/ticketing.md "Selling rules"):
// - ticket_category.description: shown to buyers under the category's name;
//   access_code: a hidden category (null = public), offered only to a buyer who gives this code;
//   requires_category_id: tickets of this category only with at least one of that category in the
//   same order (a child ticket with an adult one); no foreign key: the service keeps it inside the event
//   and a deleted category unlinks it.
// - coupon.category_ids: the categories a coupon reduces (JSON array; null = category_id as before,
//   which stays the first of them for older readers).
// - event.terms_text / terms_url: the organiser's terms and cancellation policy accepted at checkout;
// - ticket_order.terms_accepted_at / terms_version: when the buyer accepted which terms (the URL, or
//   "text:" and the SHA-256 of the text) and terms_text: the text as accepted.
import type { Kysely } from 'kysely'
import { types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('ticket_category').addColumn('description', t.text).execute()
  await db.schema.alterTable('ticket_category').addColumn('access_code', t.text).execute()
  await db.schema.alterTable('ticket_category').addColumn('requires_category_id', t.int).execute()
  await db.schema.alterTable('coupon').addColumn('category_ids', t.json).execute()
  await db.schema.alterTable('event').addColumn('terms_text', t.text).execute()
  await db.schema.alterTable('event').addColumn('terms_url', t.text).execute()
  await db.schema.alterTable('ticket_order').addColumn('terms_accepted_at', t.timestamp).execute()
  await db.schema.alterTable('ticket_order').addColumn('terms_version', t.text).execute()
  await db.schema.alterTable('ticket_order').addColumn('terms_text', t.text).execute()
}

export async function down(db: Kysely<any>) {
  for (const c of ['terms_text', 'terms_version', 'terms_accepted_at']) await db.schema.alterTable('ticket_order').dropColumn(c).execute()
  for (const c of ['terms_url', 'terms_text']) await db.schema.alterTable('event').dropColumn(c).execute()
  await db.schema.alterTable('coupon').dropColumn('category_ids').execute()
  for (const c of ['requires_category_id', 'access_code', 'description']) await db.schema.alterTable('ticket_category').dropColumn(c).execute()
}
