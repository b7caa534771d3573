// Payment attempts and what a provider's answer does to an order (docs/payments.md). A webhook or
// a return from the provider is only a hint: the caller re-fetches the payment and hands its state
// here; amount, currency and order reference are checked before anything changes. Every change
// is a conditional update on the attempt's status, so a webhook delivered twice, a return racing
// its webhook, or two processes change things once.
import type { AppContext } from '../../context'
import { type Db, isUniqueViolation } from '../../db/database'
import { prepared } from '../../db/prepared'
import { isoNow } from '../../db/types'
import { t } from '../../i18n/catalogue'
import { AppError } from '../../shared/errors'
import { enqueueMail } from '../mail/outbox'
import { renderMail } from '../mail/render'
import { enqueueTask } from '../tasks/runner'
import { formatPrice } from '../ticketing/money'
import { currencyPrefixOf } from '../ticketing/seller-settings'
import { addHistory } from '../ticketing/orders/create'
import { enqueueOrderMail, orderGreeting } from '../ticketing/orders/mails'
import { releaseOrder, reholdOrder } from '../ticketing/orders/release'
import { onOrderSettled } from '../ticketing/orders/settle'
import { STEP } from '../ticketing/orders/steps'
import type { PaymentMethodRow, TicketOrderRow } from '../ticketing/ticketing.table'
import type { PaymentAttemptRow } from './payments.table'
import { scheduleRefundCheck } from './refund-checks'

export const RECONCILE_TASK = 'payments.reconcile'
/** how often an open attempt is looked at by the background task, and when it is given up */
export const RECONCILE_EVERY_MS = 5 * 60_000
export const GIVE_UP_MS = 30 * 60_000

export interface RemoteState {
  status: 'paid' | 'open' | 'pending' | 'failed' | 'canceled' | 'expired'
  /** cents */
  amount: number
  /** einlass currency code (EURO, CHF) */
  currency: string
  /** the order's public id the payment was made for (provider metadata) */
  orderRef: string | null
  errorCode?: string | null
  errorMessage?: string | null
}

export type Outcome = 'PAID' | 'LATE_REHELD' | 'LATE_REFUNDED' | 'DUPLICATE_REFUNDED' | 'ALREADY' | 'PENDING' | 'WAITING' | 'FAILED' | 'MISMATCH' | 'IGNORED'

/** Refunds a whole payment at the provider (late or duplicate payments); the provider module sets it. */
export type WholeRefund = (ctx: AppContext, attempt: PaymentAttemptRow, method: PaymentMethodRow, amount: number, key: string) => Promise<{ id: string; pending: boolean }>
let wholeRefund: WholeRefund | null = null
export const setWholeRefund = (f: WholeRefund) => void (wholeRefund = f)

// read on every webhook and return from a provider: compiled once (db/prepared.ts)
const attemptByExternalQuery = prepared((db, p: { provider: string; externalId: string }) => db.selectFrom('payment_attempt').selectAll().where('provider', '=', p.provider).where('external_id', '=', p.externalId))
const orderByIdQuery = prepared((db, p: { id: number }) => db.selectFrom('ticket_order').selectAll().where('id', '=', p.id))

export const attemptByExternal = (db: Db, provider: string, externalId: string) => attemptByExternalQuery.first(db, { provider, externalId })

export const openAttemptOf = (db: Db, orderId: number) => db.selectFrom('payment_attempt').selectAll().where('order_id', '=', orderId).where('status', '=', 'OPEN').executeTakeFirst()

/**
 * The order's one open attempt at this provider, or a new one (the unique index on open attempts
 * per order makes two tabs or a double click share it). The idempotency key goes to the provider.
 */
