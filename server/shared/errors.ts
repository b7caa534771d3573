// Domain failures carry a stable errorType; the HTTP layer maps them to the spec's error shape
// {status, errorType, errorMessage, errorTranslation?, errorFields?} with texts from the catalogue.
import type { FieldError } from './validation'

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly errorType: string,
    readonly options: {
      fields?: FieldError[]
      params?: Record<string, string | number>
      /** extra JSON merged into the body, e.g. {freeSlots: 0} */
      extra?: Record<string, unknown>
      detail?: string
    } = {},
  ) {
    super(options.detail ?? errorType)
  }
}

export const notFound = (what = 'NOT_FOUND') => new AppError(404, what)
export const forbidden = () => new AppError(403, 'NO_PERMISSION')
export const notAuthenticated = () => new AppError(401, 'NOT_AUTHENTICATED')
export const fieldError = (fields: FieldError[], errorType = 'FIELD_ERROR') => new AppError(400, errorType, { fields })
export const conflict = (errorType: string, extra?: Record<string, unknown>) => new AppError(409, errorType, { extra })
export const invalidParameters = () => new AppError(400, 'INVALID_PARAMETERS')
