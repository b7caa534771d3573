// Payment methods per agency, enabled per event (docs/ticketing.md, "Payment methods"), and the
// provider interface the step machine pays through. The offline methods (TRANSFER, INVOICE,
// LOCATION, COUPON) are providers here; STRIPE, PAYPAL and MOLLIE register theirs in the next issue
// (registerPaymentProvider) and may use steps 10 (payment data) and 70/80/90.
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools'
import type { AppContext } from '../../context'
import { type Db, isUniqueViolation } from '../../db/database'
import { isoNow } from '../../db/types'
import { AppError, fieldError, notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import type { PaymentMethodInput } from './model'
import type { PaymentMethodRow, TicketOrderRow } from './ticketing.table'

export const paymentMethodDto = (p: PaymentMethodRow) => ({
  id: p.id,
  method: p.method,
  currency: p.currency,
  confirmationText: p.confirmation_text,
  accountHolder: p.account_holder,
  iban: p.iban,
  bic: p.bic,
  bank: p.bank,
  transferReferencePrefix: p.transfer_reference_prefix,
})

function columns(input: PaymentMethodInput) {
  const base = {
    method: input.method,
    currency: input.currency,
    confirmation_text: input.confirmationText,
    account_holder: null as string | null,
    iban: null as string | null,
    bic: null as string | null,
    bank: null as string | null,
    transfer_reference_prefix: null as string | null,
  }
  if (input.method !== 'TRANSFER') return base
  const iban = electronicFormatIBAN(input.iban ?? '') ?? ''
  const bic = (input.bic ?? '').replace(/\s+/g, '').toUpperCase()
  const problems = []
  if (!input.accountHolder) problems.push({ field: 'accountHolder', errorType: 'REQUIRED' })
  if (!iban) problems.push({ field: 'iban', errorType: 'REQUIRED' })
  else if (!isValidIBAN(iban)) problems.push({ field: 'iban', errorType: 'INVALID_IBAN' })
  if (!bic) problems.push({ field: 'bic', errorType: 'REQUIRED' })
  else if (!isValidBIC(bic)) problems.push({ field: 'bic', errorType: 'INVALID_BIC' })
  if (problems.length) throw fieldError(problems)
  return { ...base, account_holder: input.accountHolder, iban, bic, bank: input.bank, transfer_reference_prefix: input.transferReferencePrefix }
}

const exists = (e: unknown) => {
  if (isUniqueViolation(e, 'payment_method')) throw new AppError(409, 'PAYMENT_METHOD_EXISTS', { fields: [{ field: 'method', errorType: 'PAYMENT_METHOD_EXISTS' }] })
  throw e
}

export const listPaymentMethods = (db: Db, agencyId: number) => db.selectFrom('payment_method').selectAll().where('agency_id', '=', agencyId).orderBy('id').execute()

export async function createPaymentMethod(ctx: AppContext, agencyId: number, input: PaymentMethodInput) {
  return ctx.db
    .insertInto('payment_method')
    .values({ agency_id: agencyId, ...columns(input), created_at: isoNow(ctx.clock.now()) })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch(exists)
}

export async function updatePaymentMethod(ctx: AppContext, agencyId: number, id: number, input: PaymentMethodInput) {
  const row = await ctx.db.updateTable('payment_method').set(columns(input)).where('id', '=', id).where('agency_id', '=', agencyId).returningAll().executeTakeFirst().catch(exists)
  if (!row) throw notFound()
  return row
}

export async function deletePaymentMethod(ctx: AppContext, agencyId: number, id: number) {
  const r = await ctx.db.deleteFrom('payment_method').where('id', '=', id).where('agency_id', '=', agencyId).executeTakeFirst()
  if (Number(r.numDeletedRows) !== 1) throw notFound()
}

/** The methods enabled for an event (only the agency's, of the event's currency). */
export function eventPaymentMethods(db: Db, event: Pick<EventRow, 'id' | 'agency_id' | 'currency'>) {
  return db
    .selectFrom('event_payment_method as e')
    .innerJoin('payment_method as p', 'p.id', 'e.payment_method_id')
    .selectAll('p')
    .where('e.event_id', '=', event.id)
    .where('p.agency_id', '=', event.agency_id)
    .where('p.currency', '=', event.currency)
    .orderBy('p.id')
    .execute()
}

export async function setEventPaymentMethods(ctx: AppContext, event: EventRow, ids: number[]) {
  const unique = [...new Set(ids)]
  await ctx.db.transaction().execute(async (trx) => {
    const own = unique.length ? await trx.selectFrom('payment_method').select(['id', 'currency', 'method']).where('agency_id', '=', event.agency_id).where('id', 'in', unique).execute() : []
    const problems = unique.flatMap((id, i) => {
      const p = own.find((x) => x.id === id)
      if (!p) return [{ field: `ids.${i}`, errorType: 'INVALID' }]
      if (p.currency !== event.currency) return [{ field: `ids.${i}`, errorType: 'CURRENCY_MISMATCH' }]
      return []
    })
    if (problems.length) throw fieldError(problems)
    await trx.deleteFrom('event_payment_method').where('event_id', '=', event.id).execute()
    if (unique.length) await trx.insertInto('event_payment_method').values(unique.map((id) => ({ event_id: event.id, payment_method_id: id }))).execute()
  })
}

// ---- the provider interface of the step machine ---------------------------------------------

export interface PayResult {
  /** the step the order moves to: 100 for offline methods; 70/80/90 for providers */
  step: number
  /** the order's status afterwards */
  status: TicketOrderRow['status']
  qrCode?: string | null
  redirectUrl?: string | null
}

export interface PaymentProvider {
  method: string
  /** the guest enters payment data (step 10) before the confirmation */
  needsPaymentData: boolean
  /**
   * Runs inside the order's transaction when the guest confirms (paymentPay on step 40). Offline
   * methods finish here; online ones start their payment and answer 70/80/90.
   */
  pay(ctx: AppContext, trx: Db, order: TicketOrderRow, method: PaymentMethodRow | null, input: { fullName?: string | null }): Promise<PayResult>
}

const providers = new Map<string, PaymentProvider>()
export function registerPaymentProvider(p: PaymentProvider) {
  providers.set(p.method, p)
}
export const paymentProvider = (method: string) => providers.get(method) ?? null
