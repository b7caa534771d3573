// The payment deadline of unpaid transfers and invoices (issue 21, docs/ticketing.md "Payment
// deadline"): set when the guest confirms the order (paymentPay), the earlier of "days after the
// order" (the event's setting, else the agency's payment terms) and the event's start. A reminder
// mail goes out REMINDER_BEFORE_MS before it; at the deadline an unpaid TRANSFER order of an event
// that cancels overdue orders is cancelled by the task `ticketing.paymentDeadline` (its tickets,
// seats and places go back, the guest is told). Invoices are only reminded and shown overdue: the
// guest has their tickets and invoice already, collecting the debt is the organiser's business.
//
// One task per order and deadline, queued at the reminder and at the deadline; the handler reads the
// order as it is now, so a task left from before an extension or a payment does nothing. Safe to run
// twice and on two processes: the runner claims each task once, and both the reminder and the
// cancellation are conditional updates (reminded_at still null / still OPEN and unpaid at its
// deadline); only the one that changed the row mails and gives back.
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { bool, isoNow } from '../../../db/types'
import { AppError, fieldError, notFound } from '../../../shared/errors'
import { audit } from '../../audit/service'
import type { EventRow } from '../../events/events.table'
import type { AccountActor } from '../../identity/auth'
import { enqueueTask, registerTaskHandler } from '../../tasks/runner'
import type { TicketOrderRow } from '../ticketing.table'
import { addHistory } from './create'
import { enqueueDeadlineMail } from './deadline-mails'
import { cancelOrderInvoice } from './invoicing'
import { releaseOrder } from './release'
import { STEP } from './steps'

export const DEADLINE_TASK = 'ticketing.paymentDeadline'
/** the reminder goes out two days before the deadline … */
export const REMINDER_BEFORE_MS = 2 * 86400_000
/** … when the deadline is at least three days after the order (a shorter one: the order mail just said it) */
const REMINDER_MIN_TERM_MS = 3 * 86400_000
/** methods with money still to be sent after the order, and so a deadline */
export const DEADLINE_METHODS = ['TRANSFER', 'INVOICE'] as const
/** an order open again after an undone "mark paid" whose deadline passed: a day before the sweep takes it */
const GRACE_AFTER_UNDO_MS = 86400_000

/**
 * The deadline of an order confirmed `now`: `days` after it, never after the event's start. An event
 * that has already started (an order taken during it) has no start to keep to: then `days` alone.
 */
export function paymentDeadline(now: Date, days: number, eventStart: string | null): Date {
  const byDays = now.getTime() + days * 86400_000
  const start = eventStart ? Date.parse(eventStart) : Number.NaN
  return new Date(Number.isFinite(start) && start > now.getTime() ? Math.min(byDays, start) : byDays)
}

/** The days the event's orders get: its own setting, else the agency's payment terms. */
export async function deadlineDays(db: Db, eventId: number, agencyTermsDays: number): Promise<{ days: number; startDate: string | null }> {
  const e = await db.selectFrom('event').select(['payment_deadline_days', 'start_date']).where('id', '=', eventId).executeTakeFirst()
  return { days: e?.payment_deadline_days ?? agencyTermsDays, startDate: e?.start_date ?? null }
}

const hasDeadline = (o: Pick<TicketOrderRow, 'status' | 'paid_at' | 'payment_method' | 'payment_due_at'>) =>
  (o.status === 'OPEN' || o.status === 'CONFIRMED') && !o.paid_at && !!o.payment_due_at && (DEADLINE_METHODS as readonly string[]).includes(o.payment_method ?? '')

/**
 * Cancelled at its deadline (with the event's cancelOverdue): an open transfer, and an order whose
 * method the guest changed (switch-method.ts) and left open on the pay steps: it keeps the deadline
 * it had. Normal orders on the pay steps have no deadline (a reset clears it).
 */
const cancelsAtDeadline = (o: Pick<TicketOrderRow, 'status' | 'paid_at' | 'payment_method' | 'payment_due_at' | 'step'>) =>
  o.status === 'OPEN' && !o.paid_at && !!o.payment_due_at && (o.payment_method === 'TRANSFER' || o.step < STEP.EXTERNAL_SITE)

