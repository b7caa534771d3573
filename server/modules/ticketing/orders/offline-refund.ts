// Refunds of orders not paid online (docs/ticketing.md, "Partial refunds"): the organiser gives money
// back by hand (bank transfer, cash) and records it — part of what was paid, or all that is left.
// Each refund gets its own credit note for exactly that amount (invoices/credit-notes.ts, the
// gapless sequence) mailed to the guest; the order stays PAID while money is left and its page
// says how much. The refund of the rest ends the order: REFUNDED, tickets, places and seats back,
// the credit note for the rest, the mail "Bestellung erstattet" naming what this refund gave back.
// The order row is written first in the transaction, so refunds of one order queue (Postgres row
// lock, SQLite's single writer) and never add up to more than was paid.
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { fromJson, isoNow } from '../../../db/types'
import { AppError, notFound } from '../../../shared/errors'
import { audit } from '../../audit/service'
import type { EventRow } from '../../events/events.table'
import type { AccountActor } from '../../identity/auth'
import { enqueueTemplateMail } from '../../mail/outbox'
import { issueCreditNote } from '../../invoices/credit-notes'
import { sellerSettings } from '../seller-settings'
import { addHistory } from './create'
import { enqueueOrderMail } from './mails'
import { releaseOrder } from './release'
import { STEP } from './steps'

export const ONLINE_METHODS = ['STRIPE', 'PAYPAL', 'MOLLIE']
const PROVIDER_NAMES: Record<string, string> = { STRIPE: 'Stripe', PAYPAL: 'PayPal', MOLLIE: 'Mollie' }
/** the guest's partial refund mail (registered by payments/refunds.ts: the same mail for both ways of refunding) */
const PARTIAL_REFUND_TEMPLATE = 'TICKET_ORDER_PARTIAL_REFUND'

/** What offline refunds gave back so far (history PARTIAL_REFUND with `offline`, and REFUNDED). */
export async function offlineRefunded(db: Db, orderId: number): Promise<{ total: number; count: number }> {
  const rows = await db.selectFrom('ticket_order_history').select(['kind', 'data']).where('order_id', '=', orderId).where('kind', 'in', ['PARTIAL_REFUND', 'REFUNDED']).execute()
  let total = 0
  let count = 0
  for (const r of rows) {
    const d = fromJson<{ amount?: number; offline?: boolean }>(r.data, {})
    if (r.kind === 'PARTIAL_REFUND' && !d.offline) continue
    total += Number(d.amount ?? 0)
    count++
  }
  return { total, count }
}

/**
 * Records an offline refund of `amount` cents (null: all that is left) of a PAID order not paid
 * online. REFUND_ONLINE_PAYMENT for an online order (its money goes back through its provider),
 * ORDER_NOT_PAID otherwise, REFUND_TOO_LARGE (at the field) beyond what is left.
 */
export async function refundOffline(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number, amount: number | null) {
  const at = isoNow(ctx.clock.now())
  await ctx.db.transaction().execute(async (trx) => {
    // the write first: refunds of one order queue here
    const row = await trx
      .updateTable('ticket_order')
      .set({ updated_at: at })
      .where('id', '=', orderId)
      .where('event_id', '=', event.id)
      .where('status', '=', 'PAID')
      .where((eb) => eb.or([eb('payment_method', 'is', null), eb('payment_method', 'not in', ONLINE_METHODS)]))
      .returningAll()
      .executeTakeFirst()
    if (!row) {
      const o = await trx.selectFrom('ticket_order').select(['status', 'payment_method']).where('id', '=', orderId).where('event_id', '=', event.id).executeTakeFirst()
      if (!o) throw notFound()
      if (o.status === 'PAID' && ONLINE_METHODS.includes(o.payment_method ?? '')) throw new AppError(409, 'REFUND_ONLINE_PAYMENT', { params: { provider: PROVIDER_NAMES[o.payment_method!]! } })
      throw new AppError(409, 'ORDER_NOT_PAID')
    }
    const before = await offlineRefunded(trx, row.id)
    const left = Number(row.paid_amount ?? 0) - before.total
    const want = amount ?? left
    if (want <= 0 || want > left) throw new AppError(409, 'REFUND_TOO_LARGE', { fields: [{ field: 'amount', errorType: 'REFUND_TOO_LARGE' }] })
    const seller = await sellerSettings(trx, row.agency_id)
    if (want < left) {
      // part of it: the order stays PAID, a credit note for exactly this amount
      const note = await issueCreditNote(ctx, trx, { agencyId: row.agency_id, orderId: row.id, amount: want, what: `offline:${before.count + 1}`, prefix: seller.invoiceNumberPrefix })
      await addHistory(trx, row.id, at, 'PARTIAL_REFUND', actor.account.id, { amount: want, offline: true, left: left - want, creditNote: note?.number ?? null })
      await audit(ctx, trx, { agencyId: event.agency_id, actor, action: 'order.refund.partial', entityType: 'order', entityId: row.number, eventId: event.id, detail: { amount: want, offline: true } })
      if (row.email) {
        await enqueueTemplateMail(trx, {
          kind: 'TICKET_ORDER_PARTIAL_REFUND',
          to: row.email,
          toName: row.full_name,
          language: row.language,
          agencyId: row.agency_id,
          eventId: row.event_id,
          visitorId: row.visitor_id,
          template: PARTIAL_REFUND_TEMPLATE,
          params: { orderId: row.id, amount: want, creditNoteId: note?.id ?? null },
        })
      }
      return
    }
    // the rest: the order ends, everything goes back
    const ended = await trx.updateTable('ticket_order').set({ status: 'REFUNDED', step: STEP.REFUNDED, updated_at: at }).where('id', '=', row.id).where('status', '=', 'PAID').returningAll().executeTakeFirstOrThrow()
    await releaseOrder(trx, ended, at)
    const note = await issueCreditNote(ctx, trx, { agencyId: row.agency_id, orderId: row.id, amount: 'rest', what: 'all', prefix: seller.invoiceNumberPrefix })
    await addHistory(trx, row.id, at, 'REFUNDED', actor.account.id, { amount: want })
    await audit(ctx, trx, { agencyId: event.agency_id, actor, action: 'order.refund', entityType: 'order', entityId: row.number, eventId: event.id, changes: { status: ['PAID', 'REFUNDED'] }, detail: { amount: want, offline: true } })
    // the mail names what this refund gave back (the partial ones had their own mails)
    await enqueueOrderMail(ctx, trx, { ...ended, gross_price: want }, 'refunded', null, note)
  })
  ctx.notifyMail()
}
