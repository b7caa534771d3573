// Amounts on the organiser's ticket pages: cents shown as "12,50 €", typed as "12,50" or "12.50".
import { formatMoney } from '../../../../server/i18n/format'

export const money = (c: number, cur: string) => `${formatMoney(c)} ${cur === 'CHF' ? 'CHF' : '€'}`

/** "12,50" or "12.50" → 1250 cents; null when not a price */
export function parseCents(s: string): number | null {
  const m = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(s)
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : null
}
