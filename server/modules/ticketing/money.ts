// Money of ticket orders (docs/ticketing.md, "Money and tax"): integer cents, gross prices, tax per
// line from the rate in basis points, taxPrices summed per tax code, fixed reductions split with
// dinero.js so the parts add up to the cent. Pure functions: shared by the server and the UI.
import { allocate, dinero, toSnapshot } from 'dinero.js'
import { CHF, EUR } from 'dinero.js/currencies'

export const CURRENCIES = ['EURO', 'CHF'] as const
export type Currency = (typeof CURRENCIES)[number]

/** EURO: the number is the percent; TAX_NONE shows no tax at all. */
export const EURO_TAX_CODES = ['TAX_NONE', 'TAX_0', 'TAX_3', 'TAX_5', 'TAX_7', 'TAX_8', 'TAX_10', 'TAX_13', 'TAX_16', 'TAX_17', 'TAX_19', 'TAX_20'] as const
/** CHF: normal, special (accommodation), reduced; the rate follows the event date (agency-side §9). */
export const CHF_TAX_CODES = ['TAX_CH_NORMAL', 'TAX_CH_SPECIAL', 'TAX_CH_REDUCED'] as const
export const TAX_CODES: Record<Currency, readonly string[]> = { EURO: EURO_TAX_CODES, CHF: CHF_TAX_CODES }

/** Swiss rates changed on 2024-01-01 (Swiss time). */
const CHF_2024 = Date.parse('2023-12-31T23:00:00Z')
const CHF_RATES: Record<string, [number, number]> = { TAX_CH_NORMAL: [770, 810], TAX_CH_SPECIAL: [370, 380], TAX_CH_REDUCED: [250, 260] }

export const validTaxCode = (currency: string, code: string) => (TAX_CODES[currency as Currency] ?? []).includes(code)

/** The rate of a tax code in basis points (1900 = 19 %) for an event starting at eventStart. */
export function taxRate(code: string, eventStart: string | Date): number {
  const chf = CHF_RATES[code]
  if (chf) return new Date(eventStart).getTime() >= CHF_2024 ? chf[1] : chf[0]
  if (code === 'TAX_NONE') return 0
  const m = /^TAX_(\d+)$/.exec(code)
  if (!m) throw new Error(`unknown tax code ${code}`)
  return Number(m[1]) * 100
}

/** Divides and rounds half away from zero, in integers only. */
function divRound(a: number, b: number): number {
  const q = Math.floor(a / b)
  const r = a - q * b
  return 2 * r >= b ? q + 1 : q
}

/** The tax contained in a gross amount: gross − round(gross / (1 + rate)). */
export function taxOfGross(gross: number, rateBp: number): number {
  if (rateBp === 0 || gross === 0) return 0
  return gross - divRound(gross * 10000, 10000 + rateBp)
}

/** Splits an amount in proportion to the weights; the parts add up to the amount exactly. */
export function split(amount: number, weights: number[], currency: string = 'EURO'): number[] {
  if (!weights.length) return []
  if (weights.every((w) => w === 0)) return weights.map((_, i) => (i === 0 ? amount : 0))
  const parts = allocate(dinero({ amount, currency: currency === 'CHF' ? CHF : EUR }), weights)
  return parts.map((p) => toSnapshot(p).amount)
}

/** "1.234,56 €" / "1.234,56 CHF", or "€ 1.234,56" with the agency's currency prefix (server/i18n/format.ts) */
export { formatPrice } from '../../i18n/price'


export interface PriceCategory {
  id: number
  displayName: string
  grossPrice: number
  taxCode: string
  sortOrder: number
}
export interface PriceCoupon {
  code: string
  valueType: 'PERCENT' | 'FIXED'
  reduction: number
  categoryId: number | null
  /** several categories (coupons.ts couponCategoryIds); when given it wins over categoryId, empty = the whole order */
  categoryIds?: number[]
}
export interface PricedLine {
  categoryId: number
  amount: number
  displayName: string
  unitPrice: number
  discount: number
  grossPrice: number
  taxCode: string
  taxRate: number
  taxPrice: number
  sortOrder: number
}
export interface TaxPrice {
  taxCode: string
  /** percent, e.g. 19 or 8.1 */
  taxValue: number
  /** tax contained, cents */
  totalPrice: number
  /** gross of the lines with this code, cents */
  grossPrice: number
}
export interface PricedOrder {
  lines: PricedLine[]
  grossPrice: number
  taxPrice: number
  discount: number
  taxPrices: TaxPrice[]
}

/**
 * Prices an order: lines per category, the coupon's reduction (a percent per line; a fixed amount
 * split over the lines it applies to in proportion to their prices, never below 0), tax per line
 * and per code. Returns null for the coupon's part when it applies to no line (COUPON_NO_TICKETS).
 */
export function priceOrder(
  picks: Array<{ category: PriceCategory; amount: number }>,
  coupon: PriceCoupon | null,
  eventStart: string,
  currency: string,
): PricedOrder & { couponApplies: boolean } {
  const lines: PricedLine[] = picks
    .filter((p) => p.amount > 0)
    .sort((a, b) => a.category.sortOrder - b.category.sortOrder || a.category.id - b.category.id)
    .map((p) => ({
      categoryId: p.category.id,
      amount: p.amount,
      displayName: p.category.displayName,
      unitPrice: p.category.grossPrice,
      discount: 0,
      grossPrice: p.category.grossPrice * p.amount,
      taxCode: p.category.taxCode,
      taxRate: taxRate(p.category.taxCode, eventStart),
      taxPrice: 0,
      sortOrder: p.category.sortOrder,
    }))
  let couponApplies = false
  if (coupon) {
    const scope = coupon.categoryIds ?? (coupon.categoryId == null ? [] : [coupon.categoryId])
    const targets = lines.filter((l) => scope.length === 0 || scope.includes(l.categoryId))
    couponApplies = targets.length > 0
    if (coupon.valueType === 'PERCENT') {
      const pct = Math.min(100, Math.max(0, coupon.reduction))
      for (const l of targets) l.discount = divRound(l.grossPrice * pct, 100)
    } else {
      const base = targets.reduce((s, l) => s + l.grossPrice, 0)
      const total = Math.min(base, Math.max(0, coupon.reduction))
      const parts = split(total, targets.map((l) => l.grossPrice), currency)
      targets.forEach((l, i) => (l.discount = parts[i]))
    }
    for (const l of targets) l.grossPrice -= l.discount
  }
  const byCode = new Map<string, TaxPrice>()
  for (const l of lines) {
    l.taxPrice = taxOfGross(l.grossPrice, l.taxRate)
    const t = byCode.get(l.taxCode) ?? { taxCode: l.taxCode, taxValue: l.taxRate / 100, totalPrice: 0, grossPrice: 0 }
    t.totalPrice += l.taxPrice
    t.grossPrice += l.grossPrice
    byCode.set(l.taxCode, t)
  }
  byCode.delete('TAX_NONE')
  return {
    lines,
    grossPrice: lines.reduce((s, l) => s + l.grossPrice, 0),
    taxPrice: lines.reduce((s, l) => s + l.taxPrice, 0),
    discount: lines.reduce((s, l) => s + l.discount, 0),
    taxPrices: [...byCode.values()].sort((a, b) => b.taxValue - a.taxValue),
    couponApplies,
  }
}
