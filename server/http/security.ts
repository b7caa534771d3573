// Security baseline: strict headers with a CSP the UI works under, an origin check on
// state-changing requests, request ids and one JSON log line per request.
import { Elysia } from 'elysia'
import type { Logger } from '../logger'
import { errorBody, json } from './errors'
import { requestLanguage } from './request'

const CSP_BASE = [
  "default-src 'self'",
  "script-src 'self'",
  // Preact sets style attributes; no inline <style> or <script> blocks are served.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
]
const CSP_APP = [...CSP_BASE, "frame-ancestors 'self'"].join('; ')
/** The embeddable registration form may be framed by any site. */
const CSP_FRAME = [...CSP_BASE, 'frame-ancestors *'].join('; ')

export const isEmbeddablePath = (path: string) => /^\/public\/event\/[^/]+\/frame\/?$/.test(path)

export function securityHeaders(path: string, https: boolean): Record<string, string> {
  const frame = isEmbeddablePath(path)
  const h: Record<string, string> = {
    'content-security-policy': frame ? CSP_FRAME : CSP_APP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'permissions-policy': 'camera=(self), microphone=(), geolocation=(), payment=()',
    'cross-origin-opener-policy': 'same-origin',
  }
  if (!frame) h['x-frame-options'] = 'SAMEORIGIN'
  if (https) h['strict-transport-security'] = 'max-age=31536000; includeSubDomains'
  return h
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/** A browser's cross-site POST/PATCH/DELETE is refused; non-browser clients send no Origin. */
export function originAllowed(request: Request, baseUrl: string): boolean {
  if (SAFE.has(request.method)) return true
  const origin = request.headers.get('origin')
  if (!origin || origin === 'null') {
    // No Origin: fall back to Fetch Metadata when present.
    const site = request.headers.get('sec-fetch-site')
    return !site || site === 'same-origin' || site === 'none'
  }
  const host = request.headers.get('host')
  try {
    const o = new URL(origin)
    if (host && o.host === host) return true
    return o.host === new URL(baseUrl).host
  } catch {
    return false
  }
}

let counter = 0
const newRequestId = () => `${Date.now().toString(36)}-${(counter++ % 1_000_000).toString(36)}`

export function security(opts: { baseUrl: string; https: boolean; log: Logger; features: () => readonly string[] }) {
  const started = new WeakMap<Request, { t: number; id: string }>()
  const logRequests = opts.log.enabled('info')
  return new Elysia({ name: 'security' })
    .onRequest(({ request, set }) => {
      const url = new URL(request.url)
      const id = request.headers.get('x-request-id') ?? newRequestId()
      if (logRequests) started.set(request, { t: performance.now(), id })
      Object.assign(set.headers, securityHeaders(url.pathname, opts.https), { 'x-request-id': id })
      if (!originAllowed(request, opts.baseUrl)) {
        const lang = requestLanguage(request, opts.features())
        return json(errorBody(403, 'CROSS_ORIGIN', lang), 403, { ...securityHeaders(url.pathname, opts.https), 'x-request-id': id })
      }
    })
    .onAfterResponse({ as: 'global' }, ({ request, set }) => {
      if (!logRequests) return
      const s = started.get(request)
      if (!s) return
      const url = new URL(request.url)
      opts.log.info('request', {
        reqId: s.id,
        method: request.method,
        path: url.pathname,
        status: typeof set.status === 'number' ? set.status : 200,
        ms: Math.round((performance.now() - s.t) * 10) / 10,
      })
    })
}
