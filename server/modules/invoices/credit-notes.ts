// Credit notes for refunds (docs/invoices.md, "Partial refunds"). A refund of part of an invoiced
// amount gets its own cancellation invoice (type 381, a gapless number from the same sequence) for
// exactly the refunded gross amount, split over the invoice's tax rates in proportion to what is
// still uncredited at each rate (largest remainder, so the parts add up to the cent). The refund of
// the rest credits exactly what is left per rate, so all credit notes of an invoice add up to it.
// An invoice refunded whole at once keeps the plain cancellation with the original lines.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import type { InvoiceRow } from './invoices.table'
import { currentInvoiceOf, issueCancellation, snapshotOf } from './service'
import type { InvoiceLineInput, TaxRate } from './snapshot'

/** Splits `amount` in proportion to non-negative integer weights; the parts add up to `amount`. */
export function splitProportionally(amount: number, weights: number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0)
  if (total <= 0) return weights.map(() => 0)
  const exact = weights.map((w) => (amount * w) / total)
  const parts = exact.map(Math.floor)
  let left = amount - parts.reduce((s, p) => s + p, 0)
  const order = exact.map((e, i) => ({ i, frac: e - Math.floor(e) })).sort((a, b) => b.frac - a.frac || weights[b.i]! - weights[a.i]!)
  for (const { i } of order) {
    if (left <= 0) break
    parts[i]! += 1
    left -= 1
  }
  return parts
}

/** Gross still uncredited per tax rate of an invoice (its groups minus its earlier cancellations). */
export async function uncreditedByRate(trx: Db, original: InvoiceRow): Promise<Array<{ rate: TaxRate; cents: number }>> {
  const s = snapshotOf(original)
  const left = new Map<string, { rate: TaxRate; cents: number }>(s.taxGroups.map((g) => [String(g.rate), { rate: g.rate, cents: g.grossCents }]))
  const credits = await trx.selectFrom('invoice').selectAll().where('cancels_invoice_id', '=', original.id).execute()
  for (const c of credits) {
    // a cancellation's groups are negative: they reduce what is left
    for (const g of snapshotOf(c).taxGroups) {
      const k = String(g.rate)
      const have = left.get(k)
      if (have) have.cents += g.grossCents
    }
  }
  return [...left.values()].map((x) => ({ rate: x.rate, cents: Math.max(0, x.cents) }))
}

const percent = (rate: TaxRate) => (rate === null ? 'steuerfrei' : `${String(rate).replace('.', ',')} %`)

/**
 * Issues the credit note for a refund of `amount` cents of the order's invoice (or 'rest': what is
 * still uncredited), once per `what` (the refund's provider id, or 'all'). Answers null when the
 * order has no invoice or nothing is left to credit. Runs in the caller's transaction.
 */
export async function issueCreditNote(
  ctx: AppContext,
  trx: Db,
  input: { agencyId: number; orderId: number; amount: number | 'rest'; what: string; prefix: string | null },
): Promise<InvoiceRow | null> {
  // the order's current invoice: after a corrected invoice address, the new one (docs/invoices.md)
  const original = await currentInvoiceOf(trx, input.agencyId, input.orderId)
  if (!original) return null
  const done = await trx.selectFrom('invoice').selectAll().where('agency_id', '=', input.agencyId).where('issue_key', '=', `cancel:${original.id}:${input.what}`).executeTakeFirst()
  if (done) return done
  const left = await uncreditedByRate(trx, original)
  const rest = left.reduce((s, x) => s + x.cents, 0)
  const amount = input.amount === 'rest' ? rest : Math.min(input.amount, rest)
  if (amount <= 0) return null
  const s = snapshotOf(original)
  const untouched = rest === s.totals.grossCents
  if (untouched && amount === rest) {
    // the whole invoice at once: the plain cancellation with the original lines
    return issueCancellation(ctx, trx, { invoiceId: original.id, agencyId: input.agencyId, what: input.what, prefix: input.prefix })
  }
  const parts = splitProportionally(amount, left.map((x) => x.cents))
  const lines: InvoiceLineInput[] = left
    .map((x, i) => ({ name: `Erstattung zur Rechnung ${s.number} – ${s.eventName} (${percent(x.rate)})`, quantity: 1, unitGrossCents: parts[i]!, taxRate: x.rate }))
    .filter((l) => l.unitGrossCents > 0)
  return issueCancellation(ctx, trx, { invoiceId: original.id, agencyId: input.agencyId, what: input.what, lines, prefix: input.prefix })
}
