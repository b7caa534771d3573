// A react-hook-form resolver that validates with the server's zod schema after converting the
// form's values (e.g. datetime-local strings) into the shape the server receives.
import type { FieldErrors, Resolver } from 'react-hook-form'
import type { z } from 'zod'

export function sharedResolver<F extends Record<string, any>, S extends z.ZodType>(schema: S, toInput: (form: F) => unknown): Resolver<F> {
  return async (values) => {
    const r = schema.safeParse(toInput(values))
    if (r.success) return { values, errors: {} }
    const errors: Record<string, any> = {}
    for (const issue of r.error.issues) {
      const path = issue.path.map(String)
      let o = errors
      for (const k of path.slice(0, -1)) o = o[k] ??= {}
      const last = path[path.length - 1] ?? 'root'
      o[last] ??= { type: issue.code, message: issue.message }
    }
    return { values: {}, errors: errors as FieldErrors<F> }
  }
}
