// Deleting accounts and users (docs/identity.md, Deletion):
//   mark (deletion_in_progress) → confirmation link mailed → confirm (require_deletion,
//   final_deletion_date = now + grace) → at finalDeletionDate a background task erases the data.
// Until the final date a deletion can be revoked; confirmed ones cannot be toggled in the dialog.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { bool, isoNow, toJson } from '../../db/types'
import { t } from '../../i18n/catalogue'
import { formatDate } from '../../i18n/format'
import { AppError, notFound } from '../../shared/errors'
import { enqueueTask, registerTaskHandler } from '../tasks/runner'
import { consumeAccessToken, findAccessToken, issueAccessToken } from './access-tokens'
import type { AccountRow, AppUserRow } from './identity.table'
import { mailDeletionConfirm } from './mails'
import { type AccountWithAgency, listAccountsOfUser } from './repository'
import { isGuestRole } from './roles'
import { randomString } from './tokens'

export const DELETION_CONFIRM = 'DELETION_CONFIRM'
export const DELETION_CONFIRM_HOURS = 48
export const DELETION_GRACE_DAYS = 14
export const ERASE_TASK = 'IDENTITY_ERASE'
const DAY = 86_400_000

/**
 * Other domains that keep personal data of a user register an eraser here; it runs inside the
 * erasing transaction (agencyId set: only that agency's data, null: everything of the user).
 */
export type PersonalDataEraser = (trx: Db, p: { userId: number; email: string; agencyId: number | null }) => Promise<void>
const erasers: PersonalDataEraser[] = []
export function registerPersonalDataEraser(fn: PersonalDataEraser) {
  erasers.push(fn)
}

function deletionState(a: AccountWithAgency, adminCounts: Map<number, number>) {
  const isAdmin = a.user_role === 'AGENCY_ADMIN' && a.status === 'OK'
  return {
    id: a.id,
    agency: { id: a.agency_id, displayName: a.agency_display_name, internalName: a.agency_internal_name },
    userRole: a.user_role,
    deletionInProgress: bool(a.deletion_in_progress),
    requireDeletion: bool(a.require_deletion),
    finalDeletionDate: a.final_deletion_date,
    isAdmin,
    lastAdmin: isAdmin && (adminCounts.get(a.agency_id) ?? 0) <= 1,
  }
}

