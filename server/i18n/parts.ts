// The UI's text parts (which keys each page carries): the UI bundles German by part
// (ui/i18n/german.ts), the server serves every other language by the same parts
// (/proxy/api/public/translations?part=core,public), so a guest downloads only the texts of the
// pages they open, in their language. Pure data; no imports.

/** Key prefixes per part; a prefix matches the key itself and every key below it (`events.online`). */
export const PARTS = {
  /** every screen: shell, buttons, error and field messages (any server error may reach any page) */
  core: ['app', 'common', 'errors', 'field'],
  /** the public registration page and its form engine */
  public: ['registration', 'form', 'fieldType', 'gender', 'covidState', 'defaultField', 'events.online', 'events.registrationState', 'signature'],
  /** the guest pages (dashboard, self check-in, help, notifications, the no-permission page); the
   * account area and the data-change form load their parts when opened. Kept in step by
   * server/modules/guest/guest-budget.test.ts (every key the guest pages name is in core + guest). */
  guest: ['guest', 'guestPortal', 'guestAgreements', 'selfCheckin', 'help', 'report', 'notifications', 'visitorStatus', 'signature', 'nav', 'role', 'auth', 'account', 'registration', 'form', 'fieldType', 'defaultField'],
  /** the ticket order payment page /pay/{id} */
  pay: ['ticketing', 'payments.pay'],
  /** the seat picker (ui/components/seat-picker, its own chunk): the public page does not carry them */
  seats: ['registration.seats'],
  /** the ticket chooser (ui/apps/public/ticket-picker.tsx, its own chunk): only events that sell tickets load it */
  shop: ['registration.tickets'],
} as const

/** Keys under a `public` prefix that the seat picker's and the ticket chooser's parts carry instead (the public page names only these two). */
const publicLeaves = (key: string) =>
  (key.startsWith('registration.seats.') && key !== 'registration.seats.done') || (key.startsWith('registration.tickets.') && key !== 'registration.tickets.submit')

export type PartName = keyof typeof PARTS | 'rest'
export const PART_NAMES: readonly PartName[] = ['core', 'public', 'guest', 'pay', 'seats', 'shop', 'rest']

/**
 * Error codes only the organiser's own calls answer (limits, imports, sales setup, refunds, approvals,
 * the seat editor): their `errors.` and `field.` texts come with `rest`, not with `core`, so the public
 * and guest pages do not carry them. Guests never see these; the server's answers carry their German
 * text (errorMessage) in any case, the catalogue only names fields.
 */
