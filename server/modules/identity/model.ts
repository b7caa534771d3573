// Shapes of the identity calls, shared by the server routes and the UI forms.
import { parsePhoneNumberFromString } from 'libphonenumber-js/min'
import { z } from 'zod'
import { email, requiredText } from '../../shared/validation'
import { isCountryCode } from '../forms/countries'

/** Specials allowed by the spec: , . - _ ! @ # $ % ^ & + = § / ( ) { } [ ] ? " ´ ` */
export const PASSWORD_SPECIALS = ',.-_!@#$%^&+=§/(){}[]?"´`'
const escapeForClass = (s: string) => s.replace(/[\\\]\[^-]/g, (m) => `\\${m}`)
const SPECIAL_CLASS = `[${escapeForClass(PASSWORD_SPECIALS)}]`
export const PASSWORD_PATTERN = new RegExp(`^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*${SPECIAL_CLASS})\\S{8,}$`)

/** Each rule of the strength checklist, in display order. */
export const PASSWORD_RULES = [
  { key: 'length', test: (p: string) => p.length >= 8 },
  { key: 'lower', test: (p: string) => /[a-z]/.test(p) },
  { key: 'upper', test: (p: string) => /[A-Z]/.test(p) },
  { key: 'digit', test: (p: string) => /\d/.test(p) },
  { key: 'special', test: (p: string) => new RegExp(SPECIAL_CLASS).test(p) },
  { key: 'noWhitespace', test: (p: string) => p.length > 0 && !/\s/.test(p) },
] as const

/**
 * Characters that are neither letters, digits, whitespace nor one of the spec's specials (`*`, `;`,
 * `:`, `<`, `>`, `~`, `€` …): allowed in a password, but they do not count as its special character.
 */
export function uncountedSpecials(p: string): string[] {
  return [...new Set([...p].filter((ch) => !/[\p{L}\p{N}\s]/u.test(ch) && !PASSWORD_SPECIALS.includes(ch)))]
}

/**
 * The error code of a password the spec's pattern refuses: PASSWORD_SPECIAL_NOT_COUNTED when the
 * only thing missing is an allowed special and the password has others (it said only "zu schwach"),
 * else PASSWORD_TOO_WEAK; null for a password the pattern accepts.
 */
export function passwordProblem(p: string): 'PASSWORD_TOO_WEAK' | 'PASSWORD_SPECIAL_NOT_COUNTED' | null {
  if (PASSWORD_PATTERN.test(p)) return null
  const failing = PASSWORD_RULES.filter((r) => !r.test(p)).map((r) => r.key)
  return failing.length === 1 && failing[0] === 'special' && uncountedSpecials(p).length > 0 ? 'PASSWORD_SPECIAL_NOT_COUNTED' : 'PASSWORD_TOO_WEAK'
}

/** The spec's password rule as a zod check (one message saying what is wrong). */
export const passwordRule = (v: string, ctx: z.RefinementCtx) => {
  const problem = v === '' ? null : passwordProblem(v)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
}

export const strongPassword = () =>
  z
    .string({ error: 'PASSWORD_MISSING' })
    .min(1, 'PASSWORD_MISSING')
    .max(200, 'TOO_LONG')
    .superRefine(passwordRule)

export const LoginBody = z.object({
  email: email(),
  password: z.string().min(1, 'PASSWORD_MISSING').max(200, 'TOO_LONG'),
})
export type LoginBody = z.infer<typeof LoginBody>

export const SetupBody = z.object({
  agencyName: requiredText(120),
  email: email(),
  password: strongPassword(),
  firstName: requiredText(100),
  lastName: requiredText(100),
})
export type SetupBody = z.infer<typeof SetupBody>

/** Repeat and confirmation fields: the spec's own messages. */
const passwordRepeat = () => z.string({ error: 'PASSWORD_REPEAT_MISSING' }).min(1, 'PASSWORD_REPEAT_MISSING').max(200, 'TOO_LONG')

/**
 * Change or set the password (PATCH /api/user/{id}). currentPassword is checked by the server only
 * where the rules ask for it (docs/identity.md, Passwords); removeTokens logs out every device.
 */
export const PasswordChangeBody = z
  .object({
    password: strongPassword(),
    passwordRepeat: passwordRepeat(),
    currentPassword: z.string().max(200, 'TOO_LONG').optional(),
    removeTokens: z.boolean().optional(),
  })
  .refine((v) => v.password === v.passwordRepeat, { path: ['passwordRepeat'], message: 'PASSWORD_REPEAT_MISMATCH' })
export type PasswordChangeBody = z.infer<typeof PasswordChangeBody>

/** New password with its repeat: the invitation, the reset page and their server checks. */
const newPasswordFields = { password: strongPassword(), passwordRepeat: passwordRepeat() }
const repeatMatches = (v: { password: string; passwordRepeat: string }) => v.password === v.passwordRepeat
const REPEAT_MISMATCH = { path: ['passwordRepeat'], message: 'PASSWORD_REPEAT_MISMATCH' }

/** The form on /password/reset. */
export const NewPasswordForm = z.object(newPasswordFields).refine(repeatMatches, REPEAT_MISMATCH)
export type NewPasswordForm = z.infer<typeof NewPasswordForm>

/** A link token as it arrives from a mail (an unknown or malformed one is simply not found). */
const linkToken = () => z.string({ error: 'REQUIRED' }).trim().min(1, 'REQUIRED').max(200, 'INVALID')

/** POST /api/public/password/forgot */
export const ForgotPasswordBody = z.object({ email: email() })
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>

/** GET /api/public/password/reset?token= */
export const ResetTokenQuery = z.object({ token: linkToken() })

/** POST /api/public/password/reset */
export const ResetPasswordBody = z.object({ token: linkToken(), ...newPasswordFields }).refine(repeatMatches, REPEAT_MISMATCH)
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>

