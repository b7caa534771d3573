// License limits per agency: what is allowed (from the license) and what is used.
import type { AppContext } from '../../context'
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

export async function usage(db: Db, agencyId: number): Promise<Record<LimitKind, number>> {
  const [events, guestAccounts, agencyUsers, storageParts] = await Promise.all([
    countOf(db.selectFrom('event').select((eb) => eb.fn.countAll<number>().as('n')).where('agency_id', '=', agencyId).where('status', '!=', 'DELETED').executeTakeFirst()),
    countOf(db.selectFrom('account').select((eb) => eb.fn.countAll<number>().as('n')).where('agency_id', '=', agencyId).where('user_role', 'in', [...GUEST_ROLES]).executeTakeFirst()),
    countOf(db.selectFrom('account').select((eb) => eb.fn.countAll<number>().as('n')).where('agency_id', '=', agencyId).where('user_role', 'in', [...ORGANISER_ROLES]).executeTakeFirst()),
    Promise.all(storageUsageBytes.map((f) => f(db, agencyId))),
  ])
  const bytes = storageParts.reduce((a, b) => a + b, 0)
  return { events, guestAccounts, agencyUsers, storageMb: Math.ceil(bytes / (1024 * 1024)) }
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

/** Refuses when adding `adding` more of a kind would pass the licensed limit (-1 = unlimited). */
export async function assertWithinLimit(ctx: AppContext, db: Db, agencyId: number, kind: LimitKind, adding = 1) {
  const allowed = ctx.license.limits[kind]
  if (allowed < 0) return
  const used = (await usage(db, agencyId))[kind]
  if (used + adding > allowed) throw new AppError(403, LIMIT_ERROR[kind], { extra: { allowed, used } })
}
