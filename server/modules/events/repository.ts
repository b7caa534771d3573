import { type ExpressionBuilder, sql } from 'kysely'
import type { Db } from '../../db/database'
import { prepared } from '../../db/prepared'
import type { DB } from '../../db/schema'
import { zonedToUtc } from '../../i18n/format'
import type { EventRow } from './events.table'
import type { EventFilter, EventSearch } from './model'

// Every organiser call reads its event first: compiled once (db/prepared.ts).
const eventById = prepared((db, p: { id: number }) => db.selectFrom('event').selectAll().where('id', '=', p.id))
export const findEvent = (db: Db, id: number): Promise<EventRow | undefined> => eventById.first(db, { id }) as Promise<EventRow | undefined>

export const listAgencyEvents = (db: Db, agencyId: number) =>
  db.selectFrom('event').selectAll().where('agency_id', '=', agencyId).where('status', '=', 'OK').orderBy('start_date', 'desc').limit(500).execute()

const AGENCY_TZ = 'Europe/Berlin'

/** An event a guest could not use yet (docs/organiser.md, "Incomplete"). */
export function incompleteCondition(eb: ExpressionBuilder<DB, 'event'>) {
  return eb.or([
    eb.and([eb('event_type', '=', 'ON_SITE'), eb.or([eb('location_name', 'is', null), eb('city', 'is', null)])]),
    eb.and([eb('event_type', '=', 'ONLINE'), eb('meeting_url', 'is', null)]),
  ])
}

export function incompleteReasons(e: EventRow): string[] {
  const out: string[] = []
  if (e.event_type === 'ON_SITE' && !e.location_name) out.push('LOCATION_NAME')
  if (e.event_type === 'ON_SITE' && !e.city) out.push('CITY')
  if (e.event_type === 'ONLINE' && !e.meeting_url) out.push('MEETING_URL')
  return out
}

/** Start of the given day (or instant) in the agency's zone. */
const dayStart = (d: string) => (d.length === 10 ? zonedToUtc(`${d}T00:00`, AGENCY_TZ) : new Date(d)).toISOString()
const dayEnd = (d: string) => (d.length === 10 ? new Date(zonedToUtc(`${d}T00:00`, AGENCY_TZ).getTime() + 86400_000 - 1) : new Date(d)).toISOString()

export function statusesOf(f: EventFilter): string[] {
  const s = f.status == null ? ['OK'] : Array.isArray(f.status) ? (f.status.length ? [...f.status] : ['OK']) : [f.status]
  if (f.showDeleted && !s.includes('DELETED')) s.push('DELETED')
  return s
}

export async function searchEvents(db: Db, agencyId: number, s: EventSearch, now: Date) {
  const f = s.filter
  const statuses = statusesOf(f)
  let q = db.selectFrom('event').where('status', 'in', statuses)
  // Global presets of every agency are shared templates; everything else is the agency's own.
  q = statuses.includes('GLOBAL_PRESET')
    ? q.where((eb) => eb.or([eb('agency_id', '=', agencyId), eb('status', '=', 'GLOBAL_PRESET')]))
    : q.where('agency_id', '=', agencyId)
  if (f.onlyTodayEvents) {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: AGENCY_TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
    q = q.where('start_date', '<=', dayEnd(today)).where('end_date', '>=', dayStart(today))
  }
  if (f.startDate) q = q.where('end_date', '>=', dayStart(f.startDate))
  if (f.endDate) q = q.where('start_date', '<=', dayEnd(f.endDate))
  const vis = [...f.visibilities, ...(f.visibility ? [f.visibility] : [])]
  if (vis.length) q = q.where('visibility', 'in', vis)
  if (f.tags.length) q = q.where((eb) => eb.exists(eb.selectFrom('event_tag').select('event_tag.tag_id').whereRef('event_tag.event_id', '=', 'event.id').where('event_tag.tag_id', 'in', f.tags)))
  if (f.campaigns.length) {
    q = q.where((eb) => eb.exists(eb.selectFrom('event_campaign').select('event_campaign.campaign_id').whereRef('event_campaign.event_id', '=', 'event.id').where('event_campaign.campaign_id', 'in', f.campaigns)))
  }
  if (f.onlyShowUncomplete) q = q.where((eb) => incompleteCondition(eb))
  if (f.archivedFilter === 'HIDE_ARCHIVED') q = q.where('archived', '=', false as never)
  if (f.archivedFilter === 'ONLY_ARCHIVED') q = q.where('archived', '=', true as never)
  if (s.search) {
    const like = `%${s.search.toLowerCase().replace(/[%_]/g, '')}%`
    q = q.where((eb) => eb.or([eb(eb.fn('lower', ['display_name']), 'like', like), eb(eb.fn('lower', ['sub_title']), 'like', like), eb(eb.fn('lower', ['city']), 'like', like), eb(eb.fn('lower', ['location_name']), 'like', like)]))
  }
  const col = { startDate: 'start_date', displayName: 'display_name', createdAt: 'created_at' } as const
  const nowIso = now.toISOString()
  const sorted =
    s.sort.field === 'upcoming'
      ? q
          .selectAll()
          .orderBy(sql`case when end_date >= ${nowIso} then 0 else 1 end`)
          .orderBy(sql`case when end_date >= ${nowIso} then start_date end`, 'asc')
          .orderBy('start_date', 'desc')
          .orderBy('id', 'asc')
      : q
          .selectAll()
          .orderBy(s.sort.field === 'displayName' ? sql`lower(display_name)` : sql.ref(col[s.sort.field]), s.sort.direction)
          .orderBy('id', s.sort.direction)
  const [rows, total] = await Promise.all([
    sorted
      .limit(s.perPage)
      .offset(s.page * s.perPage)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  return { rows, total: Number(total?.n ?? 0) }
}
