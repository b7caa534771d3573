// Places of an event are only ever taken by one conditional UPDATE and checked by its row count:
// read-then-write would oversell under concurrency (see docs/architecture.md, "Capacity").
// Always called inside the transaction that creates or changes the registration.
import type { Db } from '../../db/database'
import { prepared } from '../../db/prepared'

// on the registration hot path: compiled once (db/prepared.ts)
const takeSeatsQuery = prepared((db, p: { eventId: number; n: number }) =>
  db
    .updateTable('event')
    .set((eb) => ({ seats_taken: eb('seats_taken', '+', p.n) }))
    .where('id', '=', p.eventId)
    .where((eb) => eb.or([eb('max_visitors', 'is', null), eb(eb('seats_taken', '+', p.n), '<=', eb.ref('max_visitors'))])),
)

/** Takes n places; false when that would pass max_visitors. */
export async function takeSeats(trx: Db, eventId: number, n: number): Promise<boolean> {
  if (n <= 0) return true
  const r = await takeSeatsQuery(trx, { eventId, n })
  return Number(r.numAffectedRows) === 1
}

export async function releaseSeats(trx: Db, eventId: number, n: number): Promise<void> {
  if (n <= 0) return
  await trx
    .updateTable('event')
    .set((eb) => ({ seats_taken: eb('seats_taken', '-', n) }))
    .where('id', '=', eventId)
    .execute()
}

/** Statuses whose registrations hold places. */
export const SEAT_HOLDING = ['CONFIRMED', 'APPEARED', 'REQUIRE_APPROVAL', 'PENDING'] as const
export const holdsSeats = (status: string) => (SEAT_HOLDING as readonly string[]).includes(status)
