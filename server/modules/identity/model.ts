// Shapes of the identity calls, shared by the server routes and the UI forms.
import { z } from 'zod'
import { email, requiredText } from '../../shared/validation'

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

export const strongPassword = () =>
  z
    .string({ error: 'PASSWORD_MISSING' })
    .min(1, 'PASSWORD_MISSING')
    .max(200, 'TOO_LONG')
    .regex(PASSWORD_PATTERN, 'PASSWORD_TOO_WEAK')

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
