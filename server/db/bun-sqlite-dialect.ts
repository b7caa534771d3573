// Kysely dialect over bun:sqlite.
// Why our own driver instead of Kysely's SqliteDialect:
// (1) write transactions must start with `BEGIN IMMEDIATE` — a deferred BEGIN upgrades its lock at
//     the first write and under concurrency fails with SQLITE_BUSY that busy_timeout cannot cure;
// (2) bun:sqlite's `query()` caches prepared statements, which the hot paths need;
// (3) group commit. SQLite has one writer, so transactions run one after another on the single
//     connection anyway. Under load each transaction's COMMIT (writing every page it touched to
//     the WAL) cost more than all its statements together. A finished transaction therefore only
//     releases its SAVEPOINT and hands the connection on; the transactions that run until the
//     next turn of the event loop (or until MAX_GROUP) share one COMMIT. Every transaction still
//     runs alone, sees everything committed before it and rolls back only its own savepoint; a
//     caller's commit returns only after the group's COMMIT, so nothing is acknowledged before it
//     is durable. Writes outside a transaction commit an open group first; reads outside a
//     transaction (the checks a request makes before its transaction) run without ending it.
// (4) WAL checkpoints off the commit path: SQLite's automatic checkpoint runs inside the commit
//     that crosses 1,000 pages and syncs the database file there. The automatic one is off
//     (database.ts) and checkpoint() runs a passive one between transactions, about once a second.
import type { Database as BunDatabase, Statement } from 'bun:sqlite'
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely'

/** Most transactions committed together (bounds the extra wait of the group's first member). */
export const MAX_GROUP = 64
/** Statements that only read: they may run inside an open group without committing it. */
const READ_ONLY = /^\s*select\b/i

/**
 * The connection's statements by SQL text, each with whether it answers rows. bun:sqlite's own
 * `query()` cache hashes the text as well, but reading `columnNames` every time cost as much as
 * a primary-key select (measured under the registration storm).
 */
type Cached = { stmt: Statement; rows: boolean }
const STATEMENTS_MAX = 2000

function run<R>(db: BunDatabase, statements: Map<string, Cached>, sql: string, params: readonly unknown[]): QueryResult<R> {
  let c = statements.get(sql)
  if (!c) {
    const stmt = db.query(sql) as Statement
    c = { stmt, rows: stmt.columnNames.length > 0 }
    if (statements.size >= STATEMENTS_MAX) statements.clear()
    statements.set(sql, c)
  }
  if (c.rows) return { rows: c.stmt.all(...(params as any[])) as R[] }
  const r = c.stmt.run(...(params as any[]))
  return { rows: [], numAffectedRows: BigInt(r.changes), insertId: BigInt(r.lastInsertRowid) }
}

/** One acquisition of the single connection (Kysely acquires, uses, releases). */
class Holder implements DatabaseConnection {
  inTransaction = false
  released = false
  constructor(private readonly driver: BunSqliteDriver) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return Promise.resolve(this.driver.execute<R>(this, compiled))
    } catch (e) {
      return Promise.reject(e)
    }
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const result = this.driver.execute<R>(this, compiled)
    for (const row of result.rows) yield { rows: [row] }
  }
}

interface Group {
  waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }>
}

export class BunSqliteDriver implements Driver {
  private queue: Array<() => void> = []
  private busy = false
  /** the open write transaction shared by the current group, if any */
  private group: Group | null = null
  private readonly statements = new Map<string, Cached>()

  constructor(private readonly db: BunDatabase) {}

  /** for /metrics: callers waiting for the one connection, and whether it is in use */
  stats(): { waiting: number; busy: boolean } {
    return { waiting: this.queue.length, busy: this.busy }
  }

  async init() {}

  acquireConnection(): Promise<DatabaseConnection> {
    const holder = new Holder(this)
    if (!this.busy) {
      this.busy = true
      return Promise.resolve(holder)
    }
    return new Promise((resolve) => this.queue.push(() => resolve(holder)))
  }

  private handOver() {
    const next = this.queue.shift()
    if (next) next()
    else this.busy = false
  }

  execute<R>(holder: Holder, compiled: CompiledQuery): QueryResult<R> {
    if (!holder.inTransaction && this.group && !READ_ONLY.test(compiled.sql)) this.flush()
    return run<R>(this.db, this.statements, compiled.sql, compiled.parameters)
  }

  /**
   * Runs a statement outside a transaction (see db/prepared.ts): at once when the connection is
   * free — acquiring, running and releasing in one synchronous step is what Kysely would do, without
   * its per-query objects — otherwise in the queue's turn like any other caller.
   */
  async runOutside<R>(sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    if (this.busy) {
      const holder = (await this.acquireConnection()) as Holder
      try {
        return this.execute<R>(holder, { sql, parameters } as CompiledQuery)
      } finally {
        await this.releaseConnection(holder)
      }
    }
    if (this.group && !READ_ONLY.test(sql)) this.flush()
    return run<R>(this.db, this.statements, sql, parameters)
  }

