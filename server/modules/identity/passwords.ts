// Password hashing (Argon2id through Bun.password) and the account-password checks of confirm
// dialogs, throttled per user so the account area cannot be used to guess a password.
import type { AppContext } from '../../context'
import { AppError } from '../../shared/errors'
import type { AppUserRow } from './identity.table'
import { forgive, throttle } from './rate-limit'

export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: 'argon2id' })

// A fixed hash to compare against when the e-mail is unknown, so both paths cost the same time.
let dummyHash: Promise<string> | null = null
const timingDummy = () => (dummyHash ??= hashPassword('timing-equaliser-Aa1!'))

export async function verifyPassword(user: Pick<AppUserRow, 'password_hash'> | undefined | null, password: string): Promise<boolean> {
  if (!user?.password_hash) {
    await Bun.password.verify(password, await timingDummy())
    return false
  }
  return Bun.password.verify(password, user.password_hash)
}

/**
 * Checks the password a confirm dialog asked for: the account password (field accountPassword) or
 * the current password of a password change (field currentPassword). A wrong one answers 400 with
 * the field marked, too many wrong ones RATE_LIMITED.
 */
export async function requirePasswordOf(ctx: AppContext, user: AppUserRow, password: string | undefined | null, kind: 'account' | 'current') {
  const field = kind === 'account' ? 'accountPassword' : 'currentPassword'
  if (!password) throw new AppError(400, 'FIELD_ERROR', { fields: [{ field, errorType: kind === 'account' ? 'ACCOUNT_PASSWORD_MISSING' : 'CURRENT_PASSWORD_MISSING' }] })
  const checks: Array<['PASSWORD_CHECK_USER', string]> = [['PASSWORD_CHECK_USER', String(user.id)]]
  await throttle(ctx, checks)
  if (!(await verifyPassword(user, password))) {
    if (kind === 'account') throw new AppError(400, 'ACCOUNT_PASSWORD_WRONG', { fields: [{ field, errorType: 'ACCOUNT_PASSWORD_WRONG' }] })
    throw new AppError(400, 'CURRENT_PASSWORD_WRONG', { fields: [{ field, errorType: 'CURRENT_PASSWORD_WRONG' }] })
  }
  await forgive(ctx, checks)
}
