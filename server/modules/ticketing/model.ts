// Ticketing payloads (docs/ticketing.md): zod schemas shared by the server and the UI. Field names
// are the spec's (guest-side.md §3 Ticket order, Payment method, Invoice address; §7 bodies).
import { z } from 'zod'
import { isoDateTime, optionalText, requiredText } from '../../shared/validation'
import { isCountryCode } from '../forms/countries'
import { CURRENCIES } from './money'
import { INVOICE_TICKETS } from '../checkin/ticket-validity'

const cents = (max = 10_000_000) => z.number().int('INVALID').min(0, 'TOO_SMALL').max(max, 'TOO_BIG')
const nullableIso = () => isoDateTime().nullish().transform((v) => (v ? new Date(v).toISOString() : null))
/** a code typed by people (coupons, hidden categories): 3–40 of A–Z, 0–9, - and _, stored upper-case */
const codeText = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .min(3, 'TOO_SHORT')
    .max(40, 'TOO_LONG')
    .regex(/^[A-Z0-9_-]+$/, 'INVALID')
/** a coupon's categories: `categoryIds` (several) or the older single `categoryId`; none = the whole order */
const couponCategories = <T extends { categoryId: number | null; categoryIds?: number[] | null }>(c: T) => {
  const ids = [...new Set(c.categoryIds?.length ? c.categoryIds : c.categoryId != null ? [c.categoryId] : [])]
  // the field a wrong category is reported at: the one the caller sent
  return { ...c, categoryIds: ids, categoryId: ids[0] ?? null, scopeField: c.categoryIds?.length ? 'categoryIds' : 'categoryId' }
}
const categoryIdList = () => z.array(z.number().int().positive()).max(100).nullish()

export const CategoryInput = z
  .object({
    displayName: requiredText(200),
    translations: z.array(z.object({ language: z.string().min(2).max(10), displayName: requiredText(200) })).max(50).default([]),
    grossPrice: cents(),
    taxCode: z.string().max(20),
    quota: z.number().int().min(0).max(1_000_000).nullish().transform((v) => v ?? null),
    saleFrom: nullableIso(),
    saleUntil: nullableIso(),
    minPerOrder: z.number().int().min(0).max(100).default(0),
    maxPerOrder: z.number().int().min(1).max(100).default(10),
    sortOrder: z.number().int().min(-1_000_000).max(1_000_000).default(0),
    // selling rules (docs/ticketing.md, "Selling rules")
    description: optionalText(2000),
    /** a hidden category: offered only with this code; empty or null = public */
    accessCode: z.union([z.literal(''), codeText()]).nullish().transform((v) => v || null),
    requiresCategoryId: z.number().int().positive().nullish().transform((v) => v ?? null),
  })
  .refine((c) => c.minPerOrder <= c.maxPerOrder, { path: ['minPerOrder'], message: 'MIN_ABOVE_MAX' })
  .refine((c) => !c.saleFrom || !c.saleUntil || c.saleFrom < c.saleUntil, { path: ['saleUntil'], message: 'END_BEFORE_START' })
export type CategoryInput = z.infer<typeof CategoryInput>

export const CouponInput = z
  .object({
    code: codeText(),
    valueType: z.enum(['PERCENT', 'FIXED']),
    reduction: z.number().int().min(1, 'TOO_SMALL').max(10_000_000, 'TOO_BIG'),
    categoryId: z.number().int().positive().nullish().transform((v) => v ?? null),
    categoryIds: categoryIdList(),
    maxUses: z.number().int().min(1).max(1_000_000).nullish().transform((v) => v ?? null),
    validFrom: nullableIso(),
    validUntil: nullableIso(),
  })
  .refine((c) => c.valueType !== 'PERCENT' || c.reduction <= 100, { path: ['reduction'], message: 'TOO_BIG' })
  .refine((c) => !c.validFrom || !c.validUntil || c.validFrom < c.validUntil, { path: ['validUntil'], message: 'END_BEFORE_START' })
  .transform(couponCategories)
export type CouponInput = z.infer<typeof CouponInput>

/** The offline methods of this issue; STRIPE, PAYPAL, MOLLIE slot in with the next one (payment-methods.ts). */
export const OFFLINE_METHODS = ['TRANSFER', 'INVOICE', 'LOCATION', 'COUPON'] as const
export const ALL_METHODS = ['TRANSFER', 'INVOICE', 'PAYPAL', 'STRIPE', 'MOLLIE', 'LOCATION', 'COUPON'] as const

export const ONLINE_METHODS = ['STRIPE', 'PAYPAL', 'MOLLIE'] as const
export const STRIPE_PAYMENT_TYPES = ['CARD', 'SEPA', 'SOFORT', 'GIROPAY'] as const

