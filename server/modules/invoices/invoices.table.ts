import type { Generated, Selectable } from 'kysely'
import type { Id, Json, Timestamp } from '../../db/types'
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

export interface InvoiceTables {
  invoice_sequence: InvoiceSequenceTable
  invoice: InvoiceTable
}
