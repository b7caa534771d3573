// Changing the payment method of an unpaid order (issue 21, docs/ticketing.md "Changing the payment
// method"): the spec's back call `POST .../proceed/reset {step: 8}` also serves an order that was
// confirmed but not paid — an open TRANSFER (step 100), an INVOICE order without an invoice yet
// (CONFIRMED, step 100), or an online payment that is not under way at the provider (70–90). The
// order goes back to step 8 with its method cleared (§4: back to 8 clears the method); its payment
// deadline stays as it was (switching back and forth never extends it), the tickets stay held until
// that deadline (no 30-minute hold), and the deadline task cancels it there if it is left open.
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { isoNow } from '../../../db/types'
import { AppError, fieldError } from '../../../shared/errors'
import { eventPaymentMethods } from '../payment-methods'
import type { TicketOrderRow } from '../ticketing.table'
import { addHistory } from './create'
import { STEP } from './steps'

const ONLINE = ['STRIPE', 'PAYPAL', 'MOLLIE']

/** Whether the order is one whose method a switch may change (before the other rules are asked). */
export function isSwitchable(o: Pick<TicketOrderRow, 'status' | 'step' | 'payment_method' | 'paid_at' | 'gross_price'>): boolean {
  if (o.paid_at || o.gross_price <= 0) return false
  if (o.status === 'OPEN' && o.step === STEP.FINISHED) return o.payment_method === 'TRANSFER'
  if (o.status === 'CONFIRMED' && o.step === STEP.FINISHED) return o.payment_method === 'INVOICE'
  if (o.status === 'OPEN' && o.step >= STEP.EXTERNAL_SITE && o.step <= STEP.WAIT) return ONLINE.includes(o.payment_method ?? '')
  return false
}

/** The pay page's and portal's "Zahlungsart ändern": switchable, a choice of methods, no invoice, no payment under way. */
export async function canChangeMethod(db: Db, o: TicketOrderRow, methodCount: number): Promise<boolean> {
  if (!isSwitchable(o) || methodCount <= 1) return false
  if (await db.selectFrom('payment_attempt').select('id').where('order_id', '=', o.id).where('status', '=', 'OPEN').executeTakeFirst()) return false
  return !(await db.selectFrom('invoice').select('id').where('agency_id', '=', o.agency_id).where('order_ref', '=', String(o.id)).executeTakeFirst())
}

/** The switch itself: one transaction, a conditional update on the order as it was read. */
export async function switchPaymentMethod(ctx: AppContext, pre: TicketOrderRow): Promise<TicketOrderRow> {
  const refuse = () => new AppError(409, 'ORDER_BACK_NOT_ALLOWED', { extra: { step: pre.step, orderStatus: pre.status } })
  if (!isSwitchable(pre)) throw refuse()
  const now = ctx.clock.now()
  const at = isoNow(now)
  const row = await ctx.db.transaction().execute(async (trx: Db) => {
    const methods = await eventPaymentMethods(trx, { id: pre.event_id, agency_id: pre.agency_id, currency: pre.currency })
    if (methods.length <= 1) throw refuse()
    // an online payment under way at the provider: it may still succeed, so the method stays
    const attempt = await trx.selectFrom('payment_attempt').select('id').where('order_id', '=', pre.id).where('status', '=', 'OPEN').executeTakeFirst()
    if (attempt) throw new AppError(409, 'PAYMENT_ATTEMPT_OPEN', { extra: { step: pre.step, orderStatus: pre.status } })
    // an invoice already issued names the method and the due amount: the switch comes before it
    const invoice = await trx.selectFrom('invoice').select('id').where('agency_id', '=', pre.agency_id).where('order_ref', '=', String(pre.id)).executeTakeFirst()
    // (a field error on paymentMethod whose errorType names the reason, so the page shows its text)
    if (invoice) throw fieldError([{ field: 'paymentMethod', errorType: 'INVOICE_ALREADY_ISSUED' }], 'INVOICE_ALREADY_ISSUED')
    const updated = await trx
      .updateTable('ticket_order')
      .set({ status: 'OPEN', step: STEP.PAYMENT_METHOD, payment_method: null, hold_until: null, updated_at: at })
      .where('id', '=', pre.id)
      .where('step', '=', pre.step)
      .where('status', '=', pre.status)
      .where('paid_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
    if (!updated) throw new AppError(409, 'ORDER_STEP_CHANGED', { extra: { step: pre.step, orderStatus: pre.status } })
    await addHistory(trx, pre.id, at, 'PAYMENT_METHOD_CHANGED', null, { from: pre.payment_method, step: pre.step, dueAt: pre.payment_due_at })
    return updated
  })
  return row
}
