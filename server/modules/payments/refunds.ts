// Refunds through the provider (docs/payments.md, "Refunds"): from the organiser's order screen
// (whole or partial), from cancelling a paid order (cancel.ts), or seen at the provider (a PayPal
// refund webhook). Each is recorded once with the provider's refund id and gets its credit note
// (invoices/credit-notes.ts). The amount is reserved on the attempt with one conditional update
// before the provider is called, so concurrent refunds never add up to more than was paid, and it
// is given back if the provider fails. The idempotency key names what was refunded before, so a
// retry after a lost answer replays the provider's first refund instead of refunding twice. When
// the recorded refunds reach the paid amount the order ends: REFUNDED (902), tickets back, mail.
import { sql } from 'kysely'
import type { AppContext } from '../../context'
import { audit } from '../audit/service'
import type { Db } from '../../db/database'
import { isoNow } from '../../db/types'
import { t } from '../../i18n/catalogue'
import { AppError, notFound } from '../../shared/errors'
import type { EventRow } from '../events/events.table'
import type { AccountActor } from '../identity/auth'
import { issueCreditNote } from '../invoices/credit-notes'
import type { InvoiceRow } from '../invoices/invoices.table'
import { enqueueTemplateMail } from '../mail/outbox'
import { MailSubjectGone, registerMailTemplate } from '../mail/templates'
import { renderMail } from '../mail/render'
import { formatPrice } from '../ticketing/money'
import { currencyPrefixOf } from '../ticketing/seller-settings'
import { addHistory } from '../ticketing/orders/create'
import { creditNoteDocuments, enqueueOrderMail, orderGreeting } from '../ticketing/orders/mails'
import { orderDetail } from '../ticketing/orders/organiser'
import { releaseOrder } from '../ticketing/orders/release'
import { STEP } from '../ticketing/orders/steps'
import { sellerSettings } from '../ticketing/seller-settings'
import type { PaymentMethodRow, TicketOrderRow } from '../ticketing/ticketing.table'
import type { PaymentAttemptRow } from './payments.table'
import { type ProviderRefund, providerRefund } from './providers'
import { scheduleRefundCheck } from './refund-checks'
import { UNWANTED, type UnwantedReason, isUnwanted, unwantedAttempt } from './unwanted'

/** Why money went back: the organiser, a cancel, the provider's dashboard; or a payment the order could not take (attempts.ts refundUnwanted). */
export type RefundReason = 'ORGANISER' | 'CANCEL' | 'PROVIDER' | UnwantedReason

type Paid = { attempt: PaymentAttemptRow; method: PaymentMethodRow | null }

const methodOfAttempt = async (db: Db, attempt: PaymentAttemptRow) =>
  attempt.payment_method_id == null ? null : ((await db.selectFrom('payment_method').selectAll().where('id', '=', attempt.payment_method_id).executeTakeFirst()) ?? null)

/**
 * The online payment that paid the order and its method, or null when it was not paid online. A
 * payment that arrived late or twice (refunded by itself) is not it, though recorded PAID too.
 */
export async function paidAttemptOf(db: Db, orderId: number): Promise<Paid | null> {
  const attempt = await db
    .selectFrom('payment_attempt')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', '=', 'PAID')
    .where((eb) => eb.not(unwantedAttempt(eb)))
    .orderBy('id', 'desc')
    .executeTakeFirst()
  if (!attempt?.external_id) return null
  return { attempt, method: await methodOfAttempt(db, attempt) }
}

/** A payment that arrived late or twice whose automatic refund failed: its money is still to go back (with its reason). */
async function unwantedOwedOf(db: Db, orderId: number): Promise<(Paid & { reason: UnwantedReason }) | null> {
  const row = await db
    .selectFrom('payment_attempt')
    .innerJoin('payment_refund', 'payment_refund.attempt_id', 'payment_attempt.id')
    .selectAll('payment_attempt')
    .select('payment_refund.reason as unwanted_reason')
    .where('payment_attempt.order_id', '=', orderId)
    .where('payment_attempt.status', '=', 'PAID')
    .where('payment_refund.reason', 'in', UNWANTED)
    .where(sql<boolean>`payment_attempt.refunded_amount < payment_attempt.amount`)
    .orderBy('payment_attempt.id')
    .executeTakeFirst()
  if (!row?.external_id) return null
  const { unwanted_reason, ...attempt } = row
  return { attempt, method: await methodOfAttempt(db, attempt), reason: unwanted_reason as UnwantedReason }
}

