// A background task's progress checkpoint (JSON text), written in the same transaction as the rows
// a step of the task writes: a task taken again after a crash (its lease ran out) continues after
// the last committed step instead of writing its rows a second time (imports, invitations).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>) {
  await db.schema.alterTable('task').addColumn('checkpoint', 'text').execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('task').dropColumn('checkpoint').execute()
}