/**
 * Queues the order's deadline tasks (in the transaction that set the deadline): at the reminder, when
 * there is one (the deadline at least three days after `from`), and at the deadline.
 */
export async function scheduleDeadline(ctx: AppContext, trx: Db, order: TicketOrderRow, from: Date) {
  if (!hasDeadline(order)) return
  const due = Date.parse(order.payment_due_at!)
  const remindAt = due - REMINDER_BEFORE_MS
  if (due - from.getTime() >= REMINDER_MIN_TERM_MS && remindAt > ctx.clock.now().getTime()) {
    await enqueueTask(ctx.clock, trx, { kind: DEADLINE_TASK, agencyId: order.agency_id, payload: { orderId: order.id }, runAfter: new Date(remindAt) })
  }
  await enqueueTask(ctx.clock, trx, { kind: DEADLINE_TASK, agencyId: order.agency_id, payload: { orderId: order.id }, runAfter: new Date(due) })
}

/**
 * After an undone "mark paid" (orders/organiser.ts undoPaid, in its transaction): the order's deadline
 * counts again. One that has passed (or passes within a day) moves to a day from now, so correcting a
 * wrong entry never cancels the order on the spot; no reminder for that day (the organiser is on it).
 */
export async function rescheduleAfterUndo(ctx: AppContext, trx: Db, order: TicketOrderRow) {
  if (!hasDeadline(order)) return
  const now = ctx.clock.now()
  const soonest = now.getTime() + GRACE_AFTER_UNDO_MS
  if (Date.parse(order.payment_due_at!) >= soonest) return scheduleDeadline(ctx, trx, order, new Date(0))
  const dueAt = isoNow(new Date(soonest))
  const row = await trx
    .updateTable('ticket_order')
    .set({ payment_due_at: dueAt, payment_reminded_at: order.payment_reminded_at ?? isoNow(now) })
    .where('id', '=', order.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  await addHistory(trx, order.id, isoNow(now), 'DEADLINE_MOVED', null, { from: order.payment_due_at, to: dueAt, reason: 'MARKED_PAID_UNDONE' })
  await scheduleDeadline(ctx, trx, row, now)
}

/**
 * What the order's deadline asks now: the reminder (once per deadline), or the cancellation of a
 * transfer past it. Answers what it did: REMINDED, CANCELED or NOTHING.
 */
export async function runDeadline(ctx: AppContext, orderId: number): Promise<'REMINDED' | 'CANCELED' | 'NOTHING'> {
  const now = ctx.clock.now()
  const at = isoNow(now)
  const o = await ctx.db.selectFrom('ticket_order').selectAll().where('id', '=', orderId).executeTakeFirst()
  if (!o || !(hasDeadline(o) || cancelsAtDeadline(o))) return 'NOTHING'
  const due = Date.parse(o.payment_due_at!)
  if (due <= now.getTime()) {
    if (!cancelsAtDeadline(o)) return 'NOTHING'
    const event = await ctx.db.selectFrom('event').select(['cancel_overdue']).where('id', '=', o.event_id).executeTakeFirst()
    if (!event || !bool(event.cancel_overdue)) return 'NOTHING'
    return (await cancelOverdue(ctx, o, at)) ? 'CANCELED' : 'NOTHING'
  }
  if (!hasDeadline(o) || due - REMINDER_BEFORE_MS > now.getTime() || o.payment_reminded_at) return 'NOTHING'
  const sent = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('ticket_order')
      .set({ payment_reminded_at: at })
      .where('id', '=', o.id)
      .where('payment_reminded_at', 'is', null)
      .where('payment_due_at', '=', o.payment_due_at)
      .where('paid_at', 'is', null)
      .where('status', 'in', ['OPEN', 'CONFIRMED'])
      .returningAll()
      .executeTakeFirst()
    if (!row) return false
    await addHistory(trx, row.id, at, 'PAYMENT_REMINDER', null, { dueAt: row.payment_due_at })
    await enqueueDeadlineMail(ctx, trx, row, 'reminder')
    return true
  })
  if (sent) ctx.notifyMail()
  return sent ? 'REMINDED' : 'NOTHING'
}

