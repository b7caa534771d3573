// The organiser's order detail page (docs/ticketing.md, "Order detail"): what `GET …/orders/{oid}`
// answers beside the order's own fields — the payments and refunds with provider, reference and time,
// the invoice and every credit note with their download links, who made each history entry, the
// seats, and the persons (one ticket, one person) with their check-in state. Read only; every row is
// read through the order, which the caller has already found in the organiser's event.
import type { Db } from '../../../db/database'
import { bool, fromJson } from '../../../db/types'
import type { TicketOrderRow } from '../ticketing.table'
import { orderSeatLabels } from './seats'

const PROVIDER_NAMES: Record<string, string> = { STRIPE: 'Stripe', PAYPAL: 'PayPal', MOLLIE: 'Mollie' }

/** Online payment attempts that brought money (or are under way) and their refunds at the provider. */
async function onlinePayments(db: Db, o: TicketOrderRow, history: History) {
  const [attempts, refunds] = await Promise.all([
    db
      .selectFrom('payment_attempt')
      .select(['id', 'provider', 'external_id', 'amount', 'currency', 'status', 'refunded_amount', 'created_at', 'updated_at'])
      .where('order_id', '=', o.id)
      .where('agency_id', '=', o.agency_id)
      .orderBy('id')
      .execute(),
    db.selectFrom('payment_refund').select(['id', 'attempt_id', 'provider_refund_id', 'amount', 'reason', 'status', 'created_at']).where('order_id', '=', o.id).orderBy('id').execute(),
  ])
  const providerOf = new Map(attempts.map((a) => [a.id, a.provider]))
  // when the money came in: the history entry of the payment (an attempt's own time changes with its refunds)
  const paidAt = new Map(history.filter((h) => h.kind === 'PAID_ONLINE' || h.kind === 'LATE_PAYMENT').map((h) => [String(h.data.externalId ?? ''), h.at]))
  return {
    payments: attempts
      .filter((a) => a.status === 'PAID')
      .map((a) => ({
        kind: 'ONLINE' as const,
        provider: PROVIDER_NAMES[a.provider] ?? a.provider,
        reference: a.external_id,
        amount: Number(a.amount),
        refundedAmount: Number(a.refunded_amount),
        at: paidAt.get(a.external_id ?? '') ?? a.created_at,
      })),
    refunds: refunds.map((r) => ({
      kind: 'ONLINE' as const,
      provider: PROVIDER_NAMES[providerOf.get(r.attempt_id) ?? ''] ?? providerOf.get(r.attempt_id) ?? null,
      reference: r.provider_refund_id,
      amount: Number(r.amount),
      reason: r.reason,
      status: r.status,
      at: r.created_at,
    })),
  }
}

type History = Array<{ kind: string; at: string; account_id: number | null; data: Record<string, unknown> }>

/**
 * Payments and refunds recorded by hand (mark paid, its undo, the offline refund, a paid order
 * cancelled offline), from the history: they have no provider row. The counter-entry of an undo is a
 * payment with a negative amount, so the list adds up to what the order holds.
 */
function offlineEntries(history: History) {
  const payments: Array<{ kind: 'OFFLINE'; provider: null; reference: null; amount: number; refundedAmount: number; at: string; paidAt: string | null; accountId: number | null }> = []
  const refunds: Array<{ kind: 'OFFLINE'; provider: null; reference: null; amount: number; reason: string; status: 'DONE'; at: string; accountId: number | null }> = []
  for (const h of history) {
    const amount = Number(h.data.amount ?? 0)
    if (h.kind === 'MARKED_PAID' || h.kind === 'MARKED_PAID_UNDONE') {
      payments.push({ kind: 'OFFLINE', provider: null, reference: null, amount, refundedAmount: 0, at: h.at, paidAt: (h.data.paidAt as string | undefined) ?? null, accountId: h.account_id })
    } else if (h.kind === 'PARTIAL_REFUND' && h.data.offline === true && amount > 0) {
      refunds.push({ kind: 'OFFLINE', provider: null, reference: null, amount, reason: 'PARTIAL_REFUND', status: 'DONE', at: h.at, accountId: h.account_id })
    } else if (h.kind === 'REFUNDED' && amount > 0) {
      refunds.push({ kind: 'OFFLINE', provider: null, reference: null, amount, reason: 'REFUND', status: 'DONE', at: h.at, accountId: h.account_id })
    } else if (h.kind === 'CANCELED' && Number(h.data.refundAmount ?? 0) > 0) {
      refunds.push({ kind: 'OFFLINE', provider: null, reference: null, amount: Number(h.data.refundAmount), reason: 'CANCEL', status: 'DONE', at: h.at, accountId: h.account_id })
    }
  }
  return { payments, refunds }
}

/** The order's invoice and its credit notes (Stornorechnungen), oldest first, with their files. */
async function documents(db: Db, o: TicketOrderRow) {
  const rows = await db
    .selectFrom('invoice')
    .select(['id', 'number', 'kind', 'gross_cents', 'issued_at', 'cancels_invoice_id', 'currency'])
    .where('agency_id', '=', o.agency_id)
    .where('event_id', '=', o.event_id)
    .where('order_ref', '=', String(o.id))
    .orderBy('id')
    .execute()
  const numberOf = new Map(rows.map((r) => [r.id, r.number]))
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    kind: r.kind,
    grossCents: Number(r.gross_cents),
    issuedAt: r.issued_at,
    cancelsInvoiceId: r.cancels_invoice_id,
    cancelsNumber: r.cancels_invoice_id ? (numberOf.get(r.cancels_invoice_id) ?? null) : null,
    pdfUrl: `/proxy/api/invoices/${r.id}/pdf`,
    xmlUrl: `/proxy/api/invoices/${r.id}/xrechnung`,
    ublUrl: `/proxy/api/invoices/${r.id}/xrechnung?syntax=UBL`,
    zugferdUrl: `/proxy/api/invoices/${r.id}/zugferd`,
  }))
}

