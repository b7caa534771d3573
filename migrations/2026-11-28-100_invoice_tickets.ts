// Pay by invoice: when the guest's tickets are valid, per event (issue 20 B, docs/ticketing.md "Valid
// tickets"). AT_ONCE (the default: buying on account means tickets first) or AFTER_PAYMENT (the
// invoice's order has no ticket documents and is not admitted until it is paid).
import type { Kysely } from 'kysely'
import { types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('event').addColumn('invoice_tickets', t.text, (c) => c.notNull().defaultTo('AT_ONCE')).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('event').dropColumn('invoice_tickets').execute()
}
