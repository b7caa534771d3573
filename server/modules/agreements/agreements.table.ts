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
  /** raised by every change; a signature names the version it was given for */
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

/** Append-only record of every decision: the agreement as it was shown, its version, the image, when, where. */
export interface AgreementSignatureTable {
  id: Id
  visitor_id: number
  agreement_id: number
  event_id: number
  status: 'CONFIRMED' | 'DECLINED'
  signature: string | null
  agreement_version: number
  agreement_name: string
  agreement_text: string
  appearance: string
  /** GUEST (dashboard), SELF_CHECKIN, DESK */
  origin: string
  account_id: number | null
  decided_at: Timestamp
}
/** The organiser's text of an agreement in one language (migration 2026-11-30-100); null fields read German. */
export interface AgreementTranslationTable {
  id: Id
  agreement_id: number
  language: string
  display_name: string | null
  description: string | null
  updated_at: Generated<Timestamp>
}
export type AgreementTranslationRow = Selectable<AgreementTranslationTable>

export interface AgreementTables {
  agreement: AgreementTable
  agreement_translation: AgreementTranslationTable
  visitor_agreement: VisitorAgreementTable
  agreement_signature: AgreementSignatureTable
}
