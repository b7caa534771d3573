// Whether a registration's ticket is valid (issue 20 B, docs/ticketing.md "Valid tickets"): the one
// rule the desk, self check-in, the dashboard and the documents ask. A registration without a ticket
// order (free events, guests the organiser added) has a valid ticket as before; with an order its
// latest order decides:
//   PAID                        valid
//   CONFIRMED, LOCATION         valid: the desk collects at the door (it shows the amount due)
//   CONFIRMED, INVOICE          valid unless the event issues invoice tickets AFTER_PAYMENT
//   OPEN                        not yet: a transfer waiting for its money (UNPAID), an online
//                               payment not settled (PAYMENT_PENDING)
//   CANCELED / DELETED          CANCELED      REFUNDED   REFUNDED
// A leaf module (no imports of other modules), so the check-in hot path reads the order in the
// registration's own query (orderColumns) and decides without another one.
import type { ExpressionBuilder } from 'kysely'

export type TicketBlock = 'UNPAID' | 'PAYMENT_PENDING' | 'CANCELED' | 'REFUNDED'
export const INVOICE_TICKETS = ['AT_ONCE', 'AFTER_PAYMENT'] as const
export type InvoiceTickets = (typeof INVOICE_TICKETS)[number]

/** the error each block answers at the desk and at self check-in (checkin/messages.ts) */
export const BLOCK_ERROR: Record<TicketBlock, string> = {
  UNPAID: 'TICKET_UNPAID',
  PAYMENT_PENDING: 'TICKET_PAYMENT_PENDING',
  CANCELED: 'TICKET_ORDER_CANCELED',
  REFUNDED: 'TICKET_ORDER_REFUNDED',
}

const ONLINE = ['STRIPE', 'PAYPAL', 'MOLLIE']

export interface OrderState {
  status: string
  payment_method: string | null
}

/** Why the registration behind this order has no valid ticket, or null when it has one (or no order). */
export function ticketBlock(o: OrderState | null | undefined, invoiceTickets: string | null | undefined): TicketBlock | null {
  if (!o) return null
  switch (o.status) {
    case 'PAID':
      return null
    case 'CONFIRMED':
      return o.payment_method === 'INVOICE' && invoiceTickets === 'AFTER_PAYMENT' ? 'UNPAID' : null
    case 'OPEN':
      return o.payment_method && ONLINE.includes(o.payment_method) ? 'PAYMENT_PENDING' : 'UNPAID'
    case 'REFUNDED':
      return 'REFUNDED'
    case 'CANCELED':
    case 'DELETED':
      return 'CANCELED'
    default:
      // waiting list, approval: nothing bought yet
      return 'UNPAID'
  }
}

/** The registration's latest order, as columns of its own row (`tko_*`), for a query over `event_visitor as v`. */
export interface OrderColumns {
  tko_id: number | null
  tko_number: string | null
  tko_status: string | null
  tko_method: string | null
  tko_gross: number | null
  tko_paid: number | null
  tko_currency: string | null
  tko_step: number | null
}

/**
 * Left-joins the latest ticket order of `v` (by the visitor index; none for free events) and selects
 * its columns: the hot path's one query reads the registration and its order together.
 */
// biome-ignore lint/suspicious/noExplicitAny: a join helper over any query that has `event_visitor as v`
export function withLatestOrder<Q extends { leftJoin: any }>(qb: Q): any {
  return (qb as any)
    .leftJoin('ticket_order as tko', (join: any) =>
      join.onRef('tko.visitor_id', '=', 'v.id').on((eb: ExpressionBuilder<any, any>) =>
        eb('tko.id', '=', eb.selectFrom('ticket_order as tko2').select((e2: ExpressionBuilder<any, any>) => e2.fn.max('tko2.id').as('m')).whereRef('tko2.visitor_id', '=', 'v.id')),
      ),
    )
    .select(['tko.id as tko_id', 'tko.number as tko_number', 'tko.status as tko_status', 'tko.payment_method as tko_method', 'tko.gross_price as tko_gross', 'tko.paid_amount as tko_paid', 'tko.currency as tko_currency', 'tko.step as tko_step'])
}

/** The order part of such a row for ticketBlock, or null when the registration has no order. */
export const orderStateOf = (r: Partial<OrderColumns>): OrderState | null => (r.tko_status ? { status: r.tko_status, payment_method: r.tko_method ?? null } : null)

/**
 * Whether the desk may record this order's payment: bought and not paid (a transfer waiting for its
 * money after its checkout, an invoice or a payment at the location), never a payment under way at an
 * online provider (it settles there; recording it too would take the money twice).
 */
export function deskMayRecord(o: { status: string; payment_method: string | null; step: number }): boolean {
  if (!o.payment_method || ONLINE.includes(o.payment_method)) return false
  return o.status === 'CONFIRMED' || (o.status === 'OPEN' && o.step >= 100)
}
export const isOnlineMethod = (m: string | null) => m != null && ONLINE.includes(m)

/** What the desk shows of the order: what is due, and whether the ticket is valid. Null without an order. */
export function paymentView(r: Partial<OrderColumns>, invoiceTickets: string | null | undefined) {
  if (!r.tko_id || !r.tko_status) return null
  const settled = r.tko_status === 'PAID' || r.tko_status === 'REFUNDED' || r.tko_status === 'CANCELED' || r.tko_status === 'DELETED'
  return {
    orderId: Number(r.tko_id),
    number: r.tko_number,
    status: r.tko_status,
    method: r.tko_method,
    grossPrice: Number(r.tko_gross ?? 0),
    currency: r.tko_currency,
    /** what the desk still has to collect (0 when paid, cancelled or refunded) */
    amountDue: settled ? 0 : Math.max(0, Number(r.tko_gross ?? 0) - Number(r.tko_paid ?? 0)),
    ticketBlocked: ticketBlock(orderStateOf(r), invoiceTickets),
    /** whether the desk can record its payment (deskPayment) */
    canRecord: !settled && deskMayRecord({ status: r.tko_status, payment_method: r.tko_method ?? null, step: Number(r.tko_step ?? 0) }),
  }
}
