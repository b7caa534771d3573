// The offline desk's registration and download (issue 26, docs/checkin-offline.md): a desk is
// registered for an event and gets a random AES-256 key for its local copy, bound to the login
// session that registered it (the session's deletion — logout, revocation, expiry — deletes the key
// by the foreign key's cascade: the copy on a lost tablet stays unreadable). The download streams
// the event's check-in data page by page.
import { randomBytes } from 'node:crypto'
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { isoNow } from '../../db/types'
import { notAuthenticated, notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import type { AccountActor } from '../identity/auth'
import { registerPeriodicJob } from '../tasks/runner'
import { currentCursor, FEED_KEEP_DAYS, sweepOfflineFeed } from './changes'
import { listCategoryIds } from './list-checkin'
import { listsOf } from './lists'
import type { CheckinDeskRow } from './offline.table'
import { deskAgreements, recordsOf } from './offline-state'
import { ticketKeyOfEvent } from './signed-code'

// the feed of ended events goes (changes.ts sweepOfflineFeed); every process's runner, safe to repeat
registerPeriodicJob('offline-feed-retention', 6 * 3600_000, async (ctx) => {
  const n = await sweepOfflineFeed(ctx.db, ctx.clock.now())
  if (n.changes || n.items) ctx.log.info('offline desk feed of ended events deleted', { ...n, keepDays: FEED_KEEP_DAYS })
})

export const PAGE = 2000

export async function registerDesk(ctx: AppContext, event: EventRow, actor: AccountActor, name: string) {
  const key = randomBytes(32).toString('base64')
  const desk = await ctx.db.transaction().execute(async (trx) => {
    const d = await trx.insertInto('checkin_desk').values({ event_id: event.id, account_id: actor.account.id, name, created_at: isoNow(ctx.clock.now()) }).returningAll().executeTakeFirstOrThrow()
    await trx.insertInto('checkin_desk_key').values({ desk_id: d.id, session_id: actor.session.id, key }).execute()
    return d
  })
  return { deskId: desk.id, name: desk.name, key }
}

/** The desk of this event, or 404 (another event's desk, or none). */
export async function deskOfEvent(db: Db, eventId: number, deskId: number): Promise<CheckinDeskRow> {
  const d = await db.selectFrom('checkin_desk').selectAll().where('id', '=', deskId).where('event_id', '=', eventId).executeTakeFirst()
  if (!d) throw notFound()
  return d
}

/** The desk's key again, for the session that registered it only; 401 once that session is gone. */
export async function deskKey(ctx: AppContext, event: EventRow, actor: AccountActor, deskId: number) {
  await deskOfEvent(ctx.db, event.id, deskId)
  const k = await ctx.db.selectFrom('checkin_desk_key').select(['key', 'session_id']).where('desk_id', '=', deskId).executeTakeFirst()
  if (!k || k.session_id !== actor.session.id) throw notAuthenticated()
  return { deskId, key: k.key }
}

export async function desksOf(db: Db, eventId: number) {
  const rows = await db.selectFrom('checkin_desk').select(['id', 'name', 'created_at']).where('event_id', '=', eventId).orderBy('id').execute()
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at }))
}

/**
 * The desk's download as a stream of JSON text: the head (event key, lists, categories, agreements,
 * cursor) and then the registrations, PAGE at a time by id. The cursor is taken first, so whatever
 * changes while the pages are read comes again with the first sync.
 */
export async function downloadStream(ctx: AppContext, event: EventRow, desk: CheckinDeskRow): Promise<ReadableStream<Uint8Array>> {
  const cursor = await currentCursor(ctx.db)
  const [lists, categories, agreements] = await Promise.all([
    listsOf(ctx.db, event.id),
    ctx.db.selectFrom('ticket_category').select(['id', 'display_name']).where('event_id', '=', event.id).orderBy('id').execute(),
    deskAgreements(ctx.db, event),
  ])
  const required = agreements.map((a) => a.id)
  const head = {
    format: 1,
    eventId: event.id,
    eventName: event.display_name,
    deskId: desk.id,
    generatedAt: isoNow(ctx.clock.now()),
    cursor,
    verificationKey: ticketKeyOfEvent(ctx.secrets.signingKey, event.id).toString('base64'),
    lists: lists.map((l) => ({ id: l.id, name: l.name, categoryIds: listCategoryIds(l) })),
    categories: categories.map((c) => ({ id: c.id, name: c.display_name })),
    agreements,
  }
  const enc = new TextEncoder()
  let last = 0
  let first = true
  let done = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(enc.encode(`${JSON.stringify(head).slice(0, -1)},"registrations":[`))
    },
    async pull(controller) {
      if (done) return
      try {
        const ids = (await ctx.db.selectFrom('event_visitor').select('id').where('event_id', '=', event.id).where('id', '>', last).orderBy('id').limit(PAGE).execute()).map((r) => r.id)
        if (!ids.length) {
          done = true
          controller.enqueue(enc.encode(']}'))
          controller.close()
          return
        }
        last = ids[ids.length - 1]
        const records = await recordsOf(ctx, event, ids, required)
        let s = ''
        for (const r of records) {
          if ('removed' in r) continue
          s += (first ? '' : ',') + JSON.stringify(r)
          first = false
        }
        controller.enqueue(enc.encode(s))
      } catch (e) {
        controller.error(e)
      }
    },
  })
}
