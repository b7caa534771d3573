// Reports, support, feedback and the imprint (guest-side.md 7 "Reports and help"). The anonymous calls
// are rate limited per client address (identity/rate-limit.ts); a signed-in guest or user is recorded.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { auditSettings } from '../audit/service'
import { clientIp } from '../../http/client-address'
import { idParam } from '../../shared/validation'
import { currentGuest, requireOrganiser } from '../identity/auth'
import { throttle } from '../identity/rate-limit'
import { registerPersonalDataEraser } from '../identity/deletion'
import { FeedbackInput, ImprintInput, ReportInfoQuery, ReportInput, ReportSearch, SupportInput } from './model'
import { agencyReports, eraseHelpData, imprintOf, reportInfo, saveImprint, submitFeedback, submitReport, submitSupport, supportAddress } from './service'

registerPersonalDataEraser(eraseHelpData)

export function helpRoutes(ctx: AppContext) {
  const ip = (c: { request: Request; server: any }) => clientIp(c.request, c.server, ctx.config.server.trusted_proxies)
  /** whoever is signed in (guest link/session or user session), else null: the calls are open */
  const caller = async (c: any) => {
    const g = await currentGuest(ctx, c).catch(() => null)
    return g ? { id: g.user.id, email: g.user.email } : null
  }
  return new Elysia({ name: 'help' })
    .get('/proxy/api/public/report/info', async (c) => reportInfo(ctx, c.query.eventId), {
      query: ReportInfoQuery,
      detail: { tags: ['help'], summary: 'Report dialog: the report types (EVENT_RELATED and CANCEL_EVENT only with an event) and the organiser contact info' },
    })
    .post(
      '/proxy/api/public/report',
      async (c) => {
        await throttle(ctx, [['REPORT_ADDRESS', ip(c) ?? 'unknown']])
        return submitReport(ctx, c.body, (await caller(c))?.id ?? null)
      },
      { body: ReportInput, detail: { tags: ['help'], summary: "A guest's report: to the agency's administrators, legal-abuse types also to the support address" } },
    )
    .post(
      '/proxy/api/public/report/support',
      async (c) => {
        await throttle(ctx, [['SUPPORT_ADDRESS', ip(c) ?? 'unknown']])
        return submitSupport(ctx, c.body, await caller(c))
      },
      { body: SupportInput, detail: { tags: ['help'], summary: 'Support message (subject, content, originUrl, state, dialog, additionalData, eventName, eventId): about an event to its agency (reports page, mail to its contact), else to the configured support address' } },
    )
    .post(
      '/proxy/api/public/feedback',
      async (c) => {
        await throttle(ctx, [['FEEDBACK_ADDRESS', ip(c) ?? 'unknown']])
        return submitFeedback(ctx, c.body, (await caller(c))?.id ?? null)
      },
      { body: FeedbackInput, detail: { tags: ['help'], summary: 'Feedback (name, email, page, message; eventId an einlass extension): about an event to its agency (reports page, mail to its contact), else to the configured support address' } },
    )
    .get('/proxy/api/public/support', () => ({ supportEmail: supportAddress(ctx) }), { detail: { tags: ['help'], summary: "The server's support address (the /support page); null when the operator configured none" } })
    .get('/proxy/api/public/agency/:id/imprint', async (c) => imprintOf(ctx.db, c.params.id), {
      params: z.object({ id: idParam() }),
      detail: { tags: ['help'], summary: "The agency's imprint and privacy notice (texts or addresses)" },
    })
    .get(
      '/proxy/api/agency/imprint',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return imprintOf(ctx.db, actor.account.agency_id)
      },
      { detail: { tags: ['help'], summary: "The agency's imprint and privacy settings" } },
    )
    .put(
      '/proxy/api/agency/imprint',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        const before = await imprintOf(ctx.db, actor.account.agency_id)
        const saved = await saveImprint(ctx.db, actor.account.agency_id, c.body)
        await auditSettings(ctx, actor, 'imprint', before, saved)
        return saved
      },
      { body: ImprintInput, detail: { tags: ['help'], summary: 'Change the imprint and privacy notice (text is sanitised rich text; URLs http(s))' } },
    )
    .get(
      '/proxy/api/agency/reports',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return agencyReports(ctx.db, actor.account.agency_id, c.query.page, c.query.perPage)
      },
      { query: ReportSearch, detail: { tags: ['help'], summary: "Guests' reports, support questions and feedback about the agency's events (kind REPORT, SUPPORT, FEEDBACK), newest first (administrators)" } },
    )
}