/** Cancels an unpaid transfer at its deadline; false when it was paid, extended or cancelled meanwhile. */
async function cancelOverdue(ctx: AppContext, o: TicketOrderRow, at: string): Promise<boolean> {
  const done = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('ticket_order')
      .set({ status: 'CANCELED', step: STEP.CANCELED, hold_until: null, updated_at: at })
      .where('id', '=', o.id)
      .where('status', '=', 'OPEN')
      .where((eb) => eb.or([eb('payment_method', '=', 'TRANSFER'), eb('step', '<', STEP.EXTERNAL_SITE)]))
      .where('paid_at', 'is', null)
      .where('payment_due_at', '<=', at)
      .returningAll()
      .executeTakeFirst()
    if (!row) return false
    await releaseOrder(trx, row, at)
    // a transfer order has no invoice before it is paid; should one exist, it is cancelled as any other
    const creditNote = await cancelOrderInvoice(ctx, trx, row)
    await addHistory(trx, row.id, at, 'PAYMENT_DEADLINE_EXPIRED', null, { dueAt: row.payment_due_at })
    await audit(ctx, trx, { agencyId: row.agency_id, actor: null, action: 'order.cancel', entityType: 'order', entityId: row.number, eventId: row.event_id, detail: { reason: 'PAYMENT_DEADLINE', dueAt: row.payment_due_at, ...(creditNote ? { creditNoteId: creditNote.id } : {}) } })
    await enqueueDeadlineMail(ctx, trx, row, 'overdue')
    return true
  })
  if (done) ctx.notifyMail()
  return done
}

/**
 * The organiser extends an unpaid order's deadline to `paymentDueAt` (POST …/orders/{oid}/extendDeadline):
 * a transfer or invoice order, open and unpaid; the new deadline lies in the future and not after the
 * event's end (the automatic deadline keeps to the start; a person may knowingly allow payment until
 * the door, e.g. cash at the desk). Recorded in the order's history (from, to, who) and the audit log;
 * a new reminder goes out before the new deadline.
 */
export async function extendDeadline(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number, input: { paymentDueAt: string }) {
  const now = ctx.clock.now()
  const at = isoNow(now)
  const to = Date.parse(input.paymentDueAt)
  if (!Number.isFinite(to) || to <= now.getTime()) throw fieldError([{ field: 'paymentDueAt', errorType: 'PAYMENT_DEADLINE_IN_PAST' }])
  if (to > Date.parse(event.end_date)) throw fieldError([{ field: 'paymentDueAt', errorType: 'PAYMENT_DEADLINE_AFTER_EVENT' }])
  const dueAt = isoNow(new Date(to))
  await ctx.db.transaction().execute(async (trx) => {
    const o = await trx.selectFrom('ticket_order').selectAll().where('id', '=', orderId).where('event_id', '=', event.id).executeTakeFirst()
    if (!o) throw notFound()
    if (!hasDeadline(o)) throw new AppError(409, 'ORDER_NOT_OPEN')
    const row = await trx
      .updateTable('ticket_order')
      .set({ payment_due_at: dueAt, payment_reminded_at: null, updated_at: at })
      .where('id', '=', o.id)
      .where('status', 'in', ['OPEN', 'CONFIRMED'])
      .where('paid_at', 'is', null)
      .where('payment_due_at', '=', o.payment_due_at)
      .returningAll()
      .executeTakeFirst()
    if (!row) throw new AppError(409, 'ORDER_NOT_OPEN')
    await addHistory(trx, o.id, at, 'DEADLINE_EXTENDED', actor.account.id, { from: o.payment_due_at, to: dueAt })
    await audit(ctx, trx, { agencyId: event.agency_id, actor, action: 'order.extendDeadline', entityType: 'order', entityId: o.number, eventId: event.id, changes: { paymentDueAt: [o.payment_due_at, dueAt] } })
    await scheduleDeadline(ctx, trx, row, now)
  })
}

registerTaskHandler(DEADLINE_TASK, async (ctx, _task, payload: { orderId: number }) => ({ state: await runDeadline(ctx, payload.orderId) }), { lane: 'QUICK' })
