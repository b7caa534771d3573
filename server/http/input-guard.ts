// Input that no route may see, refused once for every route (a clear 400 in the error shape, never a
// 500 further down):
// - JSON nested deeper than MAX_JSON_DEPTH: a linear scan of the text before it is parsed (a body
//   nested 200,000 deep took a second to parse and then overflowed the stack of recursive walkers);
// - a NUL character in any string of a body (JSON or multipart) — Postgres refuses it in text columns,
//   and no field of einlass needs one: FIELD_ERROR naming each field with INVALID_CHARACTERS;
// - a NUL (%00) or a broken %-escape in the URL's path or query: no id, token or search holds one
//   (other control characters, e.g. CR/LF in `redirect`, are the redirect check's: safeRedirect).
import { Elysia } from 'elysia'
import { AppError } from '../shared/errors'
import { BODY_TOO_LARGE } from './errors'

/** Deepest nesting of arrays and objects a request body may have (the deepest API body has ~6). */
export const MAX_JSON_DEPTH = 64

/** Whether JSON text nests arrays/objects deeper than `max`; one pass, strings skipped. */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \ */) i++
      else if (c === 34 /* " */) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--
  }
  return false
}

/** Paths of the strings (and keys) that hold a NUL character, walked without recursion. */
export function nulFields(value: unknown, limit = 20): string[] {
  const out: string[] = []
  const stack: Array<[unknown, string]> = [[value, '']]
  while (stack.length && out.length < limit) {
    const [v, path] = stack.pop()!
    if (typeof v === 'string') {
      if (v.includes('\u0000')) out.push(path)
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], path ? `${path}.${i}` : String(i)])
    } else if (v && typeof v === 'object' && !(v instanceof Blob)) {
      const keys = Object.keys(v)
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]
        const p = path ? `${path}.${k}` : k
        if (k.includes('\u0000')) out.push(p)
        else stack.push([(v as Record<string, unknown>)[k], p])
      }
    }
  }
  return out
}

const NUL_ESCAPE = /%00/

/** Whether a URL's path or query carries an escaped NUL or a broken escape. */
export function badUrl(url: string): boolean {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return false
  const hash = url.indexOf('#', start)
  const rest = hash < 0 ? url.slice(start) : url.slice(start, hash)
  if (!rest.includes('%')) return false
  if (NUL_ESCAPE.test(rest)) return true
  try {
    // '+' is a space in a query; decoding checks only that each escape is complete UTF-8
    decodeURIComponent(rest.replace(/\+/g, ' '))
    return false
  } catch {
    return true
  }
}

const isJson = (contentType: string) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)

export function inputGuard() {
  return new Elysia({ name: 'input-guard' })
    .onRequest(async ({ request }) => {
      if (badUrl(request.url)) throw new AppError(400, 'INVALID_PARAMETERS')
      if (!request.body || !isJson(request.headers.get('content-type') ?? '')) return
      // A copy of the body is scanned before Elysia parses the original (its own JSON parser stays,
      // so the OpenAPI document still names application/json bodies).
      let text: string
      try {
        text = await request.clone().text()
      } catch (e) {
        const err = e as { message?: string; cause?: { message?: string } } | undefined
        if (`${err?.message ?? e} ${err?.cause?.message ?? err?.cause ?? ''}`.includes(BODY_TOO_LARGE)) throw new AppError(413, 'PAYLOAD_TOO_LARGE')
        throw new AppError(400, 'INVALID_JSON')
      }
      if (jsonTooDeep(text)) throw new AppError(400, 'INVALID_JSON')
    })
    .onTransform({ as: 'global' }, ({ body }) => {
      if (body === undefined || body === null || typeof body !== 'object') {
        if (typeof body === 'string' && body.includes('\u0000')) throw new AppError(400, 'INVALID_PARAMETERS')
        return
      }
      const fields = nulFields(body)
      if (fields.length) throw new AppError(400, 'FIELD_ERROR', { fields: fields.map((field) => ({ field, errorType: 'INVALID_CHARACTERS' })) })
    })
}