/**
 * Refunds `amount` cents (null: all that is left) of a PAID order's online payment through its
 * provider and records it. Provider down: 502 PAYMENT_PROVIDER_UNAVAILABLE and nothing changed.
 */
export async function refundThroughProvider(
  ctx: AppContext,
  order: TicketOrderRow,
  paid: Paid,
  amount: number | null,
  by: { accountId: number | null; reason: RefundReason },
): Promise<{ refundId: string; amount: number; ended: boolean }> {
  const { attempt, method } = paid
  if (!method) throw new AppError(409, 'PAYMENT_METHOD_NOT_AVAILABLE')
  const left = attempt.amount - attempt.refunded_amount
  const want = amount ?? left
  if (want <= 0 || want > left) throw new AppError(409, 'REFUND_TOO_LARGE', { fields: [{ field: 'amount', errorType: 'REFUND_TOO_LARGE' }] })
  // one statement: of concurrent refunds only those that still fit reserve their amount
  let q = ctx.db
    .updateTable('payment_attempt')
    .set((eb) => ({ refunded_amount: eb('refunded_amount', '+', want) }))
    .where('id', '=', attempt.id)
    .where('status', '=', 'PAID')
    .where(sql<boolean>`refunded_amount + ${want} <= amount`)
  // "the rest" means the rest as it was read: a refund that slipped in between makes it another amount
  if (amount == null) q = q.where('refunded_amount', '=', attempt.refunded_amount)
  const reserved = await q.returning('refunded_amount').executeTakeFirst()
  if (!reserved) throw new AppError(409, 'REFUND_TOO_LARGE', { fields: [{ field: 'amount', errorType: 'REFUND_TOO_LARGE' }] })
  const before = Number(reserved.refunded_amount) - want
  let refund: ProviderRefund
  try {
    // a refund after a failed one is another refund: the key names the failures too, else the provider would replay the failed one
    const failures = await failedCount(ctx.db, attempt.id)
    const failed = failures > 0 ? `-after-failed-${failures}` : ''
    refund = await providerRefund(ctx, attempt, method, want, `${attempt.idempotency_key}-refund-${before}${failed}`)
  } catch (e) {
    await ctx.db.updateTable('payment_attempt').set((eb) => ({ refunded_amount: eb('refunded_amount', '-', want) })).where('id', '=', attempt.id).execute()
    throw e
  }
  const r = await recordRefund(ctx, attempt.id, { providerRefundId: refund.id, amount: want, reason: by.reason, accountId: by.accountId, reserved: true, pending: refund.pending })
  return { refundId: refund.id, amount: want, ended: r.ended }
}

const failedCount = async (db: Db, attemptId: number) =>
  Number((await db.selectFrom('payment_refund').select((eb) => eb.fn.countAll<number>().as('n')).where('attempt_id', '=', attemptId).where('status', '=', 'FAILED').executeTakeFirstOrThrow()).n)

/**
 * Records a refund the provider made, once per provider refund id: its credit note, the history,
 * the guest's mail; the order ends REFUNDED (902) when all that was paid went back. `reserved`:
 * the amount is already counted on the attempt (our own refunds reserve it before the call).
 * `pending`: the provider accepted it but has not made it yet (Mollie, Stripe SEPA): recorded PENDING and looked
 * at again (refund-checks.ts); if it fails, refund-outcomes.ts gives its amount back to the payment.
 * What a failed refund had credited is made good first, without a second credit note.
 */
