// Dates and names for what a guest receives in their language (mails, PDFs): German keeps the
// spec's DD.MM.YYYY (format.ts, which the public page's first chunk carries and which stays
// German-only for its budget); other languages write the date as Intl does for them (fr 28/12/2026,
// en 28/12/2026, ja 2026/12/28, hu 2026. 12. 28.). Names: family name first in ja, zh and hu.
import { formatDate, formatTime, safeTimeZone } from './format'

/** The Intl locale of a language code (the German variants are German). */
export const intlLocale = (lang: string): string => (lang.startsWith('de') ? 'de-DE' : lang === 'en' ? 'en-GB' : lang)

const dates = new Map<string, Intl.DateTimeFormat>()
/** A calendar date in the reader's language and the event's zone. */
export function formatDateIn(lang: string, date: Date | string, tz: string): string {
  if (lang.startsWith('de')) return formatDate(date, tz)
  const key = `${lang}|${tz}`
  let f = dates.get(key)
  if (!f) {
    f = new Intl.DateTimeFormat(intlLocale(lang), { timeZone: safeTimeZone(tz), day: '2-digit', month: '2-digit', year: 'numeric' })
    if (dates.size > 500) dates.clear()
    dates.set(key, f)
  }
  return f.format(typeof date === 'string' ? new Date(date) : date)
}

/** Date and time in the reader's language and the event's zone (times stay 24 h: "28/12/2026, 18:00"). */
export const formatDateTimeIn = (lang: string, date: Date | string, tz: string): string => `${formatDateIn(lang, date, tz)}, ${formatTime(date, tz)}`

const FAMILY_FIRST = new Set(['ja', 'zh', 'hu'])
/** A person's name as the reader's language writes it: "Martin Élodie" in Hungarian, Japanese, Chinese. */
export function personNameIn(lang: string, p: { title?: string | null; first?: string | null; last?: string | null }): string {
  const names = FAMILY_FIRST.has(lang) ? [p.last, p.first] : [p.first, p.last]
  return [p.title, ...names].filter(Boolean).join(' ')
}