export async function openAttempt(ctx: AppContext, order: TicketOrderRow, method: PaymentMethodRow): Promise<PaymentAttemptRow> {
  for (let i = 0; i < 3; i++) {
    const have = await openAttemptOf(ctx.db, order.id)
    if (have && have.provider === method.method && have.amount === order.gross_price && have.currency === order.currency) return have
    if (have) {
      // another method or amount than before (the guest went back): the old one is given up
      await ctx.db.updateTable('payment_attempt').set({ status: 'CANCELED', updated_at: isoNow(ctx.clock.now()) }).where('id', '=', have.id).where('status', '=', 'OPEN').execute()
      continue
    }
    const n = await ctx.db.selectFrom('payment_attempt').select((eb) => eb.fn.countAll<number>().as('n')).where('order_id', '=', order.id).executeTakeFirstOrThrow()
    try {
      const row = await ctx.db.transaction().execute(async (trx) => {
        const a = await trx
          .insertInto('payment_attempt')
          .values({ order_id: order.id, agency_id: order.agency_id, payment_method_id: method.id, provider: method.method, external_id: null, idempotency_key: `einlass-${order.public_id}-${Number(n.n) + 1}`, amount: order.gross_price, currency: order.currency, status: 'OPEN', created_at: isoNow(ctx.clock.now()), updated_at: isoNow(ctx.clock.now()) })
          .returningAll()
          .executeTakeFirstOrThrow()
        await enqueueTask(ctx.clock, trx, { kind: RECONCILE_TASK, agencyId: order.agency_id, payload: { attemptId: a.id }, runAfter: new Date(ctx.clock.now().getTime() + RECONCILE_EVERY_MS) })
        return a
      })
      ctx.notifyTasks()
      return row
    } catch (e) {
      if (!isUniqueViolation(e)) throw e
    }
  }
  throw new AppError(409, 'ORDER_STEP_CHANGED', { extra: { step: order.step, orderStatus: order.status } })
}

/** A provider call that failed before the provider made anything: the attempt goes, nothing stays half-written. */
export async function dropAttempt(ctx: AppContext, attempt: PaymentAttemptRow) {
  await ctx.db.deleteFrom('payment_attempt').where('id', '=', attempt.id).where('external_id', 'is', null).execute()
}

export async function attachExternal(ctx: AppContext, attempt: PaymentAttemptRow, set: { external_id: string; client_secret?: string | null; checkout_url?: string | null }) {
  const row = await ctx.db.updateTable('payment_attempt').set({ ...set, updated_at: isoNow(ctx.clock.now()) }).where('id', '=', attempt.id).returningAll().executeTakeFirstOrThrow()
  return row
}

async function methodOf(db: Db, attempt: PaymentAttemptRow, known?: PaymentMethodRow) {
  if (attempt.payment_method_id == null) return null
  if (known && known.id === attempt.payment_method_id) return known
  return (await db.selectFrom('payment_method').selectAll().where('id', '=', attempt.payment_method_id).executeTakeFirst()) ?? null
}

/**
 * Applies the provider's (re-fetched) state of an attempt. `source` says who asked: the guest's
 * return ('return'), a webhook, or the background task. `method`: the payment method's row when the
 * caller has read it already (used only when it is the attempt's own).
 */
