// Zod messages are stable error codes, not prose: the server returns them as errorFields[].errorType
// and the UI translates them through the catalogue (`field.<CODE>`). Imported by server and UI.
import { z } from 'zod'
import { MAX_EMAIL } from './email'

export { MAX_EMAIL, isEmailAddress } from './email'

let configured = false
export function configureZod() {
  if (configured) return
  configured = true
  z.config({
    customError: (iss) => {
      if (iss.message && /^[A-Z][A-Z0-9_]+$/.test(iss.message)) return iss.message
      switch (iss.code) {
        case 'invalid_type':
          return iss.input === undefined || iss.input === null ? 'REQUIRED' : 'INVALID'
        case 'too_small':
          if (iss.origin === 'string' && iss.minimum === 1) return 'REQUIRED'
          if (iss.origin === 'array' && iss.minimum === 1) return 'REQUIRED'
          return iss.origin === 'string' ? 'TOO_SHORT' : 'TOO_SMALL'
        case 'too_big':
          return iss.origin === 'string' ? 'TOO_LONG' : 'TOO_BIG'
        case 'invalid_format':
          return iss.format === 'email' ? 'INVALID_EMAIL' : 'INVALID'
        case 'invalid_value':
          return 'INVALID'
        default:
          return 'INVALID'
      }
    },
  })
}
configureZod()

export interface FieldError {
  field: string
  errorType: string
}

/** Turns zod issues into the spec's errorFields. */
export function issuesToFields(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  const seen = new Set<string>()
  const out: FieldError[] = []
  for (const i of issues) {
    const field = i.path.map(String).join('.')
    if (seen.has(field)) continue
    seen.add(field)
    out.push({ field, errorType: /^[A-Z][A-Z0-9_]+$/.test(i.message) ? i.message : 'INVALID' })
  }
  return out
}

/** Common building blocks. The length is checked before the e-mail pattern runs (pipe stops on it). */
export const email = () => z.string().trim().max(MAX_EMAIL, 'TOO_LONG').toLowerCase().pipe(z.email('INVALID_EMAIL'))
export const requiredText = (max = 200) => z.string().trim().min(1, 'REQUIRED').max(max, 'TOO_LONG')
export const optionalText = (max = 500) =>
  z
    .string()
    .trim()
    .max(max, 'TOO_LONG')
    .nullish()
    .transform((v) => (v === '' || v == null ? null : v))
export const isoDateTime = () => z.iso.datetime({ offset: true, error: 'INVALID_DATE' })
export const idParam = () => z.coerce.number().int().positive('INVALID')
