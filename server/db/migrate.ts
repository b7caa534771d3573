import { type Kysely, type MigrationResultSet, Migrator, PostgresAdapter, sql } from 'kysely'
import { migrations } from '../../migrations'

// Postgres: the bookkeeping tables live in the schema the connection works in (search_path), named
// explicitly; the dialect's introspector reads only that schema (own-schema-introspector.ts).
const schemas = new WeakMap<Kysely<any>, string>()
export function setMigrationSchema(db: Kysely<any>, schema: string) {
  schemas.set(db, schema)
}

export function migrator(db: Kysely<any>, schema = schemas.get(db), opts: { inTransaction?: boolean } = {}) {
  return new Migrator({
    db,
    // the caller's transaction holds them all (Postgres, migrateToLatest)
    disableTransactions: opts.inTransaction,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'einlass_migration',
    migrationLockTableName: 'einlass_migration_lock',
    migrationTableSchema: schema,
  })
}

/** The key of the session advisory lock under which one process at a time migrates (Postgres). */
export const MIGRATION_LOCK_KEY = 0x65696e6c // 'einl'

/** The start refuses a schema that a newer einlass has migrated: it could not serve it correctly. */
export class NewerSchemaError extends Error {
  constructor(readonly unknown: string[]) {
    super(`the database was migrated by a newer einlass (unknown migration ${unknown[0]}); start that version or restore a backup`)
  }
}

/** Names in the migration table that this binary does not know (none before the first migration). */
export async function unknownMigrations(db: Kysely<any>, schema = schemas.get(db)): Promise<string[]> {
  let names: string[]
  // inside a Postgres transaction a failed select would abort it: ask whether the table is there
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const there = await sql<{ t: string | null }>`select to_regclass(${`${schema ?? 'public'}.einlass_migration`}) as t`.execute(db)
    if (!there.rows[0]?.t) return []
  }
  try {
    const q = schema ? db.withSchema(schema) : db
    names = (await q.selectFrom('einlass_migration').select('name').execute()).map((r: { name: string }) => r.name)
  } catch {
    return [] // no migration table yet: a fresh database
  }
  return names.filter((n) => !(n in migrations)).sort()
}

async function migrateHere(db: Kysely<any>, schema: string | undefined, inTransaction = false): Promise<string[]> {
  const unknown = await unknownMigrations(db, schema)
  if (unknown.length) throw new NewerSchemaError(unknown)
  const { error, results }: MigrationResultSet = await migrator(db, schema, { inTransaction }).migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error) {
    const msg = error instanceof Error ? error.message : String(error)
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${msg}`)
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/**
 * Applies every pending migration; throws with the failing migration's name, or NewerSchemaError
 * when the database holds migrations this binary does not know (nothing applied then).
 * Postgres: one transaction under a transaction-scoped advisory lock, taken before the migration
 * table is read: several processes starting at once take turns, the later ones find nothing left
 * to do. Being one transaction it holds one server connection throughout, so it works through a
 * pgbouncer in transaction pooling too (a session lock there could be taken on one server
 * connection and never released on another), and a failed start leaves no half-applied schema.
 * SQLite: the migrator's BEGIN IMMEDIATE serialises already.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const schema = schemas.get(db)
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return migrateHere(db, schema)
  // begin/commit by hand on one connection: Kysely's migrator needs a connection, not a Transaction
  return db.connection().execute(async (conn) => {
    await sql`begin`.execute(conn)
    try {
      await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(conn)
      const applied = await migrateHere(conn, schema, true)
      await sql`commit`.execute(conn)
      return applied
    } catch (e) {
      await sql`rollback`.execute(conn).catch(() => {})
      throw e
    }
  })
}

/** True when every known migration has been applied. */
export async function migrationsApplied(db: Kysely<any>): Promise<boolean> {
  try {
    const list = await migrator(db).getMigrations()
    return list.every((m) => m.executedAt !== undefined)
  } catch {
    return false
  }
}
