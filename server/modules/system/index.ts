// Liveness, readiness, app start data and translations.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { ping } from '../../db/database'
import { migrationsApplied } from '../../db/migrate'
import { hasCatalogue, translationsFor } from '../../i18n/catalogue'
import { availableLanguages, resolveLanguage } from '../../i18n/languages'
import { json } from '../../http/errors'
import { currentUser } from '../identity/auth'
import { isGuestRole } from '../identity/roles'
import { limitsDto } from '../limits/service'
import { abosOf, agencyMessages, invoiceSettingsFailed } from './agency-messages'

export function systemRoutes(ctx: AppContext, state: { shuttingDown: boolean }) {
  return new Elysia({ name: 'system' })
    .get('/health', () => ({ status: 'ok' }), { detail: { tags: ['system'], summary: 'Alive' } })
    .get(
      '/ready',
      async () => {
        const db = await ping(ctx.db)
        const migrations = db && (await migrationsApplied(ctx.db))
        const ready = db && migrations && !state.shuttingDown
        return json({ status: ready ? 'ready' : 'not ready', database: db, migrations, shuttingDown: state.shuttingDown }, ready ? 200 : 503)
      },
      { detail: { tags: ['system'], summary: 'Database reachable and migrations applied' } },
    )
    .get(
      '/proxy/api/app/init',
      async (c) => {
        const actor = await currentUser(ctx, c).catch(() => null)
        const agencyId = actor?.account?.agency_id ?? null
        const agency = agencyId ? await ctx.db.selectFrom('agency').selectAll().where('id', '=', agencyId).executeTakeFirst() : null
        // the agency's usage is organisers' business: a guest-role account sees only the license's limits
        const limits = await limitsDto(ctx, actor?.account && !isGuestRole(actor.account.user_role) ? agencyId : null)
        const pausedStatus = agency?.status === 'PAUSED' ? 'PAUSED' : null
        // Exactly the fields of the spec (agency-side 3 "App info", 7 "GET /proxy/api/app/init"):
        // abos, invoiceSettingsFailed and agencyMessages from the licence and real conditions (agency-messages.ts)
        const organiser = Boolean(agencyId && actor?.account && !isGuestRole(actor.account.user_role))
        const messages = organiser ? await agencyMessages(ctx, agencyId!, limits) : []
        const failed = invoiceSettingsFailed(ctx.license)
        return {
          appInfo: {
            mailSender: ctx.config.mail.from_name,
            mailSenderAddress: ctx.config.mail.from,
            domain: ctx.config.mail.from.split('@')[1] ?? null,
            baseUrl: ctx.config.baseUrl,
            saas: false,
            app: 'einlass',
            limits,
            pausedStatus,
            invoiceSettingsFailed: failed,
            test: false,
            design: actor?.user.design ?? null,
          },
          avvInfo: { avvState: 'NOT_REQUIRED' },
          limits,
          abos: organiser ? abosOf(ctx.license) : [],
          agencyMessages: messages,
          pausedStatus,
          invoiceSettingsFailed: failed,
        }
      },
      { detail: { tags: ['system'], summary: 'App start data: app info, limits, subscriptions, agency messages' } },
    )
    .get(
      '/proxy/api/public/translations',
      ({ query, request }) => {
        const language = resolveLanguage(query.language ?? request.headers.get('accept-language'), ctx.license.features)
        // `part=core,public` may arrive split at its commas
        const part = Array.isArray(query.part) ? query.part.join(',') : query.part
        return { language, part: part ?? null, translations: translationsFor(language, part) }
      },
      {
        query: z.object({ part: z.union([z.string().max(200), z.array(z.string().max(40)).max(10)]).optional(), language: z.string().max(20).optional(), agency: z.string().max(20).optional() }),
        detail: { tags: ['system'], summary: 'Translation texts of a part in a language' },
      },
    )
    // ownTexts: the language has texts of its own; a German variant without them (plain language,
    // de-ls, until it is written) reads exactly like German and is not offered in the switchers
    .get('/proxy/api/public/translations/languages', () => availableLanguages(ctx.license.features).map((l) => ({ ...l, ownTexts: hasCatalogue(l.code) })), {
      detail: { tags: ['system'], summary: 'Languages offered (MULTI_LANGUAGE adds the gated ones)' },
    })
}
