// Bank statements of the agency (AGENCY.MANAGE): import a CAMT.053 file, list the credits a person
// must decide, assign one to an order or dismiss it (docs/ticketing.md, "Bank statements").
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { idParam } from '../../shared/validation'
import { requireOrganiser } from '../identity/auth'
import { assignEntry, dismissEntry, importStatement, listEntries } from './service'

const tags = ['bank statements']
const One = z.object({ id: idParam() })

export function bankRoutes(ctx: AppContext) {
  const admin = (c: any) => requireOrganiser(ctx, c, 'AGENCY.MANAGE')
  return new Elysia({ name: 'bank' })
    .post(
      '/proxy/api/bank/statements',
      async (c) => {
        const actor = await admin(c)
        return importStatement(ctx, actor, c.body.file)
      },
      { body: z.object({ file: z.instanceof(File, { message: 'REQUIRED' }) }), detail: { tags, summary: 'Import a CAMT.053 statement: exact credits mark their orders paid, the rest is listed (importing again books nothing twice)' } },
    )
    .get(
      '/proxy/api/bank/entries',
      async (c) => {
        const actor = await admin(c)
        return listEntries(ctx.db, actor.account.agency_id, { view: c.query.view ?? 'OPEN', page: c.query.page ?? 0, size: c.query.size ?? 50 })
      },
      {
        query: z.object({ view: z.enum(['OPEN', 'ALL']).optional(), page: z.coerce.number().int().min(0).max(100_000).optional(), size: z.coerce.number().int().min(1).max(200).optional() }),
        detail: { tags, summary: 'Statement credits: OPEN (to decide: partial, unknown, ambiguous, already paid) or ALL' },
      },
    )
    .post(
      '/proxy/api/bank/entries/:id/assign',
      async (c) => assignEntry(ctx, await admin(c), c.params.id, c.body.orderNumber),
      { params: One, body: z.object({ orderNumber: z.string().trim().min(1, 'REQUIRED').max(20, 'TOO_LONG') }), detail: { tags, summary: 'Assign a credit to an order: the order is marked paid with its amount and booking date' } },
    )
    .post(
      '/proxy/api/bank/entries/:id/dismiss',
      async (c) => dismissEntry(ctx, await admin(c), c.params.id),
      { params: One, detail: { tags, summary: 'Dismiss a credit (nothing to book)' } },
    )
}
