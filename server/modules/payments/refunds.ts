// Refunds from the organiser's order screen through the provider (docs/payments.md): whole or
// partial, each recorded with the provider's refund id. The amount is reserved on the attempt
// with a conditional update before the provider is called (a double click refunds once) and
// given back if the provider fails. A whole refund ends the order the way ticketing's refund
// does: REFUNDED (902), tickets back, cancellation invoice, mail.
import type { AppContext } from '../../context'
import { isoNow } from '../../db/types'
import { t } from '../../i18n/catalogue'
import { AppError, notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import type { AccountActor } from '../identity/auth'
import { enqueueMail } from '../mail/outbox'
import { renderMail } from '../mail/render'
import { formatPrice } from '../ticketing/money'
import { addHistory } from '../ticketing/orders/create'
import { orderDetail, refundOrder } from '../ticketing/orders/organiser'
import { providerRefund } from './providers'

export async function refundPayment(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number, input: { amount?: number | null }) {
  const order = await ctx.db.selectFrom('ticket_order').selectAll().where('id', '=', orderId).where('event_id', '=', event.id).executeTakeFirst()
  if (!order) throw notFound()
  if (order.status !== 'PAID') throw new AppError(409, 'ORDER_NOT_PAID')
  const attempt = await ctx.db.selectFrom('payment_attempt').selectAll().where('order_id', '=', order.id).where('status', '=', 'PAID').orderBy('id', 'desc').executeTakeFirst()
  if (!attempt?.external_id) throw new AppError(409, 'REFUND_NOT_ONLINE')
  const method = attempt.payment_method_id == null ? null : await ctx.db.selectFrom('payment_method').selectAll().where('id', '=', attempt.payment_method_id).executeTakeFirst()
  if (!method) throw new AppError(409, 'PAYMENT_METHOD_NOT_AVAILABLE')
  const before = attempt.refunded_amount
  const left = attempt.amount - before
  const amount = input.amount ?? left
  if (amount <= 0 || amount > left) throw new AppError(409, 'REFUND_TOO_LARGE', { fields: [{ field: 'amount', errorType: 'REFUND_TOO_LARGE' }] })
  const reserve = await ctx.db.updateTable('payment_attempt').set({ refunded_amount: before + amount }).where('id', '=', attempt.id).where('refunded_amount', '=', before).executeTakeFirst()
  if (Number(reserve.numUpdatedRows) !== 1) throw new AppError(409, 'REFUND_TOO_LARGE')
  let refundId: string
  try {
    refundId = await providerRefund(ctx, attempt, method, amount, `${attempt.idempotency_key}-refund-${before}`)
  } catch (e) {
    await ctx.db.updateTable('payment_attempt').set({ refunded_amount: before }).where('id', '=', attempt.id).where('refunded_amount', '=', before + amount).execute()
    throw e
  }
  const at = isoNow(ctx.clock.now())
  const whole = before + amount === attempt.amount
  await ctx.db.transaction().execute(async (trx) => {
    await trx.insertInto('payment_refund').values({ attempt_id: attempt.id, order_id: order.id, provider_refund_id: refundId, amount, reason: 'ORGANISER', created_at: at }).execute()
    if (!whole) {
      await addHistory(trx, order.id, at, 'PARTIAL_REFUND', actor.account.id, { amount, refundId, provider: attempt.provider })
      if (order.email) {
        const params = { number: order.number, event: event.display_name, amount: formatPrice(amount, order.currency) }
        const m = renderMail({ subject: t(order.language, 'payments.mail.partialRefund.subject', params), greeting: t(order.language, 'ticketing.mail.greeting', { name: order.full_name ?? '' }), paragraphs: [t(order.language, 'payments.mail.partialRefund.body', params)] })
        await enqueueMail(trx, { kind: 'TICKET_ORDER_PARTIAL_REFUND', to: order.email, toName: order.full_name, ...m, language: order.language, agencyId: order.agency_id, eventId: order.event_id, visitorId: order.visitor_id })
      }
    } else await addHistory(trx, order.id, at, 'PROVIDER_REFUND', actor.account.id, { amount, refundId, provider: attempt.provider })
  })
  ctx.notifyMail()
  // the whole amount back: the order ends as REFUNDED with its tickets released and its cancellation invoice
  if (whole) await refundOrder(ctx, actor, event, order.id)
  return { ...(await orderDetail(ctx, event, order.id)), refunds: await refundsOf(ctx, order.id) }
}

export async function refundsOf(ctx: AppContext, orderId: number) {
  const rows = await ctx.db.selectFrom('payment_refund').selectAll().where('order_id', '=', orderId).orderBy('id').execute()
  return rows.map((r) => ({ id: r.id, providerRefundId: r.provider_refund_id, amount: r.amount, reason: r.reason, createdAt: r.created_at }))
}