export const PaymentMethodInput = z.object({
  method: z.enum([...OFFLINE_METHODS, ...ONLINE_METHODS]),
  currency: z.enum(CURRENCIES).default('EURO'),
  confirmationText: optionalText(2000),
  accountHolder: optionalText(70),
  iban: optionalText(40),
  bic: optionalText(11),
  bank: optionalText(200),
  transferReferencePrefix: optionalText(20),
  // online providers (docs/payments.md): publicKey is Stripe's publishable key or PayPal's client
  // id (public); secretKey (Stripe secret key, PayPal secret, Mollie API key) and webhookSecret
  // (Stripe signing secret) are write-only: empty keeps the stored one
  publicKey: optionalText(200),
  secretKey: optionalText(300),
  webhookSecret: optionalText(300),
  // PayPal's webhook id (docs/payments.md, "PayPal webhooks"): sealed with the secret, empty keeps it
  webhookId: z.string().trim().max(100).regex(/^[\w-]*$/).nullish().transform((v) => v || undefined),
  accountId: optionalText(100),
  testMode: z.boolean().default(true),
  paymentTypes: z.array(z.enum(STRIPE_PAYMENT_TYPES)).max(4).nullish(),
  disabledFundings: z.array(z.string().regex(/^[a-z]{2,20}$/)).max(20).nullish(),
})
export type PaymentMethodInput = z.infer<typeof PaymentMethodInput>

export const EventPaymentMethodsInput = z.object({ ids: z.array(z.number().int().positive()).max(20) })

/** per event: when an order paid by invoice gets its tickets (checkin/ticket-validity.ts) */
export const TicketSettingsInput = z.object({
  invoiceTickets: z.enum(INVOICE_TICKETS).optional(),
  /** unpaid transfers and invoices: days after the order to pay (null: the agency's payment terms); never after the start (orders/deadline.ts) */
  paymentDeadlineDays: z.number().int('INVALID').min(1, 'INVALID').max(365, 'INVALID').nullable().optional(),
  /** a transfer past its deadline is cancelled by the server (else only shown as overdue) */
  cancelOverdue: z.boolean().optional(),
})
/** a guest's cancellation request, the organiser's reason to decline it */
export const CancellationReasonInput = z.object({ reason: requiredText(1000) })
export const ExtendDeadlineInput = z.object({ paymentDueAt: isoDateTime() })
/** per event: the terms and cancellation policy a buyer accepts before paying (text, URL or both; none = no checkbox) */
export const TicketTermsInput = z.object({
  termsText: optionalText(20_000),
  termsUrl: z
    .string()
    .trim()
    .max(500, 'TOO_LONG')
    .nullish()
    .transform((v) => v || null)
    .refine((v) => v == null || /^https?:\/\/\S+$/.test(v), 'INVALID_URL'),
})
export type TicketTermsInput = z.infer<typeof TicketTermsInput>


const url = () =>
  z
    .string()
    .trim()
    .max(500, 'TOO_LONG')
    .nullish()
    // absent stays absent (the seller form without the imprint keeps the agency's), empty is null
    .transform((v) => (v === undefined ? undefined : v ? v : null))
    .refine((v) => v == null || /^https?:\/\/\S+$/.test(v), 'INVALID_URL')

export const SellerSettingsInput = z.object({
  name: optionalText(200),
  street: optionalText(200),
  streetNumber: optionalText(20),
  postCode: optionalText(20),
  city: optionalText(200),
  // a code of the spec's country table (agency-side.md 9.2), chosen from a list (issue 20 item 24)
  country: z.string().length(3, 'INVALID').toUpperCase().refine(isCountryCode, 'INVALID').default('DEU'),
  vatId: optionalText(30),
  taxNumber: optionalText(30),
  contactName: optionalText(200),
  phone: optionalText(40),
  email: z
    .string()
    .trim()
    .max(254, 'TOO_LONG')
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : null))
    .refine((v) => v == null || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'INVALID_EMAIL'),
  invoiceNumberPrefix: optionalText(20),
  useInvoiceXML: z.boolean().default(false),
  requireReferenceId: z.boolean().default(false),
  paymentTermsDays: z.number().int().min(0).max(365).default(14),
  /** the currency sign before the amount ("€ 12,50"), spec §9 "optional currency prefix" */
  currencyPrefix: z.boolean().default(false),
  imprintUrl: url(),
  privacyUrl: url(),
})
export type SellerSettingsInput = z.infer<typeof SellerSettingsInput>

/** What the registration call carries for a paid event. */
export const TicketPick = z.object({ categoryId: z.number().int().positive(), amount: z.number().int().min(0, 'TOO_SMALL').max(100, 'TOO_BIG') })
export const TicketsInput = z.array(TicketPick).max(50)
/** the code that reveals hidden categories (public page, registration, price preview) */
export const TicketCodeInput = z.string().trim().max(40, 'TOO_LONG').nullish()

