// Ticketing (issue 12, docs/ticketing.md): setup for organisers, orders for guests and organisers.
import { Elysia } from 'elysia'
import type { AppContext } from '../../context'
import { ticketOrderRoutes } from './guest-routes'
import { organiserOrderRoutes } from './orders-routes'
import { ticketingSetupRoutes } from './organiser-routes'
import { detailParts } from '../visitors/detail'
import { activeOrderOfVisitor } from './orders/guest-list'
import './event-rules'
import './orders/expiry'
import './orders/deadline'
import './orders/invoicing'
import './orders/offline'

// the organiser's guest detail names the registration's order still under way (its number, as the
// tickets tab lists it, and status): a PENDING registration whose order is OPEN is confirmed by the
// payment, not by approving
detailParts.push(async (ctx, v) => {
  const [order, orders] = await Promise.all([
    activeOrderOfVisitor(ctx.db, v.id),
    // every order of the registration (newest first), each opening the organiser's order page
    ctx.db.selectFrom('ticket_order').select(['id', 'number', 'status', 'gross_price', 'currency', 'created_at']).where('visitor_id', '=', v.id).where('event_id', '=', v.event_id).orderBy('id', 'desc').limit(20).execute(),
  ])
  return {
    ticketOrder: order ? { number: order.number, status: order.status } : null,
    ticketOrders: orders.map((o) => ({ id: o.id, number: o.number, status: o.status, grossPrice: o.gross_price, currency: o.currency, createdAt: o.created_at })),
  }
})

export function ticketingRoutes(ctx: AppContext) {
  return new Elysia({ name: 'ticketing' }).use(ticketingSetupRoutes(ctx)).use(ticketOrderRoutes(ctx)).use(organiserOrderRoutes(ctx))
}
