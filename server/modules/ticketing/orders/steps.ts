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

/**
 * Step 10 (USER_REQUIRED_PAYMENT_DATA) is never entered (issue 20 item 6, docs/ticketing.md): every
 * method's payment data is asked on the confirmation (Stripe's Payment Element, PayPal's buttons,
 * Mollie's checkout), so no order waits on 10 and the page has no screen for it. The number stays
 * reserved for the spec's table; an order found on it (none is written) is shown its confirmation.
 */
export const USER_STEPS = [STEP.INVOICE_ADDRESS, STEP.ADDITIONAL_INFORMATIONS, STEP.PAYMENT_METHOD, STEP.CONFIRMATION] as const
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
  /** the order has escort persons to name (more than one ticket): step 5 can be edited */
  additionalApplies: boolean
}

/** The first user step whose data is still missing; CONFIRMATION when everything is there. */
export function nextStep(s: StepState): number {
  if (!s.invoiceAddressDisabled && s.grossPrice > 0 && !s.hasInvoiceAddress) return STEP.INVOICE_ADDRESS
  if (s.requiredActions.length) return STEP.ADDITIONAL_INFORMATIONS
  if (s.grossPrice > 0 && !s.paymentMethod) return STEP.PAYMENT_METHOD
  return STEP.CONFIRMATION
}

/**
 * The user steps this order goes through, in order (issue 20 item 23): the invoice address when
 * there is a price and it is not disabled, the additional information when it applies, the payment
 * method when there is a choice (a single method is preselected and skipped), the confirmation. The
 * current step is always among them. The page shows "Schritt n von m" over this list: the usual
 * order (address, method, confirmation) numbers the confirmation 3, a free order with escorts 2, as
 * §2 says; an order that also names escorts has 4 steps, and each has its own number.
 */
export function shownSteps(current: number, s: Pick<StepState, 'grossPrice' | 'invoiceAddressDisabled' | 'methodCount' | 'additionalApplies'>): number[] {
  const out: number[] = []
  if ((!s.invoiceAddressDisabled && s.grossPrice > 0) || current === STEP.INVOICE_ADDRESS) out.push(STEP.INVOICE_ADDRESS)
  if (s.additionalApplies || current === STEP.ADDITIONAL_INFORMATIONS) out.push(STEP.ADDITIONAL_INFORMATIONS)
  if ((s.grossPrice > 0 && s.methodCount > 1) || current === STEP.PAYMENT_METHOD) out.push(STEP.PAYMENT_METHOD)
  out.push(STEP.CONFIRMATION)
  return out
}

/** "Schritt n von m": the step's place among the order's shown steps; null outside the user steps. */
export function displayNumber(step: number, s: Pick<StepState, 'grossPrice' | 'invoiceAddressDisabled' | 'methodCount' | 'additionalApplies'>): { n: number; of: number } | null {
  const list = shownSteps(step, s)
  const i = list.indexOf(step)
  return i < 0 ? null : { n: i + 1, of: list.length }
}

/** The back rules of §4: to an earlier user step below confirmation, with its exceptions. */
export function canGoBack(current: number, target: number, s: Pick<StepState, 'grossPrice' | 'invoiceAddressDisabled' | 'methodCount' | 'additionalApplies'>): boolean {
  if (current >= STEP.EXTERNAL_SITE) return false // processing, finished, cancelled, failed …
  if (!(USER_STEPS as readonly number[]).includes(target) || target >= STEP.CONFIRMATION || target >= current) return false
  if (target === STEP.INVOICE_ADDRESS && (s.invoiceAddressDisabled || s.grossPrice === 0)) return false
  if (target === STEP.PAYMENT_METHOD && (s.grossPrice === 0 || s.methodCount <= 1)) return false
  if (target === STEP.ADDITIONAL_INFORMATIONS && !s.additionalApplies) return false
  return true
}

/** The steps the page lists with an edit link from the current one. */
export function editableSteps(current: number, s: Pick<StepState, 'grossPrice' | 'invoiceAddressDisabled' | 'methodCount' | 'additionalApplies'>): number[] {
  return [STEP.INVOICE_ADDRESS, STEP.ADDITIONAL_INFORMATIONS, STEP.PAYMENT_METHOD].filter((t) => canGoBack(current, t, s))
}
