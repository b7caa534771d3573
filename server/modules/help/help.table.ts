import type { Generated, Selectable } from 'kysely'
import type { GenBool, Id, Timestamp } from '../../db/types'

/** A guest's report (guest-side.md 2 "Report dialog", 3 "Report"); identity empty for SEXUAL_ABUSE. */
export interface GuestReportTable {
  id: Id
  agency_id: number | null
  event_id: number | null
  user_id: number | null
  report_type: string
  origin: string | null
  origin_url: string | null
  event_name: string | null
  agency_name: string | null
  reason: string
  important: GenBool
  sexual_abuse: GenBool
  submit_identity: GenBool
  confirm_correct_data: GenBool
  first_name: string | null
  last_name: string | null
  email: string | null
  created_at: Generated<Timestamp>
}
export type GuestReportRow = Selectable<GuestReportTable>

export interface SupportMessageTable {
  id: Id
  agency_id: number | null
  event_id: number | null
  user_id: number | null
  user_email: string | null
  subject: string
  content: string
  origin_url: string | null
  state: string | null
  dialog: string | null
  additional_data: string | null
  event_name: string | null
  created_at: Generated<Timestamp>
}

export interface FeedbackTable {
  id: Id
  /** the agency and event the feedback is about (null: about the software, for the server's support) */
  agency_id?: number | null
  event_id?: number | null
  event_name?: string | null
  user_id: number | null
  name: string | null
  email: string | null
  page: string | null
  message: string
  created_at: Generated<Timestamp>
}

export interface HelpTables {
  guest_report: GuestReportTable
  support_message: SupportMessageTable
  feedback: FeedbackTable
}
