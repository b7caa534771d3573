// Ticketing (issue 12, docs/ticketing.md): setup for organisers, orders for guests and organisers.
import { Elysia } from 'elysia'
import type { AppContext } from '../../context'
import { ticketingSetupRoutes } from './organiser-routes'

export function ticketingRoutes(ctx: AppContext) {
  return new Elysia({ name: 'ticketing' }).use(ticketingSetupRoutes(ctx))
}