export const ORGANISER_ONLY_ERRORS = [
  'LAST_ADMINISTRATOR', 'LAST_ADMINISTRATOR_ROLE', 'ALREADY_MEMBER', 'LIMIT_EVENTS_EXCEEDED', 'LIMIT_AGENCY_USERS_EXCEEDED', 'CAPACITY_BELOW_TAKEN',
  'EVENT_NOT_DELETED', 'FIELD_IN_USE', 'IMPORT_HAS_INVALID_ROWS', 'IMPORT_EMPTY', 'IMPORT_UNREADABLE', 'DUPLICATE_IN_FILE', 'NO_GUESTS_TO_INVITE', 'NO_EMAIL',
  'PARSER_UNKNOWN_FORMAT', 'SHORT_LINK_TAKEN', 'INVOICE_NOT_CANCELLABLE', 'SEATING_CHAIR_IN_USE', 'WALLET_CERTIFICATE_INVALID', 'ORDER_NOT_PAID',
  'CATEGORY_HAS_ORDERS', 'QUOTA_BELOW_SOLD', 'COUPON_CODE_TAKEN', 'PAYMENT_METHOD_EXISTS', 'APPROVAL_TICKETS_SOLD_OUT', 'APPROVAL_COUPON_USED_UP',
  'ORDER_AWAITS_PAYMENT', 'APPROVAL_SEAT_NOT_AVAILABLE', 'REFUND_TOO_LARGE', 'REFUND_NOT_ONLINE', 'WEBHOOK_SIGNATURE_INVALID', 'TICKET_OTHER_EVENT',
  'INVALID_TAX_CODE', 'INVALID_IBAN', 'INVALID_BIC', 'MIN_ABOVE_MAX', 'CURRENCY_MISMATCH', 'NAME_TAKEN', 'TYPE_CHANGE_NOT_ALLOWED', 'APPEARANCE_NOT_ALLOWED',
  'INVALID_CONDITION', 'DESK_PAYMENT_ONLINE', 'ESCORTS_NOT_PAID', 'REFUND_ONLINE_PAYMENT', 'PAYMENT_KEYS_REJECTED', 'CURRENCY_HAS_CATEGORIES', 'EVENT_NO_PAYMENT_METHOD', 'MARK_PAID_UNDO_NOT_ALLOWED', 'INVOICE_ALREADY_CREDITED', 'INVOICE_NOT_ISSUABLE',
  // the accountant's exports and the bank statement import (issue 21, modules/invoices, modules/bank)
  'ACCOUNTING_PERIOD_TOO_LARGE', 'DATEV_SETTINGS_MISSING', 'DATEV_PERIOD_SPANS_YEARS', 'DATEV_MIXED_CURRENCIES', 'DATEV_ACCOUNT_MISSING', 'DATEV_PERIOD_REQUIRED',
  'CAMT_TOO_LARGE', 'CAMT_NOT_XML', 'CAMT_DTD', 'CAMT_ENTITY', 'CAMT_TOO_DEEP', 'CAMT_NOT_A_STATEMENT', 'BANK_ENTRY_DECIDED', 'BANK_ORDER_NOT_FOUND',
  'CODE_OTHER_PERSON',
  // refunds per line (ticketing/orders/line-refund.ts) and the desk's refusal of a refunded person's QR
  'REFUND_ALL_TICKETS', 'REFUND_PERSONS', 'TICKET_PERSON_CANCELED',
  // check-in lists (checkin/lists.ts, list-checkin.ts): the desk and the event's check-in settings
  'CHECKIN_LIST_CATEGORY', 'CHECKIN_LIST_NO_TICKET', 'CHECKIN_LIST_IN_USE',
  // the payment deadline's extension (ticketing/orders/deadline.ts)
  'PAYMENT_DEADLINE_IN_PAST', 'PAYMENT_DEADLINE_AFTER_EVENT', 'CANCELLATION_REQUEST_NOT_OPEN',
  // mail settings and the mail sender (issue 23, modules/mail)
  // mail texts an agency edits (mail/texts.ts)
  'MAIL_TEXT_UNKNOWN_PLACEHOLDER', 'MAIL_TEXT_UNBALANCED_BRACES', 'MAIL_TEXT_INVALID_PLURAL',
  // staff single sign-on (identity/sso): the login page and the organiser's settings
  'SSO_NOT_CONFIGURED', 'SSO_DISCOVERY_FAILED', 'SSO_PROVIDER_ERROR', 'SSO_STATE_INVALID', 'SSO_TOKEN_FAILED', 'SSO_WRONG_AUDIENCE', 'SSO_TOKEN_EXPIRED',
  'SSO_TOKEN_INVALID', 'SSO_EMAIL_MISSING', 'SSO_EMAIL_DOMAIN', 'SSO_NO_ACCOUNT', 'SSO_LOGIN_REQUIRED', 'SSO_LOGOUT_REQUIRED', 'SSO_ISSUER_URL', 'SSO_DOMAIN',
  // the subscription edition's payment steps (license/index.ts)
  'BOOKING_VIA_SUPPORT',
  // the media gallery's picker (modules/media)
  'MEDIA_ENTRY_NOT_VALID',
  'MAIL_SETTINGS_IN_USE', 'MAIL_SETTINGS_TYPE_FIXED', 'SENDER_NAME_AT', 'SENDER_NAME_REQUIRED', 'INVALID_SENDER_ADDRESS', 'INVALID_FULL_MAIL', 'SENDER_PREFIX', 'INVALID_DOMAIN', 'INVALID_PREFIX',
] as const
/**
 * Error codes guests can get whose text the pages only ever show from the answer (`errorText`: the
 * server's errorTranslation, api/client.ts), never by key: kept out of `core` like the organiser's
 * (page budgets).
 */