export const DESIGNS = ['design_202401'] as const
export const UserSettingsBody = z.object({
  language: z.string().min(2, 'REQUIRED').max(10, 'INVALID').optional(),
  /** null = standard design */
  design: z.enum(DESIGNS, { error: 'INVALID' }).nullable().optional(),
})
export type UserSettingsBody = z.infer<typeof UserSettingsBody>

/** PATCH /api/user/{id}: settings and/or a password change in one call. */
export const UserPatchBody = z.object({
  language: z.string().max(10).optional(),
  design: z.string().max(40).nullable().optional(),
  password: z.string().max(200).optional(),
  passwordRepeat: z.string().max(200).optional(),
  currentPassword: z.string().max(200).optional(),
  removeTokens: z.boolean().optional(),
})

/** The account password asked by confirm dialogs: required, at least 8 characters. */
export const accountPassword = () => z.string({ error: 'ACCOUNT_PASSWORD_MISSING' }).min(8, 'ACCOUNT_PASSWORD_MISSING').max(200, 'TOO_LONG')
export const AccountPasswordBody = z.object({ accountPassword: accountPassword() })
export type AccountPasswordBody = z.infer<typeof AccountPasswordBody>

export const TFA_TYPES = ['OTP', 'EMAIL'] as const
/** Step 1 of the add dialog: type, device name (OTP only) and the account password. */
export const TfaAddBody = z
  .object({
    twoFactorType: z.enum(TFA_TYPES, { error: 'REQUIRED' }),
    displayName: z.string().trim().max(80, 'TOO_LONG').optional(),
    accountPassword: accountPassword(),
  })
  .refine((v) => v.twoFactorType !== 'OTP' || (v.displayName ?? '').length >= 1, { path: ['displayName'], message: 'REQUIRED' })
export type TfaAddBody = z.infer<typeof TfaAddBody>

/** One-time token: at least 6 characters (digits of a TOTP or the mailed code, or a recovery code XXXXX-XXXXX). */
export const tfaToken = () => z.string({ error: 'TOKEN_MISSING' }).trim().min(6, 'TOKEN_TOO_SHORT').max(20, 'TOO_LONG')
export const TfaLinkBody = z.object({ token: tfaToken() })
export type TfaLinkBody = z.infer<typeof TfaLinkBody>

/** Second login step. */
export const LoginTfaBody = z.object({ token: tfaToken(), methodId: z.number().int().positive().optional() })
export type LoginTfaBody = z.infer<typeof LoginTfaBody>
export const LoginTfaSendBody = z.object({ methodId: z.number().int().positive() })

export const GENDERS = ['MALE', 'FEMALE', 'OTHER'] as const
const opt = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, 'TOO_LONG')
    .nullish()
    .transform((v) => (v ? v : null))

/** dd.mm.yyyy (or ISO yyyy-mm-dd) between 1899-01-01 and today; stored as yyyy-mm-dd. */
export const birthday = () =>
  z
    .string()
    .trim()
    .nullish()
    .transform((v, ctx) => {
      if (!v) return null
      const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(v) ?? null
      const iso = m ? `${m[3]}-${m[2]}-${m[1]}` : v
      const d = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T00:00:00Z`) : null
      if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso || iso < '1899-01-01' || iso > new Date().toISOString().slice(0, 10)) {
        ctx.addIssue({ code: 'custom', message: 'INVALID_DATE' })
        return z.NEVER
      }
      return iso
    })

/** A valid international number (German numbers may omit +49), stored in E.164. */
export const phone = () =>
  z
    .string()
    .trim()
    .max(40, 'TOO_LONG')
    .nullish()
    .transform((v, ctx) => {
      if (!v) return null
      const p = parsePhoneNumberFromString(v, 'DE')
      if (!p || !p.isValid()) {
        ctx.addIssue({ code: 'custom', message: 'INVALID_PHONE' })
        return z.NEVER
      }
      return p.number as string
    })

export const AddressBody = z.object({
  street: opt(200),
  streetNumber: opt(20),
  postCode: opt(20),
  city: opt(120),
  /** ISO 3166-1 alpha-3 of the spec's country table (default DEU in forms) */
  country: opt(3).refine((v) => v == null || isCountryCode(v), 'INVALID'),
})

/** PATCH /api/user/accounts/{id}: the profile form. */
export const AccountProfileBody = z.object({
  salutation: opt(40),
  title: opt(60),
  firstName: opt(100),
  lastName: opt(100),
  company: opt(200),
  position: opt(200),
  web: opt(300),
  info: opt(2000),
  address: AddressBody.nullish(),
  birthday: birthday(),
  gender: z.enum(GENDERS, { error: 'INVALID' }).nullish().transform((v) => v ?? null),
  phoneNumber: phone(),
  mobilePhoneNumber: phone(),
  imageId: z.number().int().positive().nullish(),
})
export type AccountProfileBody = z.input<typeof AccountProfileBody>

export const ReasonBody = z.object({ reason: z.string().trim().max(1000, 'TOO_LONG').nullish() })
/** POST /api/user/deleteAccounts: the accounts to mark; marked ones missing from the list are revoked. */
export const DeleteAccountsBody = z.object({
  accounts: z.array(z.number().int().positive()).max(500),
  reason: z.string().trim().max(1000, 'TOO_LONG').nullish(),
})
export const TokenBody = z.object({ token: z.string().min(10, 'INVALID').max(200, 'INVALID') })

export const DELETE_WORD = 'DELETE'
/** The delete-confirm dialog: the typed word must be DELETE. */
export const DeleteConfirmBody = z.object({ confirm: z.string().refine((v) => v === DELETE_WORD, 'DELETE_CONFIRM') })
