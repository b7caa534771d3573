// Payment methods per agency, enabled per event (docs/ticketing.md, "Payment methods"), and the
// provider interface the step machine pays through. The offline methods (TRANSFER, INVOICE,
// LOCATION, COUPON) are providers here; STRIPE, PAYPAL and MOLLIE register theirs in the next issue
// (registerPaymentProvider) and may use steps 10 (payment data) and 70/80/90.
import { generationCache } from '../../db/generation-cache'
import { prepared } from '../../db/prepared'
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools'
import type { AppContext } from '../../context'
import { type Db, isUniqueViolation } from '../../db/database'
import { bool, fromJson, isoNow, toJson } from '../../db/types'
import type { Secrets } from '../../secrets'
import { open, seal } from '../identity/secret-box'
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
  // online providers (docs/payments.md): only the public parts ever leave the server
  paymentTypes: p.method === 'STRIPE' ? fromJson<string[] | null>(p.payment_types, null) ?? ['CARD'] : null,
  payPalClientId: p.method === 'PAYPAL' ? p.public_key : null,
  payPalTestMode: p.method === 'PAYPAL' ? bool(p.test_mode) : null,
  disabledFundings: p.method === 'PAYPAL' ? fromJson<string[]>(p.disabled_fundings, []) : null,
  publicKey: p.method === 'STRIPE' || p.method === 'PAYPAL' ? p.public_key : null,
  accountId: p.method === 'STRIPE' ? p.account_id : null,
  testMode: ONLINE.has(p.method) ? bool(p.test_mode) : null,
  hasSecretKey: ONLINE.has(p.method) ? p.secret_sealed != null : null,
})

const ONLINE = new Set(['STRIPE', 'PAYPAL', 'MOLLIE'])

/** The provider secrets of an online method (sealed at rest with the data dir key). */
export interface ProviderSecrets {
  secretKey: string
  webhookSecret?: string | null
  /** PayPal: the id of the webhook the organiser created in PayPal's app (checks its deliveries) */
  webhookId?: string | null
}
export function methodSecrets(secrets: Secrets, p: Pick<PaymentMethodRow, 'secret_sealed'>): ProviderSecrets | null {
  return p.secret_sealed ? (JSON.parse(open(secrets, p.secret_sealed)) as ProviderSecrets) : null
}

/** Checks and seals the credentials of an online method; a blank secret keeps the stored one. */
function onlineColumns(secrets: Secrets, input: PaymentMethodInput, existing: PaymentMethodRow | null) {
  const old = existing && existing.method === input.method ? methodSecrets(secrets, existing) : null
  const secretKey = input.secretKey ?? old?.secretKey ?? null
  const webhookSecret = input.webhookSecret ?? old?.webhookSecret ?? null
  const webhookId = input.webhookId ?? old?.webhookId ?? null
  const problems = []
  if (!secretKey) problems.push({ field: 'secretKey', errorType: 'REQUIRED' })
  if (input.method === 'STRIPE') {
    if (!input.publicKey) problems.push({ field: 'publicKey', errorType: 'REQUIRED' })
    else if (!/^pk_(test|live)_\w+$/.test(input.publicKey)) problems.push({ field: 'publicKey', errorType: 'INVALID' })
    if (secretKey && !/^(sk|rk)_(test|live)_\w+$/.test(secretKey)) problems.push({ field: 'secretKey', errorType: 'INVALID' })
    if (!webhookSecret) problems.push({ field: 'webhookSecret', errorType: 'REQUIRED' })
    if (input.accountId && !/^acct_\w+$/.test(input.accountId)) problems.push({ field: 'accountId', errorType: 'INVALID' })
  }
  if (input.method === 'PAYPAL' && !input.publicKey) problems.push({ field: 'publicKey', errorType: 'REQUIRED' })
  if (input.method === 'MOLLIE' && secretKey && !/^(test|live)_\w{20,}$/.test(secretKey)) problems.push({ field: 'secretKey', errorType: 'INVALID' })
  if (problems.length) throw fieldError(problems)
  const testMode = input.method === 'STRIPE' ? secretKey!.includes('_test_') : input.method === 'MOLLIE' ? secretKey!.startsWith('test_') : input.testMode
  return {
    public_key: input.method === 'MOLLIE' ? null : input.publicKey,
    account_id: input.method === 'STRIPE' ? input.accountId : null,
    secret_sealed: seal(secrets, JSON.stringify({ secretKey: secretKey!, webhookSecret: input.method === 'STRIPE' ? webhookSecret : null, webhookId: input.method === 'PAYPAL' ? webhookId : null } satisfies ProviderSecrets)),
    test_mode: testMode,
    payment_types: input.method === 'STRIPE' ? toJson(input.paymentTypes?.length ? [...new Set(input.paymentTypes)] : ['CARD']) : null,
    disabled_fundings: input.method === 'PAYPAL' ? toJson(input.disabledFundings ?? []) : null,
  }
}

