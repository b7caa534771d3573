// Kysely types of the ticketing tables (migration 2026-11-23-410_ticketing, docs/ticketing.md).
import type { Generated, Selectable } from 'kysely'
import type { GenBool, GenJson, Id, Json, Timestamp } from '../../db/types'

export interface TicketCategoryTable {
  id: Id
  event_id: number
  display_name: string
  translations: GenJson<Array<{ language: string; displayName: string }>>
  gross_price: number
  tax_code: string
  quota: number | null
  sold: Generated<number>
  sale_from: Timestamp | null
  sale_until: Timestamp | null
  min_per_order: Generated<number>
  max_per_order: Generated<number>
  sort_order: Generated<number>
  /** selling rules (docs/ticketing.md, "Selling rules") */
  description: string | null
  /** a hidden category: offered only with this code (upper-case); null = public */
  access_code: string | null
  /** only with at least one ticket of this category in the same order */
  requires_category_id: number | null
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
}
export type TicketCategoryRow = Selectable<TicketCategoryTable>

export interface CouponTable {
  id: Id
  event_id: number
  code: string
  value_type: 'PERCENT' | 'FIXED'
  reduction: number
  category_id: number | null
  /** JSON array of the categories reduced; null = category_id alone (or the whole order) */
  category_ids: Json<number[]> | null
  max_uses: number | null
  used: Generated<number>
  valid_from: Timestamp | null
  valid_until: Timestamp | null
  created_at: Generated<Timestamp>
}
export type CouponRow = Selectable<CouponTable>

export interface PaymentMethodTable {
  id: Id
  agency_id: number
  method: string
  currency: Generated<string>
  confirmation_text: string | null
  account_holder: string | null
  iban: string | null
  bic: string | null
  bank: string | null
  transfer_reference_prefix: string | null
  /** online providers (docs/payments.md): public key / PayPal client id, Stripe connected account */
  public_key: string | null
  account_id: string | null
  /** sealed JSON of the provider secrets (secret-box), never sent out */
  secret_sealed: string | null
  test_mode: GenBool
  payment_types: string | null
  disabled_fundings: string | null
  created_at: Generated<Timestamp>
}
export type PaymentMethodRow = Selectable<PaymentMethodTable>

export interface EventPaymentMethodTable {
  event_id: number
  payment_method_id: number
}

export interface SellerSettingsTable {
  agency_id: number
  name: string | null
  street: string | null
  street_number: string | null
  post_code: string | null
  city: string | null
  country: Generated<string>
  vat_id: string | null
  tax_number: string | null
  contact_name: string | null
  phone: string | null
  email: string | null
  invoice_number_prefix: string | null
  use_invoice_xml: GenBool
  require_reference_id: GenBool
  payment_terms_days: Generated<number>
  /** the currency sign before the amount ("€ 12,50"); else after it ("12,50 €") */
  currency_prefix: GenBool
  updated_at: Generated<Timestamp>
}
export type SellerSettingsRow = Selectable<SellerSettingsTable>

export type OrderStatus = 'OPEN' | 'CONFIRMED' | 'PAID' | 'WAITING_LIST' | 'REQUIRE_APPROVAL' | 'CANCELED' | 'REFUNDED' | 'DELETED'

export interface TicketOrderTable {
  id: Id
  public_id: string
  number: string
  agency_id: number
  event_id: number
  visitor_id: number | null
  email: string | null
  full_name: string | null
  language: Generated<string>
  status: OrderStatus
  step: number
  currency: string
  gross_price: number
  tax_price: number
  discount: Generated<number>
  coupon_id: number | null
  coupon_held: Generated<number>
  seats_held: Generated<number>
  tickets_held: Generated<number>
  payment_method: string | null
  invoice_address: Json<InvoiceAddress> | null
  tax_identification_number: string | null
  reference_number: string | null
  additional_invoice_text: string | null
  invoice_receiver: string | null
  invoice_address_disabled: GenBool
  hold_until: Timestamp | null
  payment_due_at: Timestamp | null
  /** the reminder before payment_due_at was sent (cleared when the deadline is extended) */
  payment_reminded_at: Timestamp | null
  paid_amount: number | null
  paid_at: Timestamp | null
  /** the buyer's acceptance of the organiser's terms (docs/ticketing.md, "Selling rules") */
  terms_accepted_at: Timestamp | null
  terms_version: string | null
  terms_text: string | null
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
}
export type TicketOrderRow = Selectable<TicketOrderTable>

export interface InvoiceAddress {
  receiver: string
  addition?: string | null
  street: string
  streetNumber: string
  postCode: string
  city: string
  country: string
}

export interface TicketOrderLineTable {
  id: Id
  order_id: number
  category_id: number | null
  amount: number
  display_name: string
  unit_price: number
  gross_price: number
  discount: Generated<number>
  tax_code: string
  tax_rate: number
  tax_price: number
  sort_order: Generated<number>
  /** tickets of this line refunded one by one (orders/line-refund.ts); the line keeps what was bought */
  refunded_quantity: Generated<number>
}
export type TicketOrderLineRow = Selectable<TicketOrderLineTable>

export interface TicketOrderHistoryTable {
  id: Id
  order_id: number
  at: Timestamp
  kind: string
  account_id: number | null
  data: GenJson<Record<string, unknown>>
}

/** a guest's request to cancel a paid order (migration 2026-11-29-210; orders/cancel-requests.ts) */
export interface OrderCancellationRequestTable {
  id: Id
  agency_id: number
  event_id: number
  order_id: number
  /** OPEN, GRANTED, DECLINED */
  status: Generated<string>
  reason: string
  decline_reason: string | null
  created_at: Timestamp
  decided_at: Timestamp | null
  decided_by: number | null
}

/** a person whose ticket was refunded on its own (orders/line-refund.ts): their QR is refused at the desk */
export interface CanceledTicketPersonTable {
  id: Id
  order_id: number
  visitor_id: number
  /** the person number of the signed QR: n = escort person n */
  person: number
  name: string | null
  created_at: Timestamp
}

export interface TicketingTables {
  canceled_ticket_person: CanceledTicketPersonTable
  order_cancellation_request: OrderCancellationRequestTable
  ticket_category: TicketCategoryTable
  coupon: CouponTable
  payment_method: PaymentMethodTable
  event_payment_method: EventPaymentMethodTable
  seller_settings: SellerSettingsTable
  ticket_order: TicketOrderTable
  ticket_order_line: TicketOrderLineTable
  ticket_order_history: TicketOrderHistoryTable
}
