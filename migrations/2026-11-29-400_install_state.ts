// What every process of one install must share and used to keep in its data dir (issue 22,
// docs/operations.md "Several processes"): on Postgres the generated secrets (row 'secrets') and an
// installed license (row 'license') live here, so a process started with an empty data dir joins
// the cluster. SQLite keeps them in the data dir and leaves this table empty.
import type { Kysely } from 'kysely'
import { nowDefault, types } from './helpers'

export async function up(db: Kysely<any>) {
  const t = types(db)
  await db.schema
    .createTable('install_state')
    .addColumn('name', t.text, (c) => c.primaryKey())
    .addColumn('value', t.text, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute()
}