export const ANSWER_TEXT_ERRORS = [
  'ESCORTS_NEED_TICKETS', 'ESCORTS_CHANGED_MEANWHILE',
  // a process at its in-flight bound (server/app.ts)
  'SERVER_BUSY',
  // the database unreachable for a moment (a Postgres restart; server/http/errors.ts)
  'DATABASE_UNAVAILABLE',
  // the file storage (S3 bucket) not reachable for an upload or download (assets/service.ts)
  'STORAGE_UNAVAILABLE',
  // a ticket not valid (yet) at the desk, self check-in and the documents (ticket-validity.ts)
  'TICKET_UNPAID', 'TICKET_PAYMENT_PENDING', 'TICKET_ORDER_CANCELED', 'TICKET_ORDER_REFUNDED',
  // a seat plan whose price categories are not linked to ticket categories
  'SEATING_NOT_LINKED',
  // the pool of a client address's unclaimed uploads is full (assets/service.ts)
  'UPLOAD_POOL_FULL',
  // passing on a place whose ticket is not valid yet (guest/transfer.ts)
  'TRANSFER_TICKET_NOT_VALID',
  // a guest's cancellation request (ticketing/orders/cancel-requests.ts)
  'CANCELLATION_REQUEST_OPEN', 'CANCELLATION_REQUEST_TOO_LATE',
  // changing the payment method of an unpaid order (ticketing/orders/switch-method.ts)
  'PAYMENT_ATTEMPT_OPEN', 'INVOICE_ALREADY_ISSUED',
] as const
/**
 * Field codes only the ticket chooser and the pay page show (selling rules, docs/ticketing.md): their
 * texts come with the `shop` and `pay` parts, not with `core`.
 */
export const SHOP_ERRORS = ['REQUIRES_CATEGORY', 'TICKET_CODE_INVALID', 'TERMS_NOT_ACCEPTED'] as const
const shopErrors = new Set<string>(SHOP_ERRORS.flatMap((c) => [`errors.${c}`, `field.${c}`]))
const organiserOnly = new Set<string>([...[...ORGANISER_ONLY_ERRORS, ...ANSWER_TEXT_ERRORS].flatMap((c) => [`errors.${c}`, `field.${c}`]), ...shopErrors])

const inPart = (key: string, prefixes: readonly string[]) => prefixes.some((p) => key === p || key.startsWith(`${p}.`))
const inCore = (key: string) => inPart(key, PARTS.core) && !organiserOnly.has(key)

/**
 * Keys German needs no text for (the UI shows the stored German value itself, e.g. the salutation
 * "Frau"), so the German bundle leaves them out; another language serves them with `core`.
 */
const SERVED_WITH_CORE = ['salutationOption']

/**
 * The texts of one part of a catalogue; `rest` is everything outside `core` (signed-in areas).
 * `served`: for a language the server sends (not the bundled German), `core` also carries SERVED_WITH_CORE.
 */
export function pickPart(cat: Record<string, string>, name: PartName, served = false): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(cat)) {
    const own = (served && name === 'core' && inPart(k, SERVED_WITH_CORE)) || (name === 'rest' ? !inCore(k) : name === 'core' ? inCore(k) : name === 'public' ? inPart(k, PARTS.public) && !publicLeaves(k) : inPart(k, PARTS[name]))
    if (own || ((name === 'shop' || name === 'pay') && shopErrors.has(k))) out[k] = v
  }
  return out
}
