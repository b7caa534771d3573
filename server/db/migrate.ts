import { type Kysely, type MigrationResultSet, Migrator } from 'kysely'
import { migrations } from '../../migrations'

// Postgres: the bookkeeping tables live in the schema the connection works in (search_path), named
// explicitly; the dialect's introspector reads only that schema (own-schema-introspector.ts).
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
  const { error, results }: MigrationResultSet = await migrator(db).migrateToLatest()
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
