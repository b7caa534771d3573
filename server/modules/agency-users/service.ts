// Colleagues of an agency: invite by e-mail with a role (PENDING_ACTIVATION until the mailed link
// is used), change roles, remove accounts. The license's agencyUsers limit counts every organiser
// account of the agency, pending invitations included, and is checked under a per-agency lock.
import { sql } from 'kysely'
import type { AppContext } from '../../context'
import { audit } from '../audit/service'
import type { Db } from '../../db/database'
import { isoNow, toJson } from '../../db/types'
import { AppError, fieldError, notFound } from '../../shared/errors'
import { issuesToFields } from '../../shared/validation'
import { consumeAccessToken, findAccessToken, issueAccessToken } from '../identity/access-tokens'
import type { AccountActor } from '../identity/auth'
import type { AccountRow, AppUserRow } from '../identity/identity.table'
import { mailAccountChanged, mailColleagueJoined, mailInvitation } from '../identity/mails'
import { hashPassword } from '../identity/passwords'
import { findUserByEmail, insertUser } from '../identity/repository'
import { ORGANISER_ROLES, type OrganiserRole } from '../identity/roles'
import { createSession } from '../identity/session'
import { assertWithinLimit, limitsDto } from '../limits/service'
import { effectiveSetting, recipientsOf } from '../notification-settings/service'
import { type AcceptInvitationBody, type InviteBody, SetPasswordForm } from './model'

export const INVITATION = 'INVITATION'
export const INVITATION_DAYS = 7

/** Serialises limit checks of one agency (SQLite: the transaction is already the single writer). */
async function lockAgency(ctx: AppContext, trx: Db, agencyId: number) {
  if (ctx.dialect === 'postgres') await sql`select id from agency where id = ${agencyId} for update`.execute(trx)
}

function memberDto(r: AccountRow & { email: string; user_status: string }, selfAccountId: number) {
  return {
    id: r.id,
    email: r.email,
    firstName: r.first_name,
    lastName: r.last_name,
    userRole: r.user_role,
    status: r.status,
    userStatus: r.user_status,
    invitedAt: r.invited_at,
    deletionInProgress: r.deletion_in_progress === 1,
    requireDeletion: r.require_deletion === 1,
    self: r.id === selfAccountId,
  }
}

const membersQuery = (db: Db, agencyId: number) =>
  db
    .selectFrom('account')
    .innerJoin('app_user', 'app_user.id', 'account.user_id')
    .selectAll('account')
    .select(['app_user.email as email', 'app_user.status as user_status'])
    .where('account.agency_id', '=', agencyId)
    .where('account.user_role', 'in', [...ORGANISER_ROLES])

export async function listMembers(ctx: AppContext, actor: AccountActor) {
  const rows = await membersQuery(ctx.db, actor.account.agency_id).orderBy('account.last_name').orderBy('account.first_name').orderBy('app_user.email').execute()
  const limits = await limitsDto(ctx, actor.account.agency_id)
  return { items: rows.map((r) => memberDto(r, actor.account.id)), allowedAgencyUsers: limits.allowedAgencyUsers, usedAgencyUsers: limits.usedAgencyUsers }
}

async function memberOf(db: Db, agencyId: number, id: number) {
  const r = await membersQuery(db, agencyId).where('account.id', '=', id).executeTakeFirst()
  if (!r) throw notFound()
  return r
}

