// Group commit for the hot write paths on SQLite (registrations, timeslot reservations). SQLite has
// one writer: every transaction waits for the one before it, and each commit writes its pages to
// the WAL. Writes that arrive while a transaction runs are collected and run together in the next
// transaction, each inside its own savepoint: a failing one is rolled back alone and rejected, the
// others commit together, and nobody hears "done" before the commit. Many registrations then share
// one commit and most of their index pages. On Postgres every write keeps its own transaction (many
// connections write in parallel there).
import { sql } from 'kysely'
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'

type Work<T> = (trx: Db) => Promise<T>
interface Pending {
  work: Work<unknown>
  resolve(v: unknown): void
  reject(e: unknown): void
}

/** Most writes per shared transaction: long enough to amortise the commit, short for latency. */
const MAX_BATCH = 32

const queues = new WeakMap<Db, { pending: Pending[]; running: boolean }>()

export function groupCommit<T>(ctx: Pick<AppContext, 'db' | 'dialect'>, work: Work<T>): Promise<T> {
  if (ctx.dialect !== 'sqlite') return ctx.db.transaction().execute(work)
  let q = queues.get(ctx.db)
  if (!q) {
    q = { pending: [], running: false }
    queues.set(ctx.db, q)
  }
  const queue = q
  return new Promise<T>((resolve, reject) => {
    queue.pending.push({ work, resolve: resolve as (v: unknown) => void, reject })
    if (!queue.running) void drain(ctx.db, queue)
  })
}

async function drain(db: Db, q: { pending: Pending[]; running: boolean }) {
  q.running = true
  try {
    while (q.pending.length) {
      const batch = q.pending.splice(0, MAX_BATCH)
      const done: Array<{ p: Pending; value: unknown }> = []
      try {
        await db.transaction().execute(async (trx) => {
          for (const p of batch) {
            await sql`savepoint w`.execute(trx)
            try {
              const value = await p.work(trx)
              await sql`release w`.execute(trx)
              done.push({ p, value })
            } catch (e) {
              await sql`rollback to w`.execute(trx)
              await sql`release w`.execute(trx)
              p.reject(e)
            }
          }
        })
        for (const d of done) d.p.resolve(d.value)
      } catch (e) {
        // the commit itself failed: none of the batch is stored
        for (const p of batch) p.reject(e)
      }
    }
  } finally {
    q.running = false
  }
}
