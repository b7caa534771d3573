import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { requireOrganiser } from '../identity/auth'
import { createShortLink, deleteShortLink, resolveShortLink, searchShortLinks } from './service'

const CODE = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,40}$/, 'INVALID')

export function shortLinkRoutes(ctx: AppContext) {
  return new Elysia({ name: 'shortlinks' })
    .post(
      '/proxy/api/tags/shortLinks',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        return searchShortLinks(ctx, actor.account.agency_id, c.body ?? {})
      },
      { body: z.object({ eventId: z.number().int().positive().optional(), search: z.string().trim().max(40).optional() }).optional(), detail: { tags: ['shortlinks'], summary: 'Search short links' } },
    )
    .post(
      '/proxy/api/shortLinks',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'TAG.MANAGE')
        c.set.status = 201
        return createShortLink(ctx, actor, c.body)
      },
      {
        body: z.object({ eventId: z.number().int().positive(), code: CODE.nullish(), tagIds: z.array(z.number().int().positive()).max(50).default([]), campaignId: z.number().int().positive().nullish() }),
        detail: { tags: ['shortlinks'], summary: 'Create a short link to an event (random code unless given)' },
      },
    )
    .delete(
      '/proxy/api/shortLinks/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'TAG.MANAGE')
        await deleteShortLink(ctx, actor.account.agency_id, c.params.id, c.body.code)
        return { deleted: true }
      },
      { params: z.object({ id: idParam() }), body: z.object({ code: z.string().min(1, 'REQUIRED').max(40) }), detail: { tags: ['shortlinks'], summary: 'Delete a short link (body: its code, as confirmation)' } },
    )
    .get(
      '/s/:code',
      async ({ params, redirect }) => {
        const r = await resolveShortLink(ctx.db, params.code)
        if (!r) throw notFound()
        return redirect(`/public/event/${r.eventId}?sl=${encodeURIComponent(r.code)}`, 302)
      },
      { params: z.object({ code: z.string().max(40) }), detail: { tags: ['shortlinks'], summary: 'Open a short link (redirect to the public event page)' } },
    )
}
