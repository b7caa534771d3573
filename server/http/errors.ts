// One error shape for every failure: {status, errorType, errorMessage, errorTranslation?, errorFields?}.
// errorMessage is the German text (German first), errorTranslation the text in the caller's language.
import { Elysia } from 'elysia'
import { t } from '../i18n/catalogue'
import type { Logger } from '../logger'
import { AppError } from '../shared/errors'
import { type FieldError } from '../shared/validation'
import { requestLanguage } from './request'

export interface ErrorBody {
  status: number
  errorType: string
  errorMessage: string
  errorTranslation?: string
  errorFields?: FieldError[]
  [extra: string]: unknown
}

export function errorBody(
  status: number,
  errorType: string,
  lang: string,
  opts: { fields?: FieldError[]; params?: Record<string, string | number>; extra?: Record<string, unknown> } = {},
): ErrorBody {
  const key = `errors.${errorType}`
  const body: ErrorBody = {
    status,
    errorType,
    errorMessage: t('de', key, opts.params),
    errorTranslation: t(lang, key, opts.params),
    ...opts.extra,
  }
  if (opts.fields?.length) body.errorFields = opts.fields
  return body
}

/** Marker in the error a counted body stream raises past the limit (security.ts limitBodyStream). */
export const BODY_TOO_LARGE = 'einlass: request body too large'

export const json = (body: unknown, status: number, headers?: Record<string, string>) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } })

/** Validation failures of Elysia (zod via Standard Schema) → FIELD_ERROR with the offending fields. */
function validationFields(error: any): FieldError[] {
  const all: any[] = Array.isArray(error?.all) ? error.all : []
  const seen = new Set<string>()
  const out: FieldError[] = []
  for (const issue of all) {
    const field = String(issue.path ?? '')
      .replace(/^\//, '')
      .replace(/\//g, '.')
    if (seen.has(field)) continue
    seen.add(field)
    const msg = String(issue.message ?? '')
    out.push({ field, errorType: /^[A-Z][A-Z0-9_]+$/.test(msg) ? msg : 'INVALID' })
  }
  return out
}

// Errors that mean the database is not reachable right now (Postgres restarting, a failover, the
// network): the request's transaction did not commit, or its outcome is unknown; the pool drops the
// broken connection and opens new ones by itself. Answered 503 with Retry-After, not 500.
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])
// SQLSTATE: 08 connection exceptions, 57P01-57P03 admin/crash shutdown and "cannot connect now"
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123])$/
const UNAVAILABLE_MESSAGE = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable|the database system is (starting up|shutting down|in recovery mode)/i

export function databaseUnavailable(error: unknown): boolean {
  for (let e: any = error, depth = 0; e && depth < 4; e = e.cause, depth++) {
    if (typeof e.code === 'string' && (CONNECTION_CODES.has(e.code) || UNAVAILABLE_SQLSTATE.test(e.code))) return true
    if (UNAVAILABLE_MESSAGE.test(String(e.message ?? ''))) return true
  }
  return false
}

export function errorHandling(log: Logger, features: () => readonly string[]) {
  return new Elysia({ name: 'errors' }).onError({ as: 'global' }, ({ code, error, request, path, set }) => {
    const lang = requestLanguage(request, features())
    if (error instanceof AppError) {
      return json(
        errorBody(error.status, error.errorType, lang, { fields: error.options.fields, params: error.options.params, extra: error.options.extra }),
        error.status,
      )
    }
    switch (code) {
      case 'VALIDATION':
        return json(errorBody(400, 'FIELD_ERROR', lang, { fields: validationFields(error) }), 400)
      case 'NOT_FOUND':
        return json(errorBody(404, 'ROUTE_NOT_FOUND', lang), 404)
      case 'PARSE': {
        // a parser of ours (input-guard.ts) answers with its own error; Elysia wraps it as the cause
        const cause = (error as any)?.cause
        if (cause instanceof AppError) return json(errorBody(cause.status, cause.errorType, lang, { fields: cause.options.fields }), cause.status)
        if (String((error as any)?.cause?.message ?? (error as any)?.cause).includes(BODY_TOO_LARGE)) return json(errorBody(413, 'PAYLOAD_TOO_LARGE', lang), 413)
        return json(errorBody(400, 'INVALID_JSON', lang), 400)
      }
      case 'INVALID_COOKIE_SIGNATURE':
        return json(errorBody(401, 'NOT_AUTHENTICATED', lang), 401)
      default: {
        const status = (error as any)?.status
        if (status === 413 || String((error as any)?.message).includes(BODY_TOO_LARGE)) return json(errorBody(413, 'PAYLOAD_TOO_LARGE', lang), 413)
        if (databaseUnavailable(error)) {
          log.warn('database unavailable', { reqId: set.headers['x-request-id'], method: request.method, path, error: String((error as Error)?.message ?? error) })
          return json(errorBody(503, 'DATABASE_UNAVAILABLE', lang), 503, { 'retry-after': '2', 'cache-control': 'no-store' })
        }
        log.error('unhandled error', { reqId: set.headers['x-request-id'], method: request.method, path, code: String(code), error: (error as Error)?.stack ?? String(error) })
        return json(errorBody(500, 'INTERNAL_ERROR', lang), 500)
      }
    }
  })
}
