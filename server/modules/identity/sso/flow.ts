// The company login itself: authorization code flow with PKCE (S256), state and nonce, the ID
// token verified with jose (signature by the provider's JWKS, issuer, audience = client id, expiry,
// nonce), the e-mail's domain against the agency's list, then the account: an existing one of that
// agency, or a new one with the configured role (counted against the licence's agencyUsers).
// Every login and every refusal goes into the agency's audit log.
import { createHash, randomBytes } from 'node:crypto'
import { errors as joseErrors, createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose'
import type { AppContext } from '../../../context'
import { bool, fromJson, isoNow } from '../../../db/types'
import { safeRedirect } from '../../../shared/redirect'
import { AppError } from '../../../shared/errors'
import { audit } from '../../audit/service'
import { assertWithinLimit } from '../../limits/service'
import type { AgencySsoRow, AppUserRow, SessionRow } from '../identity.table'
import { findUserByEmail, insertUser } from '../repository'
import { isGuestRole } from '../roles'
import { createSession } from '../session'
import { clientSecretOf, discover, loadSsoRow, redirectUri } from './settings'

/** How long a started login may take at the provider. */
export const SSO_STATE_TTL_MS = 10 * 60_000
/** Clock difference to the provider that is still accepted for exp/iat. */
const CLOCK_TOLERANCE_S = 30

export type SsoRefusalCode =
  | 'SSO_NOT_CONFIGURED'
  | 'SSO_PROVIDER_ERROR'
  | 'SSO_STATE_INVALID'
  | 'SSO_TOKEN_FAILED'
  | 'SSO_WRONG_AUDIENCE'
  | 'SSO_TOKEN_EXPIRED'
  | 'SSO_TOKEN_INVALID'
  | 'SSO_EMAIL_MISSING'
  | 'SSO_EMAIL_DOMAIN'
  | 'SSO_NO_ACCOUNT'
  | 'SSO_DISCOVERY_FAILED'

/** A refused login: the login page shows the code's German text (with the e-mail where it names one). */
export class SsoRefusal extends AppError {
  constructor(
    readonly code: SsoRefusalCode,
    readonly email: string | null = null,
    detail?: string,
  ) {
    super(code === 'SSO_NOT_CONFIGURED' ? 404 : 403, code, { params: { email: email ?? '' }, detail: detail ?? code })
  }
}

const b64url = (b: Buffer) => b.toString('base64url')
const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>()
const jwksOf = (uri: string) => {
  let j = jwksCache.get(uri)
  if (!j) jwksCache.set(uri, (j = createRemoteJWKSet(new URL(uri), { timeoutDuration: 8000 })))
  return j
}

/** The agency whose company login serves this e-mail address (its domain in the allowed list), or null. */
export async function agencyForEmail(ctx: AppContext, email: string): Promise<number | null> {
  const domain = email.trim().toLowerCase().split('@')[1]
  if (!domain) return null
  const rows = await ctx.db.selectFrom('agency_sso').select(['agency_id', 'enabled', 'allowed_domains']).orderBy('agency_id').execute()
  return rows.find((r) => bool(r.enabled) && fromJson<string[]>(r.allowed_domains, []).includes(domain))?.agency_id ?? null
}

/** Starts a login at the agency's provider: the URL to send the browser to. */
export async function startSsoLogin(ctx: AppContext, input: { agencyId: number; redirect?: string | null; accountId?: number | null; loginHint?: string | null }): Promise<string> {
  const row = await loadSsoRow(ctx, input.agencyId)
  if (!row || !bool(row.enabled)) throw new SsoRefusal('SSO_NOT_CONFIGURED')
  const meta = await discover(row.issuer)
  const state = b64url(randomBytes(32))
  const nonce = b64url(randomBytes(32))
  const verifier = b64url(randomBytes(48))
  const challenge = b64url(createHash('sha256').update(verifier).digest())
  const now = ctx.clock.now()
  // old attempts go when new ones start (nothing else needs them)
  await ctx.db.deleteFrom('sso_login_state').where('created_at', '<', isoNow(new Date(now.getTime() - 24 * 3600_000))).execute()
  await ctx.db
    .insertInto('sso_login_state')
    .values({ state, agency_id: row.agency_id, nonce, code_verifier: verifier, redirect: input.redirect ? safeRedirect(input.redirect, '/') : null, account_id: input.accountId ?? null, created_at: isoNow(now), used_at: null })
    .execute()
  const url = new URL(meta.authorization_endpoint)
  const q = url.searchParams
  q.set('response_type', 'code')
  q.set('client_id', row.client_id)
  q.set('redirect_uri', redirectUri(ctx))
  q.set('scope', 'openid email profile')
  q.set('state', state)
  q.set('nonce', nonce)
  q.set('code_challenge', challenge)
  q.set('code_challenge_method', 'S256')
  if (input.loginHint) q.set('login_hint', input.loginHint)
  return url.toString()
}

export interface SsoLoginDone {
  token: string
  session: SessionRow
  user: AppUserRow
  accountId: number
  redirect: string
}

/** Claims a state once: a replayed or expired state finds nothing to claim. */
async function claimState(ctx: AppContext, state: string) {
  const now = ctx.clock.now()
  const r = await ctx.db
    .updateTable('sso_login_state')
    .set({ used_at: isoNow(now) })
    .where('state', '=', state)
    .where('used_at', 'is', null)
    .where('created_at', '>', isoNow(new Date(now.getTime() - SSO_STATE_TTL_MS)))
    .executeTakeFirst()
  const row = await ctx.db.selectFrom('sso_login_state').selectAll().where('state', '=', state).executeTakeFirst()
  return { claimed: Number(r.numUpdatedRows) === 1, row }
}

function refusalOfJose(e: unknown): SsoRefusal {
  if (e instanceof joseErrors.JWTExpired) return new SsoRefusal('SSO_TOKEN_EXPIRED', null, e.message)
  if (e instanceof joseErrors.JWTClaimValidationFailed && e.claim === 'aud') return new SsoRefusal('SSO_WRONG_AUDIENCE', null, e.message)
  return new SsoRefusal('SSO_TOKEN_INVALID', null, (e as Error).message)
}

async function exchangeCode(ctx: AppContext, row: AgencySsoRow, tokenEndpoint: string, code: string, verifier: string): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(row.client_id)}:${encodeURIComponent(clientSecretOf(ctx, row))}`).toString('base64')
  let r: Response
  try {
    r = await fetch(tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}`, accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri(ctx), code_verifier: verifier }).toString(),
      signal: AbortSignal.timeout(8000),
    })
  } catch (e) {
    throw new SsoRefusal('SSO_TOKEN_FAILED', null, `token endpoint unreachable: ${(e as Error).message}`)
  }
  const body = (await r.json().catch(() => null)) as { id_token?: unknown; error?: string } | null
  if (!r.ok || typeof body?.id_token !== 'string') throw new SsoRefusal('SSO_TOKEN_FAILED', null, `token endpoint answered ${r.status} ${body?.error ?? ''}`)
  return body.id_token
}

