// The organiser's seating plan (manage mode): read, save as a whole (the editor keeps undo/redo and
// sends the plan), copy from another event, block chairs, occupancy. A chair that holds places
// cannot be deleted or shrunk below what it holds; nothing of a refused save is written.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { bool, isoNow } from '../../db/types'
import { AppError, fieldError, notFound } from '../../shared/errors'
import { areaDto, chairDto, priceCategoryDto } from './dto'
import { MAX_CHAIRS_PER_EVENT, type SeatingPlanInput } from './model'
import type { SeatingChairRow } from './seating.table'

async function eventOfAgency(db: Db, eventId: number, agencyId: number) {
  const e = await db.selectFrom('event').select(['id', 'agency_id']).where('id', '=', eventId).where('agency_id', '=', agencyId).where('status', '!=', 'DELETED').executeTakeFirst()
  if (!e) throw notFound()
  return e
}

export async function readPlan(db: Db, eventId: number) {
  const [categories, areas, chairs] = await Promise.all([
    db.selectFrom('seating_price_category').selectAll().where('event_id', '=', eventId).orderBy('sort').orderBy('id').execute(),
    db.selectFrom('seating_area').selectAll().where('event_id', '=', eventId).orderBy('sort').orderBy('id').execute(),
    db.selectFrom('seating_chair').selectAll().where('event_id', '=', eventId).orderBy('id').execute(),
  ])
  const cats = new Map(categories.map((c) => [c.id, priceCategoryDto(c)]))
  return {
    priceCategories: categories.map(priceCategoryDto),
    areas: areas.map((a) => ({ ...areaDto(a), chairs: chairs.filter((c) => c.area_id === a.id).map((c) => chairDto(c, cats)) })),
  }
}

/**
 * The organiser's plan with `unlinkedPriceCategories`: on an event that sells tickets, the names of
 * the price categories some chair uses that name no ticket category. While there is one, no ticket
 * is sold (SEATING_NOT_LINKED, seating/orders.ts); the editor and the tickets tab say so.
 */
export async function organiserPlan(db: Db, eventId: number) {
  const [plan, event] = await Promise.all([readPlan(db, eventId), db.selectFrom('event').select('is_paid').where('id', '=', eventId).executeTakeFirstOrThrow()])
  const used = new Set(plan.areas.flatMap((a) => a.chairs.map((c) => c.priceCategory?.id)))
  const unlinked = bool(event.is_paid) ? plan.priceCategories.filter((p) => p.ticketCategoryId == null && used.has(p.id)).map((p) => p.displayName) : []
  return { ...plan, unlinkedPriceCategories: unlinked }
}

export async function getPlan(ctx: AppContext, agencyId: number, eventId: number) {
  await eventOfAgency(ctx.db, eventId, agencyId)
  return organiserPlan(ctx.db, eventId)
}

const chairValues = (c: SeatingPlanInput['areas'][number]['chairs'][number], categoryId: number | null) => ({
  label: c.label,
  price_category_id: categoryId,
  view_type: c.viewType,
  percent_x: c.percentX,
  percent_y: c.percentY,
  percent_width: c.percentWidth,
  percent_height: c.percentHeight,
  love_chair: c.options.includes('LOVE_CHAIR'),
  disabled_chair: c.options.includes('DISABLED_CHAIR'),
  blocked: c.status === 'BLOCKED',
  places: c.places,
  min_amount: c.minAmount,
  max_amount: c.maxAmount ?? c.places,
})

