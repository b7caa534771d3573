// License limits per agency: what is allowed (from the license) and what is used.
import type { AppContext } from '../../context'
import { PostgresAdapter, sql } from 'kysely'
import type { Db } from '../../db/database'
import { AppError } from '../../shared/errors'
import { GUEST_ROLES, ORGANISER_ROLES } from '../identity/roles'

export type LimitKind = 'events' | 'guestAccounts' | 'agencyUsers' | 'storageMb'

export interface LimitsDto {
  allowedEvents: number
  usedEvents: number
  allowedGuestAccounts: number
  usedGuestAccounts: number
  allowedAgencyUsers: number
  usedAgencyUsers: number
  /** MB */
  allowedStorage: number
  usedStorage: number
}

/** Extra usage sources register here (e.g. uploads report bytes stored per agency). */
export const storageUsageBytes: Array<(db: Db, agencyId: number) => Promise<number>> = []

async function countOf(q: Promise<{ n: number | string } | undefined>) {
  return Number((await q)?.n ?? 0)
}

// What counts (README, editions): events with status OK (archived ones included; presets and deleted
// events do not), guest-role and organiser accounts, bytes stored.
function usageOf(db: Db, agencyId: number, kind: LimitKind): Promise<number> {
  switch (kind) {
    case 'events':
      return countOf(db.selectFrom('event').select((eb) => eb.fn.countAll<number>().as('n')).where('agency_id', '=', agencyId).where('status', '=', 'OK').executeTakeFirst())
    case 'guestAccounts':
      return countOf(db.selectFrom('account').select((eb) => eb.fn.countAll<number>().as('n')).where('agency_id', '=', agencyId).where('user_role', 'in', [...GUEST_ROLES]).executeTakeFirst())
    case 'agencyUsers':
      return countOf(db.selectFrom('account').select((eb) => eb.fn.countAll<number>().as('n')).where('agency_id', '=', agencyId).where('user_role', 'in', [...ORGANISER_ROLES]).executeTakeFirst())
    case 'storageMb':
      return Promise.all(storageUsageBytes.map((f) => f(db, agencyId))).then((parts) => Math.ceil(parts.reduce((a, b) => a + b, 0) / (1024 * 1024)))
  }
}

export async function usage(db: Db, agencyId: number): Promise<Record<LimitKind, number>> {
  const [events, guestAccounts, agencyUsers, storageMb] = await Promise.all((['events', 'guestAccounts', 'agencyUsers', 'storageMb'] as const).map((k) => usageOf(db, agencyId, k)))
  return { events, guestAccounts, agencyUsers, storageMb }
}

export async function limitsDto(ctx: AppContext, agencyId: number | null): Promise<LimitsDto> {
  const l = ctx.license.limits
  const u = agencyId == null ? { events: 0, guestAccounts: 0, agencyUsers: 0, storageMb: 0 } : await usage(ctx.db, agencyId)
  return {
    allowedEvents: l.events,
    usedEvents: u.events,
    allowedGuestAccounts: l.guestAccounts,
    usedGuestAccounts: u.guestAccounts,
    allowedAgencyUsers: l.agencyUsers,
    usedAgencyUsers: u.agencyUsers,
    allowedStorage: l.storageMb,
    usedStorage: u.storageMb,
  }
}

const LIMIT_ERROR: Record<LimitKind, string> = {
  events: 'LIMIT_EVENTS_EXCEEDED',
  guestAccounts: 'LIMIT_GUEST_ACCOUNTS_EXCEEDED',
  agencyUsers: 'LIMIT_AGENCY_USERS_EXCEEDED',
  storageMb: 'UPLOAD_LIMIT_REACHED',
}

/**
 * Serialises the limit checks of one agency until the transaction ends. SQLite: the write transaction
 * is already the single writer. Postgres: the agency row is locked, so two transactions cannot both
 * count the same free place.
 */
export async function lockAgencyLimits(db: Db, agencyId: number) {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`select id from agency where id = ${agencyId} for update`.execute(db)
}

/** Refuses when adding `adding` more of a kind would pass the licensed limit (-1 = unlimited). Call inside the adding transaction. */
export async function assertWithinLimit(ctx: AppContext, db: Db, agencyId: number, kind: LimitKind, adding = 1) {
  const allowed = ctx.license.limits[kind]
  if (allowed < 0) return
  await lockAgencyLimits(db, agencyId)
  const used = await usageOf(db, agencyId, kind)
  if (used + adding > allowed) throw new AppError(403, LIMIT_ERROR[kind], { extra: { allowed, used } })
}

/** Like assertWithinLimit, as an answer: whether `adding` more fit (the agency stays locked). */
export async function hasRoom(ctx: AppContext, db: Db, agencyId: number, kind: LimitKind, adding = 1): Promise<boolean> {
  return assertWithinLimit(ctx, db, agencyId, kind, adding).then(
    () => true,
    (e) => {
      if (e instanceof AppError && e.errorType === LIMIT_ERROR[kind]) return false
      throw e
    },
  )
}
