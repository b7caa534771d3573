// Coupons and promotion codes of an event (docs/ticketing.md, "Coupons"). `used` changes only by
// the conditional update of orders/create.ts (used + 1 <= max_uses) and is given back on release.
import type { AppContext } from '../../context'
import { isUniqueViolation } from '../../db/database'
import type { Db } from '../../db/database'
import { fromJson, isoNow, toJson } from '../../db/types'
import { AppError, fieldError, notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import type { CouponInput } from './model'
import type { CouponRow } from './ticketing.table'

export const couponDto = (c: CouponRow) => ({
  id: c.id,
  eventId: c.event_id,
  code: c.code,
  valueType: c.value_type,
  reduction: c.reduction,
  categoryId: c.category_id,
  categoryIds: couponCategoryIds(c),
  maxUses: c.max_uses,
  used: c.used,
  validFrom: c.valid_from,
  validUntil: c.valid_until,
})

export const listCoupons = (db: Db, eventId: number) => db.selectFrom('coupon').selectAll().where('event_id', '=', eventId).orderBy('code').execute()

/** The categories a coupon reduces; empty = the whole order (docs/ticketing.md, "Coupons"). */
export const couponCategoryIds = (c: Pick<CouponRow, 'category_id' | 'category_ids'>): number[] =>
  c.category_ids != null ? fromJson<number[]>(c.category_ids, []) : c.category_id != null ? [c.category_id] : []

/** The scope columns of a coupon, each named category checked to be the event's. */
export async function couponScope(db: Db, event: EventRow, ids: number[], field = 'categoryIds') {
  if (ids.length) {
    const found = await db.selectFrom('ticket_category').select('id').where('id', 'in', ids).where('event_id', '=', event.id).execute()
    if (found.length !== ids.length) throw fieldError([{ field, errorType: 'INVALID' }])
  }
  return { category_id: ids[0] ?? null, category_ids: ids.length > 1 ? toJson(ids) : null }
}

/** A deleted category leaves the coupons' lists; one bound to it alone is deleted with it (the key's cascade). */
export async function dropCouponCategory(trx: Db, eventId: number, categoryId: number) {
  const rows = await trx.selectFrom('coupon').select(['id', 'category_id', 'category_ids']).where('event_id', '=', eventId).where('category_ids', 'is not', null).execute()
  for (const r of rows) {
    const ids = couponCategoryIds(r)
    if (!ids.includes(categoryId)) continue
    const rest = ids.filter((x) => x !== categoryId)
    if (rest.length) await trx.updateTable('coupon').set({ category_id: rest[0], category_ids: rest.length > 1 ? toJson(rest) : null }).where('id', '=', r.id).execute()
  }
}

async function columns(db: Db, event: EventRow, input: CouponInput) {
  return {
    code: input.code,
    value_type: input.valueType,
    reduction: input.reduction,
    ...(await couponScope(db, event, input.categoryIds, input.scopeField)),
    max_uses: input.maxUses,
    valid_from: input.validFrom,
    valid_until: input.validUntil,
  }
}

const taken = (e: unknown) => {
  if (isUniqueViolation(e, 'coupon')) throw new AppError(409, 'COUPON_CODE_TAKEN', { fields: [{ field: 'code', errorType: 'COUPON_CODE_TAKEN' }] })
  throw e
}

export async function createCoupon(ctx: AppContext, event: EventRow, input: CouponInput) {
  const cols = await columns(ctx.db, event, input)
  return ctx.db
    .insertInto('coupon')
    .values({ event_id: event.id, ...cols, created_at: isoNow(ctx.clock.now()) })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch(taken)
}

export async function updateCoupon(ctx: AppContext, event: EventRow, id: number, input: CouponInput) {
  const cols = await columns(ctx.db, event, input)
  const row = await ctx.db.updateTable('coupon').set(cols).where('id', '=', id).where('event_id', '=', event.id).returningAll().executeTakeFirst().catch(taken)
  if (!row) throw notFound()
  return row
}

export async function deleteCoupon(ctx: AppContext, event: EventRow, id: number) {
  const r = await ctx.db.deleteFrom('coupon').where('id', '=', id).where('event_id', '=', event.id).executeTakeFirst()
  if (Number(r.numDeletedRows) !== 1) throw notFound()
}

/** The coupon a guest names, if it can be redeemed now (use limit is checked again when taken). */
export async function redeemableCoupon(db: Db, eventId: number, code: string, now: Date): Promise<CouponRow | null> {
  const c = await db.selectFrom('coupon').selectAll().where('event_id', '=', eventId).where('code', '=', code.trim().toUpperCase()).executeTakeFirst()
  if (!c) return null
  const t = now.toISOString()
  if ((c.valid_from && c.valid_from > t) || (c.valid_until && c.valid_until < t)) return null
  if (c.max_uses != null && c.used >= c.max_uses) return null
  return c
}
