// Schema introspection for the migration parity test: tables, columns with normalised types and
// nullability, indexes and foreign keys of a SQLite or Postgres database, and their differences.
import { type Kysely, sql } from 'kysely'

export interface SchemaShape {
  /** table → column → "type null|not null" */
  columns: Record<string, Record<string, string>>
  /** "table(a,b) unique" signatures, sorted */
  indexes: string[]
  /** names of indexes created explicitly (not by a constraint) */
  namedIndexes: string[]
  /** "table.col -> other.col on delete X", sorted */
  foreignKeys: string[]
}

const BOOKKEEPING = /^(einlass_migration|einlass_migration_lock|sqlite_.*)$/

/** Postgres type names mapped onto the names SQLite reports for the same helper type. */
const PG_TO_SQLITE: Record<string, string> = {
  text: 'text',
  'timestamp with time zone': 'text', // ISO strings on SQLite (see db/types.ts)
  integer: 'integer',
  bigint: 'bigint',
  boolean: 'boolean',
  'double precision': 'real',
  bytea: 'blob',
}

const onDelete = (s: string) => s.toLowerCase()

export async function sqliteShape(db: Kysely<any>): Promise<SchemaShape> {
  const tables = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(db)).rows.map((r) => r.name).filter((n) => !BOOKKEEPING.test(n))
  const shape: SchemaShape = { columns: {}, indexes: [], namedIndexes: [], foreignKeys: [] }
  for (const table of tables) {
    const cols = (await sql<{ name: string; type: string; notnull: number; pk: number }>`select * from pragma_table_info(${table})`.execute(db)).rows
    shape.columns[table] = Object.fromEntries(cols.map((c) => [c.name, `${c.type.toLowerCase()} ${c.notnull || c.pk ? 'not null' : 'null'}`]))
    const idx = (await sql<{ name: string; unique: number; origin: string }>`select * from pragma_index_list(${table})`.execute(db)).rows
    for (const i of idx) {
      if (i.origin === 'pk') continue
      const icols = (await sql<{ name: string; seqno: number }>`select * from pragma_index_info(${i.name}) order by seqno`.execute(db)).rows.map((c) => c.name)
      shape.indexes.push(`${table}(${icols.join(',')})${i.unique ? ' unique' : ''}`)
      if (i.origin === 'c') shape.namedIndexes.push(i.name)
    }
    const fks = (await sql<{ from: string; table: string; to: string; on_delete: string }>`select * from pragma_foreign_key_list(${table})`.execute(db)).rows
    for (const f of fks) shape.foreignKeys.push(`${table}.${f.from} -> ${f.table}.${f.to ?? 'id'} on delete ${onDelete(f.on_delete)}`)
  }
  shape.indexes.sort()
  shape.namedIndexes.sort()
  shape.foreignKeys.sort()
  return shape
}

export async function postgresShape(db: Kysely<any>, schema: string): Promise<SchemaShape> {
  const shape: SchemaShape = { columns: {}, indexes: [], namedIndexes: [], foreignKeys: [] }
  const cols = (
    await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>`
      select table_name, column_name, data_type, is_nullable from information_schema.columns
      where table_schema = ${schema} order by table_name, ordinal_position`.execute(db)
  ).rows
  for (const c of cols) {
    if (BOOKKEEPING.test(c.table_name)) continue
    const type = PG_TO_SQLITE[c.data_type] ?? `pg:${c.data_type}`
    ;(shape.columns[c.table_name] ??= {})[c.column_name] = `${type} ${c.is_nullable === 'YES' ? 'null' : 'not null'}`
  }
  const idx = (
    await sql<{ table: string; index: string; unique: number; columns: string; constraint: string | null }>`
      select t.relname as table, i.relname as index, x.indisunique as unique,
             array_to_string(array(select a.attname::text from unnest(x.indkey) with ordinality k(attnum, n)
                   join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.n), ',') as columns,
             c.conname as constraint
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class t on t.oid = x.indrelid
      join pg_namespace ns on ns.oid = t.relnamespace
      left join pg_constraint c on c.conindid = x.indexrelid and c.contype in ('u', 'p')
      where ns.nspname = ${schema} and not x.indisprimary`.execute(db)
  ).rows
  for (const i of idx) {
    if (BOOKKEEPING.test(i.table)) continue
    shape.indexes.push(`${i.table}(${i.columns})${i.unique ? ' unique' : ''}`)
    if (!i.constraint) shape.namedIndexes.push(i.index)
  }
  const fks = (
    await sql<{ table: string; column: string; ref_table: string; ref_column: string; delete_rule: string }>`
      select kcu.table_name as table, kcu.column_name as column, ccu.table_name as ref_table,
             ccu.column_name as ref_column, rc.delete_rule
      from information_schema.referential_constraints rc
      join information_schema.key_column_usage kcu on kcu.constraint_name = rc.constraint_name and kcu.constraint_schema = rc.constraint_schema
      join information_schema.constraint_column_usage ccu on ccu.constraint_name = rc.constraint_name and ccu.constraint_schema = rc.constraint_schema
      where rc.constraint_schema = ${schema}`.execute(db)
  ).rows
  for (const f of fks) shape.foreignKeys.push(`${f.table}.${f.column} -> ${f.ref_table}.${f.ref_column} on delete ${onDelete(f.delete_rule)}`)
  shape.indexes.sort()
  shape.namedIndexes.sort()
  shape.foreignKeys.sort()
  return shape
}

/** Human-readable differences; empty when both schemas match. */
export function diffShapes(a: SchemaShape, b: SchemaShape, names = ['sqlite', 'postgres']): string[] {
  const out: string[] = []
  const tables = new Set([...Object.keys(a.columns), ...Object.keys(b.columns)])
  for (const t of [...tables].sort()) {
    if (!a.columns[t]) out.push(`table ${t} only in ${names[1]}`)
    else if (!b.columns[t]) out.push(`table ${t} only in ${names[0]}`)
    else {
      const cols = new Set([...Object.keys(a.columns[t]), ...Object.keys(b.columns[t])])
      for (const c of cols) {
        if (a.columns[t][c] !== b.columns[t][c]) out.push(`${t}.${c}: ${names[0]} ${a.columns[t][c] ?? 'missing'}, ${names[1]} ${b.columns[t][c] ?? 'missing'}`)
      }
    }
  }
  const setDiff = (what: string, x: string[], y: string[]) => {
    for (const i of x) if (!y.includes(i)) out.push(`${what} ${i} only in ${names[0]}`)
    for (const i of y) if (!x.includes(i)) out.push(`${what} ${i} only in ${names[1]}`)
  }
  setDiff('index', a.indexes, b.indexes)
  setDiff('index name', a.namedIndexes, b.namedIndexes)
  setDiff('foreign key', a.foreignKeys, b.foreignKeys)
  return out
}
