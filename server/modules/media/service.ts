// The media gallery (docs/media.md): an agency's categories and image entries. Every id a request
// names is the caller's agency's (else 404 for a path id, a field error for a body id); entries
// outside their validity window are not offered to the picker and cannot be picked.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { isoNow } from '../../db/types'
import { AppError, fieldError, notFound } from '../../shared/errors'
import type { MediaCategoryRow, MediaEntryRow } from './media.table'

export interface EntryValues {
  displayName: string
  copyright: string | null
  note: string | null
  validFrom?: string | null
  validUntil?: string | null
}

const iso = (v: string | null | undefined) => (v ? new Date(v).toISOString() : null)

export function isValidAt(e: Pick<MediaEntryRow, 'valid_from' | 'valid_until'>, now: Date): boolean {
  const t = now.getTime()
  return (!e.valid_from || new Date(e.valid_from).getTime() <= t) && (!e.valid_until || new Date(e.valid_until).getTime() >= t)
}

type EntryWithAsset = MediaEntryRow & { original_file_name: string | null; mime_type: string | null }

export function entryDto(e: EntryWithAsset, now: Date) {
  const image = e.mime_type?.startsWith('image/') ?? false
  return {
    id: e.id,
    categoryId: e.category_id,
    assetId: e.asset_id,
    asset: { id: e.asset_id, defaultImagePath: image ? `/proxy/api/asset/${e.asset_id}?dimension=Regular_1000` : null, originalFileName: e.original_file_name },
    lastModified: e.last_modified,
    displayName: e.display_name,
    copyright: e.copyright,
    note: e.note,
    validFrom: e.valid_from,
    validUntil: e.valid_until,
    /** whether the picker offers it now */
    valid: isValidAt(e, now),
  }
}

const categoryDto = (c: MediaCategoryRow & { entry_count: number | string | null }) => ({ id: c.id, displayName: c.display_name, entryCount: Number(c.entry_count ?? 0) })

/** The agency's categories with their entry counts (the spec's galleries with entryCount), by name. */
export async function listCategories(db: Db, agencyId: number) {
  const rows = await db
    .selectFrom('media_category as c')
    .leftJoin('media_entry as e', 'e.category_id', 'c.id')
    .select(['c.id', 'c.agency_id', 'c.display_name', 'c.created_at'])
    .select((eb) => eb.fn.count<number>('e.id').as('entry_count'))
    .where('c.agency_id', '=', agencyId)
    .groupBy(['c.id', 'c.agency_id', 'c.display_name', 'c.created_at'])
    .orderBy('c.display_name')
    .orderBy('c.id')
    .execute()
  return { items: rows.map(categoryDto) }
}

async function ownCategory(db: Db, agencyId: number, id: number): Promise<MediaCategoryRow | undefined> {
  return db.selectFrom('media_category').selectAll().where('id', '=', id).where('agency_id', '=', agencyId).executeTakeFirst()
}

export async function createCategory(db: Db, agencyId: number, displayName: string) {
  const row = await db.insertInto('media_category').values({ agency_id: agencyId, display_name: displayName }).returningAll().executeTakeFirstOrThrow()
  return categoryDto({ ...row, entry_count: 0 })
}

export async function renameCategory(db: Db, agencyId: number, id: number, displayName: string) {
  const r = await db.updateTable('media_category').set({ display_name: displayName }).where('id', '=', id).where('agency_id', '=', agencyId).executeTakeFirst()
  if (!Number(r.numUpdatedRows)) throw notFound()
  return (await listCategories(db, agencyId)).items.find((c) => c.id === id)!
}

/** Deletes a category and its entries (the images stay: an event may show one). */
export async function deleteCategory(db: Db, agencyId: number, id: number) {
  await db.transaction().execute(async (trx) => {
    if (!(await ownCategory(trx, agencyId, id))) throw notFound()
    await trx.deleteFrom('media_entry').where('category_id', '=', id).where('agency_id', '=', agencyId).execute()
    await trx.deleteFrom('media_category').where('id', '=', id).where('agency_id', '=', agencyId).execute()
  })
}

const entryQuery = (db: Db) =>
  db.selectFrom('media_entry as e').leftJoin('asset as a', 'a.id', 'e.asset_id').selectAll('e').select(['a.original_file_name', 'a.mime_type'])

