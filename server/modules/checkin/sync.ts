// The offline desk's sync (docs/checkin-offline.md "Sync"): a desk's queue of check-ins and -outs,
// applied in order, each once per desk and idempotency key (its row is inserted first, in the same
// transaction: a second sender waits on the unique index and then finds it, on any process). Every
// change goes through a conditional UPDATE, as at the online desk, so a person is never counted in
// twice. When two desks admitted one person without a check-out between, the first by the desks'
// times is kept (the check-in time moves back when the later one reached the server first) and the
// other is stored as a conflict naming both desks and times.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { sql } from 'kysely'
import { BunSqliteAdapter } from '../../db/bun-sqlite-dialect'
import { prepared } from '../../db/prepared'
import { bool, isoNow } from '../../db/types'
import type { EventRow } from '../events/events.table'
import { changedSince, currentCursor, parseCursor } from './changes'
import { personRefusals } from './list-checkin'
import { deskAgreements, recordsOf } from './offline-state'
import type { SyncInput, SyncItem } from './offline-model'
import { checkinCounts } from './service'
import { generationOf } from './signed-code'
import { BLOCK_ERROR, type OrderColumns, orderStateOf, ticketBlock, withLatestOrder } from './ticket-validity'
import type { CheckinDeskRow } from './offline.table'

export type SyncResult = 'APPLIED' | 'DUPLICATE' | 'CONFLICT' | 'REFUSED'
export interface ItemAnswer {
  key: string
  result: SyncResult
  reason?: string
  conflictId?: number
}

const CHUNK = 500
/** how far a desk's clock may run ahead, and how old a queued check-in may be */
const FUTURE_MS = 5 * 60_000
const PAST_MS = 30 * 86400_000
const ACTIVE = ['CONFIRMED', 'APPEARED'] as const

const changed = (r: { numAffectedRows?: bigint; numUpdatedRows?: bigint }) => Number(r.numAffectedRows ?? r.numUpdatedRows ?? 0n)

const answerKey = prepared((db, p: { id: number; result: string; reason: string | null; conflictId: number | null }) =>
  db.updateTable('checkin_sync_item').set({ result: p.result, reason: p.reason, conflict_id: p.conflictId }).where('id', '=', p.id),
)
// IN: only when not in, or out again no later than this admission (else two admissions overlap)
const inMain = prepared((db, p: { id: number; at: string }) =>
  db
    .updateTable('event_visitor')
    .set({ status: 'APPEARED', main_guest_checked_in: true, main_guest_checked_out: false, main_guest_checkin_date: p.at, updated_at: p.at })
    .where('id', '=', p.id)
    .where('status', 'in', [...ACTIVE])
    .where((eb) => eb.or([eb('main_guest_checked_in', '=', false as never), eb.and([eb('main_guest_checked_out', '=', true as never), eb('main_guest_checkout_date', '<=', p.at)])])),
)
const inEscort = prepared((db, p: { visitorId: number; number: number; at: string }) =>
  db
    .updateTable('escort_person')
    .set({ checked_in: true, checked_out: false, checkin_date: p.at })
    .where('visitor_id', '=', p.visitorId)
    .where('number', '=', p.number)
    .where((eb) => eb.or([eb('checked_in', '=', false as never), eb.and([eb('checked_out', '=', true as never), eb('checkout_date', '<=', p.at)])])),
)
const appeared = prepared((db, p: { id: number; at: string }) => db.updateTable('event_visitor').set({ status: 'APPEARED', updated_at: p.at }).where('id', '=', p.id).where('status', '=', 'CONFIRMED'))
const addPresence = prepared((db, p: { visitorId: number; eventId: number; person: number; at: string; accountId: number | null; note: string }) =>
  db.insertInto('presence').values({ visitor_id: p.visitorId, event_id: p.eventId, person: p.person, checkin_at: p.at, checkin_account_id: p.accountId, note: p.note, origin: 'DESK' }),
)
const outMain = prepared((db, p: { id: number; at: string }) =>
  db
    .updateTable('event_visitor')
    .set({ main_guest_checked_out: true, main_guest_checkout_date: p.at, updated_at: p.at })
    .where('id', '=', p.id)
    .where('main_guest_checked_in', '=', true as never)
    .where('main_guest_checked_out', '=', false as never)
    .where('main_guest_checkin_date', '<=', p.at),
)
const outEscort = prepared((db, p: { visitorId: number; number: number; at: string }) =>
  db
    .updateTable('escort_person')
    .set({ checked_out: true, checkout_date: p.at })
    .where('visitor_id', '=', p.visitorId)
    .where('number', '=', p.number)
    .where('checked_in', '=', true as never)
    .where('checked_out', '=', false as never)
    .where('checkin_date', '<=', p.at),
)
const closePresence = prepared((db, p: { visitorId: number; person: number; at: string; accountId: number | null }) =>
  db.updateTable('presence').set({ checkout_at: p.at, checkout_account_id: p.accountId }).where('visitor_id', '=', p.visitorId).where('person', '=', p.person).where('checkout_at', 'is', null),
)
const listIn = prepared((db, p: { listId: number; visitorId: number; person: number; at: string; accountId: number | null }) =>
  db
    .insertInto('checkin_list_entry')
    .values({ list_id: p.listId, visitor_id: p.visitorId, person: p.person, checkin_at: p.at, checkout_at: null, checkin_account_id: p.accountId })
    .onConflict((oc) =>
      oc
        .columns(['list_id', 'visitor_id', 'person'])
        .doUpdateSet({ checkin_at: p.at, checkout_at: null, checkin_account_id: p.accountId })
        .where((eb) => eb.and([eb('checkin_list_entry.checkout_at', 'is not', null), eb('checkin_list_entry.checkout_at', '<=', p.at)])),
    ),
)
const listOut = prepared((db, p: { listId: number; visitorId: number; person: number; at: string }) =>
  db.updateTable('checkin_list_entry').set({ checkout_at: p.at }).where('list_id', '=', p.listId).where('visitor_id', '=', p.visitorId).where('person', '=', p.person).where('checkout_at', 'is', null).where('checkin_at', '<=', p.at),
)

