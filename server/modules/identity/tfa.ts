// Two-factor methods: OTP is TOTP (RFC 6238, 30 s, 6 digits, SHA-1 as authenticator apps expect)
// through `otpauth`, with the QR code from `qrcode`; EMAIL mails a six-digit code. A method is
// added (step 1, needs the account password), linked by proving one code (step 2), then enabled
// or disabled; enable, disable and delete need the account password again.
import * as OTPAuth from 'otpauth'
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { bool, isoNow } from '../../db/types'
import { AppError, notFound } from '../../shared/errors'
import type { AppUserRow, TfaType, UserTfaRow } from './identity.table'
import { mailTfaCode } from './mails'
import type { TfaAddBody } from './model'
import { requirePasswordOf } from './passwords'
import { forgive, throttle } from './rate-limit'
import { open, seal } from './secret-box'
import { hashSecret, randomString, secretMatches } from './tokens'

const PERIOD = 30
const ISSUER = 'einlass'
export const TFA_EMAIL_CODE_MINUTES = 10
const TFA_EMAIL = 'TFA_EMAIL'

export function tfaDto(m: UserTfaRow) {
  return { id: m.id, displayName: m.display_name, twoFactorType: m.tfa_type, enabled: bool(m.enabled), linked: bool(m.linked) }
}

export const listMethods = (db: Db, userId: number) => db.selectFrom('user_tfa').selectAll().where('user_id', '=', userId).orderBy('id').execute()

export async function enabledMethods(db: Db, userId: number) {
  return (await listMethods(db, userId)).filter((m) => bool(m.enabled) && bool(m.linked))
}

async function methodOf(ctx: AppContext, userId: number, id: number): Promise<UserTfaRow> {
  const m = await ctx.db.selectFrom('user_tfa').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
  if (!m) throw notFound()
  return m
}

function totpOf(ctx: AppContext, user: AppUserRow, m: UserTfaRow) {
  return new OTPAuth.TOTP({ issuer: ISSUER, label: user.email, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: OTPAuth.Secret.fromBase32(open(ctx.secrets, m.secret!)) })
}

async function linkData(ctx: AppContext, user: AppUserRow, m: UserTfaRow) {
  const totp = totpOf(ctx, user, m)
  const url = totp.toString()
  return { qrCode: await (await import('qrcode')).default.toDataURL(url, { margin: 1, width: 240, errorCorrectionLevel: 'M' }), secret: totp.secret.base32, url }
}

/** Step 1: creates an unlinked method. OTP answers the QR code and secret; EMAIL mails a code. */
export async function addMethod(ctx: AppContext, user: AppUserRow, input: TfaAddBody) {
  await requirePasswordOf(ctx, user, input.accountPassword, 'account')
  const type: TfaType = input.twoFactorType
  const result = await ctx.db.transaction().execute(async (trx) => {
    if (type === 'EMAIL') {
      const existing = await trx.selectFrom('user_tfa').select('id').where('user_id', '=', user.id).where('tfa_type', '=', 'EMAIL').executeTakeFirst()
      if (existing) throw new AppError(409, 'TFA_EMAIL_EXISTS', { fields: [{ field: 'twoFactorType', errorType: 'TFA_EMAIL_EXISTS' }] })
    }
    const secret = type === 'OTP' ? seal(ctx.secrets, new OTPAuth.Secret({ size: 20 }).base32) : null
    const m = await trx
      .insertInto('user_tfa')
      .values({ user_id: user.id, display_name: type === 'OTP' ? input.displayName! : user.email, tfa_type: type, secret, enabled: false, linked: false, created_at: isoNow(ctx.clock.now()) })
      .returningAll()
      .executeTakeFirstOrThrow()
    if (type === 'EMAIL') await issueEmailCode(ctx, trx, user, m.id)
    return m
  })
  if (type === 'EMAIL') ctx.notifyMail()
  return { ...tfaDto(result), ...(type === 'OTP' ? await linkData(ctx, user, result) : {}) }
}

/** Link data again (QR code and secret) for a method not yet linked; EMAIL sends a new code. */
export async function linkDataFor(ctx: AppContext, user: AppUserRow, id: number) {
  const m = await methodOf(ctx, user.id, id)
  if (bool(m.linked)) throw new AppError(409, 'TFA_ALREADY_LINKED')
  if (m.tfa_type === 'EMAIL') {
    await throttle(ctx, [['TFA_MAIL_USER', String(user.id)]])
    await ctx.db.transaction().execute((trx) => issueEmailCode(ctx, trx, user, m.id))
    ctx.notifyMail()
    return { ...tfaDto(m), qrCode: null, secret: null }
  }
  return { ...tfaDto(m), ...(await linkData(ctx, user, m)) }
}