async function adminCountsOf(db: Db, agencyIds: number[]) {
  if (!agencyIds.length) return new Map<number, number>()
  const rows = await db
    .selectFrom('account')
    .select(['agency_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('agency_id', 'in', agencyIds)
    .where('user_role', '=', 'AGENCY_ADMIN')
    .where('status', '=', 'OK')
    .where('require_deletion', '=', 0)
    .groupBy('agency_id')
    .execute()
  return new Map(rows.map((r) => [r.agency_id, Number(r.n)]))
}

/** Members (other organiser accounts) of an agency besides the given account. */
async function otherMembers(db: Db, agencyId: number, accountId: number) {
  const r = await db
    .selectFrom('account')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('agency_id', '=', agencyId)
    .where('id', '!=', accountId)
    .where('user_role', 'in', ['AGENCY_ADMIN', 'AGENCY_MANAGER', 'AGENCY_EDITOR', 'AGENCY_CHECKIN'])
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

export async function deletionOverview(ctx: AppContext, userId: number) {
  const accounts = await listAccountsOfUser(ctx.db, userId)
  const counts = await adminCountsOf(ctx.db, [...new Set(accounts.map((a) => a.agency_id))])
  return accounts.map((a) => deletionState(a, counts))
}

/**
 * Marks exactly the listed accounts (others that were only marked are revoked); confirmed ones
 * (requireDeletion) are left as they are. Mails one confirmation link for the newly marked.
 */
export async function markAccountsForDeletion(ctx: AppContext, user: AppUserRow, ids: number[], reason: string | null | undefined, opts: { wholeUser?: boolean } = {}) {
  const wanted = new Set(ids)
  const result = await ctx.db.transaction().execute(async (trx) => {
    const accounts = await listAccountsOfUser(trx, user.id)
    for (const id of wanted) if (!accounts.some((a) => a.id === id)) throw notFound()
    const counts = await adminCountsOf(trx, [...new Set(accounts.map((a) => a.agency_id))])
    const newlyMarked: AccountWithAgency[] = []
    for (const a of accounts) {
      if (bool(a.require_deletion)) continue
      const marked = bool(a.deletion_in_progress)
      if (wanted.has(a.id) && !marked) {
        // an agency must keep an administrator while it has other members
        if (deletionState(a, counts).lastAdmin && (await otherMembers(trx, a.agency_id, a.id)) > 0) {
          throw new AppError(409, 'LAST_ADMINISTRATOR', { params: { agency: a.agency_display_name } })
        }
        await trx.updateTable('account').set({ deletion_in_progress: true, deletion_reason: reason ?? null }).where('id', '=', a.id).execute()
        newlyMarked.push(a)
      } else if (!wanted.has(a.id) && marked && !opts.wholeUser) {
        await trx.updateTable('account').set({ deletion_in_progress: false, deletion_reason: null }).where('id', '=', a.id).execute()
      }
    }
    if (opts.wholeUser) {
      await trx.updateTable('app_user').set({ deletion_in_progress: true, deletion_reason: reason ?? null }).where('id', '=', user.id).execute()
    }
    if (newlyMarked.length || opts.wholeUser) {
      const token = await issueAccessToken(ctx, trx, user.id, DELETION_CONFIRM, {
        lifetimeMs: DELETION_CONFIRM_HOURS * 3_600_000,
        maxUses: 1,
        data: { accountIds: newlyMarked.map((a) => a.id), wholeUser: Boolean(opts.wholeUser) },
      })
      const lang = user.language
      await mailDeletionConfirm(ctx, trx, user, {
        token,
        whole: Boolean(opts.wholeUser),
        admin: newlyMarked.some((a) => a.user_role === 'AGENCY_ADMIN'),
        hours: DELETION_CONFIRM_HOURS,
        what: newlyMarked.map((a) => `• ${a.agency_display_name} (${t(lang, `role.${a.user_role}`)})`),
      })
    }
    return { mailed: newlyMarked.length > 0 || Boolean(opts.wholeUser), newlyMarked: newlyMarked.map((a) => a.id) }
  })
  if (result.mailed) ctx.notifyMail()
  return { ...result, accounts: await deletionOverview(ctx, user.id) }
}

/** The mailed link: schedules the marked deletions for now + grace and queues the erasing task. */
export async function confirmDeletion(ctx: AppContext, token: string) {
  const row = await findAccessToken(ctx, token, DELETION_CONFIRM)
  if (!row) throw new AppError(410, 'LINK_EXPIRED')
  const data = JSON.parse(row.data ?? '{}') as { accountIds: number[]; wholeUser: boolean }
  const now = ctx.clock.now()
  const finalDate = isoNow(new Date(now.getTime() + DELETION_GRACE_DAYS * DAY))
  const out = await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeAccessToken(ctx, trx, row))) throw new AppError(410, 'LINK_EXPIRED')
    const user = await trx.selectFrom('app_user').selectAll().where('id', '=', row.user_id).executeTakeFirstOrThrow()
    let q = trx
      .updateTable('account')
      .set({ require_deletion: true, deletion_in_progress: true, final_deletion_date: finalDate })
      .where('user_id', '=', user.id)
      .where('require_deletion', '=', 0)
    // only accounts still marked (the user may have revoked some since the mail)
    q = data.wholeUser ? q : q.where('id', 'in', data.accountIds.length ? data.accountIds : [-1]).where('deletion_in_progress', '=', 1)
    const updated = await q.returning('id').execute()
    const whole = data.wholeUser && bool(user.deletion_in_progress)
    if (whole) {
      await trx.updateTable('app_user').set({ require_deletion: true, final_deletion_date: finalDate }).where('id', '=', user.id).execute()
    }
    if (updated.length || whole) await enqueueTask(ctx.clock, trx, { kind: ERASE_TASK, payload: { userId: user.id }, runAfter: new Date(finalDate) })
    return { accounts: updated.map((u) => u.id), wholeUser: whole, finalDeletionDate: finalDate, language: user.language }
  })
  ctx.notifyTasks()
  return { ...out, finalDeletionDateText: formatDate(out.finalDeletionDate) }
}

/** Revokes a marked or scheduled deletion of one account (and the user's, which needs all accounts). */
export async function revokeAccountDeletion(ctx: AppContext, user: AppUserRow, accountId: number) {
  const account = await ctx.db.selectFrom('account').selectAll().where('id', '=', accountId).where('user_id', '=', user.id).executeTakeFirst()
  if (!account) throw notFound()
  if (!bool(account.deletion_in_progress) && !bool(account.require_deletion)) throw new AppError(409, 'DELETION_NOT_REQUESTED')
  if (account.final_deletion_date && new Date(account.final_deletion_date) <= ctx.clock.now()) throw new AppError(409, 'DELETION_FINAL')
  await ctx.db.transaction().execute(async (trx) => {
    await clearAccountDeletion(trx, account)
    await trx.updateTable('app_user').set({ deletion_in_progress: false, require_deletion: false, final_deletion_date: null, deletion_reason: null }).where('id', '=', user.id).execute()
  })
  return deletionOverview(ctx, user.id)
}

/** Revokes the deletion of the whole user (and of every account it scheduled). */
export async function revokeUserDeletion(ctx: AppContext, user: AppUserRow) {
  if (!bool(user.deletion_in_progress) && !bool(user.require_deletion)) throw new AppError(409, 'DELETION_NOT_REQUESTED')
  if (user.final_deletion_date && new Date(user.final_deletion_date) <= ctx.clock.now()) throw new AppError(409, 'DELETION_FINAL')
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('app_user').set({ deletion_in_progress: false, require_deletion: false, final_deletion_date: null, deletion_reason: null }).where('id', '=', user.id).execute()
    if (user.final_deletion_date) {
      const scheduledWithUser = await trx.selectFrom('account').selectAll().where('user_id', '=', user.id).where('final_deletion_date', '=', user.final_deletion_date).execute()
      for (const a of scheduledWithUser) await clearAccountDeletion(trx, a)
    } else {
      await trx.updateTable('account').set({ deletion_in_progress: false, deletion_reason: null }).where('user_id', '=', user.id).where('require_deletion', '=', 0).execute()
    }
  })
  return deletionOverview(ctx, user.id)
}

