// Kysely dialect over bun:sqlite.
// Why our own driver instead of Kysely's SqliteDialect: (1) write transactions must start with
// `BEGIN IMMEDIATE` — a deferred BEGIN upgrades its lock at the first write and under concurrency
// fails with SQLITE_BUSY that busy_timeout cannot cure; (2) bun:sqlite's `query()` caches prepared
// statements, which the register/check-in hot paths need.
import type { Database as BunDatabase, Statement } from 'bun:sqlite'
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely'

class BunSqliteConnection implements DatabaseConnection {
  constructor(private readonly db: BunDatabase) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.db.query(compiled.sql) as Statement
    const params = compiled.parameters as any[]
    if (stmt.columnNames.length > 0) {
      return Promise.resolve({ rows: stmt.all(...params) as R[] })
    }
    const r = stmt.run(...params)
    return Promise.resolve({
      rows: [],
      numAffectedRows: BigInt(r.changes),
      insertId: BigInt(r.lastInsertRowid),
    })
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const stmt = this.db.query(compiled.sql) as Statement
    for (const row of stmt.iterate(...(compiled.parameters as any[]))) yield { rows: [row as R] }
  }
}

/** One connection, handed out one holder at a time: SQLite has a single writer anyway. */
class BunSqliteDriver implements Driver {
  private connection!: BunSqliteConnection
  private queue: Array<() => void> = []
  private busy = false

  constructor(private readonly db: BunDatabase) {}

  async init() {
    this.connection = new BunSqliteConnection(this.db)
  }

  acquireConnection(): Promise<DatabaseConnection> {
    if (!this.busy) {
      this.busy = true
      return Promise.resolve(this.connection)
    }
    return new Promise((resolve) => this.queue.push(() => resolve(this.connection)))
  }

  async beginTransaction(conn: DatabaseConnection, _settings: TransactionSettings) {
    await conn.executeQuery(CompiledQuery.raw('begin immediate'))
  }

  async commitTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('commit'))
  }

  async rollbackTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('rollback'))
  }

  async releaseConnection(): Promise<void> {
    const next = this.queue.shift()
    if (next) next()
    else this.busy = false
  }

  async destroy() {
    this.db.close(false)
  }
}

export class BunSqliteDialect implements Dialect {
  constructor(private readonly db: BunDatabase) {}
  createAdapter(): DialectAdapter {
    return new SqliteAdapter()
  }
  createDriver(): Driver {
    return new BunSqliteDriver(this.db)
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler()
  }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db)
  }
}
