import { Elysia } from 'elysia'
import type { AppContext } from '../../context'
import { notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { z } from 'zod'
import { requireOrganiser } from '../identity/auth'
import { eventDto, publicEventDto } from './dto'
import { EventInput } from './model'
import { findEvent, listAgencyEvents } from './repository'
import { createEvent, eventOfAgency, updateEvent } from './service'

const IdParams = z.object({ id: idParam() })

export function eventRoutes(ctx: AppContext) {
  return new Elysia({ name: 'events' })
    .get(
      '/proxy/api/events',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        const rows = await listAgencyEvents(ctx.db, actor.account.agency_id)
        return rows.map((e) => eventDto(ctx, e))
      },
      { detail: { tags: ['events'], summary: 'Events of the current agency' } },
    )
    .post(
      '/proxy/api/events',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.CREATE')
        c.set.status = 201
        return eventDto(ctx, await createEvent(ctx, actor, c.body))
      },
      { body: EventInput, detail: { tags: ['events'], summary: 'Create an event' } },
    )
    .get(
      '/proxy/api/events/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        return eventDto(ctx, await eventOfAgency(ctx, actor, c.params.id))
      },
      { params: IdParams, detail: { tags: ['events'], summary: 'One event' } },
    )
    .put(
      '/proxy/api/events/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.EDIT')
        return eventDto(ctx, await updateEvent(ctx, actor, c.params.id, c.body))
      },
      { params: IdParams, body: EventInput, detail: { tags: ['events'], summary: 'Replace an event\'s settings' } },
    )
    .get(
      '/proxy/api/public/events/:id',
      async ({ params }) => {
        const e = await findEvent(ctx.db, params.id)
        if (!e || e.status !== 'OK' || e.visibility === 'OFFLINE') throw notFound()
        const agency = await ctx.db.selectFrom('agency').select(['id', 'display_name']).where('id', '=', e.agency_id).executeTakeFirst()
        return publicEventDto(ctx, e, agency ?? null)
      },
      { params: IdParams, detail: { tags: ['events'], summary: 'The public page data of an event' } },
    )
}
