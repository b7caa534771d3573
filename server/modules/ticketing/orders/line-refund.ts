// Refunds per line (issue 21; docs/ticketing.md "Refunds per line"): the organiser chooses tickets of
// a paid order — a quantity per line — and the persons whose tickets they are. The chosen tickets are
// cancelled: their category's quota, their chairs and their event places go back, the chosen escort
// persons leave the registration and their personal QR codes are refused at the desk
// (canceled_ticket_person). What those tickets cost (each line's gross after its coupon share, split
// by quantity so the refunds of a whole line add up to it to the cent) goes back — through the
// provider when the order was paid online, recorded as given back by hand otherwise — with one
// credit note naming exactly those lines, mailed to the guest. The order stays PAID with the rest.
//
// Concurrency: the order row is written first (Postgres row lock, SQLite's single writer), then each
// line's refunded_quantity grows by a conditional update (never beyond its amount), so two refunds
// at once never take one ticket twice. Offline everything is one transaction. Online the claim (the
// tickets and the amount reserved on the payment) commits before the provider is called — never a
// provider call inside a transaction — and everything else is one transaction after it; if the
// provider refuses, the claim is given back and nothing else changed.
import { sql } from 'kysely'
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { bool, isoNow } from '../../../db/types'
import { AppError, fieldError, notFound } from '../../../shared/errors'
import { audit } from '../../audit/service'
import type { EventRow } from '../../events/events.table'
import type { AccountActor } from '../../identity/auth'
import { issueCreditNote, uncreditedByRate } from '../../invoices/credit-notes'
import type { InvoiceRow } from '../../invoices/invoices.table'
import { currentInvoiceOf, issueCancellation } from '../../invoices/service'
import type { InvoiceLineInput } from '../../invoices/snapshot'
import { enqueueTemplateMail } from '../../mail/outbox'
import type { PaymentAttemptRow } from '../../payments/payments.table'
import { providerRefund } from '../../payments/providers'
import { scheduleRefundCheck } from '../../payments/refund-checks'
import { paidAttemptOf } from '../../payments/refunds'
import { releaseOrderChairsOfCategory } from '../../seating/orders'
import { settlePersons } from '../../visitors/escort-write'
import { sellerSettings } from '../seller-settings'
import type { TicketOrderLineRow, TicketOrderRow } from '../ticketing.table'
import { addHistory } from './create'
import { lineValue } from './invoicing'
import { ONLINE_METHODS, offlineRefunded } from './offline-refund'

export interface RefundLinesInput {
  lines: Array<{ lineId: number; quantity: number }>
  /** the escort persons whose tickets go (ids of escort_person); the rest of the tickets' persons are unnamed ones */
  escortIds?: number[]
}

/** the guest's partial refund mail (registered by payments/refunds.ts) */
const PARTIAL_REFUND_TEMPLATE = 'TICKET_ORDER_PARTIAL_REFUND'


interface Claim {
  order: TicketOrderRow
  picks: Array<{ line: TicketOrderLineRow; quantity: number; cents: number }>
  escorts: Array<{ id: number; number: number; name: string }>
  /** persons the registration loses: one per ticket */
  persons: number
  cents: number
  /** names this refund uniquely (the credit note's issue key, the provider's idempotency key): the first line and how many of it were refunded before, which only this claim moved on */
  key: string
  paid: { attempt: PaymentAttemptRow; method: NonNullable<Awaited<ReturnType<typeof paidAttemptOf>>>['method'] } | null
}