/** The persons the order's tickets are for: the registration's main guest and its escorts, with check-in. */
async function persons(db: Db, o: TicketOrderRow) {
  if (o.visitor_id == null) return []
  const [v, escorts] = await Promise.all([
    db
      .selectFrom('event_visitor')
      .select(['id', 'first_name', 'last_name', 'email', 'status', 'main_guest_checked_in', 'main_guest_checkin_date', 'main_guest_checked_out'])
      .where('id', '=', o.visitor_id)
      .where('event_id', '=', o.event_id)
      .executeTakeFirst(),
    db.selectFrom('escort_person').select(['id', 'number', 'first_name', 'last_name', 'checked_in', 'checkin_date', 'checked_out']).where('visitor_id', '=', o.visitor_id).orderBy('number').execute(),
  ])
  if (!v) return []
  const name = (p: { first_name: string | null; last_name: string | null }) => [p.first_name, p.last_name].filter(Boolean).join(' ')
  return [
    { kind: 'GUEST' as const, visitorId: v.id, escortId: null, name: name(v), email: v.email, checkedIn: bool(v.main_guest_checked_in), checkedOut: bool(v.main_guest_checked_out), checkinAt: v.main_guest_checkin_date },
    ...escorts.map((e) => ({ kind: 'ESCORT' as const, visitorId: v.id, escortId: e.id, name: name(e), email: null, checkedIn: bool(e.checked_in), checkedOut: bool(e.checked_out), checkinAt: e.checkin_date })),
  ]
}

/** Who made the history entries: the organisers' names (an entry without account is the guest or the system). */
async function authors(db: Db, o: TicketOrderRow, history: History) {
  const ids = [...new Set(history.map((h) => h.account_id).filter((x): x is number => x != null))]
  if (!ids.length) return new Map<number, string>()
  const rows = await db
    .selectFrom('account')
    .innerJoin('app_user', 'app_user.id', 'account.user_id')
    .select(['account.id', 'account.first_name', 'account.last_name', 'app_user.email'])
    .where('account.id', 'in', ids)
    .where('account.agency_id', '=', o.agency_id)
    .execute()
  return new Map(rows.map((r) => [r.id, [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email]))
}

/** Everything the detail page shows beside the order's own fields. */
export async function orderDetailParts(db: Db, o: TicketOrderRow, history: History) {
  const [online, invoices, people, seats, names] = await Promise.all([onlinePayments(db, o, history), documents(db, o), persons(db, o), orderSeatLabels(db, o), authors(db, o, history)])
  const offline = offlineEntries(history)
  const byTime = <T extends { at: string }>(xs: T[]) => xs.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
  const refunded = online.refunds.filter((r) => r.status !== 'FAILED').reduce((s, r) => s + r.amount, 0) + offline.refunds.reduce((s, r) => s + r.amount, 0)
  const paid = Number(o.paid_amount ?? 0)
  return {
    payments: byTime([...online.payments.map((p) => ({ ...p, paidAt: p.at, accountId: null })), ...offline.payments]),
    refunds: byTime([...online.refunds.map((r) => ({ ...r, accountId: null })), ...offline.refunds]),
    refundedAmount: refunded,
    /** what the guest's money that stays with the seller comes to (paid minus refunded) */
    amountLeft: o.paid_at ? Math.max(0, paid - refunded) : 0,
    partlyRefunded: o.status === 'PAID' && refunded > 0 && refunded < paid,
    invoices,
    persons: people,
    seats,
    authors: names,
  }
}

/** The chairs recorded on the order per ticket category (a line's seats: "Saal · A 12"). */
export async function seatsByCategory(db: Db, orderId: number): Promise<Map<number, string[]>> {
  const rows = await db
    .selectFrom('ticket_order_chair as o')
    .innerJoin('seating_chair as c', 'c.id', 'o.chair_id')
    .innerJoin('seating_area as a', 'a.id', 'c.area_id')
    .select(['o.category_id', 'o.label', 'o.amount', 'a.display_name as area'])
    .where('o.order_id', '=', orderId)
    .orderBy('o.id')
    .execute()
  const out = new Map<number, string[]>()
  for (const r of rows) {
    if (r.category_id == null) continue
    const list = out.get(r.category_id) ?? []
    list.push(`${r.area} · ${r.label}${r.amount > 1 ? ` (${r.amount})` : ''}`)
    out.set(r.category_id, list)
  }
  return out
}

/**
 * What went back of each PAID order so far (provider refunds not failed, offline partial refunds):
 * the orders list shows "Teilweise erstattet" and what is left.
 */
export async function refundedOfPaid(db: Db, orderIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>()
  if (!orderIds.length) return out
  const [online, offline] = await Promise.all([
    db.selectFrom('payment_refund').select(['order_id', 'amount']).where('order_id', 'in', orderIds).where('status', '!=', 'FAILED').execute(),
    db.selectFrom('ticket_order_history').select(['order_id', 'data']).where('order_id', 'in', orderIds).where('kind', '=', 'PARTIAL_REFUND').execute(),
  ])
  for (const r of online) out.set(r.order_id, (out.get(r.order_id) ?? 0) + Number(r.amount))
  for (const r of offline) {
    const d = fromJson<{ amount?: number; offline?: boolean }>(r.data, {})
    if (d.offline) out.set(r.order_id, (out.get(r.order_id) ?? 0) + Number(d.amount ?? 0))
  }
  return out
}