/** Saves the whole plan in one transaction (ids of another event's objects are refused as unknown). */
export async function savePlan(ctx: AppContext, agencyId: number, eventId: number, input: SeatingPlanInput) {
  await eventOfAgency(ctx.db, eventId, agencyId)
  const total = input.areas.reduce((s, a) => s + a.chairs.length, 0)
  if (total > MAX_CHAIRS_PER_EVENT) throw fieldError([{ field: 'areas', errorType: 'TOO_MANY' }])
  const keys = new Set(input.priceCategories.map((p) => p.key))
  if (keys.size !== input.priceCategories.length) throw fieldError([{ field: 'priceCategories', errorType: 'DUPLICATE' }])
  input.areas.forEach((a, ai) =>
    a.chairs.forEach((c, ci) => {
      if (c.priceCategory !== null && !keys.has(c.priceCategory)) throw fieldError([{ field: `areas.${ai}.chairs.${ci}.priceCategory`, errorType: 'INVALID' }])
    }),
  )
  // a price category prices its chairs by a ticket category of this event only
  const ticketIds = [...new Set(input.priceCategories.map((p) => p.ticketCategoryId).filter((x): x is number => x != null))]
  if (ticketIds.length) {
    const found = await ctx.db.selectFrom('ticket_category').select('id').where('id', 'in', ticketIds).where('event_id', '=', eventId).execute()
    const known = new Set(found.map((f) => f.id))
    const i = input.priceCategories.findIndex((p) => p.ticketCategoryId != null && !known.has(p.ticketCategoryId))
    if (i >= 0) throw fieldError([{ field: `priceCategories.${i}.ticketCategoryId`, errorType: 'INVALID' }])
  }
  if (input.areas.some((a) => a.areaImage !== null)) {
    const ids = [...new Set(input.areas.map((a) => a.areaImage).filter((x): x is number => x !== null))]
    const found = await ctx.db.selectFrom('asset').select('id').where('id', 'in', ids).where('agency_id', '=', agencyId).execute()
    if (found.length !== ids.length) throw fieldError([{ field: 'areas.areaImage', errorType: 'INVALID' }])
  }
  await ctx.db.transaction().execute(async (trx) => {
    // price categories
    const oldCats = await trx.selectFrom('seating_price_category').select('id').where('event_id', '=', eventId).execute()
    const catIdOfKey = new Map<string, number>()
    const keptCats = new Set<number>()
    for (const [i, p] of input.priceCategories.entries()) {
      const values = { display_name: p.displayName, color: p.color.toLowerCase(), ticket_category_id: p.ticketCategoryId, sort: i }
      if (p.id !== undefined) {
        if (!oldCats.some((o) => o.id === p.id)) throw fieldError([{ field: `priceCategories.${i}.id`, errorType: 'INVALID' }])
        await trx.updateTable('seating_price_category').set(values).where('id', '=', p.id).execute()
        catIdOfKey.set(p.key, p.id)
        keptCats.add(p.id)
      } else {
        const r = await trx.insertInto('seating_price_category').values({ event_id: eventId, ...values }).returning('id').executeTakeFirstOrThrow()
        catIdOfKey.set(p.key, r.id)
      }
    }
    // areas and chairs
    const oldAreas = await trx.selectFrom('seating_area').select('id').where('event_id', '=', eventId).execute()
    const oldChairs = await trx.selectFrom('seating_chair').selectAll().where('event_id', '=', eventId).execute()
    const chairById = new Map(oldChairs.map((c) => [c.id, c]))
    const keptAreas = new Set<number>()
    const keptChairs = new Set<number>()
    for (const [ai, a] of input.areas.entries()) {
      const values = { display_name: a.displayName, width: a.width, height: a.height, image_asset_id: a.areaImage, sort: ai }
      let areaId: number
      if (a.id !== undefined) {
        if (!oldAreas.some((o) => o.id === a.id)) throw fieldError([{ field: `areas.${ai}.id`, errorType: 'INVALID' }])
        await trx.updateTable('seating_area').set(values).where('id', '=', a.id).execute()
        areaId = a.id
      } else areaId = (await trx.insertInto('seating_area').values({ event_id: eventId, ...values }).returning('id').executeTakeFirstOrThrow()).id
      keptAreas.add(areaId)
      const fresh: Array<ReturnType<typeof chairValues> & { area_id: number; event_id: number }> = []
      for (const [ci, c] of a.chairs.entries()) {
        const v = chairValues(c, c.priceCategory === null ? null : catIdOfKey.get(c.priceCategory)!)
        if (c.id === undefined) {
          fresh.push({ ...v, area_id: areaId, event_id: eventId })
          continue
        }
        const old = chairById.get(c.id)
        if (!old || keptChairs.has(c.id)) throw fieldError([{ field: `areas.${ai}.chairs.${ci}.id`, errorType: 'INVALID' }])
        if (v.places < old.taken) throw new AppError(409, 'SEATING_CHAIR_IN_USE', { fields: [{ field: `areas.${ai}.chairs.${ci}.places`, errorType: 'SEATING_CHAIR_IN_USE' }], params: { label: old.label } })
        keptChairs.add(c.id)
        if (changed(old, v, areaId)) {
          // the conditional keeps a concurrent reservation from being squeezed out
          const r = await trx
            .updateTable('seating_chair')
            .set({ ...v, area_id: areaId })
            .where('id', '=', c.id)
            .where('taken', '<=', v.places)
            .executeTakeFirst()
          if (Number(r.numUpdatedRows) !== 1) throw new AppError(409, 'SEATING_CHAIR_IN_USE', { params: { label: old.label } })
        }
      }
      for (let i = 0; i < fresh.length; i += 500) await trx.insertInto('seating_chair').values(fresh.slice(i, i + 500)).execute()
    }
    const gone = oldChairs.filter((c) => !keptChairs.has(c.id))
    const inUse = gone.find((c) => c.taken > 0)
    if (inUse) throw new AppError(409, 'SEATING_CHAIR_IN_USE', { params: { label: inUse.label } })
    for (let i = 0; i < gone.length; i += 500) {
      const ids = gone.slice(i, i + 500).map((c) => c.id)
      const r = await trx.deleteFrom('seating_chair').where('id', 'in', ids).where('taken', '=', 0).executeTakeFirst()
      if (Number(r.numDeletedRows) !== ids.length) throw new AppError(409, 'SEATING_CHAIR_IN_USE', { params: { label: '' } })
    }
    const goneAreas = oldAreas.filter((a) => !keptAreas.has(a.id)).map((a) => a.id)
    if (goneAreas.length) await trx.deleteFrom('seating_area').where('id', 'in', goneAreas).execute()
    const goneCats = oldCats.filter((c) => !keptCats.has(c.id)).map((c) => c.id)
    if (goneCats.length) await trx.deleteFrom('seating_price_category').where('id', 'in', goneCats).execute()
  })
  return organiserPlan(ctx.db, eventId)
}

