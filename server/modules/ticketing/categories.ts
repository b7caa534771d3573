// Ticket categories of an event (docs/ticketing.md, "Ticket categories"). An event is paid while it
// has at least one (event.is_paid, kept here in the same transaction). `sold` is only changed by
// the conditional updates of orders/create.ts and given back by orders/release.ts.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { fromJson, isoNow, toJson } from '../../db/types'
import { AppError, fieldError, notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import { onEventCopied } from '../events/hooks'
import { dropCouponCategory } from './coupons'
import type { CategoryInput } from './model'
import { validTaxCode } from './money'
import type { TicketCategoryRow } from './ticketing.table'

export function categoryDto(c: TicketCategoryRow) {
  return {
    id: c.id,
    eventId: c.event_id,
    displayName: c.display_name,
    translations: fromJson<Array<{ language: string; displayName: string }>>(c.translations, []),
    grossPrice: c.gross_price,
    taxCode: c.tax_code,
    quota: c.quota,
    sold: c.sold,
    available: c.quota == null ? null : Math.max(0, c.quota - c.sold),
    saleFrom: c.sale_from,
    saleUntil: c.sale_until,
    minPerOrder: c.min_per_order,
    maxPerOrder: c.max_per_order,
    sortOrder: c.sort_order,
    description: c.description,
    accessCode: c.access_code,
    hidden: c.access_code != null,
    requiresCategoryId: c.requires_category_id,
  }
}

export const listCategories = (db: Db, eventId: number) => db.selectFrom('ticket_category').selectAll().where('event_id', '=', eventId).orderBy('sort_order').orderBy('id').execute()

function columns(event: EventRow, input: CategoryInput) {
  if (!validTaxCode(event.currency, input.taxCode)) throw fieldError([{ field: 'taxCode', errorType: 'INVALID_TAX_CODE' }])
  return {
    display_name: input.displayName,
    translations: toJson(input.translations),
    gross_price: input.grossPrice,
    tax_code: input.taxCode,
    quota: input.quota,
    sale_from: input.saleFrom,
    sale_until: input.saleUntil,
    min_per_order: input.minPerOrder,
    max_per_order: input.maxPerOrder,
    sort_order: input.sortOrder,
    description: input.description,
    access_code: input.accessCode,
    requires_category_id: input.requiresCategoryId,
  }
}

/** A required category must be another one of the same event (docs/ticketing.md, "Selling rules"). */
async function checkRequired(db: Db, eventId: number, selfId: number | null, requiredId: number | null) {
  if (requiredId == null) return
  const r = requiredId === selfId ? null : await db.selectFrom('ticket_category').select('id').where('id', '=', requiredId).where('event_id', '=', eventId).executeTakeFirst()
  if (!r) throw fieldError([{ field: 'requiresCategoryId', errorType: 'INVALID' }])
}

/**
 * Keeps event.is_paid in step with the categories. Becoming paid fixes the e-mail field as
 * REQUIRED (spec §6: a paying guest gets tickets and invoices by mail); either change bumps the
 * form version the form caches key on.
 */
async function markPaid(trx: Db, eventId: number, at: string) {
  const n = await trx.selectFrom('ticket_category').select((eb) => eb.fn.countAll<number>().as('n')).where('event_id', '=', eventId).executeTakeFirstOrThrow()
  const paid = Number(n.n) > 0
  const changed = await trx
    .updateTable('event')
    .set({ is_paid: paid, updated_at: at })
    .where('id', '=', eventId)
    .where('is_paid', '=', !paid as unknown as 0) // a boolean bound; the column type reads 0/1 (db/types.ts)
    .executeTakeFirst()
  if (Number(changed.numUpdatedRows) !== 1) return
  // a form still at version 0 is the default one, materialised on first use (forms/service.ts)
  await trx.updateTable('event').set((eb) => ({ form_version: eb('form_version', '+', 1) })).where('id', '=', eventId).where('form_version', '>', 0).execute()
  if (paid) {
    await trx.updateTable('event_field').set({ appearance: 'REQUIRED', updated_at: at }).where('event_id', '=', eventId).where('default_field', '=', 'EMAIL').execute()
  }
}

export async function createCategory(ctx: AppContext, event: EventRow, input: CategoryInput) {
  const at = isoNow(ctx.clock.now())
  const cols = columns(event, input)
  await checkRequired(ctx.db, event.id, null, input.requiresCategoryId)
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('ticket_category')
      .values({ event_id: event.id, ...cols, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow()
    await markPaid(trx, event.id, at)
    return row
  })
}

export async function updateCategory(ctx: AppContext, event: EventRow, id: number, input: CategoryInput) {
  const at = isoNow(ctx.clock.now())
  const cols = columns(event, input)
  await checkRequired(ctx.db, event.id, id, input.requiresCategoryId)
  // the quota may not go below what is sold: checked in the statement itself (orders run concurrently)
  const row = await ctx.db
    .updateTable('ticket_category')
    .set({ ...cols, updated_at: at })
    .where('id', '=', id)
    .where('event_id', '=', event.id)
    .where((eb) => (cols.quota == null ? eb.val(true) : eb('sold', '<=', cols.quota)))
    .returningAll()
    .executeTakeFirst()
  if (row) return row
  const exists = await ctx.db.selectFrom('ticket_category').select('id').where('id', '=', id).where('event_id', '=', event.id).executeTakeFirst()
  if (!exists) throw notFound()
  throw new AppError(409, 'QUOTA_BELOW_SOLD', { fields: [{ field: 'quota', errorType: 'QUOTA_BELOW_SOLD' }] })
}

export async function deleteCategory(ctx: AppContext, event: EventRow, id: number) {
  const at = isoNow(ctx.clock.now())
  await ctx.db.transaction().execute(async (trx) => {
    const c = await trx.selectFrom('ticket_category').select(['id', 'sold']).where('id', '=', id).where('event_id', '=', event.id).executeTakeFirst()
    if (!c) throw notFound()
    const used = await trx.selectFrom('ticket_order_line').select('id').where('category_id', '=', id).limit(1).executeTakeFirst()
    if (used || c.sold > 0) throw new AppError(409, 'CATEGORY_HAS_ORDERS')
    // coupons bound to it lose it (one bound to it alone goes with it, the foreign key's cascade)
    await dropCouponCategory(trx, event.id, id)
    await trx.deleteFrom('ticket_category').where('id', '=', id).execute()
    // categories that needed this one are sold on their own from now on
    await trx.updateTable('ticket_category').set({ requires_category_id: null, updated_at: at }).where('event_id', '=', event.id).where('requires_category_id', '=', id).execute()
    // a seat plan's price category sold as this one is unlinked with it (in the same transaction, which
    // also moves the 'setup' counter): its chairs sell nothing until relinked (SEATING_NOT_LINKED)
    await trx.updateTable('seating_price_category').set({ ticket_category_id: null }).where('event_id', '=', event.id).where('ticket_category_id', '=', id).execute()
    await markPaid(trx, event.id, at)
  })
}

// A copied event gets the categories (nothing sold) and so stays paid, its coupons (unused, bound to
// the copied categories) and, within the agency, the payment methods it had enabled: the methods
// belong to the agency, the copy only names the same ones (their credentials stay where they are). A
// global preset of another agency comes without payment methods: its tickets tab says so and the copy
// cannot go online before one is chosen (event-rules.ts).
onEventCopied.push(async (ctx, trx, from, to) => {
  const rows = await listCategories(trx, from.id)
  const at = isoNow(ctx.clock.now())
  const ids = new Map<number, number>()
  for (const { id, event_id: _e, sold: _s, created_at: _c, updated_at: _u, ...rest } of rows) {
    const c = await trx.insertInto('ticket_category').values({ ...rest, event_id: to.id, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow()
    ids.set(id, c.id)
  }
  for (const r of rows) {
    if (r.requires_category_id != null) await trx.updateTable('ticket_category').set({ requires_category_id: ids.get(r.requires_category_id) ?? null }).where('id', '=', ids.get(r.id)!).execute()
  }
  const coupons = await trx.selectFrom('coupon').selectAll().where('event_id', '=', from.id).orderBy('id').execute()
  for (const { id: _id, event_id: _e, used: _u, created_at: _c, category_id, category_ids, ...rest } of coupons) {
    const list = category_ids == null ? null : fromJson<number[]>(category_ids, []).flatMap((x) => (ids.has(x) ? [ids.get(x)!] : []))
    await trx
      .insertInto('coupon')
      .values({ ...rest, event_id: to.id, category_id: category_id == null ? null : (ids.get(category_id) ?? null), category_ids: list == null ? null : toJson(list), created_at: at })
      .execute()
  }
  if (from.agencyId === to.agencyId) {
    const methods = await trx.selectFrom('event_payment_method').select('payment_method_id').where('event_id', '=', from.id).execute()
    if (methods.length) await trx.insertInto('event_payment_method').values(methods.map((m) => ({ event_id: to.id, payment_method_id: m.payment_method_id }))).execute()
  }
})
