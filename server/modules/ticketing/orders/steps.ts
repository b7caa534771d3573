// The order step machine of guest-side.md §4 (docs/ticketing.md, "Pay page and step machine"),
// as pure functions over the order's state: which step comes next, which display number a step
// has, and where the guest may go back to. The proceed calls (orders/guest.ts) only ever store
// what these answer.

export const STEP = {
  INVOICE_ADDRESS: 1,
  ADDITIONAL_INFORMATIONS: 5,
  PAYMENT_METHOD: 8,
  PAYMENT_DATA: 10,
  CONFIRMATION: 40,
  EXTERNAL_SITE: 70,
  PROCESSING: 80,
  WAIT: 90,
  FINISHED: 100,
  CANCELED: 900,
  EXPIRED: 901,
  REFUNDED: 902,
  FAILED: 910,
} as const

export const USER_STEPS = [STEP.INVOICE_ADDRESS, STEP.ADDITIONAL_INFORMATIONS, STEP.PAYMENT_METHOD, STEP.PAYMENT_DATA, STEP.CONFIRMATION] as const
/** statuses with no payment steps (§4) */
export const NOT_PAYABLE = ['WAITING_LIST', 'REQUIRE_APPROVAL', 'CANCELED', 'REFUNDED', 'DELETED'] as const

export interface StepState {
  grossPrice: number
  invoiceAddressDisabled: boolean
  hasInvoiceAddress: boolean
  requiredActions: readonly string[]
  paymentMethod: string | null
  /** enabled methods the guest can choose from */
  methodCount: number
  /** the chosen method wants payment data (step 10) and it is not given yet */
  needsPaymentData: boolean
  /** the order has escort persons to name (more than one ticket): step 5 can be edited */
  additionalApplies: boolean
}

/** The first user step whose data is still missing; CONFIRMATION when everything is there. */
export function nextStep(s: StepState): number {
  if (!s.invoiceAddressDisabled && s.grossPrice > 0 && !s.hasInvoiceAddress) return STEP.INVOICE_ADDRESS
  if (s.requiredActions.length) return STEP.ADDITIONAL_INFORMATIONS
  if (s.grossPrice > 0 && !s.paymentMethod) return STEP.PAYMENT_METHOD
  if (s.needsPaymentData) return STEP.PAYMENT_DATA
  return STEP.CONFIRMATION
}

/**
 * The number the page shows: confirmation is 3, or 2 when the gross price is 0 (§2); invoice
 * address and additional information are 1, payment method and data 2.
 */
export function displayNumber(step: number, grossPrice: number): number | null {
  if (step === STEP.INVOICE_ADDRESS || step === STEP.ADDITIONAL_INFORMATIONS) return 1
  if (step === STEP.PAYMENT_METHOD || step === STEP.PAYMENT_DATA) return 2
  if (step === STEP.CONFIRMATION) return grossPrice === 0 ? 2 : 3
  return null
}

/** The back rules of §4: to an earlier user step below confirmation, with its exceptions. */
export function canGoBack(current: number, target: number, s: Pick<StepState, 'grossPrice' | 'invoiceAddressDisabled' | 'methodCount' | 'additionalApplies'>): boolean {
  if (current >= STEP.EXTERNAL_SITE) return false // processing, finished, cancelled, failed …
  if (!(USER_STEPS as readonly number[]).includes(target) || target >= STEP.CONFIRMATION || target >= current) return false
  if (target === STEP.INVOICE_ADDRESS && (s.invoiceAddressDisabled || s.grossPrice === 0)) return false
  if (target === STEP.PAYMENT_METHOD && (s.grossPrice === 0 || s.methodCount <= 1)) return false
  if (target === STEP.ADDITIONAL_INFORMATIONS && !s.additionalApplies) return false
  if (target === STEP.PAYMENT_DATA) return false
  return true
}

/** The steps the page lists with an edit link from the current one. */
export function editableSteps(current: number, s: Pick<StepState, 'grossPrice' | 'invoiceAddressDisabled' | 'methodCount' | 'additionalApplies'>): number[] {
  return [STEP.INVOICE_ADDRESS, STEP.ADDITIONAL_INFORMATIONS, STEP.PAYMENT_METHOD].filter((t) => canGoBack(current, t, s))
}