async function activeAdmins(db: Db, agencyId: number, exceptId: number) {
  const r = await db
    .selectFrom('account')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('agency_id', '=', agencyId)
    .where('user_role', '=', 'AGENCY_ADMIN')
    .where('status', '=', 'OK')
    .where('id', '!=', exceptId)
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

const inviterName = (actor: AccountActor) => [actor.account.first_name, actor.account.last_name].filter(Boolean).join(' ') || actor.user.email

async function sendInvitation(ctx: AppContext, trx: Db, actor: AccountActor, user: AppUserRow, account: AccountRow) {
  await trx.deleteFrom('access_token').where('user_id', '=', user.id).where('purpose', '=', INVITATION).where('data', '=', toJson({ accountId: account.id })).execute()
  const token = await issueAccessToken(ctx, trx, user.id, INVITATION, { lifetimeMs: INVITATION_DAYS * 86_400_000, maxUses: 1, data: { accountId: account.id } })
  const agency = await trx.selectFrom('agency').select('display_name').where('id', '=', account.agency_id).executeTakeFirstOrThrow()
  await mailInvitation(ctx, trx, user, { agency: agency.display_name, role: account.user_role, inviter: inviterName(actor), token, newUser: user.password_hash == null, days: INVITATION_DAYS })
}

export async function inviteMember(ctx: AppContext, actor: AccountActor, input: { email: string; userRole: OrganiserRole; firstName: string | null; lastName: string | null }) {
  const agencyId = actor.account.agency_id
  const account = await ctx.db.transaction().execute(async (trx) => {
    await lockAgency(ctx, trx, agencyId)
    let user = await findUserByEmail(trx, input.email)
    if (user) {
      const existing = await trx.selectFrom('account').select('id').where('user_id', '=', user.id).where('agency_id', '=', agencyId).where('user_role', 'in', [...ORGANISER_ROLES]).executeTakeFirst()
      if (existing) throw new AppError(409, 'ALREADY_MEMBER', { fields: [{ field: 'email', errorType: 'ALREADY_MEMBER' }] })
    }
    await assertWithinLimit(ctx, trx, agencyId, 'agencyUsers', 1)
    user ??= await insertUser(trx, { email: input.email, password_hash: null, status: 'PENDING_ACTIVATION', language: actor.user.language })
    const now = isoNow(ctx.clock.now())
    const account = await trx
      .insertInto('account')
      .values({
        user_id: user.id,
        agency_id: agencyId,
        user_role: input.userRole,
        status: 'PENDING_ACTIVATION',
        first_name: input.firstName,
        last_name: input.lastName,
        invited_at: now,
        invited_by_user_id: actor.user.id,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await sendInvitation(ctx, trx, actor, user, account)
    await audit(ctx, trx, { agencyId, actor, action: 'user.invite', entityType: 'account', entityId: account.id, detail: { email: input.email, userRole: input.userRole } })
    return account
  })
  ctx.notifyMail()
  return memberDto(await memberOf(ctx.db, agencyId, account.id), actor.account.id)
}

export async function resendInvitation(ctx: AppContext, actor: AccountActor, id: number) {
  const member = await memberOf(ctx.db, actor.account.agency_id, id)
  if (member.status !== 'PENDING_ACTIVATION') throw new AppError(409, 'ALREADY_ACTIVATED')
  await ctx.db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('app_user').selectAll().where('id', '=', member.user_id).executeTakeFirstOrThrow()
    await trx.updateTable('account').set({ invited_at: isoNow(ctx.clock.now()) }).where('id', '=', id).execute()
    await sendInvitation(ctx, trx, actor, user, member)
  })
  ctx.notifyMail()
  return memberDto(await memberOf(ctx.db, actor.account.agency_id, id), actor.account.id)
}

export async function changeRole(ctx: AppContext, actor: AccountActor, id: number, role: OrganiserRole) {
  const agencyId = actor.account.agency_id
  const changed = await ctx.db.transaction().execute(async (trx) => {
    await lockAgency(ctx, trx, agencyId)
    const member = await memberOf(trx, agencyId, id)
    if (member.user_role === role) return null
    if (member.user_role === 'AGENCY_ADMIN' && member.status === 'OK' && (await activeAdmins(trx, agencyId, id)) === 0) throw new AppError(409, 'LAST_ADMINISTRATOR_ROLE')
    await trx.updateTable('account').set({ user_role: role, updated_at: isoNow(ctx.clock.now()) }).where('id', '=', id).execute()
    await audit(ctx, trx, { agencyId, actor, action: 'user.role', entityType: 'account', entityId: id, changes: { user_role: [member.user_role, role] }, detail: { email: member.email } })
    if (member.user_status === 'OK' && member.user_id !== actor.user.id && (await effectiveSetting(trx, member.user_id, 'ACCOUNT_CHANGES', { accountId: id }))) {
      const [user, agency] = await Promise.all([
        trx.selectFrom('app_user').selectAll().where('id', '=', member.user_id).executeTakeFirstOrThrow(),
        trx.selectFrom('agency').select('display_name').where('id', '=', agencyId).executeTakeFirstOrThrow(),
      ])
      await mailAccountChanged(trx, user, { agency: agency.display_name, role })
      return 'mailed'
    }
    return 'changed'
  })
  if (changed === 'mailed') ctx.notifyMail()
  return memberDto(await memberOf(ctx.db, agencyId, id), actor.account.id)
}

export async function removeMember(ctx: AppContext, actor: AccountActor, id: number) {
  const agencyId = actor.account.agency_id
  const mailed = await ctx.db.transaction().execute(async (trx) => {
    await lockAgency(ctx, trx, agencyId)
    const member = await memberOf(trx, agencyId, id)
    if (member.user_role === 'AGENCY_ADMIN' && member.status === 'OK' && (await activeAdmins(trx, agencyId, id)) === 0) throw new AppError(409, 'LAST_ADMINISTRATOR')
    const user = await trx.selectFrom('app_user').selectAll().where('id', '=', member.user_id).executeTakeFirstOrThrow()
    const notify = user.status === 'OK' && user.id !== actor.user.id && (await effectiveSetting(trx, user.id, 'ACCOUNT_CHANGES', { accountId: id }))
    await trx.updateTable('event').set({ created_by_account_id: null }).where('created_by_account_id', '=', id).execute()
    await trx.deleteFrom('access_token').where('user_id', '=', user.id).where('purpose', '=', INVITATION).where('data', '=', toJson({ accountId: id })).execute()
    await trx.deleteFrom('account').where('id', '=', id).execute()
    await audit(ctx, trx, { agencyId, actor, action: 'user.remove', entityType: 'account', entityId: id, detail: { email: user.email, userRole: member.user_role } })
    // someone invited who never activated and holds nothing else: no user is left behind
    if (user.status === 'PENDING_ACTIVATION') {
      const rest = await trx.selectFrom('account').select('id').where('user_id', '=', user.id).executeTakeFirst()
      const visits = await trx.selectFrom('event_visitor').select('id').where('user_id', '=', user.id).executeTakeFirst()
      if (!rest && !visits) await trx.deleteFrom('app_user').where('id', '=', user.id).execute()
    }
    if (notify) {
      const agency = await trx.selectFrom('agency').select('display_name').where('id', '=', agencyId).executeTakeFirstOrThrow()
      await mailAccountChanged(trx, user, { agency: agency.display_name, removed: true })
    }
    return notify
  })
  if (mailed) ctx.notifyMail()
}

async function invitationOf(ctx: AppContext, token: string) {
  const row = await findAccessToken(ctx, token, INVITATION)
  if (!row) throw new AppError(410, 'LINK_EXPIRED')
  const { accountId } = JSON.parse(row.data ?? '{}') as { accountId: number }
  const account = await ctx.db
    .selectFrom('account')
    .innerJoin('agency', 'agency.id', 'account.agency_id')
    .innerJoin('app_user', 'app_user.id', 'account.user_id')
    .selectAll('account')
    .select(['agency.display_name as agency_display_name', 'app_user.email as email', 'app_user.password_hash as password_hash'])
    .where('account.id', '=', accountId)
    .where('account.user_id', '=', row.user_id)
    .executeTakeFirst()
  if (!account) throw new AppError(410, 'LINK_EXPIRED')
  return { row, account }
}

export async function invitationInfo(ctx: AppContext, token: string) {
  const { account } = await invitationOf(ctx, token)
  return { email: account.email, agency: account.agency_display_name, userRole: account.user_role, needsPassword: account.password_hash == null, alreadyActive: account.status === 'OK' }
}

/**
 * Uses the invitation link. A new user sets the password here and is logged in; an existing user
 * keeps theirs and logs in as usual (the link alone never replaces password and second factor).
 */
export async function acceptInvitation(ctx: AppContext, input: AcceptInvitationBody, meta: { userAgent: string | null; ip: string | null }) {
  const { row, account } = await invitationOf(ctx, input.token)
  const needsPassword = account.password_hash == null
  let hash: string | null = null
  if (needsPassword) {
    const parsed = SetPasswordForm.safeParse({ password: input.password ?? '', passwordRepeat: input.passwordRepeat ?? '' })
    if (!parsed.success) throw fieldError(issuesToFields(parsed.error.issues))
    hash = await hashPassword(parsed.data.password)
  }
  const now = isoNow(ctx.clock.now())
  const out = await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeAccessToken(ctx, trx, row))) throw new AppError(410, 'LINK_EXPIRED')
    if (hash) await trx.updateTable('app_user').set({ password_hash: hash, status: 'OK', password_changed_at: now, updated_at: now }).where('id', '=', account.user_id).execute()
    await trx.updateTable('account').set({ status: 'OK', updated_at: now }).where('id', '=', account.id).execute()
    const colleague = [account.first_name, account.last_name].filter(Boolean).join(' ') || account.email
    const admins = (await recipientsOf(trx, account.agency_id, 'COLLEAGUE_JOINED')).filter((r) => r.id !== account.user_id)
    for (const a of admins) await mailColleagueJoined(ctx, trx, a, { agency: account.agency_display_name, colleague })
    return { mailed: admins.length > 0 }
  })
  if (out.mailed) ctx.notifyMail()
  if (!hash) return { accountId: account.id, loggedIn: false as const }
  const { token, session } = await createSession(ctx, account.user_id, { accountId: account.id, userAgent: meta.userAgent, ip: meta.ip })
  return { accountId: account.id, loggedIn: true as const, token, expiresAt: session.expires_at }
}

export type { InviteBody }
