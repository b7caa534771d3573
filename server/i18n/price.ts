// Money as the agency writes it (issue 20 item 16). Apart from format.ts, which the public page's
// first chunk carries: only the screens that write prices load this.
import { CURRENCY_SYMBOL, formatMoney } from './format'

/**
 * An amount with its currency as the agency writes it (spec §9 "optional currency prefix", the
 * agency's `currencyPrefix` under Verkauf): "12,50 €" / "12,50 CHF", or with the prefix "€ 12,50".
 * Every ticketing screen, mail and PDF writes money through this.
 */
export function formatPrice(cents: number, currency: string | null | undefined, prefix = false): string {
  const sign = CURRENCY_SYMBOL[currency ?? 'EURO'] ?? currency ?? '€'
  return prefix ? `${sign} ${formatMoney(cents)}` : `${formatMoney(cents)} ${sign}`
}