interface Stay {
  inAt: string | null
  outAt: string | null
  in: boolean
}

/** the person's current stay (event-wide, or on the list), read inside the transaction */
async function stayOf(trx: Db, visitorId: number, person: number, listId: number | null): Promise<Stay | null> {
  if (listId != null) {
    const e = await trx.selectFrom('checkin_list_entry').select(['checkin_at', 'checkout_at']).where('list_id', '=', listId).where('visitor_id', '=', visitorId).where('person', '=', person).executeTakeFirst()
    return e ? { inAt: e.checkin_at, outAt: e.checkout_at, in: e.checkout_at == null } : null
  }
  if (person === 0) {
    const v = await trx.selectFrom('event_visitor').select(['main_guest_checked_in', 'main_guest_checked_out', 'main_guest_checkin_date', 'main_guest_checkout_date', 'status']).where('id', '=', visitorId).executeTakeFirst()
    if (!v) return null
    return { inAt: v.main_guest_checkin_date, outAt: v.main_guest_checkout_date, in: bool(v.main_guest_checked_in) && !bool(v.main_guest_checked_out) }
  }
  const e = await trx.selectFrom('escort_person').select(['checked_in', 'checked_out', 'checkin_date', 'checkout_date']).where('visitor_id', '=', visitorId).where('number', '=', person).executeTakeFirst()
  return e ? { inAt: e.checkin_date, outAt: e.checkout_date, in: bool(e.checked_in) && !bool(e.checked_out) } : null
}

/** the desk whose applied check-in made the current stay (null: the online desk or self check-in) */
async function deskOfStay(trx: Db, visitorId: number, person: number, listId: number | null, inAt: string): Promise<number | null> {
  let q = trx.selectFrom('checkin_sync_item').select(['desk_id', 'at']).where('visitor_id', '=', visitorId).where('person', '=', person).where('action', '=', 'IN').where('result', 'in', ['APPLIED', 'CONFLICT'])
  q = listId == null ? q.where('list_id', 'is', null) : q.where('list_id', '=', listId)
  const rows = await q.orderBy('id', 'desc').limit(20).execute()
  const t = Date.parse(inAt)
  return rows.find((r) => Date.parse(r.at) === t)?.desk_id ?? null
}

type Visitor = { id: number; status: string; ticket_code: string | null } & Partial<OrderColumns>

