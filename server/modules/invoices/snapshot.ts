// The invoice snapshot: everything an invoice says, frozen when it is issued. The PDF and the
// XML (XRechnung CII/UBL, ZUGFeRD/Factur-X) are both rendered from it, so they can never disagree,
// and a later change of prices, seller settings or the guest's address never changes an issued
// invoice. Amounts are integer cents; prices are gross (what the guest pays), the net amounts and
// taxes are derived here once.
import { allocate, dinero, toSnapshot } from 'dinero.js'
import { CHF, EUR } from 'dinero.js/currencies'

/** The spec's currency names (agency-side.md §9) and their ISO 4217 codes. */
export const ISO_CURRENCY = { EURO: 'EUR', CHF: 'CHF' } as const
export type SpecCurrency = keyof typeof ISO_CURRENCY

/**
 * A tax code as the spec lists them per currency: a rate in percent, or null for "none"
 * (no VAT charged, e.g. a small business under § 19 UStG): category E with the seller's
 * exemption reason; 0 % is category Z (zero rated); every other rate is S (standard).
 */
export type TaxRate = number | null

export interface InvoiceParty {
  name: string
  street: string
  /** house number, kept apart as the spec's invoice address has it */
  number?: string | null
  postCode: string
  city: string
  /** ISO 3166-1 alpha-3 as the spec stores it (DEU), converted for the XML */
  country: string
}

export interface InvoiceSeller extends InvoiceParty {
  vatId?: string | null
  taxNumber?: string | null
  /** trade register entry (e.g. HRB 12345, Amtsgericht Köln) */
  registrationId?: string | null
  contactName: string
  phone: string
  email: string
  /** printed under the totals when a line has the tax code "none" */
  taxExemptionReason?: string | null
}

export interface InvoiceBuyer extends InvoiceParty {
  email: string
  /** the buyer's tax id (taxIdentificationNumber of the spec's invoice address) */
  taxId?: string | null
  /** department or person to receive it (invoiceReceiver) */
  receiver?: string | null
}

export interface InvoiceLineInput {
  name: string
  /** positive for tickets, -1 for a coupon line (a reduction) */
  quantity: number
  /** gross price of one unit in cents, never negative */
  unitGrossCents: number
  taxRate: TaxRate
}

export type PaymentMeans =
  | { kind: 'TRANSFER'; iban: string; bic?: string | null; accountHolder: string; reference: string }
  | { kind: 'INVOICE'; iban: string; bic?: string | null; accountHolder: string; reference: string }
  | { kind: 'LOCATION' }
  | { kind: 'COUPON' }
  | { kind: 'ONLINE'; provider: string; reference: string }

export interface InvoiceDraft {
  kind: 'INVOICE' | 'CANCELLATION'
  currency: SpecCurrency
  /** the agency's money format when issued: the currency sign before the amount (issue 20 item 16; older snapshots: after it) */
  currencyPrefix?: boolean
  /** YYYY-MM-DD in the event's time zone */
  issueDate: string
  dueDate?: string | null
  /** the event's date: the date of supply */
  deliveryDate: string
  seller: InvoiceSeller
  buyer: InvoiceBuyer
  /** the buyer reference (BT-10): the Leitweg-ID or reference number, else the order number */
  buyerReference: string
  orderNumber: string
  eventName: string
  lines: InvoiceLineInput[]
  payment: PaymentMeans
  /** already paid (a paid order's invoice is settled: payable 0) */
  paidCents: number
  paymentTerms?: string | null
  additionalText?: string | null
  /** a cancellation names the invoice it cancels */
  cancels?: { number: string; issueDate: string } | null
}

export interface SnapshotLine extends InvoiceLineInput {
  /** quantity × unit gross */
  grossCents: number
  /** the line's share of its tax group's net amount (sums to the group's net exactly) */
  netCents: number
  /** net price of one unit (for the XML's price; never negative) */
  unitNetCents: number
}

