// Security hardening, part B.
// - task.checkpoint: a background task's progress checkpoint (JSON text), written in the same
//   transaction as the rows a step of the task writes: a task taken again after a crash (its lease
//   ran out) continues after the last committed step instead of writing its rows a second time.
// - timeslot_reservation.client_key: the hashed client address a timed hold was made from, so one
//   client cannot hold every place with made-up identifications (reservations/service.ts).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>) {
  await db.schema.alterTable('task').addColumn('checkpoint', 'text').execute()
  await db.schema.alterTable('timeslot_reservation').addColumn('client_key', 'text').execute()
  await db.schema.createIndex('timeslot_reservation_client_idx').on('timeslot_reservation').column('client_key').where('client_key', 'is not', null).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('timeslot_reservation_client_idx').ifExists().execute()
  await db.schema.alterTable('timeslot_reservation').dropColumn('client_key').execute()
  await db.schema.alterTable('task').dropColumn('checkpoint').execute()
}
