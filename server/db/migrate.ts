import { type Kysely, type MigrationResultSet, Migrator } from 'kysely'
import { migrations } from '../../migrations'

// Postgres: the bookkeeping tables live in the schema the connection works in (search_path), named
// explicitly because Kysely's existence check looks across all schemas.
const schemas = new WeakMap<Kysely<any>, string>()
export function setMigrationSchema(db: Kysely<any>, schema: string) {
  schemas.set(db, schema)
}

export function migrator(db: Kysely<any>) {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'einlass_migration',
    migrationLockTableName: 'einlass_migration_lock',
    migrationTableSchema: schemas.get(db),
  })
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  let run: MigrationResultSet = await migrator(db).migrateToLatest()
  // Kysely's table check reads the catalogue of every schema: another schema dropped at that moment
  // (test runs that share one Postgres) fails it although ours is fine. Such a failure wrote nothing.
  for (let attempt = 1; attempt < 4 && run.error && otherSchemaVanished(run.error, schemas.get(db)); attempt++) {
    await new Promise((r) => setTimeout(r, 50 * attempt))
    run = await migrator(db).migrateToLatest()
  }
  const { error, results } = run
  const failed = results?.find((r) => r.status === 'Error')
  if (error) {
    const msg = error instanceof Error ? error.message : String(error)
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${msg}`)
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
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

export function otherSchemaVanished(error: unknown, own: string | undefined): boolean {
  const msg = error instanceof Error ? error.message : String(error)
  if (/cache lookup failed for (namespace|relation)/.test(msg)) return true
  // the schema named, or the schema of a relation named ("t_x.escort_person"), is another one
  const m = /schema "([^"]+)" does not exist/.exec(msg) ?? /relation "([^".]+)\.[^"]+" does not exist/.exec(msg)
  return !!m && m[1] !== own
}
