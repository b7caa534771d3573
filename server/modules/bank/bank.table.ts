import type { Selectable } from 'kysely'
import type { GenJson, Id, Timestamp } from '../../db/types'

/**
 * What became of a credit: MATCHED (marked paid by the import), ASSIGNED (by a person), DISMISSED;
 * listed for a person: PARTIAL (less than the order), OVERPAID (more), UNKNOWN (no order named),
 * AMBIGUOUS (several open orders named), NOT_OPEN (its order is paid or cancelled), MATCHING (the
 * import stopped between recording the entry and marking the order paid).
 */
export type BankEntryStatus = 'MATCHED' | 'ASSIGNED' | 'DISMISSED' | 'PARTIAL' | 'OVERPAID' | 'UNKNOWN' | 'AMBIGUOUS' | 'NOT_OPEN' | 'MATCHING'
export const LISTED_STATUSES = ['PARTIAL', 'OVERPAID', 'UNKNOWN', 'AMBIGUOUS', 'NOT_OPEN', 'MATCHING'] as const

export interface BankEntryTable {
  id: Id
  agency_id: number
  entry_ref: string
  statement_id: string | null
  account_iban: string | null
  booking_date: string
  amount_cents: number
  currency: string
  debtor_name: string | null
  debtor_iban: string | null
  remittance: string
  status: BankEntryStatus
  order_id: number | null
  /** JSON: ids of the orders the remittance text named */
  candidates: GenJson<number[]>
  imported_at: Timestamp
  imported_by: number | null
  decided_at: Timestamp | null
  decided_by: number | null
}
export type BankEntryRow = Selectable<BankEntryTable>

export interface BankTables {
  bank_entry: BankEntryTable
}
