// Rate limits for login, two-factor, password checks and access links. Counters live in the
// database (table rate_limit), so every server process on one Postgres shares them: one atomic
// upsert per attempt counts it and returns the new count, no read-then-write race.
// Fixed windows: the first attempt opens a window of `windowMs`; within it at most `max` attempts
// count as allowed. Successful attempts are taken back (`forgive`) so only failures add up.
import { sql } from 'kysely'
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { isoNow } from '../../db/types'
import { AppError } from '../../shared/errors'
import { hashSecret } from './tokens'

export interface RateLimit {
  max: number
  windowMs: number
}

const MIN = 60_000
/** Documented in docs/identity.md (Rate limits). */
export const RATE_LIMITS = {
  /** wrong passwords for one e-mail address (per account) */
  LOGIN_ACCOUNT: { max: 10, windowMs: 15 * MIN },
  /** wrong passwords from one client address, whatever the e-mail */
  LOGIN_ADDRESS: { max: 50, windowMs: 15 * MIN },
  /** wrong two-factor codes for one user */
  TFA_USER: { max: 5, windowMs: 15 * MIN },
  /** wrong two-factor codes from one client address */
  TFA_ADDRESS: { max: 30, windowMs: 15 * MIN },
  /** wrong account passwords in the account area (change password, two-factor changes) */
  PASSWORD_CHECK_USER: { max: 10, windowMs: 15 * MIN },
  /** access links requested for one e-mail address */
  ACCESS_LINK_EMAIL: { max: 3, windowMs: 60 * MIN },
  /** access links requested from one client address */
  ACCESS_LINK_ADDRESS: { max: 20, windowMs: 60 * MIN },
  /** e-mail two-factor codes sent to one user */
  TFA_MAIL_USER: { max: 5, windowMs: 15 * MIN },
  /** "Passwort vergessen" requests for one e-mail address (counted whether or not it belongs to a user) */
  PASSWORD_RESET_ACCOUNT: { max: 5, windowMs: 60 * MIN },
  /** "Passwort vergessen" requests from one client address (any e-mail) */
  PASSWORD_RESET_ADDRESS: { max: 20, windowMs: 60 * MIN },
  /** reports (POST /api/public/report) from one client address */
  REPORT_ADDRESS: { max: 10, windowMs: 60 * MIN },
  /** support messages (POST /api/public/report/support) from one client address */
  SUPPORT_ADDRESS: { max: 10, windowMs: 60 * MIN },
  /** feedback (POST /api/public/feedback) from one client address */
  FEEDBACK_ADDRESS: { max: 20, windowMs: 60 * MIN },
  /** anonymous uploads (public registration forms) from one client address */
  UPLOAD_ADDRESS: { max: 30, windowMs: 15 * MIN },
  /**
   * timeslot and chair holds created from one client address; the default here is replaced by
   * holdRateLimit(EINLASS_HOLD_ADDRESS_PLACES) (reservations/service.ts): a crowd's pace, not one client's
   */
  HOLD_ADDRESS: { max: 1200, windowMs: 15 * MIN },
  /** coupon codes tried on the public page's price preview from one client address (wrong ones count) */
  COUPON_CHECK_ADDRESS: { max: 30, windowMs: 15 * MIN },
  /** cancellation requests of paid orders sent by one guest (ticketing/orders/cancel-requests.ts) */
  CANCEL_REQUEST_USER: { max: 5, windowMs: 60 * MIN },
  /** company logins (OpenID Connect) started from one client address: each stores a login attempt */
  SSO_START_ADDRESS: { max: 30, windowMs: 15 * MIN },
  /** order requests mailed to the vendor's support by one user (license/support-request.ts) */
  LICENSE_REQUEST_USER: { max: 10, windowMs: 60 * MIN },
} satisfies Record<string, RateLimit>
export type RateLimitName = keyof typeof RATE_LIMITS

/** A client address as stored beside data (hashed like the rate-limit keys, never in clear). */
export const clientKey = (address: string) => hashSecret(`client:${address.toLowerCase()}`).slice(0, 40)

/** The key is hashed: the table never holds e-mail or IP addresses in clear. */
const bucketOf = (name: RateLimitName, key: string) => `${name}:${hashSecret(key.toLowerCase()).slice(0, 40)}`

/** One bucket to count in: its name, its key, and (optional) the limit when a setting sets it. */
export type RateCheck = [RateLimitName, string | null | undefined] | [RateLimitName, string | null | undefined, RateLimit]

async function hit(ctx: AppContext, name: RateLimitName, key: string, db: Db = ctx.db, limit: RateLimit = RATE_LIMITS[name]): Promise<{ hits: number; windowStart: string }> {
  const now = ctx.clock.now()
  const nowIso = isoNow(now)
  const cutoffIso = isoNow(new Date(now.getTime() - limit.windowMs))
  const ts = (v: string) => (ctx.dialect === 'postgres' ? sql`cast(${v} as timestamptz)` : sql`${v}`)
  const row = await db
    .insertInto('rate_limit')
    .values({ bucket: bucketOf(name, key), window_start: nowIso, hits: 1 })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        hits: sql<number>`case when rate_limit.window_start <= ${ts(cutoffIso)} then 1 else rate_limit.hits + 1 end`,
        window_start: sql<string>`case when rate_limit.window_start <= ${ts(cutoffIso)} then ${ts(nowIso)} else rate_limit.window_start end`,
      }),
    )
    .returning(['hits', 'window_start'])
    .executeTakeFirstOrThrow()
  if (Math.random() < 0.01) {
    // opportunistic cleanup of long-closed windows
    const oldest = isoNow(new Date(now.getTime() - 24 * 60 * MIN))
    await db.deleteFrom('rate_limit').where('window_start', '<', oldest).execute()
  }
  return { hits: Number(row.hits), windowStart: row.window_start }
}

/**
 * Counts one attempt in every named bucket; throws RATE_LIMITED (429) when any bucket is over its
 * limit. Call it before checking the secret, so a throttled caller learns nothing about it.
 */
export async function throttle(ctx: AppContext, checks: RateCheck[], db: Db = ctx.db): Promise<void> {
  let retryAfterMs = 0
  for (const [name, key, given] of checks) {
    if (!key) continue
    const limit = given ?? RATE_LIMITS[name]
    const { hits, windowStart } = await hit(ctx, name, key, db, limit)
    if (hits > limit.max) {
      const ends = new Date(windowStart).getTime() + limit.windowMs
      retryAfterMs = Math.max(retryAfterMs, ends - ctx.clock.now().getTime())
    }
  }
  if (retryAfterMs > 0) throw new AppError(429, 'RATE_LIMITED', { extra: { retryAfter: Math.max(1, Math.ceil(retryAfterMs / 1000)) } })
}

/** Takes back the attempts of a successful check, so only failures use up the limit. */
export async function forgive(ctx: AppContext, checks: Array<[RateLimitName, string | null | undefined]>): Promise<void> {
  for (const [name, key] of checks) {
    if (!key) continue
    await ctx.db
      .updateTable('rate_limit')
      .set({ hits: sql<number>`case when hits > 0 then hits - 1 else 0 end` })
      .where('bucket', '=', bucketOf(name, key))
      .execute()
  }
}

/** Closes the windows of the named buckets (a password reset lifts the login lock of that account). */
export async function clearLimits(ctx: AppContext, checks: Array<[RateLimitName, string | null | undefined]>): Promise<void> {
  const buckets = checks.filter(([, key]) => key).map(([name, key]) => bucketOf(name, key!))
  if (buckets.length) await ctx.db.deleteFrom('rate_limit').where('bucket', 'in', buckets).execute()
}
