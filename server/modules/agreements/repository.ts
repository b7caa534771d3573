import type { Db } from '../../db/database'
import { generationCache } from '../../db/generation-cache'
import { prepared } from '../../db/prepared'
import type { AgreementRow } from './agreements.table'

// read by every registration and self check-in: compiled once, answers cached per process while the
// 'setup' counter stands still (db/generation-cache.ts; triggers raise it on every agreement change)
const agreementsQuery = prepared((db, p: { eventId: number; agencyId: number }) =>
  db
    .selectFrom('agreement')
    .selectAll()
    .where('active', '=', true as never)
    .where('agency_id', '=', p.agencyId)
    .where((eb) => eb.or([eb('event_id', '=', p.eventId), eb('validity', '=', 'GLOBAL')]))
    .orderBy('validity', 'desc')
    .orderBy('sort_order')
    .orderBy('id'),
)
const agreementsCache = generationCache<AgreementRow[]>('setup', { inTransaction: 'bypass' })

/** An event's agreements: its own plus the agency's active GLOBAL ones, in display order. Do not change the rows: they are shared. */
export function effectiveAgreements(db: Db, event: { id: number; agency_id: number }): Promise<AgreementRow[]> {
  return agreementsCache.get(db, `${event.agency_id}:${event.id}`, async () => (await agreementsQuery(db, { eventId: event.id, agencyId: event.agency_id })).rows as AgreementRow[])
}

/** REQUIRED agreements of the event the registration has not CONFIRMED (one query). */
export function missingRequiredAgreements(db: Db, event: { id: number; agency_id: number }, visitorId: number) {
  return db
    .selectFrom('agreement as a')
    .select(['a.id', 'a.display_name'])
    .where('a.active', '=', true as never)
    .where('a.appearance', '=', 'REQUIRED')
    .where('a.agency_id', '=', event.agency_id)
    .where((eb) => eb.or([eb('a.event_id', '=', event.id), eb('a.validity', '=', 'GLOBAL')]))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('visitor_agreement as va').select('va.id').whereRef('va.agreement_id', '=', 'a.id').where('va.visitor_id', '=', visitorId).where('va.status', '=', 'CONFIRMED'))))
    .orderBy('a.id')
    .execute()
}

export function decisionsOf(db: Db, visitorId: number) {
  return db.selectFrom('visitor_agreement').selectAll().where('visitor_id', '=', visitorId).execute()
}
