// Coupons and promotion codes of an event (docs/ticketing.md, "Coupons"). `used` changes only by
// the conditional update of orders/create.ts (used + 1 <= max_uses) and is given back on release.
import type { AppContext } from '../../context'
import { isUniqueViolation } from '../../db/database'
import type { Db } from '../../db/database'
import { isoNow } from '../../db/types'
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
  maxUses: c.max_uses,
  used: c.used,
  validFrom: c.valid_from,
  validUntil: c.valid_until,
})

export const listCoupons = (db: Db, eventId: number) => db.selectFrom('coupon').selectAll().where('event_id', '=', eventId).orderBy('code').execute()

async function columns(db: Db, event: EventRow, input: CouponInput) {
  if (input.categoryId != null) {
    const c = await db.selectFrom('ticket_category').select('id').where('id', '=', input.categoryId).where('event_id', '=', event.id).executeTakeFirst()
    if (!c) throw fieldError([{ field: 'categoryId', errorType: 'INVALID' }])
  }
  return {
    code: input.code,
    value_type: input.valueType,
    reduction: input.reduction,
    category_id: input.categoryId,
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
