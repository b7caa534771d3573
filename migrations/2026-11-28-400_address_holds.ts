// Holds are bounded per client address by a ceiling per event (EINLASS_HOLD_ADDRESS_PLACES), for
// chairs as for timeslots: chair_reservation.client_key records the hashed address a timed chair hold
// was made from (null for fixed holds and holds made before). Both tables look a client's live holds
// up by (client_key, event_id).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>) {
  await db.schema.alterTable('chair_reservation').addColumn('client_key', 'text').execute()
  await db.schema.createIndex('chair_reservation_client_idx').on('chair_reservation').columns(['client_key', 'event_id']).where('client_key', 'is not', null).execute()
  await db.schema.dropIndex('timeslot_reservation_client_idx').execute()
  await db.schema.createIndex('timeslot_reservation_client_idx').on('timeslot_reservation').columns(['client_key', 'event_id']).where('client_key', 'is not', null).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('timeslot_reservation_client_idx').execute()
  await db.schema.createIndex('timeslot_reservation_client_idx').on('timeslot_reservation').column('client_key').where('client_key', 'is not', null).execute()
  await db.schema.dropIndex('chair_reservation_client_idx').execute()
  await db.schema.alterTable('chair_reservation').dropColumn('client_key').execute()
}
