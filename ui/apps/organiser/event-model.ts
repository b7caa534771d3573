// What the organiser app knows of an event (GET /proxy/api/events/{id}, agency-side.md §3 Event) and
// how its place and places read. Its own module so that the event page and its tabs, which all take
// an EventFull, do not import each other.
import { t } from '../../i18n'
import type { Label } from './common'

export interface EventFull {
  id: number
  agencyId: number
  displayName: string
  subTitle: string | null
  description: string | null
  startDate: string
  endDate: string
  timezone: string
  useDate: boolean
  registrationFrom: string | null
  registrationUntil: string | null
  eventType: string
  visibility: string
  status: string
  archived: boolean
  address: { locationName: string | null; street: string | null; streetNumber: string | null; postCode: string | null; city: string | null; country: string | null }
  meetingUrl: string | null
  primaryColor: string | null
  image: { id: number; path: string } | null
  accentColor: string | null
  hideDeclineButton: boolean
  useReporting: boolean
  disabledCovidStates: string[]
  maxVisitorPerSubscription: number
  currency: string
  registrationButtonType: string
  externalConfirmationLink: string | null
  externalConfirmationLabel: string | null
  defaultPhoneLocale: string
  lockBasicData: boolean
  allowSelfCheckin: boolean
  allowSelfCheckout: boolean
  checkinOpenDate: string | null
  checkinTarget: string
  checkinUrl: string | null
  options: string[]
  /** guests may pass their place on until transferUntil (null: the event's start) */
  allowTransfer?: boolean
  transferUntil?: string | null
  maxVisitors: number | null
  seatsTaken: number
  requireApproval: boolean
  registrationState: string
  url: string
  tags: Label[]
  campaigns: Label[]
  incomplete: string[]
  /** the event has ticket categories (ticketing) */
  isPayedEvent?: boolean
}

export const placeOf = (e: Pick<EventFull, 'eventType' | 'address'>) => (e.eventType === 'ONLINE' ? t('events.online') : [e.address.locationName, e.address.city].filter(Boolean).join(', '))
export const placesText = (e: Pick<EventFull, 'maxVisitors' | 'seatsTaken'>) =>
  e.maxVisitors == null ? t('events.placesUnlimited', { taken: e.seatsTaken }) : t('events.places', { taken: e.seatsTaken, max: e.maxVisitors })
