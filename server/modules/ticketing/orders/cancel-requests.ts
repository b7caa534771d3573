// A guest asks to cancel a paid order (issue 21, docs/ticketing.md "Cancellation requests"): from the
// guest portal, with a reason; one open request per order (a partial unique index), rate-limited per
// guest, only for the guest's own registration and before the event starts. The organiser sees open
// requests in the orders list and grants them (the existing refund path: through the provider when
// paid online, recorded offline otherwise; each issues the credit note and mails the guest) or
// declines them with a reason (mailed to the guest).
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { isUniqueViolation } from '../../../db/database'
import { isoNow } from '../../../db/types'
import { t } from '../../../i18n/catalogue'
import { AppError, notFound } from '../../../shared/errors'
import { audit } from '../../audit/service'
import type { EventRow } from '../../events/events.table'
import type { AccountActor, GuestActor } from '../../identity/auth'
import { throttle } from '../../identity/rate-limit'
import { enqueueMail } from '../../mail/outbox'
import { renderMail } from '../../mail/render'
import type { TicketOrderRow } from '../ticketing.table'
import { requestDto } from './cancel-request-rows'
import { addHistory } from './create'
import { orderGreeting } from './mails'
import { cancelOrder, refundOrder } from './organiser'

const ONLINE = ['STRIPE', 'PAYPAL', 'MOLLIE']

/** The guest's paid order of their own registration `visitorId` (404 for anyone else's). */
async function ownPaidOrder(db: Db, guest: GuestActor, visitorId: number) {
  const v = await db.selectFrom('event_visitor').select(['id', 'user_id', 'event_id']).where('id', '=', visitorId).executeTakeFirst()
  if (!v || v.user_id !== guest.user.id) throw notFound()
  const order = await db.selectFrom('ticket_order').selectAll().where('visitor_id', '=', v.id).orderBy('id', 'desc').limit(1).executeTakeFirst()
  if (!order) throw notFound()
  return order
}

/** POST /proxy/api/guest/events/visitors/{vid}/cancellationRequest {reason} */
export async function requestCancellation(ctx: AppContext, guest: GuestActor, visitorId: number, input: { reason: string }) {
  const order = await ownPaidOrder(ctx.db, guest, visitorId)
  await throttle(ctx, [['CANCEL_REQUEST_USER', String(guest.user.id)]])
  if (order.status !== 'PAID' || order.gross_price === 0) throw new AppError(409, 'ORDER_NOT_PAID')
  const event = await ctx.db.selectFrom('event').select(['start_date']).where('id', '=', order.event_id).executeTakeFirstOrThrow()
  const now = ctx.clock.now()
  if (Date.parse(event.start_date) <= now.getTime()) throw new AppError(409, 'CANCELLATION_REQUEST_TOO_LATE')
  const at = isoNow(now)
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      const r = await trx
        .insertInto('order_cancellation_request')
        .values({ agency_id: order.agency_id, event_id: order.event_id, order_id: order.id, reason: input.reason, created_at: at })
        .returningAll()
        .executeTakeFirstOrThrow()
      await addHistory(trx, order.id, at, 'CANCELLATION_REQUESTED', null, { requestId: r.id, reason: input.reason })
      return r
    })
    return requestDto(row)
  } catch (e) {
    if (isUniqueViolation(e, 'order_cancellation_request')) throw new AppError(409, 'CANCELLATION_REQUEST_OPEN')
    throw e
  }
}

async function openRequest(db: Db, event: EventRow, orderId: number) {
  const order = await db.selectFrom('ticket_order').selectAll().where('id', '=', orderId).where('event_id', '=', event.id).executeTakeFirst()
  if (!order) throw notFound()
  const r = await db.selectFrom('order_cancellation_request').selectAll().where('order_id', '=', order.id).where('status', '=', 'OPEN').executeTakeFirst()
  if (!r) throw new AppError(409, 'CANCELLATION_REQUEST_NOT_OPEN')
  return { order, r }
}

/**
 * Grants the open request: the request is claimed first (a conditional update, so two people cannot
 * both refund), then the order is refunded by the existing path — `cancelOrder` (a paid online order:
 * its provider refunds it, REFUNDED) or `refundOrder` (offline: recorded as refunded) — each with its
 * credit note and mail. If the refund fails, the claim is undone and the request stays open.
 */
export async function grantCancellation(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number) {
  const { order, r } = await openRequest(ctx.db, event, orderId)
  const at = isoNow(ctx.clock.now())
  const claim = await ctx.db.updateTable('order_cancellation_request').set({ status: 'GRANTED', decided_at: at, decided_by: actor.account.id }).where('id', '=', r.id).where('status', '=', 'OPEN').executeTakeFirst()
  if (Number(claim.numUpdatedRows) !== 1) throw new AppError(409, 'CANCELLATION_REQUEST_NOT_OPEN')
  try {
    if (ONLINE.includes(order.payment_method ?? '')) await cancelOrder(ctx, actor, event, order.id, { history: { cancellationRequest: r.id } })
    else await refundOrder(ctx, actor, event, order.id)
  } catch (e) {
    await ctx.db.updateTable('order_cancellation_request').set({ status: 'OPEN', decided_at: null, decided_by: null }).where('id', '=', r.id).where('status', '=', 'GRANTED').execute()
    throw e
  }
  await addHistory(ctx.db, order.id, at, 'CANCELLATION_GRANTED', actor.account.id, { requestId: r.id })
}

/** Declines the open request with a reason the guest is mailed. */
export async function declineCancellation(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number, input: { reason: string }) {
  const { order, r } = await openRequest(ctx.db, event, orderId)
  const at = isoNow(ctx.clock.now())
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('order_cancellation_request')
      .set({ status: 'DECLINED', decline_reason: input.reason, decided_at: at, decided_by: actor.account.id })
      .where('id', '=', r.id)
      .where('status', '=', 'OPEN')
      .returningAll()
      .executeTakeFirst()
    if (!row) throw new AppError(409, 'CANCELLATION_REQUEST_NOT_OPEN')
    await addHistory(trx, order.id, at, 'CANCELLATION_DECLINED', actor.account.id, { requestId: r.id, reason: input.reason })
    await audit(ctx, trx, { agencyId: event.agency_id, actor, action: 'order.cancellationDeclined', entityType: 'order', entityId: order.number, eventId: event.id, detail: { reason: input.reason } })
    await enqueueDeclinedMail(ctx, trx, order, event, input.reason, r.reason)
  })
  ctx.notifyMail()
}

async function enqueueDeclinedMail(ctx: AppContext, trx: Db, order: TicketOrderRow, event: EventRow, reason: string, asked: string) {
  if (!order.email) return
  const lang = order.language
  const params = { number: order.number, event: event.display_name }
  const url = `${ctx.config.baseUrl}/pay/${order.public_id}`
  const m = renderMail({
    subject: t(lang, 'orderRequest.mail.declined.subject', params),
    greeting: await orderGreeting(trx, order),
    paragraphs: [t(lang, 'orderRequest.mail.declined.body', params), t(lang, 'orderRequest.mail.declined.reason', { reason }), t(lang, 'orderRequest.mail.declined.asked', { asked })],
    button: { label: t(lang, 'ticketing.mail.button'), url },
    after: [t(lang, 'mail.linkFallback', { url })],
    accentColor: event.primary_color,
  })
  await enqueueMail(trx, { kind: 'TICKET_ORDER_CANCELLATION_DECLINED', to: order.email, toName: order.full_name, language: lang, agencyId: order.agency_id, eventId: order.event_id, visitorId: order.visitor_id, ...m })
}