/** The provider's answer at /proxy/auth/sso/callback: a session, or an SsoRefusal (audited). */
export async function finishSsoLogin(ctx: AppContext, q: { code?: string; state?: string; error?: string }, meta: { userAgent: string | null; ip: string | null }): Promise<SsoLoginDone> {
  let agencyId: number | null = null
  let email: string | null = null
  try {
    if (!q.state) throw new SsoRefusal('SSO_STATE_INVALID')
    const { claimed, row: stateRow } = await claimState(ctx, q.state)
    agencyId = stateRow?.agency_id ?? null
    if (!claimed || !stateRow) throw new SsoRefusal('SSO_STATE_INVALID', null, stateRow ? 'state used before or expired' : 'unknown state')
    if (q.error || !q.code) throw new SsoRefusal('SSO_PROVIDER_ERROR', null, `provider answered error=${q.error ?? 'no code'}`)
    const row = await loadSsoRow(ctx, stateRow.agency_id)
    if (!row || !bool(row.enabled)) throw new SsoRefusal('SSO_NOT_CONFIGURED')
    const providerMeta = await discover(row.issuer)
    const idToken = await exchangeCode(ctx, row, providerMeta.token_endpoint, q.code, stateRow.code_verifier)
    let claims: JWTPayload
    try {
      claims = (
        await jwtVerify(idToken, jwksOf(providerMeta.jwks_uri), {
          issuer: row.issuer,
          audience: row.client_id,
          currentDate: ctx.clock.now(),
          clockTolerance: CLOCK_TOLERANCE_S,
          requiredClaims: ['exp', 'iat', 'sub'],
        })
      ).payload
    } catch (e) {
      throw refusalOfJose(e)
    }
    // several audiences: the authorised party must be us (OpenID Connect Core 3.1.3.7)
    if (Array.isArray(claims.aud) && claims.aud.length > 1 && claims.azp !== row.client_id) throw new SsoRefusal('SSO_WRONG_AUDIENCE', null, 'azp is not the client')
    if (claims.nonce !== stateRow.nonce) throw new SsoRefusal('SSO_TOKEN_INVALID', null, 'nonce does not match')
    const claimedEmail = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : ''
    if (!claimedEmail || claims.email_verified === false) throw new SsoRefusal('SSO_EMAIL_MISSING', null, 'no verified e-mail claim')
    email = claimedEmail
    const domain = email.split('@')[1] ?? ''
    if (!fromJson<string[]>(row.allowed_domains, []).includes(domain)) throw new SsoRefusal('SSO_EMAIL_DOMAIN', email)
    const names = { first: typeof claims.given_name === 'string' ? claims.given_name.slice(0, 100) : null, last: typeof claims.family_name === 'string' ? claims.family_name.slice(0, 100) : null }
    const { user, accountId } = await accountFor(ctx, row, email, names, stateRow.account_id)
    const { token, session } = await createSession(ctx, user.id, { accountId, ssoAgencyId: row.agency_id, userAgent: meta.userAgent, ip: meta.ip })
    await audit(ctx, ctx.db, { agencyId: row.agency_id, actor: { user }, action: 'auth.sso.login', entityType: 'user', entityId: user.id, detail: { issuer: row.issuer, subject: claims.sub ?? null } })
    const target = stateRow.redirect ?? `/events?account=${accountId}`
    return { token, session, user, accountId, redirect: target }
  } catch (e) {
    // refusals (and a limit reached or a provider gone) are the agency's business: logged with the reason
    if (e instanceof AppError && agencyId != null) {
      await audit(ctx, ctx.db, { agencyId, actor: null, actorEmail: email, action: 'auth.sso.refused', entityType: 'sso', detail: { reason: e.errorType, why: e.message } })
    }
    throw e
  }
}

