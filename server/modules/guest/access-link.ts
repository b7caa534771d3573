// The access link a guest asks for on /guest/nopermission: a mail with a link that logs the guest
// in (guest token), for guests only — a user with an organiser account logs in with the password.
import type { AppContext } from '../../context'
import { AppError } from '../../shared/errors'
import { sendGuestAccessLink } from '../identity/access-tokens'
import { throttle } from '../identity/rate-limit'
import { findUserByEmail, isStaffAddress } from '../identity/repository'

/** A requested access link works for a day (links in registration mails: see ACCESS_LIFETIME_MS). */
export { ACCESS_LINK_HOURS } from '../identity/access-tokens'

export async function resendAccessLink(ctx: AppContext, email: string, ip: string | null) {
  await throttle(ctx, [
    ['ACCESS_LINK_EMAIL', email],
    ['ACCESS_LINK_ADDRESS', ip],
  ])
  const user = await findUserByEmail(ctx.db, email)
  if (!user || user.status === 'PENDING_ACTIVATION') throw new AppError(404, 'NOT_FOUND')
  if (await isStaffAddress(ctx.db, user.email)) throw new AppError(409, 'USER_HAS_ACCOUNT')
  await ctx.db.transaction().execute((trx) => sendGuestAccessLink(ctx, trx, user))
  ctx.notifyMail()
  return { sent: true }
}
