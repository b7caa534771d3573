// Refunds that fail later (docs/payments.md, "Refunds that fail later"): Mollie accepts a refund
// (queued, pending, processing), Stripe a SEPA one (pending), PayPal one it cannot make yet
// (PENDING, e.g. the seller's balance is short), and makes it, or fails or cancels it, days later.
// A PENDING refund is looked at again by a task every REFUND_CHECK_EVERY_MS (refund-checks.ts), and
// at once when the provider tells about the payment (Mollie calls the payment's webhook after refund
// changes too; Stripe's charge.refunded / refund.* events list the payment's refunds, webhooks.ts
// settles them from that list; PayPal's refund events). Made: DONE. Failed
// or cancelled: FAILED, in one transaction and only by the one caller that flips it, so a check run
// twice or beside a webhook tells once — its amount is refundable again (the payment's
// refunded_amount goes down, what its credit note credited is kept in failed_refund_credit so the
// next refund issues none), the order's history names it and the seller address is mailed.
import type { AppContext } from '../../context'
import { isoNow } from '../../db/types'
import { t } from '../../i18n/catalogue'
import { enqueueMail } from '../mail/outbox'
import { renderMail } from '../mail/render'
import { registerTaskHandler } from '../tasks/runner'
import { formatPrice } from '../ticketing/money'
import { currencyPrefixOf } from '../ticketing/seller-settings'
import { addHistory } from '../ticketing/orders/create'
import { providerRefundState } from './providers'
import { REFUND_CHECK_FOR_MS, REFUND_CHECK_TASK, scheduleRefundCheck } from './refund-checks'
import { isUnwanted } from './unwanted'

const PROVIDER_NAMES: Record<string, string> = { MOLLIE: 'Mollie', STRIPE: 'Stripe', PAYPAL: 'PayPal' }

/**
 * Asks the provider where a PENDING refund stands and records it. `again`: plan the next look while
 * it is still on its way (the task does; a webhook's look leaves the task's plan as it is).
 */
export async function checkRefund(ctx: AppContext, refundId: number, again: boolean): Promise<'DONE' | 'FAILED' | 'PENDING' | 'PROVIDER_DOWN' | 'GONE'> {
  const row = await ctx.db.selectFrom('payment_refund').selectAll().where('id', '=', refundId).executeTakeFirst()
  if (!row || row.status !== 'PENDING') return 'GONE'
  const attempt = await ctx.db.selectFrom('payment_attempt').selectAll().where('id', '=', row.attempt_id).executeTakeFirst()
  const method = attempt?.payment_method_id == null ? null : await ctx.db.selectFrom('payment_method').selectAll().where('id', '=', attempt.payment_method_id).executeTakeFirst()
  // a method deleted since cannot be asked
  if (!attempt || !method || !['MOLLIE', 'STRIPE', 'PAYPAL'].includes(attempt.provider)) return 'GONE'
  const now = ctx.clock.now()
  const later = () => (again && now.getTime() - new Date(row.created_at).getTime() < REFUND_CHECK_FOR_MS ? scheduleRefundCheck(ctx.clock, ctx.db, { agencyId: attempt.agency_id, refundId }) : undefined)
  let state: Awaited<ReturnType<typeof providerRefundState>>
  try {
    state = await providerRefundState(ctx, attempt, method, row.provider_refund_id)
  } catch {
    await later()
    return 'PROVIDER_DOWN'
  }
  if (state.state === 'PENDING') await later()
  else await settleRefund(ctx, refundId, state.state, state.status)
  return state.state
}

/** A refund the provider has made (DONE: only a PENDING one) or failed (FAILED, with the provider's status): recorded once. */
export async function settleRefund(ctx: AppContext, refundId: number, state: 'DONE' | 'FAILED', providerStatus: string) {
  if (state === 'DONE') await ctx.db.updateTable('payment_refund').set({ status: 'DONE' }).where('id', '=', refundId).where('status', '=', 'PENDING').execute()
  else await refundFailed(ctx, refundId, providerStatus)
}

/**
 * The refund failed at the provider: its amount is refundable again, the order's history and the
 * seller address are told; once. Also a refund recorded DONE: Stripe may fail a card refund it had
 * answered `succeeded` (the card was closed meanwhile; refund.failed).
 */
async function refundFailed(ctx: AppContext, refundId: number, providerStatus: string) {
  const at = isoNow(ctx.clock.now())
  const told = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.updateTable('payment_refund').set({ status: 'FAILED' }).where('id', '=', refundId).where('status', 'in', ['PENDING', 'DONE']).returningAll().executeTakeFirst()
    if (!row) return false
    // its credit note was issued when it was recorded; a late or second payment's refund had none
    const credited = isUnwanted(row.reason) ? 0 : row.amount
    const attempt = await trx
      .updateTable('payment_attempt')
      .set((eb) => ({ refunded_amount: eb('refunded_amount', '-', row.amount), failed_refund_credit: eb('failed_refund_credit', '+', credited), updated_at: at }))
      .where('id', '=', row.attempt_id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const order = await trx.selectFrom('ticket_order').selectAll().where('id', '=', row.order_id).executeTakeFirstOrThrow()
    await addHistory(trx, order.id, at, 'REFUND_FAILED', null, { amount: row.amount, refundId: row.provider_refund_id, provider: attempt.provider, status: providerStatus })
    const seller = await trx.selectFrom('seller_settings').select(['email']).where('agency_id', '=', order.agency_id).executeTakeFirst()
    if (seller?.email) {
      const event = await trx.selectFrom('event').select('display_name').where('id', '=', order.event_id).executeTakeFirst()
      const params = { provider: PROVIDER_NAMES[attempt.provider] ?? attempt.provider, amount: formatPrice(row.amount, order.currency, await currencyPrefixOf(trx, order.agency_id)), number: order.number, event: event?.display_name ?? '', status: providerStatus, name: order.full_name ?? order.email ?? '' }
      const m = renderMail({ subject: t('de', 'payments.mail.refundFailed.subject', params), paragraphs: [t('de', 'payments.mail.refundFailed.body', params), t('de', 'payments.mail.refundFailed.again', params)] })
      await enqueueMail(trx, { kind: 'PAYMENT_REFUND_FAILED_ORGANISER', to: seller.email, ...m, language: 'de', agencyId: order.agency_id, eventId: order.event_id })
    }
    return true
  })
  if (told) ctx.notifyMail()
}

/** The provider told about the payment (a webhook): its refunds still on their way are looked at now. */
export async function checkPendingRefunds(ctx: AppContext, attemptId: number) {
  const pending = await ctx.db.selectFrom('payment_refund').select('id').where('attempt_id', '=', attemptId).where('status', '=', 'PENDING').execute()
  for (const r of pending) await checkRefund(ctx, r.id, false)
}

registerTaskHandler(REFUND_CHECK_TASK, async (ctx, _task, payload: { refundId: number }) => ({ state: await checkRefund(ctx, payload.refundId, true) }), { lane: 'QUICK' })
