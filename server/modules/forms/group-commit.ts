// Group commit for the hot write paths (registrations, timeslot reservations). On SQLite the
// driver itself commits transactions that arrive together as one (server/db/bun-sqlite-dialect.ts:
// each in its own savepoint, a failing one rolled back alone, nobody answered before the COMMIT),
// so a plain transaction is all a write needs; a second queue here measured 0.1 ms more per
// registration (its own savepoint statements). On Postgres every write keeps its own transaction
// (many connections write in parallel there). Kept as the one name hot paths call.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'

export function groupCommit<T>(ctx: Pick<AppContext, 'db'>, work: (trx: Db) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute(work)
}