/** The checks and the claim, in the caller's transaction: tickets claimed line by line, the amount reserved on an online payment. */
async function claim(trx: Db, event: EventRow, orderId: number, input: RefundLinesInput, at: string): Promise<Claim> {
  // the write first: refunds of one order queue here
  const order = await trx.updateTable('ticket_order').set({ updated_at: at }).where('id', '=', orderId).where('event_id', '=', event.id).where('status', '=', 'PAID').returningAll().executeTakeFirst()
  if (!order) {
    const o = await trx.selectFrom('ticket_order').select('id').where('id', '=', orderId).where('event_id', '=', event.id).executeTakeFirst()
    if (!o) throw notFound()
    throw new AppError(409, 'ORDER_NOT_PAID')
  }
  const lines = await trx.selectFrom('ticket_order_line').selectAll().where('order_id', '=', order.id).orderBy('sort_order').orderBy('id').execute()
  const want = new Map<number, number>()
  for (const l of input.lines) want.set(l.lineId, (want.get(l.lineId) ?? 0) + l.quantity)
  const picks: Claim['picks'] = []
  for (const [lineId, quantity] of want) {
    // a line of another order is not the caller's to refund: the same answer as an unknown one
    const line = lines.find((l) => l.id === lineId)
    if (!line || quantity < 1) throw fieldError([{ field: 'lines', errorType: 'INVALID' }])
    const done = Number(line.refunded_quantity)
    if (done + quantity > line.amount) throw new AppError(409, 'REFUND_TOO_LARGE', { fields: [{ field: 'lines', errorType: 'REFUND_TOO_LARGE' }] })
    picks.push({ line, quantity, cents: lineValue(line, done + quantity) - lineValue(line, done) })
  }
  const ticketsLeft = lines.reduce((s, l) => s + l.amount - Number(l.refunded_quantity), 0)
  const persons = picks.reduce((s, p) => s + p.quantity, 0)
  // every ticket: the whole order's refund or cancel (which end it), not this
  if (persons >= ticketsLeft) throw new AppError(409, 'REFUND_ALL_TICKETS')
  // the persons: each chosen escort of this registration, not checked in; the others are unnamed persons of the tickets
  const escorts: Claim['escorts'] = []
  if (order.visitor_id != null) {
    const v = await trx.selectFrom('event_visitor').select(['id', 'visitor_count']).where('id', '=', order.visitor_id).executeTakeFirstOrThrow()
    const rows = await trx.selectFrom('escort_person').select(['id', 'number', 'first_name', 'last_name', 'checked_in', 'checked_out']).where('visitor_id', '=', v.id).execute()
    for (const id of new Set(input.escortIds ?? [])) {
      const e = rows.find((r) => r.id === id)
      if (!e) throw fieldError([{ field: 'escortIds', errorType: 'INVALID' }])
      if (bool(e.checked_in) && !bool(e.checked_out)) throw new AppError(409, 'ESCORT_CHECKED_IN')
      escorts.push({ id: e.id, number: e.number, name: [e.first_name, e.last_name].filter(Boolean).join(' ') })
    }
    const unnamed = Math.max(0, v.visitor_count - 1 - rows.length)
    if (escorts.length > persons || persons - escorts.length > unnamed) throw new AppError(409, 'REFUND_PERSONS', { fields: [{ field: 'escortIds', errorType: 'REFUND_PERSONS' }] })
  }
  const cents = picks.reduce((s, p) => s + p.cents, 0)
  const online = ONLINE_METHODS.includes(order.payment_method ?? '')
  const paid = online ? await paidAttemptOf(trx, order.id) : null
  if (online && !paid) throw new AppError(409, 'REFUND_NOT_ONLINE')
  const left = paid ? paid.attempt.amount - paid.attempt.refunded_amount : Number(order.paid_amount ?? 0) - (await offlineRefunded(trx, order.id)).total
  if (cents > left) throw new AppError(409, 'REFUND_TOO_LARGE', { fields: [{ field: 'lines', errorType: 'REFUND_TOO_LARGE' }] })
  for (const p of picks) {
    const r = await trx
      .updateTable('ticket_order_line')
      .set((eb) => ({ refunded_quantity: eb('refunded_quantity', '+', p.quantity) }))
      .where('id', '=', p.line.id)
      .where(sql<boolean>`refunded_quantity + ${p.quantity} <= amount`)
      .executeTakeFirst()
    if (Number(r.numUpdatedRows) !== 1) throw new AppError(409, 'REFUND_TOO_LARGE', { fields: [{ field: 'lines', errorType: 'REFUND_TOO_LARGE' }] })
  }
  if (paid && cents > 0) {
    const r = await trx
      .updateTable('payment_attempt')
      .set((eb) => ({ refunded_amount: eb('refunded_amount', '+', cents) }))
      .where('id', '=', paid.attempt.id)
      .where(sql<boolean>`refunded_amount + ${cents} <= amount`)
      .executeTakeFirst()
    if (Number(r.numUpdatedRows) !== 1) throw new AppError(409, 'REFUND_TOO_LARGE', { fields: [{ field: 'lines', errorType: 'REFUND_TOO_LARGE' }] })
  }
  const first = picks[0]!
  return { order, picks, escorts, persons, cents, key: `lines-${first.line.id}-${Number(first.line.refunded_quantity)}`, paid }
}