/** The organiser's refund of chosen tickets (orders/line-refund.ts): a quantity per order line, and the escort persons whose tickets go. */
export const RefundLinesInput = z.object({
  lines: z.array(z.object({ lineId: z.number('INVALID').int('INVALID').positive('INVALID'), quantity: z.number('INVALID').int('INVALID').min(1, 'TOO_SMALL').max(10_000, 'TOO_BIG') })).min(1, 'REQUIRED').max(100, 'TOO_BIG'),
  escortIds: z.array(z.number('INVALID').int('INVALID').positive('INVALID')).max(1000, 'TOO_BIG').default([]),
})

export const InvoiceAddressInput = z.object({
  receiver: requiredText(200),
  addition: optionalText(200),
  street: requiredText(200),
  streetNumber: requiredText(20),
  postCode: requiredText(20),
  city: requiredText(200),
  country: z.string().trim().toUpperCase().length(3, 'INVALID').refine(isCountryCode, 'INVALID').default('DEU'),
})

/** POST .../proceed/invoiceAddress (spec §7) */
export const InvoiceAddressStep = z.object({
  invoiceAddress: InvoiceAddressInput,
  taxIdentificationNumber: optionalText(50),
  referenceNumber: optionalText(50),
  additionalInvoiceText: optionalText(500),
  invoiceReceiver: optionalText(200),
})
export type InvoiceAddressStep = z.infer<typeof InvoiceAddressStep>

/** POST .../proceed/additionalInformations */
export const AdditionalInformationsStep = z.object({
  escortPersons: z.array(z.record(z.string(), z.unknown())).max(100).default([]),
  fieldData: z.record(z.string(), z.unknown()).default({}),
})

/** POST .../proceed/paymentSelection */
export const PaymentSelectionStep = z.object({ paymentMethod: z.enum(ALL_METHODS), stripePaymentType: z.string().max(20).nullish() })

/** POST .../proceed/paymentPay */
export const PaymentPayStep = z.object({
  paymentMethod: z.enum(ALL_METHODS).nullish(),
  stripePaymentType: z.string().max(20).nullish(),
  fullName: optionalText(200),
  /** the buyer accepts the event's terms (required when the event has any: TERMS_NOT_ACCEPTED) */
  acceptTerms: z.boolean().nullish(),
})

/** POST .../proceed/reset: go back to an earlier user step */
export const BackStep = z.object({ step: z.number().int() })

export const ORDER_STATUSES = ['OPEN', 'CONFIRMED', 'PAID', 'WAITING_LIST', 'REQUIRE_APPROVAL', 'CANCELED', 'REFUNDED', 'DELETED'] as const
export const OrderSearch = z.object({
  status: z.enum(ORDER_STATUSES).nullish(),
  paymentMethod: z.enum(ALL_METHODS).nullish(),
  payment: z.enum(['PAID', 'OPEN', 'OVERDUE']).nullish(),
  /** OPEN: orders with an open cancellation request of the guest (orders/cancel-requests.ts) */
  cancellationRequest: z.enum(['OPEN']).nullish(),
  search: z.string().trim().max(200).nullish(),
  page: z.number().int().min(0).max(100_000).default(0),
  perPage: z.number().int().min(1).max(100).default(25),
})
export type OrderSearch = z.infer<typeof OrderSearch>

export const MarkPaidInput = z.object({ amount: cents(100_000_000), paidAt: isoDateTime().transform((v) => new Date(v).toISOString()) })

/** the export's query: the list's filters without paging */
export const OrderExportQuery = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  paymentMethod: z.enum(ALL_METHODS).optional(),
  payment: z.enum(['PAID', 'OPEN', 'OVERDUE']).optional(),
  search: z.string().trim().max(200).optional(),
})

/** The bulk generator: `count` one-use codes `PREFIX` + 10 random characters (docs/ticketing.md, "Coupons"). */
export const CouponBulkInput = z
  .object({
    count: z.number().int().min(1, 'TOO_SMALL').max(1000, 'TOO_BIG'),
    prefix: z
      .string()
      .trim()
      .toUpperCase()
      .max(20, 'TOO_LONG')
      .regex(/^[A-Z0-9_-]*$/, 'INVALID')
      .nullish()
      .transform((v) => v ?? ''),
    valueType: z.enum(['PERCENT', 'FIXED']),
    reduction: z.number().int().min(1, 'TOO_SMALL').max(10_000_000, 'TOO_BIG'),
    categoryId: z.number().int().positive().nullish().transform((v) => v ?? null),
    categoryIds: categoryIdList(),
    validFrom: nullableIso(),
    validUntil: nullableIso(),
  })
  .refine((c) => c.valueType !== 'PERCENT' || c.reduction <= 100, { path: ['reduction'], message: 'TOO_BIG' })
  .refine((c) => !c.validFrom || !c.validUntil || c.validFrom < c.validUntil, { path: ['validUntil'], message: 'END_BEFORE_START' })
  .transform(couponCategories)
export type CouponBulkInput = z.infer<typeof CouponBulkInput>
