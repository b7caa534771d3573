// The payment deadline of unpaid transfers and invoices, per event (issue 21, docs/ticketing.md
// "Payment deadline"): days after the order (null: the agency's payment terms), never after the
// event's start; whether a transfer past it is cancelled by the server (default) or only shown as
// overdue. Per order: when the reminder before the deadline was sent (once per deadline; an
// extension clears it).
import type { Kysely } from 'kysely'
import { boolDefault, types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('event').addColumn('payment_deadline_days', t.int).execute()
  await db.schema.alterTable('event').addColumn('cancel_overdue', t.bool, boolDefault(true)).execute()
  await db.schema.alterTable('ticket_order').addColumn('payment_reminded_at', t.timestamp).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('ticket_order').dropColumn('payment_reminded_at').execute()
  await db.schema.alterTable('event').dropColumn('cancel_overdue').execute()
  await db.schema.alterTable('event').dropColumn('payment_deadline_days').execute()
}
