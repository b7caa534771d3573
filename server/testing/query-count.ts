// Counts the SQL statements one request sends to the database (issue 25: a hot request must not
// take more queries than recorded; server/testing/hot-path-queries.test.ts).
//
//   const q = await countQueries(h, () => h.request('POST', path, { body }))
//   q.statements   // data statements (select, insert, update, delete …), in order
//   q.control      // transaction control: begin, savepoint, release, commit, rollback
//
// Counted below Kysely, where every statement passes, prepared ones (db/prepared.ts) included:
// - SQLite: the driver's connection is wrapped once per harness (its `query` hands out counting
//   statements, its `exec` counts; the driver's statement cache is emptied so every statement is
//   fetched through the wrapper again). The checkpointer's own connection is not counted.
// - Postgres: pg.Client.prototype.query is wrapped while a count runs; every client of the pool
//   is a pg.Client, so each round trip to the server is one call.
// Only one count at a time, and the harness' workers are not started (tests drive them), so nothing
// else in the process talks to the database meanwhile but SQLite's checkpoint timer, whose pragma is
// left out (it landed in a count when the machine was slow enough for a request to outlast a second).
import pg from 'pg'
import type { BunSqliteAdapter } from '../db/bun-sqlite-dialect'
import type { Harness } from './harness'

export interface QueryCount<T> {
  result: T
  statements: string[]
  control: string[]
}

const CONTROL = /^\s*(begin|savepoint|release|commit|rollback|start transaction|end)\b/i
/** not the request's: the SQLite WAL checkpoint of the timer (db/database.ts), when a slow request outlasts a second */
const BACKGROUND = /^\s*pragma\b/i

let log: string[] | null = null
const note = (sql: string) => {
  if (log) log.push(sql)
}

const wrapped = new WeakSet<object>()

function wrapSqlite(h: Harness) {
  const driver = (h.ctx.db.getExecutor().adapter as BunSqliteAdapter).driver as unknown as { db: any; statements: Map<string, unknown> }
  if (wrapped.has(driver)) return
  wrapped.add(driver)
  const raw = driver.db
  driver.db = new Proxy(raw, {
    get(target, prop) {
      if (prop === 'query')
        return (sql: string) => {
          const stmt = target.query(sql)
          return {
            columnNames: stmt.columnNames,
            all: (...a: unknown[]) => (note(sql), stmt.all(...a)),
            get: (...a: unknown[]) => (note(sql), stmt.get(...a)),
            run: (...a: unknown[]) => (note(sql), stmt.run(...a)),
            values: (...a: unknown[]) => (note(sql), stmt.values(...a)),
          }
        }
      if (prop === 'exec') return (sql: string, ...a: unknown[]) => (note(sql), target.exec(sql, ...a))
      const v = Reflect.get(target, prop, target)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
  driver.statements.clear()
}

let pgOriginal: typeof pg.Client.prototype.query | null = null
function wrapPostgres() {
  if (pgOriginal) return
  pgOriginal = pg.Client.prototype.query
  const original = pgOriginal
  pg.Client.prototype.query = function (this: pg.Client, ...args: any[]) {
    const q = args[0]
    note(typeof q === 'string' ? q : (q?.text ?? String(q)))
    return (original as any).apply(this, args)
  } as typeof pg.Client.prototype.query
}

/** Runs fn (one request) and answers the statements it sent to the database. */
export async function countQueries<T>(h: Harness, fn: () => Promise<T>): Promise<QueryCount<T>> {
  if (log) throw new Error('countQueries: one count at a time')
  if (h.dialect === 'sqlite') wrapSqlite(h)
  else wrapPostgres()
  const all: string[] = []
  log = all
  let result: T
  try {
    result = await fn()
    // a group commit of SQLite lands on the next turn of the event loop (bun-sqlite-dialect.ts)
    await new Promise((r) => setImmediate(r))
  } finally {
    log = null
  }
  const own = all.filter((s) => !BACKGROUND.test(s))
  return { result, statements: own.filter((s) => !CONTROL.test(s)), control: own.filter((s) => CONTROL.test(s)) }
}

/** The statements as a numbered list, for a failure message. */
export const listed = (statements: string[]) => statements.map((s, i) => `  ${i + 1}. ${s.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n')