export async function applyRemote(ctx: AppContext, attempt0: PaymentAttemptRow, remote: RemoteState, source: 'return' | 'webhook' | 'task' | 'capture', method?: PaymentMethodRow): Promise<Outcome> {
  const order0 = await orderByIdQuery.first(ctx.db, { id: attempt0.order_id })
  if (!order0) throw new Error(`payment attempt ${attempt0.id}: order ${attempt0.order_id} not found`)
  if (remote.orderRef !== order0.public_id || remote.amount !== attempt0.amount || remote.currency !== attempt0.currency || attempt0.amount !== order0.gross_price) {
    ctx.log.warn('payment refused: provider state does not match the order', { attemptId: attempt0.id, provider: attempt0.provider, source, remoteAmount: remote.amount, remoteCurrency: remote.currency, amount: attempt0.amount, currency: attempt0.currency })
    return 'MISMATCH'
  }
  const now = ctx.clock.now()
  const at = isoNow(now)
  if (remote.status === 'paid') {
    if (attempt0.status === 'PAID') return 'ALREADY'
    try {
      const outcome = await ctx.db.transaction().execute(async (trx): Promise<Outcome | null> => {
        const order = (await trx.selectFrom('ticket_order').selectAll().where('id', '=', order0.id).executeTakeFirstOrThrow()) as TicketOrderRow
        const late = order.status === 'CANCELED' && (order.step === STEP.EXPIRED || order.step === STEP.FAILED)
        if (!late && order.status !== 'OPEN') {
          // paid by this attempt meanwhile (another delivery of the same news): nothing to do
          const now = await trx.selectFrom('payment_attempt').select('status').where('id', '=', attempt0.id).executeTakeFirstOrThrow()
          if (now.status === 'PAID') return 'ALREADY'
          // paid by another attempt: a duplicate, refunded below (not flipped here: refundUnwanted
          // records it with its own conditional flip, which a committed PAID would make fail)
          return null
        }
        const flip = await trx.updateTable('payment_attempt').set({ status: 'PAID', updated_at: at }).where('id', '=', attempt0.id).where('status', '!=', 'PAID').executeTakeFirst()
        if (Number(flip.numUpdatedRows) !== 1) return 'ALREADY'
        // a payment after expiry or failure: the tickets again if still free (else the catch refunds)
        if (late) await reholdOrder(trx, order, at)
        const paid = await trx
          .updateTable('ticket_order')
          .set({ status: 'PAID', step: STEP.FINISHED, payment_method: attempt0.provider, paid_amount: remote.amount, paid_at: at, hold_until: null, updated_at: at })
          .where('id', '=', order.id)
          .where('status', '=', order.status)
          .where('step', '=', order.step)
          .returningAll()
          .executeTakeFirst()
        if (!paid) throw new AppError(409, 'ORDER_STEP_CHANGED')
        await addHistory(trx, order.id, at, late ? 'LATE_PAYMENT' : 'PAID_ONLINE', null, { provider: attempt0.provider, externalId: attempt0.external_id, amount: remote.amount, source })
        await onOrderSettled(ctx, trx, paid)
        await enqueueOrderMail(ctx, trx, paid, 'paid', await methodOf(trx, attempt0, method))
        return late ? 'LATE_REHELD' : 'PAID'
      })
      if (outcome) {
        ctx.notifyMail()
        return outcome
      }
      return await refundUnwanted(ctx, attempt0, remote.amount, 'DUPLICATE')
    } catch (e) {
      if (e instanceof AppError && (['TICKETS_SOLD_OUT', 'FIELD_ERROR', 'SEAT_NOT_AVAILABLE'].includes(e.errorType))) return await refundUnwanted(ctx, attempt0, remote.amount, 'LATE')
      throw e
    }
  }
  if (remote.status === 'open' || remote.status === 'pending') {
    if (source === 'return' && order0.status === 'OPEN' && order0.step === STEP.EXTERNAL_SITE) {
      // back from the provider's page without the money confirmed: SYSTEM_PAYMENT_WAIT (90)
      await ctx.db.updateTable('ticket_order').set({ step: STEP.WAIT, updated_at: at }).where('id', '=', order0.id).where('status', '=', 'OPEN').where('step', '=', STEP.EXTERNAL_SITE).execute()
      return 'WAITING'
    }
    return 'PENDING'
  }
  // failed, canceled, expired: the attempt ends; an order waiting for it fails (910) and gives its tickets back
  const done = await ctx.db.transaction().execute(async (trx) => {
    const flip = await trx.updateTable('payment_attempt').set({ status: remote.status === 'failed' ? 'FAILED' : 'CANCELED', updated_at: at }).where('id', '=', attempt0.id).where('status', '=', 'OPEN').executeTakeFirst()
    if (Number(flip.numUpdatedRows) !== 1) return false
    const failed = await trx
      .updateTable('ticket_order')
      // the guest cancelled at the provider: PAYMENT_CANCELED (900), continued like a failure (ticketing/orders/guest.ts canContinue)
      .set({ status: 'CANCELED', step: remote.status === 'expired' ? STEP.EXPIRED : remote.status === 'canceled' ? STEP.CANCELED : STEP.FAILED, updated_at: at })
      .where('id', '=', order0.id)
      .where('status', '=', 'OPEN')
      .where('step', 'in', [STEP.EXTERNAL_SITE, STEP.PROCESSING, STEP.WAIT])
      .returningAll()
      .executeTakeFirst()
    if (failed) {
      await releaseOrder(trx, failed, at)
      await addHistory(trx, failed.id, at, 'PAYMENT_FAILED', null, { provider: attempt0.provider, status: remote.status, code: remote.errorCode ?? null, source })
    }
    return true
  })
  return done ? 'FAILED' : 'IGNORED'
}