/** One page of a category's entries, newest first; validOnly: those valid now (the picker). */
export async function searchEntries(ctx: AppContext, agencyId: number, q: { categoryId: number; validOnly: boolean; page: number; perPage: number }) {
  if (!(await ownCategory(ctx.db, agencyId, q.categoryId))) throw notFound()
  const nowIso = isoNow(ctx.clock.now())
  let base = ctx.db.selectFrom('media_entry as e').where('e.category_id', '=', q.categoryId).where('e.agency_id', '=', agencyId)
  if (q.validOnly)
    base = base
      .where((eb) => eb.or([eb('e.valid_from', 'is', null), eb('e.valid_from', '<=', nowIso)]))
      .where((eb) => eb.or([eb('e.valid_until', 'is', null), eb('e.valid_until', '>=', nowIso)]))
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0)
  const ids = (await base.select('e.id').orderBy('e.last_modified', 'desc').orderBy('e.id', 'desc').limit(q.perPage).offset(q.page * q.perPage).execute()).map((r) => r.id)
  const rows = ids.length ? await entryQuery(ctx.db).where('e.id', 'in', ids).execute() : []
  const byId = new Map(rows.map((r) => [r.id, r]))
  const now = ctx.clock.now()
  return { items: ids.map((id) => entryDto(byId.get(id)!, now)), total, page: q.page, perPage: q.perPage }
}

/** An asset the agency may put in its gallery: its own, an image, not a guest's upload. */
async function assertGalleryImage(db: Db, agencyId: number, assetId: number) {
  const a = await db.selectFrom('asset').select(['agency_id', 'mime_type', 'owner_identification', 'visitor_id']).where('id', '=', assetId).executeTakeFirst()
  if (!a || a.agency_id !== agencyId || a.owner_identification !== null || a.visitor_id !== null || !a.mime_type.startsWith('image/')) throw fieldError([{ field: 'assetId', errorType: 'INVALID' }])
}

async function assertCategory(db: Db, agencyId: number, categoryId: number) {
  if (!(await ownCategory(db, agencyId, categoryId))) throw fieldError([{ field: 'categoryId', errorType: 'INVALID' }])
}

async function entryById(ctx: AppContext, db: Db, agencyId: number, id: number) {
  const e = await entryQuery(db).where('e.id', '=', id).where('e.agency_id', '=', agencyId).executeTakeFirst()
  if (!e) throw notFound()
  return e
}

/** Registers an uploaded image in a category (the upload target "media gallery image"). */
export async function createEntry(ctx: AppContext, agencyId: number, input: EntryValues & { categoryId: number; assetId: number }) {
  return ctx.db.transaction().execute(async (trx) => {
    await assertCategory(trx, agencyId, input.categoryId)
    await assertGalleryImage(trx, agencyId, input.assetId)
    const row = await trx
      .insertInto('media_entry')
      .values({
        agency_id: agencyId,
        category_id: input.categoryId,
        asset_id: input.assetId,
        display_name: input.displayName,
        copyright: input.copyright,
        note: input.note,
        valid_from: iso(input.validFrom),
        valid_until: iso(input.validUntil),
        last_modified: isoNow(ctx.clock.now()),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return entryDto(await entryById(ctx, trx, agencyId, row.id), ctx.clock.now())
  })
}

export async function updateEntry(ctx: AppContext, agencyId: number, id: number, input: EntryValues & { categoryId?: number }) {
  return ctx.db.transaction().execute(async (trx) => {
    await entryById(ctx, trx, agencyId, id)
    if (input.categoryId !== undefined) await assertCategory(trx, agencyId, input.categoryId)
    await trx
      .updateTable('media_entry')
      .set({
        ...(input.categoryId !== undefined ? { category_id: input.categoryId } : {}),
        display_name: input.displayName,
        copyright: input.copyright,
        note: input.note,
        valid_from: iso(input.validFrom),
        valid_until: iso(input.validUntil),
        last_modified: isoNow(ctx.clock.now()),
      })
      .where('id', '=', id)
      .where('agency_id', '=', agencyId)
      .execute()
    return entryDto(await entryById(ctx, trx, agencyId, id), ctx.clock.now())
  })
}

export async function deleteEntry(db: Db, agencyId: number, id: number) {
  const r = await db.deleteFrom('media_entry').where('id', '=', id).where('agency_id', '=', agencyId).executeTakeFirst()
  if (!Number(r.numDeletedRows)) throw notFound()
}

/** Picking an entry (an event's or a mail's image): the asset, only while the entry is valid. */
export async function pickEntry(ctx: AppContext, agencyId: number, id: number) {
  const e = await entryById(ctx, ctx.db, agencyId, id)
  const now = ctx.clock.now()
  if (!isValidAt(e, now)) throw new AppError(409, 'MEDIA_ENTRY_NOT_VALID')
  return entryDto(e, now)
}
