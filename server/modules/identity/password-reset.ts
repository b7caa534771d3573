// "Passwort vergessen" (docs/identity.md, Password reset):
//   POST forgot {email} → throttled, then a task row, whatever the address → 200 {sent: true}
//   task: look the address up → reset link (users with a password), access link (guests without
//         one), invitation note (invited, never activated) or nothing (unknown)
//   POST reset {token, password, passwordRepeat} → password set, every session ended, token used.
// The request does the same work for every address and leaves the lookup to the task runner, so
// neither its answer nor its timing says whether an address is known.
import type { AppContext } from '../../context'
import { isoNow, toJson } from '../../db/types'
import { AppError } from '../../shared/errors'
import { enqueueTask, registerTaskHandler } from '../tasks/runner'
import { consumeAccessToken, findAccessToken, issueAccessToken, sendGuestAccessLink } from './access-tokens'
import { DUMMY_MAIL_SUFFIX } from './dto'
import { mailPasswordChanged, mailPasswordReset, mailPasswordResetPending } from './mails'
import type { ResetPasswordBody } from './model'
import { hashPassword } from './passwords'
import { clearLimits, throttle } from './rate-limit'
import { findUserByEmail, findUserById } from './repository'
import { ORGANISER_ROLES } from './roles'
import { invalidateUserSessions } from './session'

export const PASSWORD_RESET = 'PASSWORD_RESET'
export const PASSWORD_RESET_TASK = 'PASSWORD_RESET_MAIL'
/** A reset link works for one hour, once. */
export const PASSWORD_RESET_MINUTES = 60

/** The same answer for every address: known, unknown, organiser or guest. */
export async function requestPasswordReset(ctx: AppContext, email: string, ip: string | null): Promise<{ sent: true }> {
  await throttle(ctx, [
    ['PASSWORD_RESET_ACCOUNT', email],
    ['PASSWORD_RESET_ADDRESS', ip],
  ])
  await enqueueTask(ctx.clock, ctx.db, { kind: PASSWORD_RESET_TASK, payload: { email } })
  ctx.notifyTasks()
  return { sent: true }
}

export type PasswordHelp = 'RESET_LINK' | 'ACCESS_LINK' | 'INVITATION_PENDING' | 'NONE'

/** Sends what helps the owner of this address back in (runs in the task, after the answer). */
export async function sendPasswordHelp(ctx: AppContext, email: string): Promise<PasswordHelp> {
  const user = await findUserByEmail(ctx.db, email)
  // placeholders (DUMMY) have no real mailbox
  if (!user || user.status === 'DUMMY' || user.email.endsWith(DUMMY_MAIL_SUFFIX)) return 'NONE'
  const organiser = await ctx.db.selectFrom('account').select('id').where('user_id', '=', user.id).where('user_role', 'in', [...ORGANISER_ROLES]).executeTakeFirst()
  const help: PasswordHelp = user.password_hash ? 'RESET_LINK' : organiser || user.status === 'PENDING_ACTIVATION' ? 'INVITATION_PENDING' : 'ACCESS_LINK'
  await ctx.db.transaction().execute(async (trx) => {
    if (help === 'RESET_LINK') {
      const token = await issueAccessToken(ctx, trx, user.id, PASSWORD_RESET, { lifetimeMs: PASSWORD_RESET_MINUTES * 60_000, maxUses: 1 })
      await mailPasswordReset(ctx, trx, user, token, PASSWORD_RESET_MINUTES)
    } else if (help === 'INVITATION_PENDING') await mailPasswordResetPending(trx, user)
    else await sendGuestAccessLink(ctx, trx, user)
  })
  ctx.notifyMail()
  return help
}

registerTaskHandler(PASSWORD_RESET_TASK, async (ctx, task, payload: { email?: string }) => {
  // the address of a request is not kept once it has been looked at
  await ctx.db.updateTable('task').set({ payload: toJson({}) }).where('id', '=', task.id).execute()
  if (payload.email) await sendPasswordHelp(ctx, payload.email)
}, { lane: 'QUICK' })

async function liveResetToken(ctx: AppContext, token: string) {
  const row = await findAccessToken(ctx, token, PASSWORD_RESET)
  if (!row) throw new AppError(410, 'LINK_EXPIRED')
  return row
}

/** What the reset page shows before the new password is typed: whose password, or LINK_EXPIRED. */
export async function resetLinkInfo(ctx: AppContext, token: string) {
  const row = await liveResetToken(ctx, token)
  const user = await findUserById(ctx.db, row.user_id)
  if (!user) throw new AppError(410, 'LINK_EXPIRED')
  return { email: user.email, expiresAt: row.expires_at }
}

/**
 * Sets the new password, uses up the link and ends every session of the user (pending two-factor
 * logins too). It does not log in: the next login asks for the password and, when a method is
 * enabled, for the second factor.
 */
export async function resetPassword(ctx: AppContext, input: ResetPasswordBody): Promise<{ passwordChanged: true }> {
  const row = await liveResetToken(ctx, input.token)
  const hash = await hashPassword(input.password)
  const now = isoNow(ctx.clock.now())
  const user = await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeAccessToken(ctx, trx, row))) throw new AppError(410, 'LINK_EXPIRED')
    const user = await findUserById(trx, row.user_id)
    if (!user) throw new AppError(410, 'LINK_EXPIRED')
    await trx.updateTable('app_user').set({ password_hash: hash, password_changed_at: now, updated_at: now }).where('id', '=', user.id).execute()
    await invalidateUserSessions(ctx, user.id, undefined, trx)
    // other reset links of the user die with this one
    await trx.deleteFrom('access_token').where('user_id', '=', user.id).where('purpose', '=', PASSWORD_RESET).where('id', '!=', row.id).execute()
    await mailPasswordChanged(ctx, trx, user, now)
    return user
  })
  ctx.notifyMail()
  // whoever reset the password may log in at once, even if wrong guesses had locked the account
  await clearLimits(ctx, [['LOGIN_ACCOUNT', user.email]])
  return { passwordChanged: true }
}