/** Step 2: proves one code; the method becomes linked and enabled. */
export async function linkMethod(ctx: AppContext, user: AppUserRow, id: number, token: string, ip: string | null) {
  const m = await methodOf(ctx, user.id, id)
  if (bool(m.linked)) throw new AppError(409, 'TFA_ALREADY_LINKED')
  const checks = limits(user, ip)
  await throttle(ctx, checks)
  if (!(await verifyCode(ctx, user, m, token))) throw new AppError(400, 'TFA_TOKEN_INVALID', { fields: [{ field: 'token', errorType: 'TFA_TOKEN_INVALID' }] })
  await forgive(ctx, checks)
  // the first linked method comes with recovery codes, shown once in the setup dialog
  const recoveryCodes = await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('user_tfa').set({ linked: true, enabled: true }).where('id', '=', m.id).execute()
    return (await unusedRecoveryCodes(trx, user.id)) === 0 ? newRecoveryCodes(ctx, trx, user.id) : null
  })
  return { ...tfaDto({ ...m, linked: 1, enabled: 1 }), recoveryCodes }
}

// ---- Recovery codes (issue 10, item 16) ----------------------------------------------------------
// Ten one-time codes of 10 characters (Crockford base32, 50 bits each, shown as XXXXX-XXXXX), made
// when the first method is linked and again on request (which invalidates the old ones). Only their
// SHA-256 is stored; at login one is accepted instead of a code, under the same rate limits.
export const RECOVERY_CODE_COUNT = 10
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** Upper case without spaces and hyphens; O/I/L read as 0/1 (as ticket codes). */
export const normaliseRecoveryCode = (input: string) =>
  input
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1')

function newRecoveryCode(): string {
  const b = new Uint8Array(10)
  crypto.getRandomValues(b)
  let s = ''
  for (const x of b) s += CROCKFORD[x & 31]
  return `${s.slice(0, 5)}-${s.slice(5)}`
}

async function unusedRecoveryCodes(db: Db, userId: number): Promise<number> {
  const r = await db.selectFrom('user_tfa_recovery').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirst()
  return Number(r?.n ?? 0)
}

/** Replaces the user's recovery codes with new ones; answers them (the only time they are readable). */
async function newRecoveryCodes(ctx: AppContext, trx: Db, userId: number): Promise<string[]> {
  await trx.deleteFrom('user_tfa_recovery').where('user_id', '=', userId).execute()
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  const at = isoNow(ctx.clock.now())
  await trx
    .insertInto('user_tfa_recovery')
    .values(codes.map((c) => ({ user_id: userId, code_hash: hashSecret(normaliseRecoveryCode(c)), created_at: at })))
    .execute()
  return codes
}

/** How many recovery codes are left (the account page shows it). */
export async function recoveryCodeState(db: Db, userId: number) {
  const rows = await db.selectFrom('user_tfa_recovery').select('used_at').where('user_id', '=', userId).execute()
  return { total: rows.length, remaining: rows.filter((r) => !r.used_at).length }
}

/** New recovery codes on request (account password); needs a linked method. */
export async function regenerateRecoveryCodes(ctx: AppContext, user: AppUserRow, password: string) {
  await requirePasswordOf(ctx, user, password, 'account')
  if (!(await listMethods(ctx.db, user.id)).some((m) => bool(m.linked))) throw new AppError(409, 'TFA_NOT_LINKED')
  const codes = await ctx.db.transaction().execute((trx) => newRecoveryCodes(ctx, trx, user.id))
  return { recoveryCodes: codes }
}

/** Spends one recovery code: true once per code (a conditional update decides between two uses). */
async function useRecoveryCode(ctx: AppContext, userId: number, input: string): Promise<boolean> {
  const code = normaliseRecoveryCode(input)
  if (!/^[0-9A-Z]{10}$/.test(code)) return false
  const rows = await ctx.db.selectFrom('user_tfa_recovery').select(['id', 'code_hash']).where('user_id', '=', userId).where('used_at', 'is', null).execute()
  const hit = rows.find((r) => secretMatches(code, r.code_hash))
  if (!hit) return false
  const r = await ctx.db.updateTable('user_tfa_recovery').set({ used_at: isoNow(ctx.clock.now()) }).where('id', '=', hit.id).where('used_at', 'is', null).executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function setEnabled(ctx: AppContext, user: AppUserRow, id: number, enabled: boolean, password: string) {
  const m = await methodOf(ctx, user.id, id)
  await requirePasswordOf(ctx, user, password, 'account')
  if (enabled && !bool(m.linked)) throw new AppError(409, 'TFA_NOT_LINKED')
  await ctx.db.updateTable('user_tfa').set({ enabled }).where('id', '=', m.id).execute()
  return tfaDto({ ...m, enabled: enabled ? 1 : 0 })
}

export async function removeMethod(ctx: AppContext, user: AppUserRow, id: number, password: string) {
  const m = await methodOf(ctx, user.id, id)
  await requirePasswordOf(ctx, user, password, 'account')
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('user_tfa').where('id', '=', m.id).execute()
    // without any method the recovery codes have nothing to stand in for
    const left = await trx.selectFrom('user_tfa').select('id').where('user_id', '=', user.id).where('linked', '=', true as never).executeTakeFirst()
    if (!left) await trx.deleteFrom('user_tfa_recovery').where('user_id', '=', user.id).execute()
  })
}

