// Tags and campaigns: the spec's calls (agency-side.md 7).
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { idParam } from '../../shared/validation'
import { requireOrganiser } from '../identity/auth'
import { CampaignInput, CampaignSearch, TAG_TYPES, TagInput, TagPatch, TagSearch } from './model'
import { deleteLabel, findOrCreateLabel, labelDto, renameLabel, searchLabels } from './service'

const IdParams = z.object({ id: idParam() })

export function tagRoutes(ctx: AppContext) {
  return new Elysia({ name: 'tags' })
    .post(
      '/proxy/api/tags/search',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        const types = c.body.type == null ? [...TAG_TYPES] : Array.isArray(c.body.type) ? c.body.type : [c.body.type]
        return searchLabels(ctx.db, 'tag', actor.account.agency_id, { types, search: c.body.search, ...c.body.paging })
      },
      { body: TagSearch, detail: { tags: ['tags'], summary: 'Search tags (type DEFAULT/LOCATION, paging up to 9999)' } },
    )
    .post(
      '/proxy/api/tags',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'TAG.MANAGE')
        const r = await findOrCreateLabel(ctx.db, 'tag', actor.account.agency_id, c.body.displayName, c.body.type)
        c.set.status = r.created ? 201 : 200
        return labelDto(r.row)
      },
      { body: TagInput, detail: { tags: ['tags'], summary: 'Create a tag (an existing name in any case is returned instead, 200)' } },
    )
    .patch(
      '/proxy/api/tags/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'TAG.MANAGE')
        return renameLabel(ctx, 'tag', actor.account.agency_id, c.params.id, c.body.displayName)
      },
      { params: IdParams, body: TagPatch, detail: { tags: ['tags'], summary: 'Rename a tag' } },
    )
    .delete(
      '/proxy/api/tags/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'TAG.MANAGE')
        await deleteLabel(ctx, 'tag', actor.account.agency_id, c.params.id)
        return { deleted: true }
      },
      { params: IdParams, detail: { tags: ['tags'], summary: 'Delete a tag and its assignments' } },
    )
    .get(
      '/proxy/api/campaigns',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        return (await searchLabels(ctx.db, 'campaign', actor.account.agency_id, { page: 0, perPage: 9999 })).items
      },
      { detail: { tags: ['tags'], summary: 'All campaigns of the agency' } },
    )
    .post(
      '/proxy/api/campaigns/search',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.VIEW')
        return searchLabels(ctx.db, 'campaign', actor.account.agency_id, { search: c.body.search, ...c.body.paging })
      },
      { body: CampaignSearch, detail: { tags: ['tags'], summary: 'Search campaigns' } },
    )
    .post(
      '/proxy/api/campaigns',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'TAG.MANAGE')
        const r = await findOrCreateLabel(ctx.db, 'campaign', actor.account.agency_id, c.body.displayName, c.body.type)
        c.set.status = r.created ? 201 : 200
        return labelDto(r.row)
      },
      { body: CampaignInput, detail: { tags: ['tags'], summary: 'Create a campaign (an existing name in any case is returned instead, 200)' } },
    )
    .patch(
      '/proxy/api/campaigns/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'TAG.MANAGE')
        return renameLabel(ctx, 'campaign', actor.account.agency_id, c.params.id, c.body.displayName)
      },
      { params: IdParams, body: TagPatch, detail: { tags: ['tags'], summary: 'Rename a campaign' } },
    )
    .delete(
      '/proxy/api/campaigns/:id',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'TAG.MANAGE')
        await deleteLabel(ctx, 'campaign', actor.account.agency_id, c.params.id)
        return { deleted: true }
      },
      { params: IdParams, detail: { tags: ['tags'], summary: 'Delete a campaign and its assignments (a body is accepted and ignored)' } },
    )
}