export async function recordRefund(
  ctx: AppContext,
  attemptId: number,
  r: { providerRefundId: string; amount: number; reason: RefundReason; accountId: number | null; reserved: boolean; pending?: boolean },
): Promise<{ recorded: boolean; ended: boolean }> {
  const at = isoNow(ctx.clock.now())
  const out = await ctx.db.transaction().execute(async (trx) => {
    // the attempt row is the lock: refunds of one payment are recorded one after the other
    const attempt = await trx.updateTable('payment_attempt').set({ updated_at: at }).where('id', '=', attemptId).returningAll().executeTakeFirstOrThrow()
    const inserted = await trx
      .insertInto('payment_refund')
      .values({ attempt_id: attempt.id, order_id: attempt.order_id, provider_refund_id: r.providerRefundId, amount: r.amount, reason: r.reason, status: r.pending ? 'PENDING' : 'DONE', created_at: at })
      .onConflict((oc) => oc.columns(['attempt_id', 'provider_refund_id']).doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!inserted) {
      // recorded already (the provider's webhook came first, or a replayed refund): counted there
      if (r.reserved) await trx.updateTable('payment_attempt').set((eb) => ({ refunded_amount: eb('refunded_amount', '-', r.amount) })).where('id', '=', attempt.id).execute()
      return { recorded: false, ended: false }
    }
    if (!r.reserved) await trx.updateTable('payment_attempt').set((eb) => ({ refunded_amount: eb('refunded_amount', '+', r.amount) })).where('id', '=', attempt.id).execute()
    if (r.pending) await scheduleRefundCheck(ctx.clock, trx, { agencyId: attempt.agency_id, refundId: inserted.id })
    if (isUnwanted(r.reason)) {
      // a late or second payment given back again after its automatic refund failed: it was never
      // invoiced (no credit note) and the order is not about it (it neither ends nor is mailed)
      await addHistory(trx, attempt.order_id, at, r.reason === 'LATE_PAYMENT' ? 'LATE_PAYMENT_REFUNDED' : 'DUPLICATE_PAYMENT_REFUNDED', r.accountId, { provider: attempt.provider, externalId: attempt.external_id, refundId: r.providerRefundId, amount: r.amount })
      return { recorded: true, ended: false }
    }
    const sum = await trx.selectFrom('payment_refund').select((eb) => eb.fn.sum<number>('amount').as('n')).where('attempt_id', '=', attempt.id).where('status', '!=', 'FAILED').executeTakeFirstOrThrow()
    const whole = Number(sum.n) >= attempt.amount
    const order = (await trx.selectFrom('ticket_order').selectAll().where('id', '=', attempt.order_id).executeTakeFirstOrThrow()) as TicketOrderRow
    const seller = await sellerSettings(trx, order.agency_id)
    // a failed refund's credit note already credited this much: made good, not credited twice
    const madeGood = Math.min(attempt.failed_refund_credit, r.amount)
    if (madeGood > 0) await trx.updateTable('payment_attempt').set((eb) => ({ failed_refund_credit: eb('failed_refund_credit', '-', madeGood) })).where('id', '=', attempt.id).execute()
    // the refund of the rest credits exactly what is left of the invoice (rounding included)
    const credit = whole ? 'rest' : r.amount - madeGood
    const creditNote = credit === 'rest' || credit > 0 ? await issueCreditNote(ctx, trx, { agencyId: order.agency_id, orderId: order.id, amount: credit, what: `refund:${r.providerRefundId}`, prefix: seller.invoiceNumberPrefix }) : null
    const data = { amount: r.amount, refundId: r.providerRefundId, provider: attempt.provider, reason: r.reason }
    if (!whole || order.status !== 'PAID') {
      await addHistory(trx, order.id, at, whole ? 'PROVIDER_REFUND' : 'PARTIAL_REFUND', r.accountId, data)
      if (!whole) await partialRefundMail(trx, order, r.amount, creditNote)
      return { recorded: true, ended: false }
    }
    await addHistory(trx, order.id, at, 'PROVIDER_REFUND', r.accountId, data)
    const ended = await trx.updateTable('ticket_order').set({ status: 'REFUNDED', step: STEP.REFUNDED, updated_at: at }).where('id', '=', order.id).where('status', '=', 'PAID').returningAll().executeTakeFirst()
    if (!ended) return { recorded: true, ended: false }
    await releaseOrder(trx, ended, at)
    await addHistory(trx, ended.id, at, 'REFUNDED', r.accountId, { amount: ended.paid_amount })
    // the mail names what this refund gives back (earlier partial refunds had their own mails)
    await enqueueOrderMail(ctx, trx, { ...ended, gross_price: r.amount }, 'refunded', null, creditNote)
    return { recorded: true, ended: true }
  })
  if (out.recorded) ctx.notifyMail()
  return out
}

const PARTIAL_REFUND_TEMPLATE = 'TICKET_ORDER_PARTIAL_REFUND'
interface PartialRefundParams {
  orderId: number
  amount: number
  creditNoteId: number | null
}

