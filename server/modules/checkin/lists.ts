// Check-in lists of an event (issue 21, docs/ticketing.md "Check-in lists"): each names the ticket
// categories it admits (empty = all categories and guests without ticket). An event without lists
// has one implicit list, the desk as before.
import type { AppContext } from '../../context'
import { type Db, isForeignKeyViolation } from '../../db/database'
import { isoNow, toJson } from '../../db/types'
import { AppError, fieldError, notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import type { CheckinListRow } from './checkin.table'
import type { CheckinListInput } from './lists-model'
import { listCategoryIds, listCounts } from './list-checkin'


export function listDto(r: CheckinListRow, names: Map<number, string>) {
  const ids = listCategoryIds(r)
  return { id: r.id, eventId: r.event_id, name: r.name, categoryIds: ids, categories: ids.map((id) => ({ id, displayName: names.get(id) ?? '' })) }
}

async function categoryNames(db: Db, eventId: number): Promise<Map<number, string>> {
  const rows = await db.selectFrom('ticket_category').select(['id', 'display_name']).where('event_id', '=', eventId).execute()
  return new Map(rows.map((r) => [r.id, r.display_name]))
}

export async function listsOf(db: Db, eventId: number): Promise<CheckinListRow[]> {
  return db.selectFrom('checkin_list').selectAll().where('event_id', '=', eventId).orderBy('id').execute()
}

/** The event's lists, each with its counts (the desk's chooser and the event's check-in page). */
export async function listDtos(ctx: AppContext, event: EventRow) {
  const names = await categoryNames(ctx.db, event.id)
  const rows = await listsOf(ctx.db, event.id)
  return Promise.all(rows.map(async (r) => ({ ...listDto(r, names), counts: await listCounts(ctx.db, r) })))
}

/** The list of this event, or 404 (another event's or agency's list id). */
export async function listOfEvent(db: Db, eventId: number, listId: number): Promise<CheckinListRow> {
  const r = await db.selectFrom('checkin_list').selectAll().where('id', '=', listId).where('event_id', '=', eventId).executeTakeFirst()
  if (!r) throw notFound()
  return r
}

async function checkedCategories(db: Db, eventId: number, ids: number[]): Promise<{ ids: number[]; names: Map<number, string> }> {
  const names = await categoryNames(db, eventId)
  const unique = [...new Set(ids)]
  if (unique.some((id) => !names.has(id))) throw fieldError([{ field: 'categoryIds', errorType: 'INVALID' }])
  return { ids: unique, names }
}

export async function createList(ctx: AppContext, event: EventRow, input: CheckinListInput) {
  const { ids, names } = await checkedCategories(ctx.db, event.id, input.categoryIds)
  const now = isoNow(ctx.clock.now())
  const r = await ctx.db
    .insertInto('checkin_list')
    .values({ event_id: event.id, name: input.name, category_ids: toJson(ids) as never, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow()
  return listDto(r, names)
}

export async function updateList(ctx: AppContext, event: EventRow, listId: number, input: CheckinListInput) {
  await listOfEvent(ctx.db, event.id, listId)
  const { ids, names } = await checkedCategories(ctx.db, event.id, input.categoryIds)
  const r = await ctx.db
    .updateTable('checkin_list')
    .set({ name: input.name, category_ids: toJson(ids) as never, updated_at: isoNow(ctx.clock.now()) })
    .where('id', '=', listId)
    .where('event_id', '=', event.id)
    .returningAll()
    .executeTakeFirst()
  if (!r) throw notFound()
  return listDto(r, names)
}

/** Deletes a list nobody has checked in on (409 CHECKIN_LIST_IN_USE otherwise: its counts would be lost). */
export async function deleteList(ctx: AppContext, event: EventRow, listId: number) {
  await listOfEvent(ctx.db, event.id, listId)
  // A check-in racing the delete: its entry, not yet visible to the NOT EXISTS, makes the entry's
  // foreign key refuse the delete (Postgres checks it once the check-in commits): in use, not a 500.
  const r = await ctx.db
    .deleteFrom('checkin_list')
    .where('id', '=', listId)
    .where('event_id', '=', event.id)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('checkin_list_entry as x').select('x.id').where('x.list_id', '=', listId))))
    .executeTakeFirst()
    .catch((e) => {
      if (isForeignKeyViolation(e)) throw new AppError(409, 'CHECKIN_LIST_IN_USE')
      throw e
    })
  if (Number(r.numDeletedRows) !== 1) {
    // deleted by a concurrent request in the meantime: gone, as asked
    if (!(await ctx.db.selectFrom('checkin_list').select('id').where('id', '=', listId).executeTakeFirst())) throw notFound()
    throw new AppError(409, 'CHECKIN_LIST_IN_USE')
  }
}
