import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { idParam } from '../../shared/validation'
import { eventOfAgency } from '../events/service'
import { requireOrganiser } from '../identity/auth'
import { eventStatistics } from './service'

export function statisticsRoutes(ctx: AppContext) {
  return new Elysia({ name: 'statistics' }).get(
    '/proxy/api/events/:id/statistics',
    async (c) => {
      const actor = await requireOrganiser(ctx, c, 'EVENT.STATISTICS')
      return eventStatistics(ctx.db, await eventOfAgency(ctx, actor, c.params.id))
    },
    { params: z.object({ id: idParam() }), detail: { tags: ['statistics'], summary: 'Registrations per day, status counts and the check-in curve of an event' } },
  )
}