async function clearAccountDeletion(trx: Db, a: AccountRow) {
  await trx.updateTable('account').set({ deletion_in_progress: false, require_deletion: false, final_deletion_date: null, deletion_reason: null }).where('id', '=', a.id).execute()
}

// ---------------------------------------------------------------------------------------------
// Erasing. Deleted: the account rows, the user row with its sessions, links, two-factor methods,
// notification settings and hidden intro keys. Anonymised (kept for the agency's counts and
// statistics): registrations and escort persons (names, e-mail, phone, company cleared, links
// invalidated), sent mails (address and content cleared).

const ANONYMOUS = 'anonymous.invalid'

async function anonymiseRegistrations(trx: Db, userId: number, agencyId: number | null) {
  let q = trx.selectFrom('event_visitor as v').innerJoin('event as e', 'e.id', 'v.event_id').select('v.id').where('v.user_id', '=', userId)
  if (agencyId != null) q = q.where('e.agency_id', '=', agencyId)
  const ids = (await q.execute()).map((r) => r.id)
  for (const id of ids) {
    await trx
      .updateTable('event_visitor')
      .set({
        user_id: null,
        salutation: null,
        title: null,
        first_name: null,
        last_name: null,
        email: null,
        company: null,
        position: null,
        phone_number: null,
        decline_reason: null,
        event_token: randomString(20),
        download_token: randomString(20),
      })
      .where('id', '=', id)
      .execute()
  }
  if (ids.length) {
    await trx
      .updateTable('escort_person')
      .set({ salutation: null, title: null, first_name: null, last_name: null, email: null, company: null, position: null, phone_number: null, web: null, info: null, birthday: null, street: null, street_number: null, post_code: null, city: null, country: null })
      .where('visitor_id', 'in', ids)
      .execute()
  }
}

async function eraseAccount(trx: Db, account: AccountRow, email: string) {
  if (isGuestRole(account.user_role)) await anonymiseRegistrations(trx, account.user_id, account.agency_id)
  await trx.updateTable('event').set({ created_by_account_id: null }).where('created_by_account_id', '=', account.id).execute()
  for (const e of erasers) await e(trx, { userId: account.user_id, email, agencyId: account.agency_id })
  await trx.deleteFrom('account').where('id', '=', account.id).execute()
}

async function eraseUser(trx: Db, user: AppUserRow) {
  const accounts = await trx.selectFrom('account').selectAll().where('user_id', '=', user.id).execute()
  for (const a of accounts) await eraseAccount(trx, a, user.email)
  await anonymiseRegistrations(trx, user.id, null)
  for (const e of erasers) await e(trx, { userId: user.id, email: user.email, agencyId: null })
  const anon = `deleted-${user.id}@${ANONYMOUS}`
  await trx.deleteFrom('mail_outbox').where('status', '=', 'PENDING').where((eb) => eb.or([eb('user_id', '=', user.id), eb('to_address', '=', user.email)])).execute()
  await trx
    .updateTable('mail_outbox')
    .set({ to_address: anon, to_name: null, subject: '', html: '', text: '', params: null, attachments: toJson([]), user_id: null })
    .where((eb) => eb.or([eb('user_id', '=', user.id), eb('to_address', '=', user.email)]))
    .execute()
  await trx.deleteFrom('app_user').where('id', '=', user.id).execute()
}

/** Erases whatever of one user is due now; safe to run again (revoked or erased: nothing to do). */
export async function eraseDue(ctx: AppContext, userId: number) {
  const now = isoNow(ctx.clock.now())
  return ctx.db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('app_user').selectAll().where('id', '=', userId).executeTakeFirst()
    if (!user) return { accounts: 0, user: false }
    if (bool(user.require_deletion) && user.final_deletion_date && user.final_deletion_date <= now) {
      const n = (await trx.selectFrom('account').select('id').where('user_id', '=', user.id).execute()).length
      await eraseUser(trx, user)
      return { accounts: n, user: true }
    }
    const due = await trx.selectFrom('account').selectAll().where('user_id', '=', user.id).where('require_deletion', '=', 1).where('final_deletion_date', '<=', now).execute()
    for (const a of due) await eraseAccount(trx, a, user.email)
    return { accounts: due.length, user: false }
  })
}

registerTaskHandler(ERASE_TASK, async (ctx, _task, payload: { userId: number }) => {
  const r = await eraseDue(ctx, payload.userId)
  return { state: r.user ? 'USER_ERASED' : `ACCOUNTS_ERASED:${r.accounts}`, result: r }
})
