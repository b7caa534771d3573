import { Database as BunDatabase } from 'bun:sqlite'
import { mkdirSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { Kysely, sql } from 'kysely'
import type pgModule from 'pg'
import type { DatabaseTarget } from '../config/config'
import { createLogger } from '../logger'
import { BunSqliteDialect } from './bun-sqlite-dialect'
import { type Checkpointer, checkpointable, startCheckpointer } from './checkpointer'
import { setMigrationSchema } from './migrate'
import { OwnSchemaPostgresDialect } from './own-schema-introspector'
import type { DB } from './schema'

export type Dialect = 'sqlite' | 'postgres'
export type Db = Kysely<DB>

export interface DatabaseHandle {
  db: Db
  dialect: Dialect
  /** SQLite: a passive WAL checkpoint now (they also run every CHECKPOINT_MS after writes) */
  checkpoint?(): Promise<void>
  /** SQLite: where the checkpoints run ('worker' once started, unless it could not start) */
  checkpointsOn?(): Promise<'worker' | 'queue'>
  /** connections in use and callers waiting for one (/metrics) */
  poolStats(): PoolStats
  close(): Promise<void>
}

export interface PoolStats {
  /** connections the process may open (SQLite: its one connection) */
  size: number
  open: number
  inUse: number
  /** callers waiting for a connection */
  waiting: number
}

const PG_INT8 = 20
const PG_NUMERIC = 1700
const PG_BOOL = 16
const PG_TIMESTAMP = 1114
const PG_TIMESTAMPTZ = 1184

function pgTypes(pg: typeof pgModule) {
  return {
    getTypeParser(oid: number, format?: any) {
      switch (oid) {
        case PG_INT8:
        case PG_NUMERIC:
          return (v: string) => (v === null ? null : Number(v))
        case PG_BOOL:
          return (v: string) => (v === 't' ? 1 : 0)
        case PG_TIMESTAMPTZ:
          return (v: string) => new Date(v).toISOString()
        case PG_TIMESTAMP:
          return (v: string) => new Date(`${v.replace(' ', 'T')}Z`).toISOString()
        default:
          return pg.types.getTypeParser(oid, format)
      }
    },
  }
}

/** How often the SQLite WAL is checkpointed into the database file. */
export const CHECKPOINT_MS = 1000
/** Above this WAL size checkpoints move to the worker thread (~1,000 pages, ~5 ms to copy). */
export const WORKER_WAL_BYTES = 4 * 1024 * 1024
/** With this many frames in the WAL (64 MB of 4 KB pages) a checkpoint ends between transactions so the WAL starts over. */
export const WAL_RESTART_FRAMES = 16384

export function openSqlite(path: string): BunDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const raw = new BunDatabase(path, { create: true, strict: true })
  raw.exec('pragma journal_mode = WAL')
  raw.exec('pragma synchronous = NORMAL')
  raw.exec('pragma busy_timeout = 5000')
  raw.exec('pragma foreign_keys = ON')
  raw.exec('pragma temp_store = MEMORY')
  // 32 MB of page cache instead of SQLite's 2 MB: a registration touches ~14 index B-trees of
  // event_visitor; with 2 MB their pages were read from the OS again and again once an event had
  // some thousand guests (insert 88 → 58 µs measured in the storm). Filled only as pages are used.
  raw.exec('pragma cache_size = -32768')
  // checkpoints run on a timer between transactions, not inside a commit (bun-sqlite-dialect.ts)
  raw.exec('pragma wal_autocheckpoint = 0')
  // A WAL that starts over (database.ts, WAL_RESTART_FRAMES: 64 MB) peaks at about twice that under
  // steady heavy writes; left at that size it is overwritten in place instead of being cut back and
  // grown again at every restart (forms bench p99 57–65 → 51–57 ms). Bigger than this it is cut.
  raw.exec('pragma journal_size_limit = 268435456')
  return raw
}

export interface OpenOptions {
  poolSize?: number
  /** SQLite checkpoint thresholds (tests make them small) */
  workerWalBytes?: number
  walRestartFrames?: number
}

