import type { Generated, Selectable } from 'kysely'
import type { GenBool, GenJson, Id, Timestamp } from '../../db/types'

export interface EventTable {
  id: Id
  agency_id: number
  /** OK, PRESET, GLOBAL_PRESET, DELETED */
  status: Generated<string>
  /** PUBLIC, PRIVATE, OFFLINE */
  visibility: Generated<string>
  archived: GenBool
  display_name: string
  sub_title: string | null
  description: string | null
  start_date: Timestamp
  end_date: Timestamp
  timezone: Generated<string>
  use_date: GenBool
  registration_from: Timestamp | null
  registration_until: Timestamp | null
  /** ON_SITE or ONLINE */
  event_type: Generated<string>
  location_name: string | null
  street: string | null
  street_number: string | null
  post_code: string | null
  city: string | null
  country: string | null
  meeting_url: string | null
  primary_color: string | null
  accent_color: string | null
  image_asset_id: number | null
  hide_decline_button: GenBool
  use_reporting: GenBool
  disabled_covid_states: GenJson<string[]>
  max_visitor_per_subscription: Generated<number>
  currency: Generated<string>
  /** pay by invoice: AT_ONCE (tickets when ordered) or AFTER_PAYMENT (migration 2026-11-28-100) */
  invoice_tickets: Generated<string>
  /** unpaid transfers and invoices: days after the order to pay (null: the agency's payment terms), never after the start (migration 2026-11-29-200) */
  payment_deadline_days: number | null
  /** a transfer past its payment deadline is cancelled by the server (else only shown as overdue) */
  cancel_overdue: GenBool
  /** the organiser's terms and cancellation policy accepted at checkout (docs/ticketing.md, "Selling rules") */
  terms_text: string | null
  terms_url: string | null
  registration_button_type: Generated<string>
  external_confirmation_link: string | null
  external_confirmation_label: string | null
  default_phone_locale: Generated<string>
  lock_basic_data: GenBool
  allow_self_checkin: GenBool
  allow_self_checkout: GenBool
  checkin_open_date: Timestamp | null
  /** NONE, EVENT_PAGE, MEETING_URL, CUSTOM */
  checkin_target: Generated<string>
  checkin_url: string | null
  /** e.g. ["CAN_EDIT_REGISTRATION_DATA"] */
  options: GenJson<string[]>
  /** persons (main guests and escorts) the event admits; null = unlimited */
  max_visitors: number | null
  /** persons currently holding a place; only changed by conditional updates (see visitors/capacity) */
  seats_taken: Generated<number>
  require_approval: GenBool
  /** bumped by every change of the registration form (forms module); caches key on it */
  form_version: Generated<number>
  /** registrations beyond capacity go to the waiting list instead of being refused */
  waiting_list: GenBool
  /** a guest may pass their place to someone else (guest/transfer.ts) … */
  allow_transfer: GenBool
  /** … until this instant (null: until the event starts) */
  transfer_until: Timestamp | null
  /** the calendar entry's SEQUENCE: raised when date, place or title change (documents/ics.ts) */
  calendar_sequence: Generated<number>
  /** the event has ticket categories (isPayedEvent); kept by ticketing/categories.ts */
  is_paid: GenBool
  created_by_account_id: number | null
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
}
export type EventRow = Selectable<EventTable>

/** The organiser's text of the event in one language (migration 2026-11-30-100); null fields read German. */
export interface EventTranslationTable {
  id: Id
  event_id: number
  language: string
  display_name: string | null
  sub_title: string | null
  description: string | null
  location_name: string | null
  updated_at: Generated<Timestamp>
}
export type EventTranslationRow = Selectable<EventTranslationTable>

export interface EventTables {
  event: EventTable
  event_translation: EventTranslationTable
}
