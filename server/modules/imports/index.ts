// Bulk work on a guest list: CSV import (upload, dry run, run), CSV export, mass invitations.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { audit } from '../audit/service'
import { idParam } from '../../shared/validation'
import { eventOfAgency } from '../events/service'
import { requireOrganiser } from '../identity/auth'
import { taskDto } from '../tasks/runner'
import { startInvitations } from '../visitors/invitations'
import { parseGuestQuery } from '../visitors'
import { GuestFilter, GuestListQuery } from '../visitors/model'
import { exportCsv } from './export'
import { ImportRunInput } from './model'
import { startImport, uploadImport } from './service'

const EventParams = z.object({ id: idParam() })
const ImportParams = z.object({ id: idParam(), importId: idParam() })

export const InvitationInput = z.object({
  filter: GuestFilter.default(GuestFilter.parse({})),
  search: z.string().trim().max(200).optional(),
  /** only these guests (of the filtered list) */
  visitorIds: z.array(z.number().int().positive()).max(10000).optional(),
  reservePlace: z.boolean().default(false),
})

export function importRoutes(ctx: AppContext) {
  return new Elysia({ name: 'imports' })
    .post(
      '/proxy/api/events/:id/imports',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.IMPORT')
        c.set.status = 201
        return uploadImport(ctx, actor, c.params.id, c.body.file)
      },
      { params: EventParams, body: z.object({ file: z.instanceof(File, { message: 'REQUIRED' }) }), detail: { tags: ['imports'], summary: 'Upload a CSV file of guests: headers, sample rows and a suggested column mapping' } },
    )
    .post(
      '/proxy/api/events/:id/imports/:importId/dry-run',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.IMPORT')
        c.set.status = 202
        return taskDto(await startImport(ctx, actor, c.params.id, c.params.importId, c.body, true))
      },
      { params: ImportParams, body: ImportRunInput, detail: { tags: ['imports'], summary: 'Check every row of an uploaded CSV without importing (background task with the bad-row report)' } },
    )
    .post(
      '/proxy/api/events/:id/imports/:importId/run',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.IMPORT')
        c.set.status = 202
        const task = await startImport(ctx, actor, c.params.id, c.params.importId, c.body, false)
        await audit(ctx, ctx.db, { agencyId: actor.account.agency_id, actor, action: 'guests.import', entityType: 'import', entityId: c.params.importId, eventId: c.params.id, detail: { task: task.id } })
        return taskDto(task)
      },
      { params: ImportParams, body: ImportRunInput, detail: { tags: ['imports'], summary: 'Import an uploaded CSV (background task; all valid rows in one transaction or nothing)' } },
    )
    .get(
      '/proxy/api/events/:id/visitors/export',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.EXPORT')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        const s = parseGuestQuery(c.query)
        // personal data leaves the system: who took which selection
        await audit(ctx, ctx.db, { agencyId: event.agency_id, actor, action: 'guests.export', entityType: 'event', entityId: event.id, eventId: event.id, detail: { filter: c.query } })
        return new Response(exportCsv(ctx, event, s), {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="gaeste-${event.id}.csv"`,
            'cache-control': 'no-store',
          },
        })
      },
      { params: EventParams, query: GuestListQuery, detail: { tags: ['imports'], summary: 'CSV export of the filtered guest list (streamed)' } },
    )
    .post(
      '/proxy/api/events/:id/invitations',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.INVITE')
        c.set.status = 202
        const task = await startInvitations(ctx, actor, c.params.id, c.body)
        await audit(ctx, ctx.db, { agencyId: actor.account.agency_id, actor, action: 'invitations.send', entityType: 'event', entityId: c.params.id, eventId: c.params.id, detail: { task: task.id } })
        return taskDto(task)
      },
      { params: EventParams, body: InvitationInput, detail: { tags: ['imports'], summary: 'Invite the filtered guests by mail (background task)' } },
    )
}
