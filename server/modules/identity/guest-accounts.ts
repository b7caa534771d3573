// Guest accounts (CP_PERSOO_VISITOR_GUEST, docs/identity.md "Guest accounts"): a guest — a user
// without an organiser account — who sets a password gets one in each agency whose events they are
// registered for, and a later registration of such a guest for another agency's event adds that
// agency's. Each new one counts against the agency's licensed guestAccounts, checked with the agency
// locked in the transaction that creates it. Guests without a password never get one (and cost the
// registration nothing).
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { isoNow } from '../../db/types'
import { assertWithinLimit, hasRoom } from '../limits/service'
import { GUEST_ROLES, ORGANISER_ROLES } from './roles'

const GUEST_ROLE = 'CP_PERSOO_VISITOR_GUEST'

/** Agencies of the events the user is registered for (entries not deleted, events not deleted). */
export async function registeredAgencies(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('event_visitor as v')
    .innerJoin('event as e', 'e.id', 'v.event_id')
    .select('e.agency_id')
    .distinct()
    .where('v.user_id', '=', userId)
    .where('v.status', '!=', 'DELETED')
    .where('e.status', '!=', 'DELETED')
    .execute()
  return rows.map((r) => r.agency_id).sort((a, b) => a - b)
}

async function hasOrganiserAccount(db: Db, userId: number) {
  return !!(await db.selectFrom('account').select('id').where('user_id', '=', userId).where('user_role', 'in', [...ORGANISER_ROLES]).executeTakeFirst())
}

async function agenciesWithGuestAccount(db: Db, userId: number, agencyIds: number[]) {
  if (!agencyIds.length) return new Set<number>()
  const rows = await db.selectFrom('account').select('agency_id').where('user_id', '=', userId).where('agency_id', 'in', agencyIds).where('user_role', 'in', [...GUEST_ROLES]).execute()
  return new Set(rows.map((r) => r.agency_id))
}

/** The guest account, filled with the name and contact data of the guest's latest registration there. */
async function insertGuestAccount(ctx: AppContext, trx: Db, userId: number, agencyId: number) {
  const latest = await trx
    .selectFrom('event_visitor as v')
    .innerJoin('event as e', 'e.id', 'v.event_id')
    .select(['v.salutation', 'v.title', 'v.first_name', 'v.last_name', 'v.company', 'v.position', 'v.phone_number'])
    .where('v.user_id', '=', userId)
    .where('e.agency_id', '=', agencyId)
    .orderBy('v.id', 'desc')
    .limit(1)
    .executeTakeFirst()
  const now = isoNow(ctx.clock.now())
  await trx
    .insertInto('account')
    .values({
      user_id: userId,
      agency_id: agencyId,
      user_role: GUEST_ROLE,
      status: 'OK',
      salutation: latest?.salutation ?? null,
      title: latest?.title ?? null,
      first_name: latest?.first_name ?? null,
      last_name: latest?.last_name ?? null,
      company: latest?.company ?? null,
      position: latest?.position ?? null,
      phone_number: latest?.phone_number ?? null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'agency_id', 'user_role']).doNothing())
    .execute()
}

/**
 * A guest sets a password: a guest account in every agency of their registrations that has none,
 * inside the password's transaction. All or nothing: an agency at its guestAccounts limit refuses
 * with LIMIT_GUEST_ACCOUNTS_EXCEEDED, and the password is not set either.
 */
export async function provideGuestAccounts(ctx: AppContext, trx: Db, userId: number): Promise<void> {
  if (await hasOrganiserAccount(trx, userId)) return
  const agencies = await registeredAgencies(trx, userId)
  const have = await agenciesWithGuestAccount(trx, userId, agencies)
  // agencies in id order: two transactions lock them in the same order (no deadlock on Postgres)
  for (const agencyId of agencies) {
    if (have.has(agencyId)) continue
    await assertWithinLimit(ctx, trx, agencyId, 'guestAccounts', 1)
    await insertGuestAccount(ctx, trx, userId, agencyId)
  }
}

/**
 * A guest with a password registers for an event of an agency where they have no guest account yet:
 * one is added in the registration's transaction while the agency's limit has room. The registration
 * itself never fails for the limit (registering needs no account): at the limit the account is left
 * out and the organiser sees the reached limit in the hint banner.
 */
export async function guestAccountForRegistration(ctx: AppContext, trx: Db, userId: number, agencyId: number): Promise<void> {
  if ((await agenciesWithGuestAccount(trx, userId, [agencyId])).size) return
  if (await hasOrganiserAccount(trx, userId)) return
  if (!(await hasRoom(ctx, trx, agencyId, 'guestAccounts', 1))) return
  await insertGuestAccount(ctx, trx, userId, agencyId)
}
