// Tokens that log a guest in from a link (access links, confirmation mails) and other one-purpose
// tokens (deletion confirmation, e-mail two-factor codes). Lifetimes are documented in docs/identity.md.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { prepared } from '../../db/prepared'
import { isoNow, toJson } from '../../db/types'
import type { AccessTokenRow } from './identity.table'
import { mailAccessLink } from './mails'
import { newToken, secretMatches, splitToken } from './tokens'

export const GUEST_ACCESS = 'GUEST_ACCESS'

const DAY = 24 * 60 * 60 * 1000
/** How long a link in a mail logs a guest in. */
export const ACCESS_LIFETIME_MS: Record<string, number> = {
  /** link in a registration confirmation or invitation: the guest comes back to it for weeks */
  GUEST_ACCESS: 90 * DAY,
}

// every registration issues one: compiled once (db/prepared.ts)
const insertAccessToken = prepared((db, p: { id: string; secretHash: string; userId: number; purpose: string; data: string | null; maxUses: number | null; createdAt: string; expiresAt: string }) =>
  db.insertInto('access_token').values({
    id: p.id,
    secret_hash: p.secretHash,
    user_id: p.userId,
    purpose: p.purpose,
    data: p.data,
    max_uses: p.maxUses,
    created_at: p.createdAt,
    expires_at: p.expiresAt,
  }),
)

/** A requested access link (guest no-permission page, "Passwort vergessen" of a guest) works for a day. */
export const ACCESS_LINK_HOURS = 24

/** Issues a requested access link and mails it (the access-link mail), inside the caller's transaction. */
export async function sendGuestAccessLink(ctx: AppContext, db: Db, user: { id: number; email: string; language: string }) {
  const token = await issueAccessToken(ctx, db, user.id, GUEST_ACCESS, { lifetimeMs: ACCESS_LINK_HOURS * 3_600_000 })
  await mailAccessLink(ctx, db, user, token, ACCESS_LINK_HOURS)
}

export async function issueAccessToken(
  ctx: AppContext,
  db: Db,
  userId: number,
  purpose: string,
  opts: { lifetimeMs?: number; maxUses?: number | null; data?: unknown } = {},
): Promise<string> {
  const t = newToken()
  const now = ctx.clock.now()
  const lifetime = opts.lifetimeMs ?? ACCESS_LIFETIME_MS[purpose] ?? DAY
  await insertAccessToken(db, {
    id: t.id,
    secretHash: t.secretHash,
    userId,
    purpose,
    data: opts.data === undefined ? null : toJson(opts.data),
    maxUses: opts.maxUses ?? null,
    createdAt: isoNow(now),
    expiresAt: isoNow(new Date(now.getTime() + lifetime)),
  })
  return t.token
}

/** Finds a live token of the purpose; does not count a use. */
export async function findAccessToken(ctx: AppContext, token: string | null | undefined, purpose: string): Promise<AccessTokenRow | null> {
  const parts = splitToken(token)
  if (!parts) return null
  const row = await ctx.db.selectFrom('access_token').selectAll().where('id', '=', parts.id).executeTakeFirst()
  if (!row || row.purpose !== purpose || !secretMatches(parts.secret, row.secret_hash)) return null
  if (new Date(row.expires_at).getTime() <= ctx.clock.now().getTime()) return null
  if (row.max_uses != null && row.uses >= row.max_uses) return null
  return row
}

/** Counts one use atomically; false when the token was used up meanwhile. */
export async function consumeAccessToken(ctx: AppContext, db: Db, row: AccessTokenRow): Promise<boolean> {
  const r = await db
    .updateTable('access_token')
    .set((eb) => ({ uses: eb('uses', '+', 1), last_used_at: isoNow(ctx.clock.now()) }))
    .where('id', '=', row.id)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}
