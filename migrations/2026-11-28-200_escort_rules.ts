// Escort persons and the places they take (issue 20, items 1 and 10):
// - free_persons: persons the organiser added to a paid registration free of charge (no ticket);
//   a registration may count its tickets plus these (docs/ticketing.md, "Escort persons and tickets").
// - escort_rev: counts the changes of a registration's escort list; an escort edit writes it with a
//   conditional update on the value it read, so of two edits at once the second answers 409 instead
//   of inserting an escort number the first has just taken (a unique violation, a 500 on Postgres).
import type { Kysely } from 'kysely'
import { types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema.alterTable('event_visitor').addColumn('free_persons', t.int, (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('event_visitor').addColumn('escort_rev', t.int, (c) => c.notNull().defaultTo(0)).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('event_visitor').dropColumn('escort_rev').execute()
  await db.schema.alterTable('event_visitor').dropColumn('free_persons').execute()
}