/** The claim given back after the provider refused (its own transaction). */
async function unclaim(db: Db, c: Claim) {
  await db.transaction().execute(async (trx) => {
    for (const p of c.picks) await trx.updateTable('ticket_order_line').set((eb) => ({ refunded_quantity: eb('refunded_quantity', '-', p.quantity) })).where('id', '=', p.line.id).execute()
    if (c.paid && c.cents > 0) await trx.updateTable('payment_attempt').set((eb) => ({ refunded_amount: eb('refunded_amount', '-', c.cents) })).where('id', '=', c.paid.attempt.id).execute()
  })
}

/**
 * The credit note for exactly the refunded lines: each as on the invoice (the event and category,
 * the quantity refunded, the unit price) and the coupon's share as its own line, so the note's gross
 * is what went back. When earlier refunds by amount credited a rate so far that the lines no longer
 * fit in it, the amount is credited by rate instead (credit-notes.ts), never more than is left.
 */
async function lineCreditNote(ctx: AppContext, trx: Db, c: Claim, eventName: string): Promise<InvoiceRow | null> {
  const seller = await sellerSettings(trx, c.order.agency_id)
  const original = await currentInvoiceOf(trx, c.order.agency_id, c.order.id)
  if (!original || c.cents <= 0) return null
  const rate = (l: TicketOrderLineRow) => (l.tax_code === 'TAX_NONE' ? null : l.tax_rate / 100)
  const coupon = c.order.coupon_id ? await trx.selectFrom('coupon').select('code').where('id', '=', c.order.coupon_id).executeTakeFirst() : undefined
  const lines: InvoiceLineInput[] = []
  for (const p of c.picks) {
    lines.push({ name: `${eventName} – ${p.line.display_name}`, quantity: p.quantity, unitGrossCents: p.line.unit_price, taxRate: rate(p.line) })
    const off = p.quantity * p.line.unit_price - p.cents
    if (off > 0) lines.push({ name: `Gutschein ${coupon?.code ?? ''}`.trim(), quantity: -1, unitGrossCents: off, taxRate: rate(p.line) })
  }
  const left = await uncreditedByRate(trx, original)
  const need = new Map<string, number>()
  for (const l of lines) need.set(String(l.taxRate), (need.get(String(l.taxRate)) ?? 0) + l.quantity * l.unitGrossCents)
  const fits = [...need].every(([k, cents]) => (left.find((x) => String(x.rate) === k)?.cents ?? 0) >= cents)
  const what = c.key
  if (!fits) return issueCreditNote(ctx, trx, { agencyId: c.order.agency_id, orderId: c.order.id, amount: c.cents, what, prefix: seller.invoiceNumberPrefix })
  const done = await trx.selectFrom('invoice').selectAll().where('agency_id', '=', c.order.agency_id).where('issue_key', '=', `cancel:${original.id}:${what}`).executeTakeFirst()
  if (done) return done
  return issueCancellation(ctx, trx, { invoiceId: original.id, agencyId: c.order.agency_id, what, lines, prefix: seller.invoiceNumberPrefix })
}

