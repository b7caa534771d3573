// Security baseline: strict headers with a CSP the UI works under, an origin check on
// state-changing requests, request ids and one JSON log line per request.
import { Elysia } from 'elysia'
import { currentRequest } from './request-context'
import type { Logger } from '../logger'
import { BODY_TOO_LARGE, errorBody, json } from './errors'
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

// the four possible sets, built once (read-only: callers copy them into the response's headers)
const headerSets = new Map<string, Readonly<Record<string, string>>>()

export function securityHeaders(path: string, https: boolean, payCsp?: string | null): Readonly<Record<string, string>> {
  const frame = isEmbeddablePath(path)
  const pay = payCsp && isPayPath(path) ? payCsp : null
  const key = `${frame}|${https}|${pay ?? ''}`
  let h = headerSets.get(key)
  if (!h) headerSets.set(key, (h = Object.freeze({ ...buildHeaders(frame, https), ...(pay ? { 'content-security-policy': pay, 'permissions-policy': 'camera=(self), microphone=(), geolocation=(), payment=*' } : {}) })))
  return h
}

export const isPayPath = (path: string) => /^\/pay\/[^/]+\/?$/.test(path)

/**
 * The pay page's CSP (docs/payments.md): the provider scripts (their addresses are settings), the
 * frames and API calls Stripe.js and the PayPal SDK make, and nothing else. Other pages keep the
 * strict one.
 */
export function payPageCsp(scripts: string[]): string {
  const origins = scripts.map((u) => new URL(u).origin)
  const stripe = ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com', 'https://api.stripe.com']
  const paypal = ['https://www.paypal.com', 'https://*.paypal.com', 'https://*.paypalobjects.com']
  const list = (...xs: string[]) => [...new Set(xs)].join(' ')
  return [
    "default-src 'self'",
    `script-src ${list("'self'", ...origins, 'https://js.stripe.com', 'https://*.js.stripe.com', ...paypal)}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${list("'self'", 'data:', 'blob:', ...paypal, 'https://*.stripe.com')}`,
    "font-src 'self'",
    `connect-src ${list("'self'", ...origins, ...stripe, ...paypal)}`,
    `frame-src ${list(...origins, ...stripe, ...paypal)}`,
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ')
}

function buildHeaders(frame: boolean, https: boolean): Record<string, string> {
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

/**
 * GET routes of the spec that change state (`revokeDeletion`): they keep their method but need the
 * same proof as a POST, and a cross-site browser request (sec-fetch-site other than same-origin) is
 * refused even without an Origin header, since browsers send none on a GET.
 */
const STATE_CHANGING_GETS = [/^\/proxy\/api\/user\/revokeDeletion\/?$/, /^\/proxy\/api\/user\/accounts\/[^/]+\/revokeDeletion\/?$/]
export const changesState = (method: string, path: string) => !SAFE.has(method) || STATE_CHANGING_GETS.some((r) => r.test(path))

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * The host a request was sent to: the Host header, or X-Forwarded-Host when a trusted reverse
 * proxy sent the request (`viaTrustedProxy`).
 */
export function requestHost(request: Request, viaTrustedProxy: boolean): string {
  const forwarded = viaTrustedProxy ? request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() : null
  if (forwarded) return forwarded.toLowerCase()
  const host = request.headers.get('host')
  if (host) return host.toLowerCase()
  try {
    return new URL(request.url).host.toLowerCase()
  } catch {
    return ''
  }
}

/** Whether a Host names this site: the base URL's host (its loopback twin only for a localhost base URL). */
export function hostAllowed(host: string, baseUrl: string): boolean {
  const base = new URL(baseUrl)
  if (host === base.host.toLowerCase()) return true
  if (base.hostname !== 'localhost') return false
  const port = base.port || (base.protocol === 'https:' ? '443' : '80')
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host)
  return !!m && LOOPBACK.has(m[1]) && (m[2] ?? (base.protocol === 'https:' ? '443' : '80')) === port
}

/**
 * A state-changing request must come from this site: the Host is the base URL's (DNS rebinding, a
 * foreign Host), an Origin is the base URL's origin (never "null": sandboxed frames, data: URLs,
 * some redirects send it), and without an Origin Fetch Metadata must not say cross-site. Clients
 * that are no browsers send neither header and pass. docs/security.md, "Origin rules".
 */
export function originAllowed(request: Request, baseUrl: string, opts: { path?: string; viaTrustedProxy?: boolean } = {}): boolean {
  const path = opts.path ?? pathOf(request.url)
  if (!changesState(request.method, path)) return true
  if (!hostAllowed(requestHost(request, opts.viaTrustedProxy ?? false), baseUrl)) return false
  const site = request.headers.get('sec-fetch-site')
  const origin = request.headers.get('origin')
  if (origin !== null) {
    if (origin === 'null') return false
    try {
      const o = new URL(origin)
      const base = new URL(baseUrl)
      if (o.protocol !== base.protocol || !hostAllowed(o.host.toLowerCase(), baseUrl)) return false
    } catch {
      return false
    }
  }
  if (SAFE.has(request.method)) return !site || site === 'same-origin'
  return origin !== null || !site || site === 'same-origin' || site === 'none'
}

/**
 * Bodies without a Content-Length (chunked) are counted while they are read; passing the limit
 * fails the read, which the error layer answers with 413. Requests with a Content-Length are
 * checked up front in security() and never reach this.
 */
export function limitBodyStream(request: Request, limitBytes: number): Request {
  if (!request.body || request.headers.has('content-length')) return request
  let seen = 0
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, c) {
      seen += chunk.byteLength
      if (seen > limitBytes) c.error(new Error(BODY_TOO_LARGE))
      else c.enqueue(chunk)
    },
  })
  return new Request(request, { body: request.body.pipeThrough(counter), duplex: 'half' } as RequestInit)
}

