import type { Generated, Selectable } from 'kysely'
import type { GenBool, Id, Timestamp } from '../../db/types'

export const VISITOR_STATUSES = [
  'CONFIRMED',
  'INVITED',
  'ADDED',
  'APPEARED',
  'REQUIRE_APPROVAL',
  'DECLINED',
  'OPEN',
  'PENDING',
  'DELETED',
  'VISITOR_DECLINED',
  /** registered while the event was full; holds no place (forms module, docs/forms.md) */
  'WAITING_LIST',
] as const
export type VisitorStatus = (typeof VISITOR_STATUSES)[number]

/** The contact columns of a guest and of each escort person (Contact in model.ts). */
interface ContactColumns {
  salutation: string | null
  title: string | null
  first_name: string | null
  last_name: string | null
  email: string | null
  company: string | null
  position: string | null
  phone_number: string | null
}

export interface EventVisitorTable extends ContactColumns {
  id: Id
  event_id: number
  user_id: number | null
  status: VisitorStatus
  vip: GenBool
  /** main guest plus escort persons */
  visitor_count: Generated<number>
  /** places this registration holds in event.seats_taken, so a release gives back exactly these */
  seats_held: Generated<number>
  main_guest_checked_in: GenBool
  main_guest_checked_out: GenBool
  main_guest_checkin_date: Timestamp | null
  main_guest_checkout_date: Timestamp | null
  event_token: string
  download_token: string
  /** calendar and wallet download tokens: created on first use (documents/tokens.ts) */
  download_token_ics: string | null
  download_token_wallet: string | null
  decline_reason: string | null
  /** PUBLIC, ADMIN, IMPORT, INVITATION */
  source: Generated<string>
  language: Generated<string>
  mail_error: GenBool
  /** the receiving server's answer when it refused a mail to this guest (mail/worker.ts) */
  mail_error_text: string | null
  registered_at: Timestamp | null
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
  /** short random code in the ticket QR; created on first use (checkin/ticket.ts ensureTicketCode) */
  ticket_code: string | null
  invited_at: Timestamp | null
  invitation_count: Generated<number>
  /** organiser's note */
  note: string | null
  /** when the organiser last approved or declined */
  decided_at: Timestamp | null
  /** the import task that wrote the row (a failed import removes exactly its rows) */
  import_task_id: number | null
  /** escorts in now / checked out: kept by triggers for the desk's counts (migration 601) */
  escorts_in: Generated<number>
  escorts_out: Generated<number>
  /** persons the organiser added free of charge to a paid registration (beyond its tickets) */
  free_persons: Generated<number>
  /** counts changes of the escort list: an escort edit writes it conditionally (concurrent edits: 409) */
  escort_rev: Generated<number>
}
export type EventVisitorRow = Selectable<EventVisitorTable>

export interface EscortPersonTable extends ContactColumns {
  id: Id
  visitor_id: number
  number: number
  web: string | null
  info: string | null
  birthday: string | null
  covid_state: string | null
  street: string | null
  street_number: string | null
  post_code: string | null
  city: string | null
  country: string | null
  checked_in: GenBool
  checked_out: GenBool
  checkin_date: Timestamp | null
  checkout_date: Timestamp | null
}
export type EscortPersonRow = Selectable<EscortPersonTable>

export interface VisitorTables {
  event_visitor: EventVisitorTable
  escort_person: EscortPersonTable
}