/**
 * The account the login opens: the person's organiser account in the agency (an invitation not yet
 * accepted counts as accepted now: the company vouched for the address), else, when the agency lets
 * the login make accounts, a new one with the configured role, in one transaction with the limit check.
 */
async function accountFor(ctx: AppContext, row: AgencySsoRow, email: string, names: { first: string | null; last: string | null }, wanted: number | null): Promise<{ user: AppUserRow; accountId: number }> {
  return ctx.db.transaction().execute(async (trx) => {
    let user = await findUserByEmail(trx, email)
    // the account chosen in the switcher when it is this person's in this agency, else their first organiser account there
    const own = user ? (await trx.selectFrom('account').selectAll().where('user_id', '=', user.id).where('agency_id', '=', row.agency_id).orderBy('id').execute()).filter((a) => !isGuestRole(a.user_role)) : []
    const existing = own.find((a) => a.id === wanted) ?? own[0]
    if (existing) {
      if (existing.status === 'PENDING_ACTIVATION') await trx.updateTable('account').set({ status: 'OK' }).where('id', '=', existing.id).execute()
      if (user!.status === 'PENDING_ACTIVATION') {
        await trx.updateTable('app_user').set({ status: 'OK' }).where('id', '=', user!.id).execute()
        user = { ...user!, status: 'OK' }
      }
      return { user: user!, accountId: existing.id }
    }
    if (!row.new_user_role) throw new SsoRefusal('SSO_NO_ACCOUNT', email)
    await assertWithinLimit(ctx, trx, row.agency_id, 'agencyUsers')
    if (!user) user = await insertUser(trx, { email, password_hash: null, status: 'OK', language: ctx.config.i18n.language })
    else if (user.status !== 'OK') {
      await trx.updateTable('app_user').set({ status: 'OK' }).where('id', '=', user.id).execute()
      user = { ...user, status: 'OK' }
    }
    // the name the provider knows (given_name, family_name), else the address's local part
    const account = await trx
      .insertInto('account')
      .values({ user_id: user.id, agency_id: row.agency_id, user_role: row.new_user_role, first_name: names.first ?? email.split('@')[0], last_name: names.last ?? '' })
      .returning('id')
      .executeTakeFirstOrThrow()
    return { user, accountId: account.id }
  })
}