  /** A passive WAL checkpoint in the queue's turn, outside any transaction. */
  async checkpoint(): Promise<void> {
    const holder = (await this.acquireConnection()) as Holder
    try {
      this.flush()
      this.db.exec('pragma wal_checkpoint(PASSIVE)')
    } finally {
      await this.releaseConnection(holder)
    }
  }

  /**
   * Runs `fn` while no transaction is open and none can start (the connection is held in the
   * queue's turn): for a checkpoint on another connection that must find every frame committed.
   * The event loop keeps running; the connection's other users wait in the queue meanwhile.
   */
  async quiet<T>(fn: () => Promise<T>): Promise<T> {
    const holder = (await this.acquireConnection()) as Holder
    try {
      this.flush()
      return await fn()
    } finally {
      await this.releaseConnection(holder)
    }
  }

  /** Commits the open group and answers its waiting members. */
  private flush() {
    const group = this.group
    if (!group) return
    this.group = null
    try {
      this.db.exec('commit')
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('rollback')
      for (const w of group.waiters) w.reject(e)
      throw e
    }
    for (const w of group.waiters) w.resolve()
  }

  /**
   * Runs a compiled statement directly on the connection of the transaction in progress (see
   * db/prepared.ts). Only valid from inside that transaction: the driver runs one at a time.
   */
  runInTransaction<R>(sql: string, parameters: readonly unknown[]): QueryResult<R> {
    if (!this.db.inTransaction) throw new Error('runInTransaction outside a transaction')
    return run<R>(this.db, this.statements, sql, parameters)
  }

  async beginTransaction(conn: DatabaseConnection) {
    const holder = conn as Holder
    if (!this.group) {
      this.db.exec('begin immediate')
      this.group = { waiters: [] }
    }
    this.db.exec('savepoint einlass_tx')
    holder.inTransaction = true
  }

  async commitTransaction(conn: DatabaseConnection) {
    const holder = conn as Holder
    this.db.exec('release einlass_tx')
    holder.inTransaction = false
    const group = this.group!
    if (group.waiters.length + 1 >= MAX_GROUP) {
      this.flush()
      return
    }
    // Acknowledged after the group's COMMIT: in the queue's turn once the waiting transactions
    // have run, or on the next turn of the event loop, so requests arriving meanwhile join in.
    const committed = new Promise<void>((resolve, reject) => group.waiters.push({ resolve, reject }))
    holder.released = true
    this.handOver()
    this.scheduleFlush()
    return committed
  }

  private flushScheduled = false
  private scheduleFlush() {
    if (this.flushScheduled) return
    this.flushScheduled = true
    setImmediate(async () => {
      const holder = await this.acquireConnection()
      this.flushScheduled = false
      try {
        this.flush()
      } catch {
        // the members were told (their commit rejected)
      } finally {
        await this.releaseConnection(holder)
      }
    })
  }

  async rollbackTransaction(conn: DatabaseConnection) {
    const holder = conn as Holder
    // a member whose group commit failed has handed the connection on already: nothing to undo here
    if (holder.released) return
    holder.inTransaction = false
    if (!this.db.inTransaction) {
      // SQLite ended the whole write transaction itself (e.g. disk full): the group's work is gone
      const group = this.group
      this.group = null
      for (const w of group?.waiters ?? []) w.reject(new Error('SQLite rolled back the transaction'))
      return
    }
    if (this.group) {
      this.db.exec('rollback to einlass_tx')
      this.db.exec('release einlass_tx')
      // nothing of others waits in this write transaction: end it now
      if (this.group.waiters.length === 0) this.flush()
    }
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const holder = conn as Holder
    if (holder.released) return
    holder.released = true
    this.handOver()
  }

  async destroy() {
    this.flush()
    this.db.close(false)
  }
}

/** Kysely's SQLite adapter, carrying the driver so prepared statements can reach it. */
export class BunSqliteAdapter extends SqliteAdapter {
  constructor(readonly driver: BunSqliteDriver) {
    super()
  }
}

export class BunSqliteDialect implements Dialect {
  readonly driver: BunSqliteDriver
  constructor(db: BunDatabase) {
    this.driver = new BunSqliteDriver(db)
  }
  createAdapter(): DialectAdapter {
    return new BunSqliteAdapter(this.driver)
  }
  createDriver(): Driver {
    return this.driver
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler()
  }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db)
  }
}
