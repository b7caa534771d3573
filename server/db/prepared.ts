// Prepared statements for hot paths (register, reserve, check in): the query is written with
// Kysely as usual, compiled once per dialect, and run with new values. Building and compiling a
// Kysely query costs more than most statements it produces (measured: ~30 µs against ~3 µs for
// a primary-key select on SQLite). On SQLite the statement goes straight to the connection: inside
// a transaction to the one the transaction holds, outside at once when the connection is free (else
// in its queue); on Postgres through Kysely's executor.
//
//   const takeSeatsQuery = prepared((db, p: { eventId: number; n: number }) =>
//     db.updateTable('event').set((eb) => ({ seats_taken: eb('seats_taken', '+', p.n) })).where('id', '=', p.eventId))
//   const r = await takeSeatsQuery(trx, { eventId, n })
//
// The builder must not branch on parameter values (they are placeholders while compiling), and a
// value of `undefined` is bound as NULL.
import { type Compilable, CompiledQuery, type Kysely, type QueryResult } from 'kysely'
import { BunSqliteAdapter } from './bun-sqlite-dialect'
import type { Db } from './database'
import type { DB } from './schema'

class Slot {
  constructor(readonly name: string) {}
}

interface Compiled {
  sql: string
  /** per parameter: the name of a slot, or a constant the builder wrote in */
  params: Array<{ slot: string } | { value: unknown }>
}

export interface Prepared<P, R> {
  (db: Db, params: P): Promise<QueryResult<R>>
  /** the first row, or undefined */
  first(db: Db, params: P): Promise<R | undefined>
}

export function prepared<P extends Record<string, unknown>, R = unknown>(build: (db: Kysely<DB>, p: P) => Compilable<R>): Prepared<P, R> {
  const cache = new Map<string, Compiled>()
  const compile = (db: Db): Compiled => {
    const adapter = db.getExecutor().adapter
    const key = adapter instanceof BunSqliteAdapter ? 'sqlite' : 'postgres'
    let c = cache.get(key)
    if (!c) {
      const slots = new Proxy({} as P, { get: (_, name) => new Slot(String(name)) })
      const q = build(db, slots).compile()
      c = { sql: q.sql, params: q.parameters.map((v) => (v instanceof Slot ? { slot: v.name } : { value: v })) }
      cache.set(key, c)
    }
    return c
  }
  const run = (db: Db, params: P): Promise<QueryResult<R>> => {
    const c = compile(db)
    const values = c.params.map((p) => ('slot' in p ? (params[p.slot] ?? null) : p.value))
    const adapter = db.getExecutor().adapter
    if (adapter instanceof BunSqliteAdapter) {
      if (!db.isTransaction) return adapter.driver.runOutside<R>(c.sql, values)
      try {
        return Promise.resolve(adapter.driver.runInTransaction<R>(c.sql, values))
      } catch (e) {
        return Promise.reject(e)
      }
    }
    return db.executeQuery<R>(CompiledQuery.raw(c.sql, values))
  }
  const fn = run as Prepared<P, R>
  fn.first = async (db, params) => (await run(db, params)).rows[0]
  return fn
}
