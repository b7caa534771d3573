// What the pay page reads (GET /proxy/api/guest/ticketOrder/{id}, guest-side.md §4) and the helpers
// its steps share.
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
    /** the steps this order shows ("Schritt n von m") */
    displaySteps: number | null
    /** the tickets are held until then (open, before the payment) */
    holdUntil: string | null
    /** the page offers continue-and-reset */
    canContinue: boolean
    /** the page offers "Zahlungsart ändern" (an unpaid transfer or invoice order) */
    canChangePaymentMethod?: boolean
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
  /** the organiser's terms accepted before paying (null: no checkbox) and the acceptance once given */
  terms?: { termsText: string | null; termsUrl: string | null } | null
  termsAccepted?: { acceptedAt: string } | null
  /** the agency's money format */
  currencyPrefix: boolean
  /** the chosen method's text while something is to be paid */
  confirmationText: string | null
  /** the seats of the order: "Saal · A 12" */
  seats: string[]
  /** where a finished, settled order goes (the organiser's link after registration) */
  redirectUrl: string | null
  stripePayment: OnlineInfo['stripePayment']
  paymentScripts?: OnlineInfo['paymentScripts']
}

export { money, setMoneyPrefix } from './money'

/** §4: for a WAITING_LIST order the notice differs when the registration button type is SEND (a request). */
export const waitingNotice = (registrationButtonType: string) => (registrationButtonType === 'SEND' ? 'ticketing.pay.waitingListRequest' : 'ticketing.pay.waitingList')

/**
 * The notice of an order that offers no payment step (§4), or null: waiting list, approval, refunded,
 * expired, failed, a payment cancelled at the provider (which may be continued) and the order-
 * cancelled notice (cancelled by the organiser, deleted).
 */
export function endedNotice(o: { status: string; step: number; canContinue?: boolean }, registrationButtonType: string): { key: string; tone: 'info' | 'warn' | 'error' } | null {
  if (o.status === 'WAITING_LIST') return { key: waitingNotice(registrationButtonType), tone: 'info' }
  if (o.status === 'REQUIRE_APPROVAL') return { key: 'ticketing.pay.requireApproval', tone: 'info' }
  if (o.step === 902 || o.status === 'REFUNDED') return { key: 'ticketing.pay.refunded', tone: 'warn' }
  if (o.step === 901) return { key: 'ticketing.pay.expired', tone: 'warn' }
  if (o.step === 910) return { key: 'ticketing.pay.failed', tone: 'error' }
  if (o.step === 900) return { key: o.canContinue ? 'ticketing.pay.paymentCanceled' : 'ticketing.pay.canceled', tone: 'warn' }
  if (o.status === 'DELETED' || o.status === 'CANCELED') return { key: 'ticketing.pay.canceled', tone: 'warn' }
  return null
}

/** The hold's countdown: mm:ss until the instant (00:00 once passed). */
export function holdLeft(until: string, now: number): string {
  const s = Math.max(0, Math.ceil((Date.parse(until) - now) / 1000))
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
}

export type Proceed = (path: string, body: unknown) => Promise<ApiError | null>

export interface Online {
  base: string
  done(error?: string | null): Promise<void>
}
