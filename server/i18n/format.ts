// Display formats of the spec: dates DD.MM.YYYY, times HH:mm, money with a decimal comma.
// Pure Intl, shared by the server (mails, PDFs) and the UI.
export const DEFAULT_TIMEZONE = 'Europe/Berlin'

const knownZones = new Map<string, boolean>()
/**
 * Whether Intl knows the time zone name (checked when an event is written), remembered per name. Asked
 * with the locale the formats below use: another locale's data cost the public event page 40 ms of its
 * main thread under 4× CPU throttling on top of the German data (ui/apps/public/page-worker.ts).
 */
export function isTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false
  let known = knownZones.get(tz)
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('de-DE', { timeZone: tz })
      known = true
    } catch {
      known = false
    }
    if (knownZones.size > 1000) knownZones.clear()
    knownZones.set(tz, known)
  }
  return known
}

/** The zone itself when Intl knows it, else the default: a row stored with a bad name still formats. */
export const safeTimeZone = (tz: string | null | undefined): string => (tz && isTimeZone(tz) ? tz : DEFAULT_TIMEZONE)

const cache = new Map<string, Intl.DateTimeFormat>()
function fmt(tz: string, opts: Intl.DateTimeFormatOptions, key: string) {
  const k = `${tz}|${key}`
  let f = cache.get(k)
  if (!f) {
    f = new Intl.DateTimeFormat('de-DE', { timeZone: safeTimeZone(tz), ...opts })
    if (cache.size > 1000) cache.clear()
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

/** Two decimals with a decimal comma and thousands dots; optional currency prefix (spec 9). */
export function formatMoney(cents: number, currency?: string | null): string {
  const neg = cents < 0
  const abs = Math.abs(Math.round(cents))
  const euros = Math.floor(abs / 100)
  const rest = String(abs % 100).padStart(2, '0')
  const grouped = String(euros).replace(/\B(?=(\d{3})+(?!\d))/g, '.')
  const value = `${neg ? '-' : ''}${grouped},${rest}`
  return currency ? `${CURRENCY_SYMBOL[currency] ?? currency} ${value}` : value
}

/** The zone's offset from UTC at an instant, in ms (local = utc + offset). */
function offsetAt(ts: number, tz: string): number {
  const p = parts(new Date(ts), tz)
  const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute))
  return local - Math.floor(ts / 60_000) * 60_000
}

/**
 * A wall-clock time in a zone (YYYY-MM-DDTHH:mm[:ss]) to its UTC instant. DST edges resolve as
 * calendars do: a time in the spring gap moves forward by the gap (02:30 → 03:30), a time that
 * occurs twice in autumn means the first occurrence (summer time).
 */
export function zonedToUtc(local: string, tz: string): Date {
  const [datePart, timePart = '00:00'] = local.split('T')
  const [y, mo, d] = datePart.split('-').map(Number)
  const [h, mi, sec = 0] = timePart.split(':').map(Number)
  const wall = Date.UTC(y, mo - 1, d, h, mi, sec)
  const before = offsetAt(wall - 86_400_000, tz)
  const after = offsetAt(wall + 86_400_000, tz)
  const valid = [...new Set([before, after])].map((o) => wall - o).filter((t) => t + offsetAt(t, tz) === wall)
  return new Date(valid.length ? Math.min(...valid) : wall - before)
}

/** The wall-clock time of an instant in a zone, as YYYY-MM-DDTHH:mm (for datetime-local inputs). */
export function utcToZonedInput(date: Date | string, tz: string): string {
  const p = parts(date, tz)
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`
}
