// Money as the agency writes it (issue 20 item 16). Apart from format.ts, which the public page's
// first chunk carries: only the screens that write prices load this.
import { CURRENCY_SYMBOL, formatMoney } from './format'
import { intlLocale } from './locale-format'

/**
 * An amount with its currency as the agency writes it (spec §9 "optional currency prefix", the
 * agency's `currencyPrefix` under Verkauf): "12,50 €" / "12,50 CHF", or with the prefix "€ 12,50".
 * Every ticketing screen, mail and PDF writes money through this.
 */
export function formatPrice(cents: number, currency: string | null | undefined, prefix = false): string {
  const sign = CURRENCY_SYMBOL[currency ?? 'EURO'] ?? currency ?? '€'
  return prefix ? `${sign} ${formatMoney(cents)}` : `${formatMoney(cents)} ${sign}`
}

const ISO_CURRENCY: Record<string, string> = { EURO: 'EUR', CHF: 'CHF' }
const numbers = new Map<string, Intl.NumberFormat>()
/**
 * An amount in the reader's language (issue 24): German and its variants as the agency writes it
 * (formatPrice, with its prefix setting); every other language as Intl writes money there
 * (fr "12,50 €", en "€12.50", ja "€12.50", CHF "CHF 12.50"), the agency's prefix setting being a
 * German convention.
 */
export function formatPriceIn(lang: string, cents: number, currency: string | null | undefined, prefix = false): string {
  if (lang.startsWith('de')) return formatPrice(cents, currency, prefix)
  const iso = ISO_CURRENCY[currency ?? 'EURO'] ?? currency ?? 'EUR'
  const key = `${lang}|${iso}`
  let f = numbers.get(key)
  if (!f) {
    try {
      f = new Intl.NumberFormat(intlLocale(lang), { style: 'currency', currency: iso })
    } catch {
      return formatPrice(cents, currency, prefix)
    }
    numbers.set(key, f)
  }
  return f.format(cents / 100)
}
