// An agency's company login (OpenID Connect) settings: read (the client secret never leaves the
// server; only whether one is stored), save (secret sealed at rest, the issuer's discovery document
// checked before it is stored), and the provider's metadata (discovery, cached for 10 minutes).
import { z } from 'zod'
import type { AppContext } from '../../../context'
import { bool, fromJson, isoNow, toJson } from '../../../db/types'
import { AppError } from '../../../shared/errors'
import { auditSettings } from '../../audit/service'
import type { AccountActor } from '../auth'
import type { AgencySsoRow } from '../identity.table'
import { ORGANISER_ROLES } from '../roles'
import { open, seal } from '../secret-box'

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

export const SsoSettingsBody = z.object({
  enabled: z.boolean(),
  issuer: z
    .string()
    .trim()
    .max(500)
    .regex(/^https?:\/\/[^\s]+$/, 'SSO_ISSUER_URL')
    .transform((s) => s.replace(/\/+$/, '')),
  clientId: z.string().trim().min(1, 'REQUIRED').max(300),
  /** empty or absent: keep the stored one */
  clientSecret: z.string().max(1000).optional().nullable(),
  allowedDomains: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .transform((d) => d.replace(/^@/, ''))
        .pipe(z.string().regex(DOMAIN, 'SSO_DOMAIN')),
    )
    .min(1, 'REQUIRED')
    .max(50),
  /** role of an account made at the first login of someone without one; null: existing accounts only */
  newUserRole: z.enum(ORGANISER_ROLES).nullable(),
})
export type SsoSettingsBody = z.infer<typeof SsoSettingsBody>

export const redirectUri = (ctx: AppContext) => `${ctx.config.baseUrl.replace(/\/+$/, '')}/proxy/auth/sso/callback`

export function ssoSettingsDto(ctx: AppContext, row: AgencySsoRow | undefined) {
  return {
    enabled: row ? bool(row.enabled) : false,
    issuer: row?.issuer ?? '',
    clientId: row?.client_id ?? '',
    clientSecretSet: Boolean(row?.client_secret_sealed),
    allowedDomains: row ? fromJson<string[]>(row.allowed_domains, []) : [],
    newUserRole: row?.new_user_role ?? null,
    redirectUri: redirectUri(ctx),
  }
}

export const loadSsoRow = (ctx: AppContext, agencyId: number) => ctx.db.selectFrom('agency_sso').selectAll().where('agency_id', '=', agencyId).executeTakeFirst()

export const clientSecretOf = (ctx: AppContext, row: AgencySsoRow) => open(ctx.secrets, row.client_secret_sealed)

export interface ProviderMetadata {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
  jwks_uri: string
  code_challenge_methods_supported?: string[]
}

const discoveryCache = new Map<string, { at: number; meta: ProviderMetadata }>()
const DISCOVERY_TTL_MS = 10 * 60_000

/** The provider's discovery document; its issuer must be exactly the configured one (OpenID Connect Discovery 4.3). */
export async function discover(issuer: string, opts: { fresh?: boolean } = {}): Promise<ProviderMetadata> {
  const cached = discoveryCache.get(issuer)
  if (!opts.fresh && cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.meta
  let meta: ProviderMetadata
  try {
    const r = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(8000), headers: { accept: 'application/json' } })
    if (!r.ok) throw new Error(`HTTP ${r.status}`)
    meta = (await r.json()) as ProviderMetadata
  } catch (e) {
    throw new AppError(400, 'SSO_DISCOVERY_FAILED', { fields: [{ field: 'issuer', errorType: 'SSO_DISCOVERY_FAILED' }], detail: `discovery of ${issuer} failed: ${(e as Error).message}` })
  }
  const urls = [meta?.authorization_endpoint, meta?.token_endpoint, meta?.jwks_uri]
  if (meta?.issuer !== issuer || urls.some((u) => typeof u !== 'string' || !/^https?:\/\//.test(u))) {
    throw new AppError(400, 'SSO_DISCOVERY_FAILED', { fields: [{ field: 'issuer', errorType: 'SSO_DISCOVERY_FAILED' }], detail: `discovery of ${issuer} names issuer ${meta?.issuer}` })
  }
  discoveryCache.set(issuer, { at: Date.now(), meta })
  return meta
}

export async function saveSsoSettings(ctx: AppContext, actor: AccountActor, body: SsoSettingsBody) {
  const agencyId = actor.account.agency_id
  const before = await loadSsoRow(ctx, agencyId)
  const secret = body.clientSecret?.trim() ? body.clientSecret.trim() : null
  if (!secret && !before) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field: 'clientSecret', errorType: 'REQUIRED' }] })
  // checked, never assumed: a switched-on login must reach a real provider
  if (body.enabled) await discover(body.issuer, { fresh: true })
  const values = {
    enabled: body.enabled,
    issuer: body.issuer,
    client_id: body.clientId,
    client_secret_sealed: secret ? seal(ctx.secrets, secret) : before!.client_secret_sealed,
    allowed_domains: toJson([...new Set(body.allowedDomains)]),
    new_user_role: body.newUserRole,
    updated_at: isoNow(ctx.clock.now()),
  }
  await ctx.db
    .insertInto('agency_sso')
    .values({ agency_id: agencyId, ...values })
    .onConflict((oc) => oc.column('agency_id').doUpdateSet(values))
    .execute()
  const after = await loadSsoRow(ctx, agencyId)
  // the log says what changed, never the secret (audit drops fields named like one)
  await auditSettings(ctx, actor, 'sso', before ? ssoSettingsDto(ctx, before) : null, ssoSettingsDto(ctx, after))
  return ssoSettingsDto(ctx, after)
}
