// The organiser's terms and cancellation policy (docs/ticketing.md, "Selling rules"): per event a
// text, a link or both; with any, the buyer accepts them with a checkbox before paying
// (paymentPay `acceptTerms`) and the order keeps when, which version (the link, or "text:" and the
// SHA-256 of the text) and the text itself as accepted.
import type { EventRow } from '../events/events.table'

export interface EventTerms {
  termsText: string | null
  termsUrl: string | null
}

export const eventTerms = (e: Pick<EventRow, 'terms_text' | 'terms_url'>): EventTerms => ({ termsText: e.terms_text ?? null, termsUrl: e.terms_url ?? null })

export const hasTerms = (t: EventTerms) => !!(t.termsText || t.termsUrl)

/** What the order stores as the accepted version: the link and/or the text's hash. */
export function termsVersion(t: EventTerms): string | null {
  if (!hasTerms(t)) return null
  const parts: string[] = []
  if (t.termsUrl) parts.push(t.termsUrl)
  if (t.termsText) parts.push(`text:${new Bun.CryptoHasher('sha256').update(t.termsText).digest('hex').slice(0, 16)}`)
  return parts.join(' ')
}

/** The acceptance as the order's readers show it (ticket info, organiser's order). */
export const termsAcceptanceDto = (o: { terms_accepted_at: string | null; terms_version: string | null; terms_text: string | null }) =>
  o.terms_accepted_at ? { acceptedAt: o.terms_accepted_at, version: o.terms_version, text: o.terms_text } : null