export async function sync(ctx: AppContext, event: EventRow, desk: CheckinDeskRow, accountId: number, input: SyncInput) {
  const now = ctx.clock.now()
  const ids = [...new Set(input.items.map((i) => i.visitorId))]
  const visitors = new Map<number, Visitor>()
  const persons = new Map<number, Set<number>>()
  for (let i = 0; i < ids.length; i += 2000) {
    const page = ids.slice(i, i + 2000)
    const rows = (await withLatestOrder(ctx.db.selectFrom('event_visitor as v').select(['v.id', 'v.status', 'v.ticket_code']).where('v.event_id', '=', event.id).where('v.id', 'in', page)).execute()) as Visitor[]
    for (const r of rows) {
      visitors.set(r.id, r)
      persons.set(r.id, new Set([0]))
    }
    const escorts = rows.length ? await ctx.db.selectFrom('escort_person').select(['visitor_id', 'number']).where('visitor_id', 'in', rows.map((r) => r.id)).execute() : []
    for (const e of escorts) persons.get(e.visitor_id)?.add(e.number)
  }
  const listIds = [...new Set(input.items.map((i) => i.listId).filter((x): x is number => x != null))]
  const lists = new Map(listIds.length ? (await ctx.db.selectFrom('checkin_list').selectAll().where('event_id', '=', event.id).where('id', 'in', listIds).execute()).map((l) => [l.id, l]) : [])
  const listRefusals = new Map<string, Map<number, { errorType: string }>>()

  /** why this item cannot be applied whatever the state (null: try it) */
  const refusal = async (it: SyncItem, at: number): Promise<string | null> => {
    if (at > now.getTime() + FUTURE_MS || at < now.getTime() - PAST_MS) return 'TIME_INVALID'
    const v = visitors.get(it.visitorId)
    if (!v || !persons.get(v.id)?.has(it.person)) return 'NOT_FOUND'
    if (it.listId != null && !lists.has(it.listId)) return 'NOT_FOUND'
    if (it.action === 'OUT') return null
    if (it.generation && (!v.ticket_code || generationOf(v.ticket_code) !== it.generation)) return 'CODE_REVOKED'
    if (!(ACTIVE as readonly string[]).includes(v.status)) return 'CHECKIN_STATUS'
    const block = ticketBlock(orderStateOf(v), event.invoice_tickets)
    if (block) return BLOCK_ERROR[block]
    if (it.listId != null) {
      const k = `${it.listId}:${v.id}`
      // each person by their own ticket's category (list-checkin.ts personRefusals)
      if (!listRefusals.has(k)) listRefusals.set(k, await personRefusals(ctx.db, lists.get(it.listId)!, v, [...persons.get(v.id)!].sort((a, b) => a - b).map((person) => ({ person }))))
      return listRefusals.get(k)!.get(it.person)?.errorType ?? null
    }
    return null
  }

  const answers: ItemAnswer[] = []
  for (let i = 0; i < input.items.length; i += CHUNK) {
    const chunk = input.items.slice(i, i + CHUNK)
    const reasons = await Promise.all(chunk.map((it) => refusal(it, Date.parse(it.at))))
    const stamp = isoNow(ctx.clock.now())
    const part = await ctx.db.transaction().execute(async (trx) => {
      const out: Array<ItemAnswer | undefined> = new Array(chunk.length)
      const ats = chunk.map((it) => new Date(it.at).toISOString())
      // every item's key is claimed first, in one statement: a key already there (sent before, or
      // by a request that committed first) is a duplicate; twice in this chunk, its first use counts
      const claimed = await trx
        .insertInto('checkin_sync_item')
        .values(chunk.map((it, j) => ({ desk_id: desk.id, key: it.key, event_id: event.id, visitor_id: it.visitorId, person: it.person, action: it.action, at: ats[j], list_id: it.listId ?? null, result: 'PENDING', created_at: stamp })))
        .onConflict((oc) => oc.columns(['desk_id', 'key']).doNothing())
        .returning(['id', 'key'])
        .execute()
      const free = new Map(claimed.map((r) => [r.key, r.id]))
      const claim: Array<number | null> = chunk.map((it) => {
        const id = free.get(it.key)
        if (id === undefined) return null
        free.delete(it.key)
        return id
      })
      chunk.forEach((it, j) => {
        if (claim[j] == null) out[j] = { key: it.key, result: 'DUPLICATE' }
        else if (reasons[j]) out[j] = { key: it.key, result: 'REFUSED', reason: reasons[j]! }
      })
      // the usual item (a check-in of a person this chunk names once) goes in one statement per kind;
      // whatever it does not apply, and everything else, goes one by one in the desk's order
      const seen = new Map<string, number>()
      chunk.forEach((it, j) => claim[j] != null && seen.set(`${it.visitorId}:${it.person}:${it.listId ?? ''}`, (seen.get(`${it.visitorId}:${it.person}:${it.listId ?? ''}`) ?? 0) + 1))
      const fast = chunk.map((it, j) => j).filter((j) => !out[j] && chunk[j].action === 'IN' && chunk[j].listId == null && seen.get(`${chunk[j].visitorId}:${chunk[j].person}:`) === 1)
      if (fast.length) {
        const done = await bulkIn(trx, event, accountId, desk, fast.map((j) => ({ visitorId: chunk[j].visitorId, person: chunk[j].person, at: ats[j] })), stamp)
        for (const j of fast) if (done.has(`${chunk[j].visitorId}:${chunk[j].person}`)) out[j] = { key: chunk[j].key, result: 'APPLIED' }
      }
      for (let j = 0; j < chunk.length; j++) if (!out[j]) out[j] = await apply(trx, event, desk, accountId, chunk[j], ats[j], stamp)
      // the answers stored with the keys: grouped (one statement per result and reason), conflicts each
      const groups = new Map<string, number[]>()
      for (let j = 0; j < chunk.length; j++) {
        const a = out[j]!
        if (claim[j] == null) continue
        if (a.conflictId != null) await answerKey(trx, { id: claim[j]!, result: a.result, reason: a.reason ?? null, conflictId: a.conflictId })
        else {
          const g = `${a.result}|${a.reason ?? ''}`
          groups.set(g, [...(groups.get(g) ?? []), claim[j]!])
        }
      }
      for (const [g, idList] of groups) {
        const [result, reason] = g.split('|')
        await trx.updateTable('checkin_sync_item').set({ result, reason: reason || null }).where('id', 'in', idList).execute()
      }
      return out as ItemAnswer[]
    })
    answers.push(...part)
  }

  const since = parseCursor(input.cursor)
  let changes: unknown[] = []
  let cursor: string
  if (since == null) cursor = await currentCursor(ctx.db)
  else {
    const c = await changedSince(ctx.db, event.id, since)
    cursor = c.cursor
    const required = (await deskAgreements(ctx.db, event)).map((a) => a.id)
    for (let i = 0; i < c.visitorIds.length; i += 2000) changes = changes.concat(await recordsOf(ctx, event, c.visitorIds.slice(i, i + 2000), required))
  }
  return { results: answers, changes, cursor, ...(since == null ? { resync: true } : {}), counts: await checkinCounts(ctx.db, event.id) }
}

