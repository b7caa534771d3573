// The calendar entry (ical-generator): METHOD:PUBLISH (REQUEST would make clients treat it as a
// meeting invitation), a UID stable per registration and event, SEQUENCE from the event (raised when
// date, place or title change, events/calendar-sequence.ts), times in the event's zone with a
// VTIMEZONE built from the runtime's zone data, the place, and a link to the guest's dashboard.
import ical, { ICalCalendarMethod } from 'ical-generator'

export interface IcsData {
  uid: string
  sequence: number
  stamp: Date
  start: Date
  end: Date
  timezone: string
  summary: string
  description: string
  location: string | null
  url: string
  organiser: string
}

export function renderIcs(d: IcsData): string {
  // No calendar-wide zone: DTSTAMP then stays in UTC as RFC 5545 wants; the event's own zone
  // formats DTSTART/DTEND, and the VTIMEZONE goes in before the event.
  const cal = ical({ prodId: { company: 'einlass', product: 'einlass', language: 'DE' }, method: ICalCalendarMethod.PUBLISH, name: d.summary })
  cal.createEvent({
    id: d.uid,
    sequence: d.sequence,
    stamp: d.stamp,
    start: new ZonedInstant(d.start.getTime()),
    end: new ZonedInstant(d.end.getTime()),
    timezone: d.timezone,
    summary: d.summary,
    description: d.description,
    location: d.location,
    url: d.url,
  })
  return cal.toString().replace('BEGIN:VEVENT', `${vtimezone(d.timezone, d.start, d.end)}\r\nBEGIN:VEVENT`)
}

/**
 * An instant that ical-generator formats as wall time in a zone. With a plain Date it would use the
 * process's own zone; it asks a TZDate-shaped object (date-fns/tz) for the zone's fields instead.
 */
class ZonedInstant extends Date {
  readonly internal: Date
  constructor(ms: number) {
    super(ms)
    this.internal = new Date(ms)
  }
  tzComponents() {
    return []
  }
  withTimeZone(tz?: string | null) {
    const wall = new Date(this.getTime() + (tz ? offsetMinutes(tz, this.getTime()) : 0) * 60_000)
    return {
      getUTCFullYear: () => wall.getUTCFullYear(),
      getUTCMonth: () => wall.getUTCMonth(),
      getUTCDate: () => wall.getUTCDate(),
      getUTCHours: () => wall.getUTCHours(),
      getUTCMinutes: () => wall.getUTCMinutes(),
      getUTCSeconds: () => wall.getUTCSeconds(),
      getFullYear: () => wall.getUTCFullYear(),
      getMonth: () => wall.getUTCMonth(),
      getDate: () => wall.getUTCDate(),
      getHours: () => wall.getUTCHours(),
      getMinutes: () => wall.getUTCMinutes(),
      getSeconds: () => wall.getUTCSeconds(),
    }
  }
}

// ---------------------------------------------------------------------------------------------
// VTIMEZONE from Intl: the offsets in force around the event and the transitions between them.

const offsetFormatters = new Map<string, Intl.DateTimeFormat>()
/** The zone's UTC offset in minutes at an instant. */
export function offsetMinutes(tz: string, at: number): number {
  let f = offsetFormatters.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' })
    offsetFormatters.set(tz, f)
  }
  const name = f.formatToParts(new Date(at)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT'
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name)
  if (!m) return 0
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0))
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')
const fmtOffset = (min: number) => `${min < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(min) / 60))}${pad(Math.abs(min) % 60)}`
/** The local wall time of an instant in a fixed offset, as an iCalendar DATE-TIME without zone. */
function localStamp(at: number, offset: number): string {
  const d = new Date(at + offset * 60_000)
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
}

const DAY = 86_400_000
const cache = new Map<string, string>()

/** A VTIMEZONE valid from a year before the event to a year after it. */
export function vtimezone(tz: string, start: Date, end: Date): string {
  const from = Date.UTC(start.getUTCFullYear() - 1, 0, 1)
  const to = Date.UTC(end.getUTCFullYear() + 2, 0, 1)
  const key = `${tz}:${from}:${to}`
  const hit = cache.get(key)
  if (hit) return hit
  const transitions: Array<{ at: number; before: number; after: number }> = []
  let prev = offsetMinutes(tz, from)
  for (let t = from + DAY; t <= to; t += DAY) {
    const off = offsetMinutes(tz, t)
    if (off === prev) continue
    // the minute of the change
    let lo = t - DAY
    let hi = t
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000
      if (offsetMinutes(tz, mid) === prev) lo = mid
      else hi = mid
    }
    transitions.push({ at: hi, before: prev, after: off })
    prev = off
  }
  const offsets = [offsetMinutes(tz, from), ...transitions.map((x) => x.after)]
  const standard = Math.min(...offsets)
  const part = (at: number, before: number, after: number) => {
    const kind = after > standard ? 'DAYLIGHT' : 'STANDARD'
    return [`BEGIN:${kind}`, `DTSTART:${localStamp(at, before)}`, `TZOFFSETFROM:${fmtOffset(before)}`, `TZOFFSETTO:${fmtOffset(after)}`, `END:${kind}`]
  }
  const first = offsetMinutes(tz, from)
  const lines = ['BEGIN:VTIMEZONE', `TZID:${tz}`, ...part(from, first, first), ...transitions.flatMap((x) => part(x.at, x.before, x.after)), 'END:VTIMEZONE']
  const out = lines.join('\r\n')
  if (cache.size > 500) cache.clear()
  cache.set(key, out)
  return out
}
