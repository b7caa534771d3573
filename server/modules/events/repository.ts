import type { Db } from '../../db/database'
import type { EventRow } from './events.table'

export const findEvent = (db: Db, id: number): Promise<EventRow | undefined> => db.selectFrom('event').selectAll().where('id', '=', id).executeTakeFirst()

export const listAgencyEvents = (db: Db, agencyId: number) =>
  db.selectFrom('event').selectAll().where('agency_id', '=', agencyId).where('status', '!=', 'DELETED').orderBy('start_date', 'desc').limit(500).execute()