export interface TaxGroup {
  rate: TaxRate
  /** S standard, Z zero rated, E exempt */
  category: 'S' | 'Z' | 'E'
  grossCents: number
  netCents: number
  taxCents: number
}

export interface InvoiceSnapshot extends Omit<InvoiceDraft, 'lines'> {
  number: string
  lines: SnapshotLine[]
  taxGroups: TaxGroup[]
  totals: { netCents: number; taxCents: number; grossCents: number; paidCents: number; payableCents: number }
}

const DINERO_CURRENCY = { EURO: EUR, CHF } as const

export const categoryOf = (rate: TaxRate): 'S' | 'Z' | 'E' => (rate === null ? 'E' : rate === 0 ? 'Z' : 'S')

/** Net of a gross amount at a rate, rounded half away from zero to the cent. */
export function netOfGross(grossCents: number, rate: TaxRate): number {
  if (rate === null || rate === 0) return grossCents
  // rate has at most one decimal (7.7, 8.1): scale to integers so no float error decides a rounding
  const r10 = Math.round(rate * 10)
  const num = grossCents * 1000
  const den = 1000 + r10
  const q = Math.trunc(num / den)
  const rem = Math.abs(num - q * den)
  return rem * 2 >= den ? q + Math.sign(num) : q
}

/**
 * Freezes a draft with its number: lines with gross and net, one tax group per rate with
 * net + tax = gross exactly (tax = gross − net, within EN 16931's tolerance of the rate's product),
 * totals that add up to the cent.
 */
export function buildSnapshot(draft: InvoiceDraft, number: string): InvoiceSnapshot {
  const currency = DINERO_CURRENCY[draft.currency]
  const sign = draft.kind === 'CANCELLATION' ? -1 : 1
  const lines = draft.lines.map((l) => ({ ...l, quantity: l.quantity * sign, grossCents: l.quantity * sign * l.unitGrossCents, netCents: 0, unitNetCents: netOfGross(l.unitGrossCents, l.taxRate) }))
  const rates = [...new Set(lines.map((l) => l.taxRate))]
  const taxGroups: TaxGroup[] = []
  for (const rate of rates) {
    const members = lines.filter((l) => l.taxRate === rate)
    const grossCents = members.reduce((s, l) => s + l.grossCents, 0)
    const netCents = netOfGross(grossCents, rate)
    const weights = members.map((l) => Math.abs(l.grossCents))
    if (members.every((l) => l.grossCents === 0)) {
      // nothing to split
    } else if (members.every((l) => Math.sign(l.grossCents) * Math.sign(grossCents) >= 0) && grossCents !== 0) {
      // the group's net split over its lines in proportion to their gross (largest remainder)
      const parts = allocate(dinero({ amount: Math.abs(netCents), currency }), weights).map((d) => toSnapshot(d).amount)
      members.forEach((l, i) => (l.netCents = parts[i]! * Math.sign(grossCents)))
    } else {
      // a coupon line against tickets: each line's own net, the rounding difference on the largest line
      for (const l of members) l.netCents = netOfGross(l.grossCents, rate)
      const largest = members.reduce((a, b) => (Math.abs(b.grossCents) > Math.abs(a.grossCents) ? b : a))
      largest.netCents += netCents - members.reduce((s, l) => s + l.netCents, 0)
    }
    taxGroups.push({ rate, category: categoryOf(rate), grossCents, netCents, taxCents: grossCents - netCents })
  }
  const netCents = taxGroups.reduce((s, g) => s + g.netCents, 0)
  const taxCents = taxGroups.reduce((s, g) => s + g.taxCents, 0)
  const grossCents = netCents + taxCents
  const paidCents = draft.paidCents * sign
  return {
    ...draft,
    number,
    lines,
    taxGroups: taxGroups.sort((a, b) => (b.rate ?? -1) - (a.rate ?? -1)),
    totals: { netCents, taxCents, grossCents, paidCents, payableCents: grossCents - paidCents },
  }
}