/** Everything after the claim, in one transaction: tickets, chairs, persons and places back, the refund recorded, credit note, history, mail. */
async function apply(ctx: AppContext, trx: Db, actor: AccountActor, event: EventRow, c: Claim, at: string, refund: { id: string; pending: boolean } | null) {
  const order = await trx.selectFrom('ticket_order').selectAll().where('id', '=', c.order.id).executeTakeFirstOrThrow()
  const seats: string[] = []
  for (const p of c.picks) {
    // the quota: only while the order holds its tickets (a released order gave them back already)
    if (p.line.category_id != null && order.tickets_held === 1) await trx.updateTable('ticket_category').set((eb) => ({ sold: eb('sold', '-', p.quantity) })).where('id', '=', p.line.category_id).execute()
    if (p.line.category_id != null) seats.push(...(await releaseOrderChairsOfCategory(trx, order, p.line.category_id, p.quantity)))
  }
  if (order.visitor_id != null) {
    const v = await trx.selectFrom('event_visitor').select(['id', 'event_id', 'status', 'seats_held', 'visitor_count']).where('id', '=', order.visitor_id).executeTakeFirstOrThrow()
    // an escort edit running now loses (escort-write.ts: it moves escort_rev on from what it read)
    await trx.updateTable('event_visitor').set((eb) => ({ escort_rev: eb('escort_rev', '+', 1) })).where('id', '=', v.id).execute()
    if (c.escorts.length) await trx.deleteFrom('escort_person').where('visitor_id', '=', v.id).where('id', 'in', c.escorts.map((e) => e.id)).execute()
    for (const e of c.escorts) {
      await trx.insertInto('canceled_ticket_person').values({ order_id: order.id, visitor_id: v.id, person: e.number, name: e.name || null, created_at: at }).onConflict((oc) => oc.columns(['visitor_id', 'person']).doNothing()).execute()
    }
    const count = Math.max(1, v.visitor_count - c.persons)
    const held = await settlePersons(trx, v, count)
    await trx.updateTable('event_visitor').set({ visitor_count: count, seats_held: held, updated_at: at }).where('id', '=', v.id).execute()
  }
  let recorded = true
  if (refund && c.paid) {
    const inserted = await trx
      .insertInto('payment_refund')
      .values({ attempt_id: c.paid.attempt.id, order_id: order.id, provider_refund_id: refund.id, amount: c.cents, reason: 'ORGANISER', status: refund.pending ? 'PENDING' : 'DONE', created_at: at })
      .onConflict((oc) => oc.columns(['attempt_id', 'provider_refund_id']).doNothing())
      .returning('id')
      .executeTakeFirst()
    if (inserted && refund.pending) await scheduleRefundCheck(ctx.clock, trx, { agencyId: order.agency_id, refundId: inserted.id })
    if (!inserted) {
      // the provider's webhook was quicker: it recorded this refund (counted on the payment, its credit note and mail); the reservation goes back
      recorded = false
      await trx.updateTable('payment_attempt').set((eb) => ({ refunded_amount: eb('refunded_amount', '-', c.cents) })).where('id', '=', c.paid.attempt.id).execute()
    }
  }
  const creditNote = recorded ? await lineCreditNote(ctx, trx, c, event.display_name) : null
  const tickets = c.picks.map((p) => ({ lineId: p.line.id, name: p.line.display_name, quantity: p.quantity, amount: p.cents }))
  const persons = c.escorts.map((e) => e.name)
  const online = refund && c.paid ? { refundId: refund.id, provider: c.paid.attempt.provider, reason: 'ORGANISER' } : { offline: true }
  await addHistory(trx, order.id, at, 'PARTIAL_REFUND', actor.account.id, { amount: c.cents, ...online, tickets, persons, seats, creditNote: creditNote?.number ?? null })
  await audit(ctx, trx, { agencyId: event.agency_id, actor, action: 'order.refund.lines', entityType: 'order', entityId: order.number, eventId: event.id, detail: { amount: c.cents, tickets, persons, ...(refund ? { provider: c.paid?.attempt.provider } : { offline: true }) } })
  if (order.email && recorded) {
    await enqueueTemplateMail(trx, {
      kind: 'TICKET_ORDER_PARTIAL_REFUND',
      to: order.email,
      toName: order.full_name,
      language: order.language,
      agencyId: order.agency_id,
      eventId: order.event_id,
      visitorId: order.visitor_id,
      template: PARTIAL_REFUND_TEMPLATE,
      params: { orderId: order.id, amount: c.cents, creditNoteId: creditNote?.id ?? null },
    })
  }
}

/** `POST …/orders/{oid}/refundLines {lines: [{lineId, quantity}], escortIds}` (EVENT.GUEST.MANAGE). */
export async function refundLines(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number, input: RefundLinesInput) {
  const at = isoNow(ctx.clock.now())
  const online = await ctx.db.selectFrom('ticket_order').select('payment_method').where('id', '=', orderId).where('event_id', '=', event.id).executeTakeFirst()
  if (!online) throw notFound()
  if (!ONLINE_METHODS.includes(online.payment_method ?? '')) {
    await ctx.db.transaction().execute(async (trx) => apply(ctx, trx, actor, event, await claim(trx, event, orderId, input, at), at, null))
    ctx.notifyMail()
    return
  }
  const c = await ctx.db.transaction().execute((trx) => claim(trx, event, orderId, input, at))
  let refund: { id: string; pending: boolean } | null = null
  if (c.cents > 0) {
    const { attempt, method } = c.paid!
    try {
      if (!method) throw new AppError(409, 'PAYMENT_METHOD_NOT_AVAILABLE')
      // the key names what this refund takes, so a retry after a lost answer replays it at the provider
      refund = await providerRefund(ctx, attempt, method, c.cents, `${attempt.idempotency_key}-${c.key}`)
    } catch (e) {
      await unclaim(ctx.db, c)
      throw e
    }
  }
  await ctx.db.transaction().execute((trx) => apply(ctx, trx, actor, event, c, isoNow(ctx.clock.now()), refund))
  ctx.notifyMail()
}
