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
export interface AgreementTables {
  agreement: AgreementTable
  visitor_agreement: VisitorAgreementTable
  agreement_signature: AgreementSignatureTable
}