function changed(old: SeatingChairRow, v: ReturnType<typeof chairValues>, areaId: number): boolean {
  return (
    old.area_id !== areaId ||
    old.label !== v.label ||
    old.price_category_id !== v.price_category_id ||
    old.view_type !== v.view_type ||
    old.percent_x !== v.percent_x ||
    old.percent_y !== v.percent_y ||
    old.percent_width !== v.percent_width ||
    old.percent_height !== v.percent_height ||
    bool(old.love_chair) !== v.love_chair ||
    bool(old.disabled_chair) !== v.disabled_chair ||
    bool(old.blocked) !== v.blocked ||
    old.places !== v.places ||
    old.min_amount !== v.min_amount ||
    old.max_amount !== v.max_amount
  )
}

/** Copies another event's plan of the same agency (nothing taken or reserved comes along). */
export async function copyPlan(ctx: AppContext, agencyId: number, eventId: number, fromEventId: number) {
  await eventOfAgency(ctx.db, fromEventId, agencyId)
  const plan = await readPlan(ctx.db, fromEventId)
  const current = await readPlan(ctx.db, eventId)
  if (current.areas.some((a) => a.chairs.some((c) => c.freeChairs < c.places && c.status !== 'BLOCKED'))) throw new AppError(409, 'SEATING_CHAIR_IN_USE', { params: { label: '' } })
  return savePlan(ctx, agencyId, eventId, {
    priceCategories: plan.priceCategories.map((p) => ({ key: `c${p.id}`, displayName: p.displayName, color: p.color, ticketCategoryId: null })),
    areas: plan.areas.map((a) => ({
      displayName: a.displayName,
      width: a.width,
      height: a.height,
      areaImage: a.areaImage,
      chairs: a.chairs.map((c) => ({
        label: c.label,
        priceCategory: c.priceCategory ? `c${c.priceCategory.id}` : null,
        viewType: c.viewType,
        percentX: c.percentX,
        percentY: c.percentY,
        percentWidth: c.percentWidth,
        percentHeight: c.percentHeight,
        options: c.options as Array<'LOVE_CHAIR' | 'DISABLED_CHAIR'>,
        status: c.status,
        places: c.places,
        minAmount: c.minAmount,
        maxAmount: c.maxAmount,
      })),
    })),
  })
}

