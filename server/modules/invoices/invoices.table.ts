import type { Generated, Selectable } from 'kysely'
import type { GenJson, Id, Json, Timestamp } from '../../db/types'
import type { InvoiceSnapshot } from './snapshot'

export interface InvoiceSequenceTable {
  agency_id: number
  /** the number the next invoice of the agency gets */
  next_number: Generated<number>
}

export interface InvoiceTable {
  id: Id
  agency_id: number
  event_id: number | null
  /** the order (or other sale) the invoice is for, as its domain names it */
  order_ref: string
  issue_key: string
  kind: 'INVOICE' | 'CANCELLATION'
  number: string
  cancels_invoice_id: number | null
  currency: string
  gross_cents: number
  snapshot: Json<InvoiceSnapshot>
  issued_at: Generated<Timestamp>
}
export type InvoiceRow = Selectable<InvoiceTable>

/** The accountant's DATEV settings of an agency (migration 910, docs/invoices.md "DATEV"). */
export interface AccountingSettingsTable {
  agency_id: number
  consultant_number: number | null
  client_number: number | null
  fiscal_year_start_month: Generated<number>
  account_length: Generated<number>
  chart: Generated<string>
  debtor_account: string | null
  /** JSON: [{ rate: number | null, account: string, buKey: string | null }] */
  revenue_accounts: GenJson<unknown>
  updated_at: Timestamp | null
}

export interface InvoiceTables {
  invoice_sequence: InvoiceSequenceTable
  invoice: InvoiceTable
  accounting_settings: AccountingSettingsTable
}