/**
 * Money that arrived for an order that cannot take it (expired and sold out, or paid twice) goes
 * back automatically through the provider; the guest and the organiser are told.
 */
async function refundUnwanted(ctx: AppContext, attempt: PaymentAttemptRow, amount: number, why: 'LATE' | 'DUPLICATE'): Promise<Outcome> {
  const method = await methodOf(ctx.db, attempt)
  if (!method || !wholeRefund) throw new AppError(409, 'PAYMENT_METHOD_NOT_AVAILABLE')
  const refund = await wholeRefund(ctx, attempt, method, amount, `${attempt.idempotency_key}-auto-refund`)
  const refundId = refund.id
  const at = isoNow(ctx.clock.now())
  const done = await ctx.db.transaction().execute(async (trx) => {
    const flip = await trx.updateTable('payment_attempt').set({ status: 'PAID', refunded_amount: amount, updated_at: at }).where('id', '=', attempt.id).where('refunded_amount', '=', 0).where('status', '!=', 'PAID').executeTakeFirst()
    if (Number(flip.numUpdatedRows) !== 1) return false
    const row = await trx
      .insertInto('payment_refund')
      .values({ attempt_id: attempt.id, order_id: attempt.order_id, provider_refund_id: refundId, amount, reason: why === 'LATE' ? 'LATE_PAYMENT' : 'DUPLICATE_PAYMENT', status: refund.pending ? 'PENDING' : 'DONE', created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (refund.pending) await scheduleRefundCheck(ctx.clock, trx, { agencyId: attempt.agency_id, refundId: row.id })
    const order = await trx.selectFrom('ticket_order').selectAll().where('id', '=', attempt.order_id).executeTakeFirstOrThrow()
    await addHistory(trx, order.id, at, why === 'LATE' ? 'LATE_PAYMENT_REFUNDED' : 'DUPLICATE_PAYMENT_REFUNDED', null, { provider: attempt.provider, externalId: attempt.external_id, refundId, amount })
    if (why === 'LATE') {
      const refunded = (await trx.updateTable('ticket_order').set({ status: 'REFUNDED', step: STEP.REFUNDED, updated_at: at }).where('id', '=', order.id).where('status', '=', 'CANCELED').returningAll().executeTakeFirst()) ?? order
      await tellLateRefund(ctx, trx, refunded, amount)
    }
    return true
  })
  if (done) ctx.notifyMail()
  return why === 'LATE' ? 'LATE_REFUNDED' : 'DUPLICATE_REFUNDED'
}

async function tellLateRefund(ctx: AppContext, trx: Db, order: TicketOrderRow, amount: number) {
  const event = await trx.selectFrom('event').select(['display_name', 'primary_color']).where('id', '=', order.event_id).executeTakeFirst()
  const params = { number: order.number, event: event?.display_name ?? '', total: formatPrice(amount, order.currency, await currencyPrefixOf(trx, order.agency_id)) }
  const url = `${ctx.config.baseUrl}/pay/${order.public_id}`
  if (order.email) {
    const m = renderMail({ subject: t(order.language, 'payments.mail.lateRefunded.subject', params), greeting: await orderGreeting(trx, order), paragraphs: [t(order.language, 'payments.mail.lateRefunded.body', params)], button: { label: t(order.language, 'ticketing.mail.button'), url }, accentColor: event?.primary_color })
    await enqueueMail(trx, { kind: 'PAYMENT_LATE_REFUNDED', to: order.email, toName: order.full_name, ...m, language: order.language, agencyId: order.agency_id, eventId: order.event_id, visitorId: order.visitor_id })
  }
  const seller = await trx.selectFrom('seller_settings').select(['email']).where('agency_id', '=', order.agency_id).executeTakeFirst()
  if (seller?.email) {
    const m = renderMail({ subject: t('de', 'payments.mail.lateOrganiser.subject', params), paragraphs: [t('de', 'payments.mail.lateOrganiser.body', params)] })
    await enqueueMail(trx, { kind: 'PAYMENT_LATE_REFUNDED_ORGANISER', to: seller.email, ...m, language: 'de', agencyId: order.agency_id, eventId: order.event_id })
  }
}
