// Short links (docs/organiser.md): a short code that opens an event's public page and counts clicks.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { fromJson, isoNow, toJson } from '../../db/types'
import { AppError, notFound } from '../../shared/errors'
import type { AccountActor } from '../identity/auth'
import { eventOfAgency } from '../events/service'
import { assertLabelsOfAgency } from '../tags/service'
import type { ShortLinkRow } from './shortlinks.table'

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'
export function newShortCode(length = 6) {
  const bytes = new Uint8Array(length)
  crypto.getRandomValues(bytes)
  return [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('')
}

export function shortLinkDto(ctx: AppContext, r: ShortLinkRow & { event_name?: string }) {
  return {
    id: r.id,
    code: r.code,
    url: `${ctx.config.baseUrl}/s/${r.code}`,
    eventId: r.event_id,
    eventName: r.event_name ?? null,
    campaignId: r.campaign_id,
    tagIds: fromJson<number[]>(r.tag_ids, []),
    clicks: r.clicks,
    createdAt: r.created_at,
  }
}

export async function createShortLink(ctx: AppContext, actor: AccountActor, input: { eventId: number; code?: string | null; tagIds: number[]; campaignId?: number | null }) {
  const agencyId = actor.account.agency_id
  const event = await eventOfAgency(ctx, actor, input.eventId)
  const tags = await assertLabelsOfAgency(ctx.db, 'tag', agencyId, input.tagIds, 'tagIds')
  if (input.campaignId) await assertLabelsOfAgency(ctx.db, 'campaign', agencyId, [input.campaignId], 'campaignId')
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = input.code?.toLowerCase() ?? newShortCode()
    const row = await ctx.db
      .insertInto('short_link')
      .values({ agency_id: agencyId, event_id: event.id, code, campaign_id: input.campaignId ?? null, tag_ids: toJson(tags), created_by_account_id: actor.account.id, created_at: isoNow(ctx.clock.now()) })
      .onConflict((oc) => oc.column('code').doNothing())
      .returningAll()
      .executeTakeFirst()
    if (row) return shortLinkDto(ctx, { ...row, event_name: event.display_name })
    if (input.code) throw new AppError(409, 'SHORT_LINK_TAKEN', { fields: [{ field: 'code', errorType: 'SHORT_LINK_TAKEN' }] })
  }
  throw new AppError(500, 'INTERNAL_ERROR')
}

export async function searchShortLinks(ctx: AppContext, agencyId: number, s: { eventId?: number; search?: string }) {
  let q = ctx.db.selectFrom('short_link as s').innerJoin('event as e', 'e.id', 's.event_id').selectAll('s').select('e.display_name as event_name').where('s.agency_id', '=', agencyId)
  if (s.eventId) q = q.where('s.event_id', '=', s.eventId)
  if (s.search) q = q.where('s.code', 'like', `%${s.search.toLowerCase().replace(/[%_]/g, '')}%`)
  const rows = await q.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(1000).execute()
  return rows.map((r) => shortLinkDto(ctx, r))
}

/** The spec deletes "with code": the typed code must match, a confirmation against slips. */
export async function deleteShortLink(ctx: AppContext, agencyId: number, id: number, code: string) {
  const row = await ctx.db.selectFrom('short_link').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row || row.agency_id !== agencyId) throw notFound()
  if (row.code !== code.trim().toLowerCase()) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'code', errorType: 'CODE_MISMATCH' }] })
  await ctx.db.deleteFrom('short_link').where('id', '=', id).execute()
}

/** Counts the click and answers where to go, or null. */
export async function resolveShortLink(db: Db, code: string): Promise<{ eventId: number; code: string } | null> {
  const row = await db.selectFrom('short_link').select(['id', 'event_id', 'code']).where('code', '=', code.toLowerCase()).executeTakeFirst()
  if (!row) return null
  await db.updateTable('short_link').set((eb) => ({ clicks: eb('clicks', '+', 1) })).where('id', '=', row.id).execute()
  return { eventId: row.event_id, code: row.code }
}

/**
 * For the registration: attaches the short link's tags and campaign to a new registration, inside the
 * registration's transaction (call with the `sl` query value the public page received).
 */
export async function attributeShortLink(trx: Db, visitorId: number, eventId: number, code: string | null | undefined) {
  if (!code) return
  const row = await trx.selectFrom('short_link').selectAll().where('code', '=', code.toLowerCase()).where('event_id', '=', eventId).executeTakeFirst()
  if (!row) return
  const tags = fromJson<number[]>(row.tag_ids, [])
  if (tags.length) await trx.insertInto('visitor_tag').values(tags.map((tag_id) => ({ visitor_id: visitorId, tag_id }))).onConflict((oc) => oc.doNothing()).execute()
  if (row.campaign_id) await trx.insertInto('visitor_campaign').values({ visitor_id: visitorId, campaign_id: row.campaign_id }).onConflict((oc) => oc.doNothing()).execute()
}
