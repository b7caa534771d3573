// The coupon bulk generator (docs/ticketing.md, "Coupons"): N one-use codes with a prefix, all
// written in one transaction, answered as CSV. A code is the prefix and 10 characters of an
// alphabet without look-alikes (no 0, O, 1, I): 32^10 ≈ 10^15 codes, unguessable. A code that exists
// already for the event (or is drawn twice) is skipped by the unique index and drawn again.
import type { AppContext } from '../../context'
import { isoNow } from '../../db/types'
import { couponScope } from './coupons'
import type { EventRow } from '../events/events.table'
import type { CouponBulkInput } from './model'

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789' // 32 characters, no 0/O or 1/I: a byte & 31 picks one without bias
export const CODE_LENGTH = 10

export function randomCode(prefix: string) {
  const bytes = crypto.getRandomValues(new Uint8Array(CODE_LENGTH))
  let s = prefix
  for (const b of bytes) s += ALPHABET[b & 31]
  return s
}

export async function generateCoupons(ctx: AppContext, event: EventRow, input: CouponBulkInput): Promise<string[]> {
  const scope = await couponScope(ctx.db, event, input.categoryIds, input.scopeField)
  const now = isoNow(ctx.clock.now())
  return ctx.db.transaction().execute(async (trx) => {
    const codes: string[] = []
    for (let round = 0; codes.length < input.count; round++) {
      if (round > 10) throw new Error('coupon bulk: codes keep colliding')
      const want = new Set<string>()
      while (want.size < input.count - codes.length) want.add(randomCode(input.prefix))
      const rows = [...want].map((code) => ({
        event_id: event.id,
        code,
        value_type: input.valueType,
        reduction: input.reduction,
        ...scope,
        max_uses: 1,
        valid_from: input.validFrom,
        valid_until: input.validUntil,
        created_at: now,
      }))
      for (let i = 0; i < rows.length; i += 100) {
        const made = await trx
          .insertInto('coupon')
          .values(rows.slice(i, i + 100))
          .onConflict((oc) => oc.columns(['event_id', 'code']).doNothing())
          .returning('code')
          .execute()
        codes.push(...made.map((r) => r.code))
      }
    }
    return codes.sort()
  })
}

/** The CSV the organiser hands out: one code a line, with what it is worth and when it is valid. */
export function couponsCsv(codes: string[], input: CouponBulkInput) {
  // several categories: their ids joined by commas in the one column
  const lines = ['code;valueType;reduction;categoryId;maxUses;validFrom;validUntil']
  for (const c of codes) lines.push([c, input.valueType, input.reduction, input.categoryIds.join(','), 1, input.validFrom ?? '', input.validUntil ?? ''].join(';'))
  return lines.join('\r\n') + '\r\n'
}
