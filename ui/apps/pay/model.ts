// What the pay page reads (GET /proxy/api/guest/ticketOrder/{id}, guest-side.md §4) and the helpers
// its steps share.
import { formatMoney } from '../../../server/i18n/format'
import type { ApiError } from '../../api/client'
import type { InvoiceAddress } from '../../../server/modules/ticketing/ticketing.table'
import type { OnlineInfo } from './online'

interface Line {
  amount: number
  displayName: string
  grossPrice: number
  unitPrice: number
  discount: number
  taxCode: string
  /** the seats of this line (seating plan): "A 1, A 2" */
  chairInfo?: string | null
}
interface Method {
  id: number
  method: string
  confirmationText: string | null
  accountHolder: string | null
  iban: string | null
  bic: string | null
  bank: string | null
}
export interface Info {
  ticketOrder: {
    number: string
    step: number
    displayStep: number | null
    status: string
    grossPrice: number
    currency: string
    tax: number
    discount: number
    taxPrices: Array<{ taxCode: string; taxValue: number; totalPrice: number }>
    visitorTickets: Line[]
    usedCoupons: Array<{ code: string }>
    invoiceAddress: InvoiceAddress | null
    referenceNumber: string | null
    paymentMethod: string | null
    fullName: string | null
    invoiceAddressDisabled: boolean
    editableSteps: number[]
    transferReference: string | null
  }
  event: { id: number; displayName: string; registrationButtonType: string; primaryColor: string | null }
  paymentMethods: Method[]
  qrCode: string | null
  requiredActions: string[]
  /** REQUIRE_FIELDS: required fields of the registration still empty, asked for on step 5 */
  missingFields: Array<{ defaultField: string | null; fieldId: number; field: string; displayName: string; type: string }>
  /** the stored escort persons (spec §3 Escort person; `number` names one when it is sent back) */
  escortPersons: Array<{
    number: number
    firstName: string
    lastName: string
    salutation?: string | null
    title?: string | null
    email?: string | null
    company?: string | null
    position?: string | null
    phoneNumber?: string | null
    web?: string | null
    info?: string | null
    birthday?: string | null
    address?: { street: string | null; streetNumber: string | null; postCode: string | null; city: string | null; country: string | null } | null
  }>
  /** appearance per escort property (spec §3 `fields`): what step 5 asks */
  fields?: Record<string, 'HIDDEN' | 'VISIBLE' | 'REQUIRED'>
  visitor: { visitorCount: number } | null
  /** §3: the buyer as the registration knows them; invoiceAddress: the one given, or the one their address offers */
  userAccount?: { firstName: string | null; lastName: string | null; email: string | null; invoiceAddress: InvoiceAddress | null } | null
  useInvoiceXML: boolean
  requireReferenceId: boolean
  imprintUrl: string | null
  privacyUrl: string | null
  stripePayment: OnlineInfo['stripePayment']
  paymentScripts?: OnlineInfo['paymentScripts']
}

export const money = (cents: number, currency: string) => `${formatMoney(cents)} ${currency === 'CHF' ? 'CHF' : '€'}`

export type Proceed = (path: string, body: unknown) => Promise<ApiError | null>

export interface Online {
  base: string
  done(error?: string | null): Promise<void>
}
