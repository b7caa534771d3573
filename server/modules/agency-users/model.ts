import { z } from 'zod'
import { email, optionalText } from '../../shared/validation'
import { ORGANISER_ROLES } from '../identity/roles'
import { passwordRule } from '../identity/model'

export const InviteBody = z.object({
  email: email(),
  userRole: z.enum(ORGANISER_ROLES, { error: 'REQUIRED' }),
  firstName: optionalText(100),
  lastName: optionalText(100),
})
export type InviteBody = z.input<typeof InviteBody>

export const RoleBody = z.object({ userRole: z.enum(ORGANISER_ROLES, { error: 'REQUIRED' }) })

/** Accepting an invitation; a new user sets the password here (same rules as everywhere). */
export const AcceptInvitationBody = z
  .object({
    token: z.string().min(10, 'INVALID').max(200, 'INVALID'),
    password: z.string().max(200, 'TOO_LONG').optional(),
    passwordRepeat: z.string().max(200, 'TOO_LONG').optional(),
  })
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBody>

/** The form on the invitation page (new users): password with repeat. */
export const SetPasswordForm = z
  .object({
    password: z.string().min(1, 'PASSWORD_MISSING').max(200, 'TOO_LONG').superRefine(passwordRule),
    passwordRepeat: z.string().min(1, 'PASSWORD_REPEAT_MISSING').max(200, 'TOO_LONG'),
  })
  .refine((v) => v.password === v.passwordRepeat, { path: ['passwordRepeat'], message: 'PASSWORD_REPEAT_MISMATCH' })
export type SetPasswordForm = z.infer<typeof SetPasswordForm>
