// The media gallery's calls (docs/media.md; the spec names no paths): categories with entry counts,
// entries, the picker's search and pick. All need the MEDIA_GALLERY licence feature (403 WRONG_ABO).
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { idParam } from '../../shared/validation'
import { requireFeature, requireOrganiser } from '../identity/auth'
import type { Permission } from '../identity/roles'
import type { HttpContext } from '../identity/auth'
import { CategoryInput, EntryInput, EntryPatch, EntrySearch } from './model'
import { createCategory, createEntry, deleteCategory, deleteEntry, listCategories, pickEntry, renameCategory, searchEntries, updateEntry } from './service'

const IdParams = z.object({ id: idParam() })
const BASE = '/proxy/api/mediaGallery'
const tags = ['mediaGallery']

export function mediaRoutes(ctx: AppContext) {
  const gallery = async (c: HttpContext, permission: Permission) => {
    const actor = await requireOrganiser(ctx, c, permission)
    requireFeature(ctx, 'MEDIA_GALLERY')
    return actor.account.agency_id
  }
  return new Elysia({ name: 'media' })
    .get(`${BASE}/categories`, async (c) => listCategories(ctx.db, await gallery(c, 'EVENT.VIEW')), { detail: { tags, summary: 'The categories (galleries) with their entryCount' } })
    .post(
      `${BASE}/categories`,
      async (c) => {
        const agencyId = await gallery(c, 'ASSET.UPLOAD')
        c.set.status = 201
        return createCategory(ctx.db, agencyId, c.body.displayName)
      },
      { body: CategoryInput, detail: { tags, summary: 'Create a category' } },
    )
    .put(`${BASE}/categories/:id`, async (c) => renameCategory(ctx.db, await gallery(c, 'ASSET.UPLOAD'), c.params.id, c.body.displayName), {
      params: IdParams,
      body: CategoryInput,
      detail: { tags, summary: 'Rename a category' },
    })
    .delete(
      `${BASE}/categories/:id`,
      async (c) => {
        await deleteCategory(ctx.db, await gallery(c, 'ASSET.UPLOAD'), c.params.id)
        return { deleted: true }
      },
      { params: IdParams, detail: { tags, summary: 'Delete a category and its entries (the images stay)' } },
    )
    .post(`${BASE}/entries/search`, async (c) => searchEntries(ctx, await gallery(c, 'EVENT.VIEW'), { categoryId: c.body.categoryId, validOnly: c.body.validOnly, ...c.body.paging }), {
      body: EntrySearch,
      detail: { tags, summary: "A page of a category's entries (perPage 2, 10, 20 or 50; validOnly: only those valid now)" },
    })
    .post(
      `${BASE}/entries`,
      async (c) => {
        const agencyId = await gallery(c, 'ASSET.UPLOAD')
        c.set.status = 201
        return createEntry(ctx, agencyId, c.body)
      },
      { body: EntryInput, detail: { tags, summary: 'Register an uploaded image of the agency in a category' } },
    )
    .put(`${BASE}/entries/:id`, async (c) => updateEntry(ctx, await gallery(c, 'ASSET.UPLOAD'), c.params.id, c.body), {
      params: IdParams,
      body: EntryPatch,
      detail: { tags, summary: "Change an entry's texts, validity or category" },
    })
    .delete(
      `${BASE}/entries/:id`,
      async (c) => {
        await deleteEntry(ctx.db, await gallery(c, 'ASSET.UPLOAD'), c.params.id)
        return { deleted: true }
      },
      { params: IdParams, detail: { tags, summary: 'Remove an entry (the image stays)' } },
    )
    .post(`${BASE}/entries/:id/pick`, async (c) => pickEntry(ctx, await gallery(c, 'EVENT.EDIT'), c.params.id), {
      params: IdParams,
      detail: { tags, summary: 'Pick an entry (event or mail image): its asset, 409 MEDIA_ENTRY_NOT_VALID outside its validity' },
    })
}