async function apply(trx: Db, event: EventRow, desk: CheckinDeskRow, accountId: number, it: SyncItem, at: string, stamp: string): Promise<ItemAnswer> {
  const list = it.listId ?? null
  const note = `Desk: ${desk.name}`
  if (it.action === 'OUT') {
    const ok =
      list != null
        ? changed(await listOut(trx, { listId: list, visitorId: it.visitorId, person: it.person, at })) === 1
        : changed(it.person === 0 ? await outMain(trx, { id: it.visitorId, at }) : await outEscort(trx, { visitorId: it.visitorId, number: it.person, at })) === 1
    if (!ok) return { key: it.key, result: 'REFUSED', reason: 'NOT_CHECKED_IN' }
    if (list == null) await closePresence(trx, { visitorId: it.visitorId, person: it.person, at, accountId })
    return { key: it.key, result: 'APPLIED' }
  }
  const eventIn = async () => {
    const r = it.person === 0 ? await inMain(trx, { id: it.visitorId, at }) : await inEscort(trx, { visitorId: it.visitorId, number: it.person, at })
    if (changed(r) !== 1) return false
    if (it.person !== 0) await appeared(trx, { id: it.visitorId, at })
    await addPresence(trx, { visitorId: it.visitorId, eventId: event.id, person: it.person, at, accountId, note })
    return true
  }
  if (list != null) {
    if (changed(await listIn(trx, { listId: list, visitorId: it.visitorId, person: it.person, at, accountId }))) {
      // entering a list marks the person present at the event when they are not (as at the online desk)
      await eventIn()
      return { key: it.key, result: 'APPLIED' }
    }
  } else if (await eventIn()) return { key: it.key, result: 'APPLIED' }

  // not applied: the person is in, or was out again only after this admission: two admissions
  const stay = await stayOf(trx, it.visitorId, it.person, list)
  if (!stay?.inAt) return { key: it.key, result: 'REFUSED', reason: 'CHECKIN_STATUS' }
  const other = await deskOfStay(trx, it.visitorId, it.person, list, stay.inAt)
  if (other === desk.id) return { key: it.key, result: 'REFUSED', reason: 'ALREADY_CHECKED_IN' }
  const thisFirst = Date.parse(at) < Date.parse(stay.inAt)
  if (thisFirst && stay.in) {
    // this desk admitted them first: the stay begins at its time (the counts do not change)
    if (list != null) await trx.updateTable('checkin_list_entry').set({ checkin_at: at, checkin_account_id: accountId }).where('list_id', '=', list).where('visitor_id', '=', it.visitorId).where('person', '=', it.person).execute()
    else if (it.person === 0) await trx.updateTable('event_visitor').set({ main_guest_checkin_date: at }).where('id', '=', it.visitorId).execute()
    else await trx.updateTable('escort_person').set({ checkin_date: at }).where('visitor_id', '=', it.visitorId).where('number', '=', it.person).execute()
    if (list == null) await trx.updateTable('presence').set({ checkin_at: at, note }).where('visitor_id', '=', it.visitorId).where('person', '=', it.person).where('checkout_at', 'is', null).execute()
  }
  const first = thisFirst ? { desk: desk.id, at } : { desk: other, at: new Date(stay.inAt).toISOString() }
  const second = thisFirst ? { desk: other, at: new Date(stay.inAt).toISOString() } : { desk: desk.id, at }
  const c = await trx
    .insertInto('checkin_conflict')
    .values({ event_id: event.id, visitor_id: it.visitorId, person: it.person, list_id: list, first_desk_id: first.desk, first_at: first.at, second_desk_id: second.desk, second_at: second.at, created_at: stamp })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { key: it.key, result: 'CONFLICT', conflictId: c.id }
}