function columns(input: PaymentMethodInput, secrets?: Secrets, existing: PaymentMethodRow | null = null) {
  const none = { public_key: null as string | null, account_id: null as string | null, secret_sealed: null as string | null, test_mode: true, payment_types: null as string | null, disabled_fundings: null as string | null }
  const base = {
    ...(ONLINE.has(input.method) && secrets ? onlineColumns(secrets, input, existing) : none),
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

/**
 * Tries an online method's keys at its provider before they are saved (payments/key-check.ts registers
 * it, so ticketing does not import payments); throws the German error of what failed.
 */
export type CredentialCheck = (ctx: AppContext, keys: { method: string; publicKey: string | null; secretKey: string; testMode: boolean; accountId: string | null }) => Promise<void>
let credentialCheck: CredentialCheck | null = null
export const setCredentialCheck = (f: CredentialCheck) => void (credentialCheck = f)

async function checkedColumns(ctx: AppContext, input: PaymentMethodInput, existing: PaymentMethodRow | null = null) {
  const cols = columns(input, ctx.secrets, existing)
  const secrets = ONLINE.has(input.method) && cols.secret_sealed ? methodSecrets(ctx.secrets, cols) : null
  if (secrets && credentialCheck) await credentialCheck(ctx, { method: input.method, publicKey: cols.public_key, secretKey: secrets.secretKey, testMode: !!cols.test_mode, accountId: cols.account_id })
  return cols
}

export const listPaymentMethods = (db: Db, agencyId: number) => db.selectFrom('payment_method').selectAll().where('agency_id', '=', agencyId).orderBy('id').execute()

export async function createPaymentMethod(ctx: AppContext, agencyId: number, input: PaymentMethodInput) {
  return ctx.db
    .insertInto('payment_method')
    .values({ agency_id: agencyId, ...(await checkedColumns(ctx, input)), created_at: isoNow(ctx.clock.now()) })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch(exists)
}

export async function updatePaymentMethod(ctx: AppContext, agencyId: number, id: number, input: PaymentMethodInput) {
  const existing = await ctx.db.selectFrom('payment_method').selectAll().where('id', '=', id).where('agency_id', '=', agencyId).executeTakeFirst()
  if (!existing) throw notFound()
  const row = await ctx.db.updateTable('payment_method').set(await checkedColumns(ctx, input, existing)).where('id', '=', id).where('agency_id', '=', agencyId).returningAll().executeTakeFirst().catch(exists)
  if (!row) throw notFound()
  return row
}

export async function deletePaymentMethod(ctx: AppContext, agencyId: number, id: number) {
  const r = await ctx.db.deleteFrom('payment_method').where('id', '=', id).where('agency_id', '=', agencyId).executeTakeFirst()
  if (Number(r.numDeletedRows) !== 1) throw notFound()
}

/** The methods enabled for an event (only the agency's, of the event's currency). */
// read by every ticket purchase: compiled once (db/prepared.ts)
const eventMethodsQuery = prepared((db, p: { eventId: number; agencyId: number; currency: string }) =>
  db
    .selectFrom('event_payment_method as e')
    .innerJoin('payment_method as p', 'p.id', 'e.payment_method_id')
    .selectAll('p')
    .where('e.event_id', '=', p.eventId)
    .where('p.agency_id', '=', p.agencyId)
    .where('p.currency', '=', p.currency)
    .orderBy('p.id'),
)

/** cached per process while the 'setup' counter stands still (db/generation-cache.ts) */
const methodsCache = generationCache<PaymentMethodRow[]>('setup', { inTransaction: 'bypass' })

export async function eventPaymentMethods(db: Db, event: Pick<EventRow, 'id' | 'agency_id' | 'currency'>): Promise<PaymentMethodRow[]> {
  const load = async () => (await eventMethodsQuery(db, { eventId: event.id, agencyId: event.agency_id, currency: event.currency })).rows as PaymentMethodRow[]
  return methodsCache.get(db, `${event.id}:${event.agency_id}:${event.currency}`, load)
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
    // an online event that sells tickets keeps at least one (issue 20): guests could not pay otherwise
    if (!unique.length && event.status === 'OK' && event.visibility !== 'OFFLINE') {
      const priced = await trx.selectFrom('ticket_category').select('id').where('event_id', '=', event.id).where('gross_price', '>', 0).limit(1).executeTakeFirst()
      if (priced) throw new AppError(409, 'EVENT_NO_PAYMENT_METHOD', { fields: [{ field: 'ids', errorType: 'EVENT_NO_PAYMENT_METHOD' }] })
    }
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
  /** PAID: what the provider took (cents) */
  paidAmount?: number
}

export interface PaymentProvider {
  method: string
  /**
   * Runs inside the order's transaction when the guest confirms (paymentPay on step 40). Offline
   * methods finish here; online ones start their payment and answer 70/80/90.
   */
  pay(ctx: AppContext, trx: Db, order: TicketOrderRow, method: PaymentMethodRow | null, input: { fullName?: string | null; prepared?: unknown }): Promise<PayResult>
  /**
   * Online methods: talks to the provider BEFORE the order's transaction (no database lock held
   * over the network); its answer reaches pay() as input.prepared. Throws a clear error when the
   * provider cannot be reached, before anything about the order is written. An answer with
   * `settled: true` means the provider finished the order itself (PayPal's capture).
   */
  prepare?(ctx: AppContext, order: TicketOrderRow, method: PaymentMethodRow, input: { fullName?: string | null }): Promise<unknown>
}

const providers = new Map<string, PaymentProvider>()
export function registerPaymentProvider(p: PaymentProvider) {
  providers.set(p.method, p)
}
export const paymentProvider = (method: string) => providers.get(method) ?? null
