// Ticketing (issue 12, docs/ticketing.md): setup for organisers, orders for guests and organisers.
import { Elysia } from 'elysia'
import type { AppContext } from '../../context'
import { ticketOrderRoutes } from './guest-routes'
import { organiserOrderRoutes } from './orders-routes'
import { ticketingSetupRoutes } from './organiser-routes'
import './orders/expiry'
import './orders/invoicing'
import './orders/offline'

export function ticketingRoutes(ctx: AppContext) {
  return new Elysia({ name: 'ticketing' }).use(ticketingSetupRoutes(ctx)).use(ticketOrderRoutes(ctx)).use(organiserOrderRoutes(ctx))
}
