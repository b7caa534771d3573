// The audit log for agency administrators (AGENCY.MANAGE): a page of entries with filters, and the
// same selection as CSV. Exporting it is itself recorded (it names people and addresses).
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { requireOrganiser } from '../identity/auth'
import { AUDIT_ACTIONS, audit, exportAuditCsv, searchAudit } from './service'

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'INVALID_DATE')
const Filter = z.object({
  actor: z.string().max(254).optional(),
  action: z.enum(Object.keys(AUDIT_ACTIONS) as [string, ...string[]]).optional(),
  eventId: z.coerce.number().int().positive().optional(),
  /** days in the agency's view, inclusive: from 00:00 of `from` to the end of `to` (UTC) */
  from: day.optional(),
  to: day.optional(),
})
const Query = Filter.extend({ page: z.coerce.number().int().min(0).max(100_000).default(0), size: z.coerce.number().int().min(1).max(200).default(50) })

const range = (q: z.infer<typeof Filter>) => ({
  ...q,
  from: q.from ? `${q.from}T00:00:00.000Z` : undefined,
  to: q.to ? new Date(Date.parse(`${q.to}T00:00:00.000Z`) + 86400_000).toISOString() : undefined,
})

export function auditRoutes(ctx: AppContext) {
  return new Elysia({ name: 'audit' })
    .get(
      '/proxy/api/agency/audit',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        const r = await searchAudit(ctx, actor.account.agency_id, range(c.query) as never)
        return { ...r, retentionDays: ctx.config.audit.retention_days, actions: Object.entries(AUDIT_ACTIONS).map(([code, label]) => ({ code, label })) }
      },
      { query: Query, detail: { tags: ['audit'], summary: 'Audit log of the agency: who changed what and when (filters: actor, action, eventId, from, to)' } },
    )
    .get(
      '/proxy/api/agency/audit/export',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        const csv = await exportAuditCsv(ctx, actor.account.agency_id, range(c.query), ctx.config.i18n.timezone)
        await audit(ctx, ctx.db, { agencyId: actor.account.agency_id, actor, action: 'audit.export', detail: { filter: c.query } })
        return new Response(csv, { headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="protokoll.csv"', 'cache-control': 'no-store' } })
      },
      { query: Filter, detail: { tags: ['audit'], summary: 'The filtered audit log as CSV' } },
    )
}