/** Manage mode: a chair toggles blocked (a blocked chair keeps what it already holds). */
export async function setBlocked(ctx: AppContext, agencyId: number, eventId: number, chairId: number, blocked: boolean) {
  await eventOfAgency(ctx.db, eventId, agencyId)
  const r = await ctx.db.updateTable('seating_chair').set({ blocked }).where('id', '=', chairId).where('event_id', '=', eventId).executeTakeFirst()
  if (Number(r.numUpdatedRows) !== 1) throw notFound()
  return { id: chairId, status: blocked ? 'BLOCKED' : null }
}

/** Taken, reserved, blocked and free places per price category (null: chairs without one). */
export async function occupancy(ctx: AppContext, agencyId: number, eventId: number) {
  await eventOfAgency(ctx.db, eventId, agencyId)
  const now = isoNow(ctx.clock.now())
  const [chairs, holds, cats] = await Promise.all([
    ctx.db.selectFrom('seating_chair').select(['id', 'price_category_id', 'places', 'taken', 'blocked']).where('event_id', '=', eventId).execute(),
    ctx.db
      .selectFrom('chair_reservation')
      .select(['chair_id', 'amount', 'fixed', 'expires_at'])
      .where('event_id', '=', eventId)
      .where((eb) => eb.or([eb('fixed', '=', true as never), eb('expires_at', '>', now)]))
      .execute(),
    ctx.db.selectFrom('seating_price_category').selectAll().where('event_id', '=', eventId).orderBy('sort').execute(),
  ])
  const byChair = new Map<number, { taken: number; reserved: number }>()
  for (const h of holds) {
    const x = byChair.get(h.chair_id) ?? { taken: 0, reserved: 0 }
    if (bool(h.fixed)) x.taken += h.amount
    else x.reserved += h.amount
    byChair.set(h.chair_id, x)
  }
  const rows = new Map<number | null, { places: number; taken: number; reserved: number; blocked: number; free: number }>()
  for (const c of chairs) {
    const r = rows.get(c.price_category_id) ?? { places: 0, taken: 0, reserved: 0, blocked: 0, free: 0 }
    const h = byChair.get(c.id) ?? { taken: 0, reserved: 0 }
    r.places += c.places
    r.taken += h.taken
    r.reserved += h.reserved
    if (bool(c.blocked)) r.blocked += c.places - h.taken - h.reserved
    else r.free += Math.max(0, c.places - c.taken)
    rows.set(c.price_category_id, r)
  }
  return {
    categories: [...cats.map((c) => ({ priceCategory: priceCategoryDto(c), ...(rows.get(c.id) ?? { places: 0, taken: 0, reserved: 0, blocked: 0, free: 0 }) })), ...(rows.has(null) ? [{ priceCategory: null, ...rows.get(null)! }] : [])],
  }
}
