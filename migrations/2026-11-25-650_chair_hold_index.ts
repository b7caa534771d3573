// A visit's live chair holds are looked up by identification, event and expiry on every chair
// reservation (and registration with chairs). With the index on (identification, event_id) SQLite's
// planner took the one on (event_id, expires_at) instead, which reads every live hold of the event:
// a reservation cost grew with the holds (495/s at 64 connections, bench/chairs.ts). With the expiry
// as the third column of the visit's index all three conditions are answered by it.
// Every ticket purchase also reads the event's price categories (which ticket categories are
// seat-bound): that read scanned the whole table; it gets an index on the event.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>) {
  await db.schema.dropIndex('chair_reservation_identification').execute()
  await db.schema.createIndex('chair_reservation_identification').on('chair_reservation').columns(['identification', 'event_id', 'expires_at']).execute()
  await db.schema.createIndex('seating_price_category_event').on('seating_price_category').columns(['event_id']).execute()
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('seating_price_category_event').execute()
  await db.schema.dropIndex('chair_reservation_identification').execute()
  await db.schema.createIndex('chair_reservation_identification').on('chair_reservation').columns(['identification', 'event_id']).execute()
}