const limits = (user: AppUserRow, ip: string | null): Array<['TFA_USER' | 'TFA_ADDRESS', string | null]> => [
  ['TFA_USER', String(user.id)],
  ['TFA_ADDRESS', ip],
]

async function verifyCode(ctx: AppContext, user: AppUserRow, m: UserTfaRow, token: string): Promise<boolean> {
  const code = token.replace(/\s+/g, '')
  if (m.tfa_type === 'OTP') {
    if (!/^\d{6}$/.test(code) || !m.secret) return false
    const now = ctx.clock.now().getTime()
    const delta = totpOf(ctx, user, m).validate({ token: code, timestamp: now, window: 1 })
    if (delta === null) return false
    const step = Math.floor(now / 1000 / PERIOD) + delta
    // Each code counts once: the step must be newer than the last accepted one (no replay).
    const r = await ctx.db
      .updateTable('user_tfa')
      .set({ last_used_step: step })
      .where('id', '=', m.id)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }
  return consumeEmailCode(ctx, user.id, m.id, code)
}

/** Six digits, mailed; stored like every other token: only a hash, one use, ten minutes. */
export async function issueEmailCode(ctx: AppContext, db: Db, user: AppUserRow, methodId: number) {
  const digits = new Uint32Array(1)
  crypto.getRandomValues(digits)
  const code = String(digits[0] % 1_000_000).padStart(6, '0')
  const now = ctx.clock.now()
  // an older code stops working when a new one is sent
  await db.deleteFrom('access_token').where('user_id', '=', user.id).where('purpose', '=', TFA_EMAIL).execute()
  await db
    .insertInto('access_token')
    .values({
      id: randomString(15),
      secret_hash: hashSecret(code),
      user_id: user.id,
      purpose: TFA_EMAIL,
      data: JSON.stringify({ methodId }),
      max_uses: 1,
      created_at: isoNow(now),
      expires_at: isoNow(new Date(now.getTime() + TFA_EMAIL_CODE_MINUTES * 60_000)),
    })
    .execute()
  await mailTfaCode(db, user, code, TFA_EMAIL_CODE_MINUTES)
}

async function consumeEmailCode(ctx: AppContext, userId: number, methodId: number, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false
  const now = isoNow(ctx.clock.now())
  const row = await ctx.db
    .selectFrom('access_token')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', TFA_EMAIL)
    .where('expires_at', '>', now)
    .where('uses', '<', 1)
    .executeTakeFirst()
  if (!row || JSON.parse(row.data ?? '{}').methodId !== methodId || !secretMatches(code, row.secret_hash)) return false
  const r = await ctx.db.updateTable('access_token').set({ uses: 1, last_used_at: now }).where('id', '=', row.id).where('uses', '<', 1).executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Second login step: a code of one enabled method (the named one, else any that accepts it). */
export async function verifyLoginCode(ctx: AppContext, user: AppUserRow, token: string, methodId: number | undefined, ip: string | null): Promise<boolean> {
  const methods = (await enabledMethods(ctx.db, user.id)).filter((m) => methodId === undefined || m.id === methodId)
  const checks = limits(user, ip)
  await throttle(ctx, checks)
  for (const m of methods) {
    if (await verifyCode(ctx, user, m, token)) {
      await forgive(ctx, checks)
      return true
    }
  }
  // a recovery code stands in for a code of any method
  if (methods.length && (await useRecoveryCode(ctx, user.id, token))) {
    await forgive(ctx, checks)
    return true
  }
  return false
}

/** Mails a login code for an enabled EMAIL method. */
export async function sendLoginEmailCode(ctx: AppContext, user: AppUserRow, methodId: number) {
  const m = (await enabledMethods(ctx.db, user.id)).find((x) => x.id === methodId && x.tfa_type === 'EMAIL')
  if (!m) throw notFound()
  await throttle(ctx, [['TFA_MAIL_USER', String(user.id)]])
  await ctx.db.transaction().execute((trx) => issueEmailCode(ctx, trx, user, m.id))
  ctx.notifyMail()
}
