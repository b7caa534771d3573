// Tags and campaigns of an agency, and their assignment to events and guests.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { fieldError, notFound } from '../../shared/errors'
import { splitGroupName } from './model'
import type { LabelRow } from './tags.table'

export type LabelTable = 'tag' | 'campaign'

export function labelDto(r: LabelRow) {
  return { id: r.id, displayName: r.display_name, group: r.group_name, name: r.name, type: r.type }
}

/** Creates a tag/campaign, or returns the existing one whose name differs only in case. */
export async function findOrCreateLabel(db: Db, table: LabelTable, agencyId: number, displayName: string, type = 'DEFAULT'): Promise<{ row: LabelRow; created: boolean }> {
  const name = displayName.trim()
  const key = name.toLowerCase()
  const existing = await db.selectFrom(table).selectAll().where('agency_id', '=', agencyId).where('type', '=', type).where('name_key', '=', key).executeTakeFirst()
  if (existing) return { row: existing, created: false }
  const { group, name: short } = splitGroupName(name)
  // A concurrent create of the same name hits the unique index; then the winner's row is the answer.
  const inserted = await db
    .insertInto(table)
    .values({ agency_id: agencyId, type, display_name: name, group_name: group, name: short, name_key: key })
    .onConflict((oc) => oc.columns(['agency_id', 'type', 'name_key']).doNothing())
    .returningAll()
    .executeTakeFirst()
  if (inserted) return { row: inserted, created: true }
  const row = await db.selectFrom(table).selectAll().where('agency_id', '=', agencyId).where('type', '=', type).where('name_key', '=', key).executeTakeFirstOrThrow()
  return { row, created: false }
}

export async function searchLabels(db: Db, table: LabelTable, agencyId: number, o: { types?: string[]; search?: string; page: number; perPage: number }) {
  let q = db.selectFrom(table).where('agency_id', '=', agencyId)
  if (o.types?.length) q = q.where('type', 'in', o.types)
  if (o.search) q = q.where('name_key', 'like', `%${o.search.toLowerCase().replace(/[%_]/g, '')}%`)
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('name_key').limit(o.perPage).offset(o.page * o.perPage).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  return { items: rows.map(labelDto), total: Number(total?.n ?? 0), page: o.page, perPage: o.perPage }
}

export async function labelOfAgency(db: Db, table: LabelTable, agencyId: number, id: number): Promise<LabelRow> {
  const row = await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst()
  if (!row || row.agency_id !== agencyId) throw notFound()
  return row
}

export async function renameLabel(ctx: AppContext, table: LabelTable, agencyId: number, id: number, displayName: string) {
  const row = await labelOfAgency(ctx.db, table, agencyId, id)
  const name = displayName.trim()
  const key = name.toLowerCase()
  const clash = await ctx.db.selectFrom(table).select('id').where('agency_id', '=', agencyId).where('type', '=', row.type).where('name_key', '=', key).where('id', '!=', id).executeTakeFirst()
  if (clash) throw fieldError([{ field: 'displayName', errorType: 'NAME_TAKEN' }])
  const { group, name: short } = splitGroupName(name)
  const updated = await ctx.db.updateTable(table).set({ display_name: name, group_name: group, name: short, name_key: key }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
  return labelDto(updated)
}

export async function deleteLabel(ctx: AppContext, table: LabelTable, agencyId: number, id: number) {
  await labelOfAgency(ctx.db, table, agencyId, id)
  // assignments go with the row (ON DELETE CASCADE)
  await ctx.db.deleteFrom(table).where('id', '=', id).execute()
}

/** Refuses ids that are not the agency's (FIELD_ERROR on the field). */
export async function assertLabelsOfAgency(db: Db, table: LabelTable, agencyId: number, ids: number[], field: string) {
  const unique = [...new Set(ids)]
  if (!unique.length) return unique
  const rows = await db.selectFrom(table).select('id').where('agency_id', '=', agencyId).where('id', 'in', unique).execute()
  if (rows.length !== unique.length) throw fieldError([{ field, errorType: 'INVALID' }])
  return unique
}

export async function setEventLabels(trx: Db, eventId: number, tagIds: number[], campaignIds: number[]) {
  await trx.deleteFrom('event_tag').where('event_id', '=', eventId).execute()
  await trx.deleteFrom('event_campaign').where('event_id', '=', eventId).execute()
  if (tagIds.length) await trx.insertInto('event_tag').values(tagIds.map((tag_id) => ({ event_id: eventId, tag_id }))).execute()
  if (campaignIds.length) await trx.insertInto('event_campaign').values(campaignIds.map((campaign_id) => ({ event_id: eventId, campaign_id }))).execute()
}

export async function setVisitorLabels(trx: Db, visitorId: number, tagIds: number[], campaignIds: number[]) {
  await trx.deleteFrom('visitor_tag').where('visitor_id', '=', visitorId).execute()
  await trx.deleteFrom('visitor_campaign').where('visitor_id', '=', visitorId).execute()
  if (tagIds.length) await trx.insertInto('visitor_tag').values(tagIds.map((tag_id) => ({ visitor_id: visitorId, tag_id }))).execute()
  if (campaignIds.length) await trx.insertInto('visitor_campaign').values(campaignIds.map((campaign_id) => ({ visitor_id: visitorId, campaign_id }))).execute()
}

type Label = ReturnType<typeof labelDto>

/** Tags and campaigns of many events at once (one query each). */
export async function labelsOfEvents(db: Db, eventIds: number[]): Promise<Map<number, { tags: Label[]; campaigns: Label[] }>> {
  const out = new Map<number, { tags: Label[]; campaigns: Label[] }>()
  for (const id of eventIds) out.set(id, { tags: [], campaigns: [] })
  if (!eventIds.length) return out
  const [tags, campaigns] = await Promise.all([
    db.selectFrom('event_tag as x').innerJoin('tag as l', 'l.id', 'x.tag_id').selectAll('l').select('x.event_id as owner').where('x.event_id', 'in', eventIds).orderBy('l.name_key').execute(),
    db.selectFrom('event_campaign as x').innerJoin('campaign as l', 'l.id', 'x.campaign_id').selectAll('l').select('x.event_id as owner').where('x.event_id', 'in', eventIds).orderBy('l.name_key').execute(),
  ])
  for (const t of tags) out.get(t.owner)!.tags.push(labelDto(t))
  for (const c of campaigns) out.get(c.owner)!.campaigns.push(labelDto(c))
  return out
}

export async function labelsOfVisitors(db: Db, visitorIds: number[]): Promise<Map<number, { tags: Label[]; campaigns: Label[] }>> {
  const out = new Map<number, { tags: Label[]; campaigns: Label[] }>()
  for (const id of visitorIds) out.set(id, { tags: [], campaigns: [] })
  if (!visitorIds.length) return out
  const [tags, campaigns] = await Promise.all([
    db.selectFrom('visitor_tag as x').innerJoin('tag as l', 'l.id', 'x.tag_id').selectAll('l').select('x.visitor_id as owner').where('x.visitor_id', 'in', visitorIds).orderBy('l.name_key').execute(),
    db.selectFrom('visitor_campaign as x').innerJoin('campaign as l', 'l.id', 'x.campaign_id').selectAll('l').select('x.visitor_id as owner').where('x.visitor_id', 'in', visitorIds).orderBy('l.name_key').execute(),
  ])
  for (const t of tags) out.get(t.owner)!.tags.push(labelDto(t))
  for (const c of campaigns) out.get(c.owner)!.campaigns.push(labelDto(c))
  return out
}
