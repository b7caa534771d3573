import { bool } from '../../db/types'
import type { EscortPersonRow, EventVisitorRow } from './visitors.table'

export function escortDto(e: EscortPersonRow) {
  return {
    id: e.id,
    number: e.number,
    salutation: e.salutation,
    title: e.title,
    firstName: e.first_name,
    lastName: e.last_name,
    email: e.email,
    company: e.company,
    position: e.position,
    phoneNumber: e.phone_number,
    web: e.web,
    info: e.info,
    birthday: e.birthday,
    covidState: e.covid_state,
    address: { street: e.street, streetNumber: e.street_number, postCode: e.post_code, city: e.city, country: e.country },
    checkedIn: bool(e.checked_in),
    checkedOut: bool(e.checked_out),
    checkState: checkState(e.checked_in, e.checked_out),
    checkinDate: e.checkin_date,
    checkoutDate: e.checkout_date,
  }
}

type Label = { id: number; displayName: string; group: string | null; name: string; type: string }

/** open, in (checked in now) or out (checked out) */
export const checkState = (checkedIn: number | boolean, checkedOut: number | boolean): 'OPEN' | 'CHECKED_IN' | 'CHECKED_OUT' => (bool(checkedOut) ? 'CHECKED_OUT' : bool(checkedIn) ? 'CHECKED_IN' : 'OPEN')

/** Persons of a registration in now: the main guest (in, not out) and its escorts in (kept by triggers, migration 601). */
export const personsIn = (v: Pick<EventVisitorRow, 'main_guest_checked_in' | 'main_guest_checked_out' | 'escorts_in'>) =>
  (bool(v.main_guest_checked_in) && !bool(v.main_guest_checked_out) ? 1 : 0) + Number(v.escorts_in ?? 0)

/** The check-in column (guest list, CSV): a group partly in says how many of how many ("1 von 4 eingecheckt"); all in or none: the state. */
export function checkinLabel(v: Pick<EventVisitorRow, 'main_guest_checked_in' | 'main_guest_checked_out' | 'escorts_in' | 'visitor_count'>): { key: string; params?: Record<string, number> } {
  const n = personsIn(v)
  if (n > 0 && n < v.visitor_count) return { key: 'status.checkin.PERSONS', params: { in: n, total: v.visitor_count } }
  return { key: `status.checkin.${checkState(v.main_guest_checked_in, v.main_guest_checked_out)}` }
}

/** A row of the organiser's guest list. */
export function visitorListDto(v: EventVisitorRow, labels: { tags: Label[]; campaigns: Label[] } = { tags: [], campaigns: [] }, waitingListPosition: number | null = null) {
  return {
    id: v.id,
    eventId: v.event_id,
    status: v.status,
    /** WAITING_LIST only: 1-based place in the queue (registration time, then id) */
    waitingListPosition: v.status === 'WAITING_LIST' ? waitingListPosition : null,
    vip: bool(v.vip),
    salutation: v.salutation,
    title: v.title,
    firstName: v.first_name,
    lastName: v.last_name,
    email: v.email,
    company: v.company,
    position: v.position,
    phoneNumber: v.phone_number,
    note: v.note,
    visitorCount: v.visitor_count,
    seatsHeld: v.seats_held,
    /** persons the organiser added free of charge beyond the tickets (paid events) */
    freePersons: v.free_persons,
    mainGuestCheckedIn: bool(v.main_guest_checked_in),
    mainGuestCheckedOut: bool(v.main_guest_checked_out),
    mainGuestCheckinDate: v.main_guest_checkin_date,
    mainGuestCheckoutDate: v.main_guest_checkout_date,
    checkState: checkState(v.main_guest_checked_in, v.main_guest_checked_out),
    /** persons of the registration in now (main guest and escorts); the list shows "1 von 4 eingecheckt" */
    personsIn: personsIn(v),
    mailError: bool(v.mail_error),
    source: v.source,
    ticketCode: v.ticket_code,
    invitedAt: v.invited_at,
    invitationCount: v.invitation_count,
    declineReason: v.decline_reason,
    registeredAt: v.registered_at,
    createdAt: v.created_at,
    tags: labels.tags,
    campaigns: labels.campaigns,
  }
}