/**
 * The guest's mail about a partial refund; it carries the refund's credit note (PDF and, with XML
 * invoicing, its XRechnung), rendered by the mail worker from the stored snapshot (issue 21).
 */
async function partialRefundMail(trx: Db, order: TicketOrderRow, amount: number, creditNote: Pick<InvoiceRow, 'id'> | null) {
  if (!order.email) return
  await enqueueTemplateMail(trx, {
    kind: 'TICKET_ORDER_PARTIAL_REFUND',
    to: order.email,
    toName: order.full_name,
    language: order.language,
    agencyId: order.agency_id,
    eventId: order.event_id,
    visitorId: order.visitor_id,
    template: PARTIAL_REFUND_TEMPLATE,
    params: { orderId: order.id, amount, creditNoteId: creditNote?.id ?? null } satisfies PartialRefundParams,
  })
}

registerMailTemplate<PartialRefundParams>(PARTIAL_REFUND_TEMPLATE, async (ctx, _m, p) => {
  const order = await ctx.db.selectFrom('ticket_order').selectAll().where('id', '=', p.orderId).executeTakeFirst()
  if (!order) throw new MailSubjectGone('the order is gone')
  const event = await ctx.db.selectFrom('event').select('display_name').where('id', '=', order.event_id).executeTakeFirst()
  const params = { number: order.number, event: event?.display_name ?? '', amount: formatPrice(p.amount, order.currency, await currencyPrefixOf(ctx.db, order.agency_id)) }
  const docs = p.creditNoteId != null ? await creditNoteDocuments(ctx, order.agency_id, p.creditNoteId, order.language) : { files: [], texts: [] }
  const m = renderMail({ subject: t(order.language, 'payments.mail.partialRefund.subject', params), greeting: await orderGreeting(ctx.db, order), paragraphs: [t(order.language, 'payments.mail.partialRefund.body', params), ...docs.texts] })
  return { subject: m.subject, html: m.html, text: m.text, attachments: docs.files }
})

/** The organiser's refund button: `POST …/orders/{oid}/refundPayment {amount?}` (cents; default the rest). */
export async function refundPayment(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number, input: { amount?: number | null }) {
  const order = await ctx.db.selectFrom('ticket_order').selectAll().where('id', '=', orderId).where('event_id', '=', event.id).executeTakeFirst()
  if (!order) throw notFound()
  // a late or second payment whose automatic refund failed goes back first, whatever the order's state
  const unwanted = await unwantedOwedOf(ctx.db, order.id)
  if (unwanted) {
    await refundThroughProvider(ctx, order as TicketOrderRow, unwanted, input.amount ?? null, { accountId: actor.account.id, reason: unwanted.reason })
    return { ...(await orderDetail(ctx, event, order.id)), refunds: await refundsOf(ctx, order.id) }
  }
  // after a refund that failed at the provider, what it should have given back can be refunded again
  // (the order may have ended with it: REFUNDED or CANCELED)
  const paid = await paidAttemptOf(ctx.db, order.id)
  if (order.status !== 'PAID' && !(paid && paid.attempt.refunded_amount < paid.attempt.amount && (await failedCount(ctx.db, paid.attempt.id)) > 0)) throw new AppError(409, 'ORDER_NOT_PAID')
  if (!paid) throw new AppError(409, 'REFUND_NOT_ONLINE')
  await refundThroughProvider(ctx, order as TicketOrderRow, paid, input.amount ?? null, { accountId: actor.account.id, reason: 'ORGANISER' })
  await audit(ctx, ctx.db, { agencyId: event.agency_id, actor, action: 'order.refund.online', entityType: 'order', entityId: order.number, eventId: event.id, detail: { amount: input.amount ?? paid.attempt.amount - paid.attempt.refunded_amount, provider: paid.attempt.provider } })
  return { ...(await orderDetail(ctx, event, order.id)), refunds: await refundsOf(ctx, order.id) }
}

export async function refundsOf(ctx: AppContext, orderId: number) {
  const rows = await ctx.db.selectFrom('payment_refund').selectAll().where('order_id', '=', orderId).orderBy('id').execute()
  return rows.map((r) => ({ id: r.id, providerRefundId: r.provider_refund_id, amount: r.amount, reason: r.reason, status: r.status, createdAt: r.created_at }))
}
