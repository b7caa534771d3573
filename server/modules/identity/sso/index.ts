// Routes of staff single sign-on: start (by e-mail domain or agency), the provider's callback,
// and the agency's settings. Refusals end on the login page with ?ssoError=CODE, which shows the
// code's German text (identity/sso/messages.ts).
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../../context'
import { clientIp } from '../../../http/client-address'
import { AppError } from '../../../shared/errors'
import { idParam } from '../../../shared/validation'
import { requireOrganiser } from '../auth'
import { throttle } from '../rate-limit'
import { sessionCookie } from '../session'
import { agencyForEmail, finishSsoLogin, startSsoLogin } from './flow'
import { SsoSettingsBody, loadSsoRow, saveSsoSettings, ssoSettingsDto } from './settings'

const tag = (summary: string) => ({ detail: { tags: ['identity'], summary } })

/** The login page with the refusal to show (and the address it names, which the person typed or the provider sent). */
export function loginWithError(e: unknown): string {
  const code = e instanceof AppError ? e.errorType : 'SSO_PROVIDER_ERROR'
  const q = new URLSearchParams({ ssoError: code })
  const email = e instanceof AppError ? e.options.params?.email : undefined
  if (email) q.set('ssoEmail', String(email))
  return `/login?${q}`
}

export function ssoRoutes(ctx: AppContext) {
  return new Elysia({ name: 'identity-sso' })
    .get(
      '/proxy/auth/sso/start',
      async (c) => {
        try {
          await throttle(ctx, [['SSO_START_ADDRESS', clientIp(c.request, c.server, ctx.config.server.trusted_proxies)]])
          const agencyId = c.query.agency ?? (c.query.email ? await agencyForEmail(ctx, c.query.email) : null)
          if (agencyId == null) throw new AppError(404, 'SSO_NOT_CONFIGURED')
          return c.redirect(await startSsoLogin(ctx, { agencyId, redirect: c.query.redirect, accountId: c.query.account, loginHint: c.query.email }), 302)
        } catch (e) {
          if (e instanceof AppError) return c.redirect(loginWithError(e), 302)
          throw e
        }
      },
      {
        query: z.object({ email: z.string().max(254).optional(), agency: idParam().optional(), account: idParam().optional(), redirect: z.string().max(2000).optional() }),
        ...tag('Start the company login (OpenID Connect) of the agency serving ?email= (its domain) or of ?agency='),
      },
    )
    .get(
      '/proxy/auth/sso/callback',
      async (c) => {
        try {
          const r = await finishSsoLogin(ctx, c.query, { userAgent: c.request.headers.get('user-agent'), ip: clientIp(c.request, c.server, ctx.config.server.trusted_proxies) })
          c.set.headers['set-cookie'] = sessionCookie(ctx, r.token, r.session.expires_at)
          return c.redirect(r.redirect, 302)
        } catch (e) {
          if (e instanceof AppError) return c.redirect(loginWithError(e), 302)
          throw e
        }
      },
      {
        query: z.object({ code: z.string().max(4000).optional(), state: z.string().max(200).optional(), error: z.string().max(200).optional(), error_description: z.string().max(2000).optional() }),
        ...tag("The provider's answer (code, state): opens the session or goes to the login page with ?ssoError="),
      },
    )
    .get(
      '/proxy/api/agency/sso',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return ssoSettingsDto(ctx, await loadSsoRow(ctx, actor.account.agency_id))
      },
      tag("The agency's company login settings (the client secret only as clientSecretSet)"),
    )
    .put('/proxy/api/agency/sso', async (c) => saveSsoSettings(ctx, await requireOrganiser(ctx, c, 'AGENCY.MANAGE'), c.body), {
      body: SsoSettingsBody,
      ...tag('Save the company login (enabled, issuer, clientId, clientSecret, allowedDomains, newUserRole); checks the discovery document when enabled'),
    })
}
