import type { Generated, Selectable } from 'kysely'
import type { GenBool, Id, Timestamp } from '../../db/types'

export interface AgreementTable {
  id: Id
  agency_id: number
  event_id: number | null
  /** GLOBAL (agency default) or EVENT */
  validity: 'GLOBAL' | 'EVENT'
  display_name: string
  /** sanitised HTML */
  description: Generated<string>
  /** VISIBLE = optional, REQUIRED */
  appearance: Generated<'VISIBLE' | 'REQUIRED'>
  active: GenBool
  sort_order: Generated<number>
  /** counts the organiser's edits; a consent names the version it was given to */
  version: Generated<number>
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
}
export type AgreementRow = Selectable<AgreementTable>

export interface VisitorAgreementTable {
  id: Id
  visitor_id: number
  agreement_id: number
  event_id: number
  status: 'CONFIRMED' | 'DECLINED'
  signature: string | null
  decided_at: Timestamp
  confirm_date: Timestamp | null
  decline_date: Timestamp | null
  origin: string
  account_id: number | null
}
export type VisitorAgreementRow = Selectable<VisitorAgreementTable>

/** Every decision as given, never updated (the evidence; visitor_agreement holds the current state). */
export interface AgreementConsentTable {
  id: Id
  visitor_id: number
  agreement_id: number
  event_id: number
  status: 'CONFIRMED' | 'DECLINED'
  /** name and sanitised HTML text as shown to the guest */
  display_name: string
  text: string
  version: number
  /** PNG data URL of the drawn signature (CONFIRMED) */
  signature: string | null
  /** REGISTRATION, GUEST, DESK, SELF_CHECKIN */
  origin: string
  account_id: number | null
  decided_at: Timestamp
}

export interface AgreementTables {
  agreement: AgreementTable
  visitor_agreement: VisitorAgreementTable
  agreement_consent: AgreementConsentTable
}