/**
 * Check-ins of distinct persons in one statement per kind (main guests, escorts), with the same
 * conditions as inMain / inEscort; answers the "visitor:person" of those it applied. Also writes their
 * presence and marks registrations whose escort came APPEARED.
 */
async function bulkIn(trx: Db, event: EventRow, accountId: number, desk: CheckinDeskRow, items: Array<{ visitorId: number; person: number; at: string }>, stamp: string): Promise<Set<string>> {
  const lite = trx.getExecutor().adapter instanceof BunSqliteAdapter
  const ts = (v: string) => (lite ? sql`${v}` : sql`cast(${v} as timestamptz)`)
  const int = (v: number) => (lite ? sql`${v}` : sql`cast(${v} as integer)`)
  const done = new Set<string>()
  const mains = items.filter((i) => i.person === 0)
  const escorts = items.filter((i) => i.person !== 0)
  if (mains.length) {
    const values = sql.join(mains.map((i) => sql`(${int(i.visitorId)}, ${ts(i.at)})`))
    const r = await sql<{ id: number }>`with x(id, at) as (values ${values})
      update event_visitor set status = 'APPEARED', main_guest_checked_in = true, main_guest_checked_out = false, main_guest_checkin_date = x.at, updated_at = x.at
      from x where event_visitor.id = x.id and event_visitor.event_id = ${event.id} and event_visitor.status in ('CONFIRMED', 'APPEARED')
        and (event_visitor.main_guest_checked_in = false or (event_visitor.main_guest_checked_out = true and event_visitor.main_guest_checkout_date <= x.at))
      returning event_visitor.id`.execute(trx)
    for (const row of r.rows) done.add(`${row.id}:0`)
  }
  if (escorts.length) {
    const values = sql.join(escorts.map((i) => sql`(${int(i.visitorId)}, ${int(i.person)}, ${ts(i.at)})`))
    const r = await sql<{ visitor_id: number; number: number }>`with x(vid, num, at) as (values ${values})
      update escort_person set checked_in = true, checked_out = false, checkin_date = x.at
      from x where escort_person.visitor_id = x.vid and escort_person.number = x.num
        and (escort_person.checked_in = false or (escort_person.checked_out = true and escort_person.checkout_date <= x.at))
      returning escort_person.visitor_id, escort_person.number`.execute(trx)
    for (const row of r.rows) done.add(`${row.visitor_id}:${row.number}`)
    const came = [...new Set(r.rows.map((x) => x.visitor_id))]
    if (came.length) await trx.updateTable('event_visitor').set({ status: 'APPEARED', updated_at: stamp }).where('id', 'in', came).where('status', '=', 'CONFIRMED').execute()
  }
  const applied = items.filter((i) => done.has(`${i.visitorId}:${i.person}`))
  if (applied.length)
    await trx
      .insertInto('presence')
      .values(applied.map((i) => ({ visitor_id: i.visitorId, event_id: event.id, person: i.person, checkin_at: i.at, checkin_account_id: accountId, note: `Desk: ${desk.name}`, origin: 'DESK' })))
      .execute()
  return done
}
