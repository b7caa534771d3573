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
  constructor(
    readonly name: string,
    /** the row of a preparedRows statement */
    readonly row = -1,
  ) {}
}

interface Compiled {
  sql: string
  /** per parameter: the name of a slot, or a constant the builder wrote in */
  params: Array<{ slot: string; row: number } | { value: unknown }>
}

const dialectKey = (db: Db) => (db.getExecutor().adapter instanceof BunSqliteAdapter ? 'sqlite' : 'postgres')

function compiled(q: CompiledQuery): Compiled {
  return { sql: q.sql, params: q.parameters.map((v) => (v instanceof Slot ? { slot: v.name, row: v.row } : { value: v })) }
}

function execute<R>(db: Db, sql: string, values: unknown[]): Promise<QueryResult<R>> {
  const adapter = db.getExecutor().adapter
  if (adapter instanceof BunSqliteAdapter) {
    if (!db.isTransaction) return adapter.driver.runOutside<R>(sql, values)
    try {
      return Promise.resolve(adapter.driver.runInTransaction<R>(sql, values))
    } catch (e) {
      return Promise.reject(e)
    }
  }
  return db.executeQuery<R>(CompiledQuery.raw(sql, values))
}

export interface Prepared<P, R> {
  (db: Db, params: P): Promise<QueryResult<R>>
  /** the first row, or undefined */
  first(db: Db, params: P): Promise<R | undefined>
}

export function prepared<P extends Record<string, unknown>, R = unknown>(build: (db: Kysely<DB>, p: P) => Compilable<R>): Prepared<P, R> {
  const cache = new Map<string, Compiled>()
  const compile = (db: Db): Compiled => {
    const key = dialectKey(db)
    let c = cache.get(key)
    if (!c) {
      const slots = new Proxy({} as P, { get: (_, name) => new Slot(String(name)) })
      cache.set(key, (c = compiled(build(db, slots).compile())))
    }
    return c
  }
  const run = (db: Db, params: P): Promise<QueryResult<R>> => {
    const c = compile(db)
    return execute<R>(
      db,
      c.sql,
      c.params.map((p) => ('slot' in p ? (params[p.slot] ?? null) : p.value)),
    )
  }
  const fn = run as Prepared<P, R>
  fn.first = async (db, params) => (await run(db, params)).rows[0]
  return fn
}

/**
 * A prepared statement over a list of rows (a multi-row INSERT): compiled once per dialect and
 * number of rows (one statement, one round trip on Postgres). The builder gets one placeholder
 * object per row.
 *
 *   const insertValues = preparedRows((db, rows: Array<{ visitorId: number; fieldId: number }>) =>
 *     db.insertInto('visitor_field_value').values(rows.map((r) => ({ visitor_id: r.visitorId, field_id: r.fieldId }))))
 */
export function preparedRows<P extends Record<string, unknown>, R = unknown>(build: (db: Kysely<DB>, rows: P[]) => Compilable<R>, maxCached = 64) {
  const cache = new Map<string, Compiled>()
  return (db: Db, rows: P[]): Promise<QueryResult<R>> => {
    const key = `${dialectKey(db)}:${rows.length}`
    let c = cache.get(key)
    if (!c) {
      const slots = rows.map((_, i) => new Proxy({} as P, { get: (__, name) => new Slot(String(name), i) }))
      c = compiled(build(db, slots).compile())
      if (rows.length <= maxCached) cache.set(key, c)
    }
    return execute<R>(
      db,
      c.sql,
      c.params.map((p) => ('slot' in p ? (rows[p.row][p.slot] ?? null) : p.value)),
    )
  }
}
