// The organiser's guest list of an event.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { idParam } from '../../shared/validation'
import { eventOfAgency } from '../events/service'
import { requireOrganiser } from '../identity/auth'
import { visitorListDto } from './dto'

const ListQuery = z.object({
  search: z.string().max(200).optional(),
  page: z.coerce.number().int().min(0).default(0),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
})

export function visitorRoutes(ctx: AppContext) {
  return new Elysia({ name: 'visitors' }).get(
    '/proxy/api/events/:id/visitors',
    async (c) => {
      const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.VIEW')
      const event = await eventOfAgency(ctx, actor, c.params.id)
      const { search, page, perPage } = c.query
      let q = ctx.db.selectFrom('event_visitor').where('event_id', '=', event.id).where('status', '!=', 'DELETED')
      if (search?.trim()) {
        const s = `%${search.trim().toLowerCase()}%`
        q = q.where((eb) => eb.or([eb(eb.fn('lower', ['first_name']), 'like', s), eb(eb.fn('lower', ['last_name']), 'like', s), eb('email', 'like', s)]))
      }
      const [rows, total] = await Promise.all([
        q.selectAll().orderBy('last_name').orderBy('first_name').orderBy('id').limit(perPage).offset(page * perPage).execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
      ])
      return { items: rows.map(visitorListDto), total: Number(total?.n ?? 0), page, perPage }
    },
    { params: z.object({ id: idParam() }), query: ListQuery, detail: { tags: ['visitors'], summary: 'Guest list of an event' } },
  )
}
