// Amounts on the organiser's ticket pages: cents shown as "12,50 €", typed as "12,50" or "12.50".
import { useEffect, useState } from 'preact/hooks'
import { formatPrice } from '../../../../server/i18n/price'
import { get } from '../../../api/client'

/** The agency's money format (GET /proxy/api/agency/moneyFormat, set under Verkauf), read once per page load. */
let prefix = false
let asked: Promise<void> | null = null
export const setMoneyPrefix = (p: boolean) => void (prefix = p)

/** "12,50 €", or "€ 12,50" with the agency's currency prefix (issue 20 item 16). */
export const money = (c: number, cur: string) => formatPrice(c, cur, prefix)

/** Reads the agency's money format once; the screens that write money render again when it is here. */
export function useMoneyFormat(): boolean {
  const [known, setKnown] = useState(asked === null ? false : true)
  useEffect(() => {
    asked ??= get<{ currencyPrefix: boolean }>('/proxy/api/agency/moneyFormat')
      .then((f) => setMoneyPrefix(f.currencyPrefix))
      .catch(() => {})
    void asked.then(() => setKnown(true))
  }, [])
  return known
}

/** "12,50" or "12.50" → 1250 cents; null when not a price */
export function parseCents(s: string): number | null {
  const m = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(s)
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : null
}
