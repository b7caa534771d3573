// Column types per dialect, so one migration source serves SQLite and Postgres.
// Migrations import only this file and kysely, never app code.
import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, SqliteAdapter, sql } from 'kysely'

export const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter

export function types(db: Kysely<any>) {
  const lite = isSqlite(db)
  return {
    /** ISO-8601 UTC instants */
    timestamp: lite ? ('text' as const) : ('timestamptz' as const),
    bool: 'boolean' as const,
    json: 'text' as const,
    text: 'text' as const,
    int: 'integer' as const,
    bigint: 'bigint' as const,
    real: lite ? ('real' as const) : ('double precision' as const),
    blob: lite ? ('blob' as const) : ('bytea' as const),
  }
}

/** Adds an auto-incrementing integer primary key named id. */
export function withId<T extends string>(db: Kysely<any>, tb: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'> {
  return isSqlite(db)
    ? tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : tb.addColumn('id', 'serial', (c) => c.primaryKey())
}

export const nowDefault = (db: Kysely<any>) =>
  isSqlite(db) ? sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))` : sql`now()`

export const boolDefault = (v: boolean) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(v)