const PLAIN_URL = /^[\w\-.~:/?#@!$&'()*+,;=]*$/

/**
 * The path of an absolute request URL without parsing all of it (runs for every request); what
 * URL would normalise (dot segments, escapes) goes through URL.
 */
export function pathOf(url: string): string {
  if (!PLAIN_URL.test(url) || url.includes('/.')) return new URL(url).pathname
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return '/'
  let end = url.length
  const q = url.indexOf('?', start)
  if (q >= 0) end = q
  const hash = url.indexOf('#', start)
  if (hash >= 0 && hash < end) end = hash
  return url.slice(start, end)
}

/** The API and session paths (not the UI's files): their answers are `Cache-Control: no-store`. */
export const isPrivatePath = (path: string) => /^\/(proxy|auth|userDetails|logout)(\/|$)/.test(path)

let counter = 0
const newRequestId = () => `${Date.now().toString(36)}-${(counter++ % 1_000_000).toString(36)}`

export function security(opts: {
  baseUrl: string
  https: boolean
  log: Logger
  features: () => readonly string[]
  bodyLimitBytes: number
  /** the pay page's CSP with the provider script origins (payPageCsp) */
  payCsp?: string | null
  /** whether the request's connection is a trusted reverse proxy (its X-Forwarded-Host counts) */
  viaTrustedProxy?: (request: Request, server: unknown) => boolean
}) {
  const started = new WeakMap<Request, { t: number; id: string }>()
  const logRequests = opts.log.enabled('info')
  // An install reached by another name or its IP refuses every POST (the Host check): say once per
  // host in the log what to set, instead of leaving the administrator with a failing login.
  const warnedHosts = new Set<string>()
  const warnForeignHost = (host: string) => {
    if (hostAllowed(host, opts.baseUrl) || warnedHosts.has(host) || warnedHosts.size >= 20) return
    warnedHosts.add(host)
    opts.log.warn('request refused: its host is not the base URL (set EINLASS_BASE_URL to the address people use, or list the reverse proxy in EINLASS_TRUSTED_PROXIES)', { host, baseUrl: opts.baseUrl })
  }
  return new Elysia({ name: 'security' })
    .onRequest(({ request, set, server }) => {
      const url = { pathname: pathOf(request.url) }
      const viaProxy = opts.viaTrustedProxy?.(request, server) ?? false
      // a request id from a trusted proxy in front (nginx's $request_id) keeps one id across both
      // logs; from anyone else it is made here (a client must not plant ids in the log)
      const given = viaProxy ? request.headers.get('x-request-id') : null
      const id = given && /^[\w.:-]{1,100}$/.test(given) ? given : newRequestId()
      const rc = currentRequest()
      if (rc) rc.reqId = id
      if (logRequests) started.set(request, { t: performance.now(), id })
      Object.assign(set.headers, securityHeaders(url.pathname, opts.https, opts.payCsp), { 'x-request-id': id })
      // answers of the API carry personal data: never stored by a browser or a shared cache
      // (handlers that answer with their own Response, e.g. public event images, set their own)
      if (isPrivatePath(url.pathname)) set.headers['cache-control'] = 'no-store'
      if (!originAllowed(request, opts.baseUrl, { path: url.pathname, viaTrustedProxy: viaProxy })) {
        warnForeignHost(requestHost(request, viaProxy))
        const lang = requestLanguage(request, opts.features())
        return json(errorBody(403, 'CROSS_ORIGIN', lang), 403, { ...securityHeaders(url.pathname, opts.https), 'x-request-id': id, 'cache-control': 'no-store' })
      }
      const length = Number(request.headers.get('content-length') ?? 0)
      if (length > opts.bodyLimitBytes) {
        const lang = requestLanguage(request, opts.features())
        // connection: close, so the client stops sending the body nobody reads
        return json(errorBody(413, 'PAYLOAD_TOO_LARGE', lang), 413, { ...securityHeaders(url.pathname, opts.https), 'x-request-id': id, connection: 'close' })
      }
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, responseValue }) => {
      if (!logRequests) return
      const s = started.get(request)
      if (!s) return
      const url = new URL(request.url)
      // handlers that build a Response themselves (errors, assets) carry the status in it
      const status = responseValue instanceof Response ? responseValue.status : typeof set.status === 'number' ? set.status : 200
      opts.log.info('request', {
        reqId: s.id,
        method: request.method,
        path: url.pathname,
        status,
        ms: Math.round((performance.now() - s.t) * 10) / 10,
      })
    })
}
