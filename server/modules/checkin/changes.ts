// The change feed of the offline desk (docs/checkin-offline.md "Cursor"): triggers write a row per
// change of a registration a desk sees (migration 2026-11-29-920); a cursor says how far a desk has
// read. SQLite has one writer, so ids commit in order and the cursor is the highest id read. On
// Postgres ids are taken before commit and may become visible out of order, so each row carries its
// transaction id and the cursor is the reader's snapshot xmin taken BEFORE reading: every transaction
// not yet visible then has an id ≥ it and is read next time. A row may come twice; the feed names
// registrations whose current state is sent, so a repeat is harmless.
import { sql } from 'kysely'
import type { Db } from '../../db/database'
import { BunSqliteAdapter } from '../../db/bun-sqlite-dialect'

const isLite = (db: Db) => db.getExecutor().adapter instanceof BunSqliteAdapter

/** The cursor of "now": what a desk that has read everything up to here holds. */
export async function currentCursor(db: Db): Promise<string> {
  if (isLite(db)) {
    const r = await db.selectFrom('checkin_change').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst()
    return String(Number(r?.m ?? 0))
  }
  const r = await sql<{ x: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as x`.execute(db)
  return String(r.rows[0].x)
}

/** A cursor as a desk sends it back: digits only (else null: the desk then downloads afresh). */
export const parseCursor = (c: string | null | undefined): number | null => (c != null && /^\d{1,19}$/.test(c) && Number.isSafeInteger(Number(c)) ? Number(c) : null)

/** The registrations of the event changed since `cursor`, and the cursor after them. */
export async function changedSince(db: Db, eventId: number, cursor: number): Promise<{ visitorIds: number[]; cursor: string }> {
  const next = await currentCursor(db)
  let q = db.selectFrom('checkin_change').select('visitor_id').distinct().where('event_id', '=', eventId)
  q = isLite(db) ? q.where('tx', '=', 0).where('id', '>', cursor).where('id', '<=', Number(next)) : q.where('tx', '>=', cursor)
  const rows = await q.execute()
  return { visitorIds: rows.map((r) => r.visitor_id), cursor: next }
}

/** How long after an event's end its change feed and its desks' sync items are kept (docs/checkin-offline.md "Retention"). */
export const FEED_KEEP_DAYS = 14

/**
 * Deletes the change feed and the sync items of events that ended more than FEED_KEEP_DAYS ago: no
 * desk syncs an event that long after it (a desk that does downloads afresh). Conflicts stay: they are
 * the organiser's record. Safe to run twice and in several processes (plain conditional deletes).
 */
export async function sweepOfflineFeed(db: Db, now: Date): Promise<{ changes: number; items: number }> {
  const cutoff = new Date(now.getTime() - FEED_KEEP_DAYS * 86400_000).toISOString()
  const ended = db.selectFrom('event').select('id').where('end_date', '<', cutoff)
  const changes = await db.deleteFrom('checkin_change').where('event_id', 'in', ended).executeTakeFirst()
  const items = await db.deleteFrom('checkin_sync_item').where('event_id', 'in', ended).executeTakeFirst()
  return { changes: Number(changes.numDeletedRows ?? 0), items: Number(items.numDeletedRows ?? 0) }
}