export async function openDatabase(target: DatabaseTarget, opts: OpenOptions = {}): Promise<DatabaseHandle> {
  if (target.dialect === 'sqlite') {
    const raw = openSqlite(target.path)
    const dialect = new BunSqliteDialect(raw)
    const db = new Kysely<DB>({ dialect })
    // Each CHECKPOINT_MS, when something was written since the last one, a passive checkpoint. A
    // WAL of up to WORKER_WAL_BYTES is copied in a few milliseconds in the driver's queue between
    // transactions; a bigger one (a server under write load) on a worker thread (checkpointer.ts,
    // started the first time it is needed, so a quiet server does not carry it).
    const changes = raw.query('select total_changes() as n')
    let lastChanges = -1
    let worker: Promise<Checkpointer | null> | null = null
    const walSize = () => {
      try {
        return statSync(`${raw.filename}-wal`).size
      } catch {
        return 0
      }
    }
    const checkpoint = async () => {
      if (checkpointable(raw) && !worker && walSize() > (opts.workerWalBytes ?? WORKER_WAL_BYTES)) {
        worker = startCheckpointer(raw.filename, (m) => createLogger('warn').warn('sqlite checkpoint failing', { error: m })).catch(() => null)
      }
      const ck = worker ? await worker : null
      if (!ck || ck.broken) return dialect.driver.checkpoint()
      let r = await ck.now()
      // Under steady writes the worker never finds the WAL fully copied at the moment a write
      // transaction begins, and only then does SQLite start the WAL over: it would grow without
      // bound. So once it holds WAL_RESTART_FRAMES, more worker passes copy what came meanwhile (each
      // has less to do) and a last one runs while the driver holds the connection (no transaction
      // open, so it copies every frame; a few ms in which writes wait, the event loop does not) and
      // starts the WAL over with a one-frame write of its own (checkpointer.ts).
      if (r && r.log > (opts.walRestartFrames ?? WAL_RESTART_FRAMES)) {
        for (let pass = 0; pass < 4 && r; pass++) {
          const before: number = r.log
          r = await ck.now()
          if (r && r.log - before < 256) break
        }
        await dialect.driver.quiet(() => ck.restart())
      }
    }
    let checkpointing = false
    const timer = setInterval(() => {
      const n = (changes.get() as { n: number }).n
      if (checkpointing || n === lastChanges) return
      lastChanges = n
      checkpointing = true
      checkpoint()
        .catch(() => {})
        .finally(() => (checkpointing = false))
    }, CHECKPOINT_MS)
    timer.unref?.()
    return {
      db,
      dialect: 'sqlite',
      checkpoint,
      checkpointsOn: async () => ((worker && (await worker)) ? 'worker' : 'queue'),
      poolStats: () => {
        const st = dialect.driver.stats()
        return { size: 1, open: 1, inUse: st.busy ? 1 : 0, waiting: st.waiting }
      },
      close: async () => {
        clearInterval(timer)
        await (worker && (await worker))?.close()
        await db.destroy()
      },
    }
  }
  // the Postgres driver is loaded only when a Postgres database is opened (issue 25: a SQLite
  // install never evaluates it)
  const pg = (await import('pg')).default
  const pool = new pg.Pool({
    connectionString: target.url,
    max: opts.poolSize ?? 10,
    types: pgTypes(pg),
    options: target.schema ? `-c search_path=${target.schema}` : undefined,
  })
  // an idle connection that Postgres ends (a restart, a failover, idle_session_timeout) is dropped
  // from the pool and replaced on next use; without a listener the pool's 'error' would end the process
  const lost = (e: Error) => createLogger('warn').warn('database connection lost; the pool reconnects on next use', { error: String(e?.message ?? e) })
  pool.on('error', lost)
  // a connection lost while a request holds it: its queries fail (the request answers 503,
  // http/errors.ts) and the pool drops it on release; unheard, the client's 'error' would end the process
  pool.on('connect', (client) => client.on('error', lost))
  const schema = target.schema ?? 'public'
  const db = new Kysely<DB>({ dialect: new OwnSchemaPostgresDialect({ pool }, schema) })
  setMigrationSchema(db, schema)
  const size = opts.poolSize ?? 10
  return {
    db,
    dialect: 'postgres',
    poolStats: () => ({ size, open: pool.totalCount, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  }
}

export async function ping(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db)
    return true
  } catch {
    return false
  }
}

/**
 * True when an error is a unique-constraint violation (SQLite SQLITE_CONSTRAINT_UNIQUE, Postgres
 * 23505). Concurrent inserts that a prior read could not see end here; callers turn it into their
 * domain error (e.g. ALREADY_REGISTERED) instead of a 500.
 */
export function isUniqueViolation(e: unknown, constraintOrColumn?: string): boolean {
  const err = e as { code?: string; constraint?: string; message?: string } | null
  if (!err) return false
  const unique = err.code === '23505' || err.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(err.message ?? '')
  if (!unique || !constraintOrColumn) return unique
  return (err.constraint ?? '').includes(constraintOrColumn) || (err.message ?? '').includes(constraintOrColumn)
}

/**
 * True when an error is a foreign-key violation (SQLite SQLITE_CONSTRAINT_FOREIGNKEY, Postgres 23503):
 * a row deleted while another transaction points a new row at it (or the other way round) ends here;
 * callers turn it into their domain error instead of a 500.
 */
export function isForeignKeyViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | null
  if (!err) return false
  return err.code === '23503' || err.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || /FOREIGN KEY constraint failed|violates foreign key constraint/.test(err.message ?? '')
}
