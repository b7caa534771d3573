// Conflicts of the offline desks for the organiser (docs/checkin-offline.md "Conflicts"): two desks
// admitted one person; the list names the guest, both desks and times, and whether someone has
// looked at it.
import type { AppContext } from '../../context'
import { isoNow } from '../../db/types'
import { notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'

export async function conflictsOf(ctx: AppContext, event: EventRow) {
  const rows = await ctx.db
    .selectFrom('checkin_conflict as c')
    .innerJoin('event_visitor as v', 'v.id', 'c.visitor_id')
    .leftJoin('escort_person as e', (j) => j.onRef('e.visitor_id', '=', 'c.visitor_id').onRef('e.number', '=', 'c.person'))
    .leftJoin('checkin_desk as d1', 'd1.id', 'c.first_desk_id')
    .leftJoin('checkin_desk as d2', 'd2.id', 'c.second_desk_id')
    .leftJoin('checkin_list as l', 'l.id', 'c.list_id')
    .select([
      'c.id',
      'c.visitor_id',
      'c.person',
      'c.list_id',
      'l.name as list_name',
      'c.first_desk_id',
      'd1.name as first_desk',
      'c.first_at',
      'c.second_desk_id',
      'd2.name as second_desk',
      'c.second_at',
      'c.created_at',
      'c.seen_at',
      'v.first_name',
      'v.last_name',
      'e.first_name as e_first',
      'e.last_name as e_last',
    ])
    .where('c.event_id', '=', event.id)
    .orderBy('c.id', 'desc')
    .limit(1000)
    .execute()
  return {
    items: rows.map((r) => ({
      id: r.id,
      visitorId: r.visitor_id,
      person: r.person,
      firstName: r.person === 0 ? r.first_name : r.e_first,
      lastName: r.person === 0 ? r.last_name : r.e_last,
      listId: r.list_id,
      listName: r.list_name,
      /** the admission kept (the earlier); desk null: the online desk or self check-in */
      first: { deskId: r.first_desk_id, deskName: r.first_desk, at: r.first_at },
      second: { deskId: r.second_desk_id, deskName: r.second_desk, at: r.second_at },
      createdAt: r.created_at,
      seenAt: r.seen_at,
    })),
  }
}

export async function markSeen(ctx: AppContext, event: EventRow, conflictId: number, accountId: number) {
  const r = await ctx.db
    .updateTable('checkin_conflict')
    .set({ seen_at: isoNow(ctx.clock.now()), seen_account_id: accountId })
    .where('id', '=', conflictId)
    .where('event_id', '=', event.id)
    .where('seen_at', 'is', null)
    .executeTakeFirst()
  if (Number(r.numUpdatedRows) !== 1) {
    const exists = await ctx.db.selectFrom('checkin_conflict').select('id').where('id', '=', conflictId).where('event_id', '=', event.id).executeTakeFirst()
    if (!exists) throw notFound()
  }
  return { ok: true }
}
