// The calendar entry's SEQUENCE (RFC 5545 3.8.7.4): raised when what a calendar shows changes, so
// clients replace the entry a guest imported earlier instead of keeping the old time or place.
import type { EventRow } from './events.table'

const TEXT_COLUMNS = ['display_name', 'sub_title', 'timezone', 'event_type', 'location_name', 'street', 'street_number', 'post_code', 'city', 'country', 'meeting_url'] as const
type CalendarColumns = Pick<EventRow, (typeof TEXT_COLUMNS)[number] | 'start_date' | 'end_date'>

const instant = (v: string | Date | null) => (v == null ? null : new Date(v).getTime())

export function calendarChanged(before: CalendarColumns, after: CalendarColumns): boolean {
  if (instant(before.start_date) !== instant(after.start_date) || instant(before.end_date) !== instant(after.end_date)) return true
  return TEXT_COLUMNS.some((c) => (before[c] ?? null) !== (after[c] ?? null))
}
