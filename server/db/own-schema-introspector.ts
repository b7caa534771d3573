// Postgres: what Kysely's Migrator asks of the catalogue (does the schema exist, do its bookkeeping
// tables exist), answered from the one schema this install works in.
//
// Kysely's own introspector reads every schema of the database and calls functions on each row
// (has_schema_privilege, pg_get_serial_sequence). Test runs share one Postgres, each in a schema it
// creates and drops, and a schema dropped while that query ran failed our migrations with errors
// naming the other schema ("schema … does not exist", "relation t_….x does not exist", "cache lookup
// failed …", "could not open relation with OID …"). Reading only our own schema cannot meet another
// one, and an install with many schemas no longer reads all of them at every start.
import { type DatabaseIntrospector, type DatabaseMetadata, type Kysely, PostgresDialect, type PostgresDialectConfig, type SchemaMetadata, type TableMetadata, sql } from 'kysely'

interface ColumnRow {
  table: string
  kind: string
  column: string | null
  type: string | null
  type_schema: string | null
  not_null: boolean | null
  has_default: boolean | null
  auto: boolean | null
}

export class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<any>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${this.schema}`.execute(this.db)
    return rows
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.relname as table, c.relkind as kind, a.attname as column, t.typname as type, tn.nspname as type_schema,
             a.attnotnull as not_null, a.atthasdef as has_default,
             (a.attidentity <> '' or coalesce(pg_catalog.pg_get_expr(d.adbin, d.adrelid) like 'nextval(%', false)) as auto
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        left join pg_catalog.pg_type t on t.oid = a.atttypid
        left join pg_catalog.pg_namespace tn on tn.oid = t.typnamespace
        left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
       where n.nspname = ${this.schema} and c.relkind in ('r', 'v', 'p')
       order by c.relname, a.attnum`.execute(this.db)
    const tables = new Map<string, TableMetadata>()
    for (const r of rows) {
      let table = tables.get(r.table)
      if (!table) tables.set(r.table, (table = { name: r.table, schema: this.schema, isView: r.kind === 'v', columns: [] }))
      if (r.column !== null)
        table.columns.push({ name: r.column, dataType: r.type ?? '', dataTypeSchema: r.type_schema ?? undefined, isNullable: !r.not_null, hasDefaultValue: !!r.has_default, isAutoIncrementing: !!r.auto })
    }
    return [...tables.values()]
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() }
  }
}

/** Kysely's Postgres dialect whose introspection stays in one schema (the install's search_path). */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly schema: string,
  ) {
    super(config)
  }

  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db, this.schema)
  }
}
