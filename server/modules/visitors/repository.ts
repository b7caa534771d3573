import { SqliteAdapter, sql } from 'kysely'
import type { Db } from '../../db/database'
import type { GuestFilter, GuestSearch } from './model'

const isSqlite = (db: Db) => db.getExecutor().adapter instanceof SqliteAdapter

export function normaliseCode(input: string): string {
  return input
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1')
}

/** The guests of an event matching a filter and search; callers add select, sort and paging. */
export function visitorQuery(db: Db, eventId: number, filter: GuestFilter, search?: string) {
  let q = db.selectFrom('event_visitor as v').where('v.event_id', '=', eventId)
  const statuses = filter.statuses.length ? filter.statuses : null
  if (statuses) q = q.where('v.status', 'in', statuses)
  else q = q.where('v.status', '!=', 'DELETED')
  if (filter.showPending) q = q.where('v.status', 'in', ['PENDING', 'REQUIRE_APPROVAL'])
  const vip = filter.showVip ? 'ONLY_VIP' : filter.vipFilter
  if (vip === 'ONLY_VIP') q = q.where('v.vip', '=', true as never)
  if (vip === 'NO_VIP') q = q.where('v.vip', '=', false as never)
  if (filter.showMailError) q = q.where('v.mail_error', '=', true as never)
  if (filter.tags.length) q = q.where((eb) => eb.exists(eb.selectFrom('visitor_tag as vt').select('vt.tag_id').whereRef('vt.visitor_id', '=', 'v.id').where('vt.tag_id', 'in', filter.tags)))
  if (filter.campaigns.length) {
    q = q.where((eb) => eb.exists(eb.selectFrom('visitor_campaign as vc').select('vc.campaign_id').whereRef('vc.visitor_id', '=', 'v.id').where('vc.campaign_id', 'in', filter.campaigns)))
  }
  for (const agreementId of filter.agreements) {
    q = q.where((eb) =>
      eb.exists(eb.selectFrom('visitor_agreement as va').select('va.id').whereRef('va.visitor_id', '=', 'v.id').where('va.agreement_id', '=', agreementId).where('va.status', '=', 'CONFIRMED')),
    )
  }
  const words = (search ?? '')
    .toLowerCase()
    .replace(/[%_]/g, '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 5)
  // One expression over the joined text per row instead of one per column: the scan is the cost here.
  // SQLite's LIKE already ignores ASCII case (and its lower() folds nothing more); Postgres needs lower().
  const joined = sql<string>`coalesce(v.first_name, '') || ' ' || coalesce(v.last_name, '') || ' ' || coalesce(v.email, '') || ' ' || coalesce(v.company, '')`
  const haystack = isSqlite(db) ? joined : sql<string>`lower(${joined})`
  for (const w of words) {
    const like = `%${w}%`
    const code = normaliseCode(w)
    q = q.where((eb) => eb.or([eb(haystack, 'like', like), ...(code.length >= 4 ? [eb('v.ticket_code', 'like', `${code}%`)] : [])]))
  }
  return q
}

const SORT_COLUMNS = {
  lastName: ['v.last_name', 'v.first_name'],
  firstName: ['v.first_name', 'v.last_name'],
  email: ['v.email'],
  company: ['v.company', 'v.last_name'],
  status: ['v.status', 'v.last_name'],
  registeredAt: ['v.registered_at'],
  createdAt: ['v.created_at'],
  visitorCount: ['v.visitor_count', 'v.last_name'],
  vip: ['v.vip', 'v.last_name'],
} as const

/** The ids of every guest matching the search, in its sort (the export pages through them). */
export async function orderedVisitorIds(db: Db, eventId: number, s: GuestSearch): Promise<number[]> {
  let q = visitorQuery(db, eventId, s.filter, s.search).select('v.id')
  for (const col of SORT_COLUMNS[s.sort.field]) q = q.orderBy(sql.ref(col), s.sort.direction)
  return (await q.orderBy('v.id', s.sort.direction).execute()).map((r) => r.id)
}

export async function searchVisitors(db: Db, eventId: number, s: GuestSearch) {
  const q = visitorQuery(db, eventId, s.filter, s.search)
  const order = <T extends { orderBy: (...a: any[]) => T }>(x: T): T => {
    let o = x
    for (const col of SORT_COLUMNS[s.sort.field]) o = o.orderBy(sql.ref(col), s.sort.direction)
    return o.orderBy('v.id', s.sort.direction)
  }
  if (s.search?.trim()) {
    // A search scans the event's rows anyway: one scan over the list index (it holds every searched
    // column) yields the matching ids in order and their count; then only the page's rows are read.
    const ids = (await order(q.select('v.id')).execute()).map((r) => r.id)
    const pageIds = ids.slice(s.page * s.perPage, (s.page + 1) * s.perPage)
    if (!pageIds.length) return { rows: [], total: ids.length }
    const rows = await db.selectFrom('event_visitor').selectAll().where('id', 'in', pageIds).execute()
    const byId = new Map(rows.map((r) => [r.id, r]))
    return { rows: pageIds.map((id) => byId.get(id)!), total: ids.length }
  }
  const [rows, total] = await Promise.all([order(q.selectAll('v')).limit(s.perPage).offset(s.page * s.perPage).execute(), q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst()])
  return { rows, total: Number(total?.n ?? 0) }
}

export const findVisitor = (db: Db, id: number) => db.selectFrom('event_visitor').selectAll().where('id', '=', id).executeTakeFirst()
export const escortsOf = (db: Db, visitorId: number) => db.selectFrom('escort_person').selectAll().where('visitor_id', '=', visitorId).orderBy('number').execute()

/**
 * Waiting-list positions (1-based, by registration time, then id) of the given registrations that are
 * on a waiting list. One statement whose subquery counts through the (event_id, status) index, so a
 * page of the guest list pays only for its own waiting-list rows.
 */
export async function waitingListPositions(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map()
  const at = (alias: 'v' | 'w') => sql`coalesce(${sql.ref(`${alias}.registered_at`)}, ${sql.ref(`${alias}.created_at`)})`
  const rows = await db
    .selectFrom('event_visitor as v')
    .select((eb) => [
      'v.id',
      eb
        .selectFrom('event_visitor as w')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('w.event_id', '=', 'v.event_id')
        .where('w.status', '=', 'WAITING_LIST')
        .where(sql<boolean>`(${at('w')} < ${at('v')} or (${at('w')} = ${at('v')} and w.id <= v.id))`)
        .as('position'),
    ])
    .where('v.id', 'in', ids)
    .where('v.status', '=', 'WAITING_LIST')
    .execute()
  return new Map(rows.map((r) => [r.id, Number(r.position)]))
}

/** How many registrations of an event wait on its waiting list. */
export async function waitingListCount(db: Db, eventId: number): Promise<number> {
  const r = await db.selectFrom('event_visitor').select((eb) => eb.fn.countAll<number>().as('n')).where('event_id', '=', eventId).where('status', '=', 'WAITING_LIST').executeTakeFirst()
  return Number(r?.n ?? 0)
}
