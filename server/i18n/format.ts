// Display formats of the spec: dates DD.MM.YYYY, times HH:mm, money with a decimal comma.
// Pure Intl, shared by the server (mails, PDFs) and the UI.
export const DEFAULT_TIMEZONE = 'Europe/Berlin'

const cache = new Map<string, Intl.DateTimeFormat>()
function fmt(tz: string, opts: Intl.DateTimeFormatOptions, key: string) {
  const k = `${tz}|${key}`
  let f = cache.get(k)
  if (!f) {
    f = new Intl.DateTimeFormat('de-DE', { timeZone: tz, ...opts })
    cache.set(k, f)
  }
  return f
}

function parts(date: Date | string, tz: string) {
  const d = typeof date === 'string' ? new Date(date) : date
  const p = fmt(tz, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, 'all').formatToParts(d)
  const get = (t: string) => p.find((x) => x.type === t)?.value ?? ''
  return { day: get('day'), month: get('month'), year: get('year'), hour: get('hour'), minute: get('minute') }
}

/** DD.MM.YYYY in the given time zone. */
export function formatDate(date: Date | string, tz = DEFAULT_TIMEZONE): string {
  const p = parts(date, tz)
  return `${p.day}.${p.month}.${p.year}`
}

/** HH:mm (24 h) or h:mm AM/PM in the given time zone. */
export function formatTime(date: Date | string, tz = DEFAULT_TIMEZONE, hour12 = false): string {
  if (!hour12) {
    const p = parts(date, tz)
    return `${p.hour}:${p.minute}`
  }
  return fmt(tz, { hour: 'numeric', minute: '2-digit', hour12: true }, 'h12').format(typeof date === 'string' ? new Date(date) : date)
}

/** DD.MM.YYYY, HH:mm */
export function formatDateTime(date: Date | string, tz = DEFAULT_TIMEZONE): string {
  return `${formatDate(date, tz)}, ${formatTime(date, tz)}`
}

export const CURRENCY_SYMBOL: Record<string, string> = { EURO: '€', CHF: 'CHF' }

/** Two decimals with a decimal comma and thousands dots; optional currency suffix. */
export function formatMoney(cents: number, currency?: string | null): string {
  const neg = cents < 0
  const abs = Math.abs(Math.round(cents))
  const euros = Math.floor(abs / 100)
  const rest = String(abs % 100).padStart(2, '0')
  const grouped = String(euros).replace(/\B(?=(\d{3})+(?!\d))/g, '.')
  const value = `${neg ? '-' : ''}${grouped},${rest}`
  return currency ? `${value} ${CURRENCY_SYMBOL[currency] ?? currency}` : value
}

/** Offset-aware conversion: a wall-clock time in a zone to the UTC instant. */
export function zonedToUtc(local: string, tz: string): Date {
  // local: YYYY-MM-DDTHH:mm[:ss]
  const [datePart, timePart = '00:00'] = local.split('T')
  const [y, mo, d] = datePart.split('-').map(Number)
  const [h, mi, s = 0] = timePart.split(':').map(Number)
  const guess = Date.UTC(y, mo - 1, d, h, mi, s)
  // Two iterations settle DST edges (the offset at the guess may differ from the offset at the result).
  let ts = guess
  for (let i = 0; i < 2; i++) {
    const p = parts(new Date(ts), tz)
    const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), s)
    ts += guess - asUtc
  }
  return new Date(ts)
}

/** The wall-clock time of an instant in a zone, as YYYY-MM-DDTHH:mm (for datetime-local inputs). */
export function utcToZonedInput(date: Date | string, tz: string): string {
  const p = parts(date, tz)
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`
}
