// Registration timing of guest-side.md section 4: not open while useDate is set and registrationFrom
// lies ahead; closed once registrationUntil has passed; the event is expired once endDate has passed.
import { bool } from '../../db/types'
import type { EventRow } from './events.table'

export type RegistrationState = 'OPEN' | 'NOT_OPEN' | 'CLOSED' | 'EXPIRED' | 'FULL'

export function registrationState(e: Pick<EventRow, 'use_date' | 'registration_from' | 'registration_until' | 'end_date' | 'max_visitors' | 'seats_taken'>, now: Date): RegistrationState {
  const t = now.getTime()
  if (new Date(e.end_date).getTime() < t) return 'EXPIRED'
  if (bool(e.use_date) && e.registration_from && new Date(e.registration_from).getTime() > t) return 'NOT_OPEN'
  if (e.registration_until && new Date(e.registration_until).getTime() < t) return 'CLOSED'
  if (e.max_visitors != null && e.seats_taken >= e.max_visitors) return 'FULL'
  return 'OPEN'
}

export const freePlaces = (e: Pick<EventRow, 'max_visitors' | 'seats_taken'>) => (e.max_visitors == null ? null : Math.max(0, e.max_visitors - e.seats_taken))
