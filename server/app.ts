// createApp(ctx): the root Elysia app with every domain module, no listen (tests call handle()).
import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from './context'
import { clientIp, connectionPeer, rememberPeer } from './http/client-address'
import { runInRequest } from './http/request-context'
import { errorBody, errorHandling, json } from './http/errors'
import { inputGuard } from './http/input-guard'
import { requestLanguage } from './http/request'
import { isTrustedProxy } from './http/client-address'
import { limitBodyStream, payPageCsp, security } from './http/security'
import { compressResponse } from './http/compress'
import { RequestMetrics, metricsRoutes } from './http/metrics'
import { type UiAssets, isApiPath, noUi, publicEventOfPath, serveAsset } from './http/ui-assets'
import { publicPageHasPlan } from './modules/seating/holds'
import { MODULES } from './modules'
import { adoptGuestLink } from './modules/guest/link-session'
import { systemRoutes } from './modules/system'

export interface AppState {
  shuttingDown: boolean
  /** the second half of a graceful drain (main.ts): GET and HEAD get 503 so that a proxy retries them elsewhere */
  refuseReads?: boolean
  /** counts of this process for /metrics (recorded only while /metrics is configured) */
  metrics: RequestMetrics
}

/** answered even when the process is at its in-flight bound: the proxy's and the monitor's view */
const ALWAYS_ANSWERED = new Set(['/health', '/ready', '/metrics'])
const pathStart = (url: string) => url.indexOf('/', url.indexOf('//') + 2)
function pathOfUrl(url: string): string {
  const start = pathStart(url)
  const q = url.indexOf('?', start)
  return q < 0 ? url.slice(start) : url.slice(start, q)
}

/** `Connection: close` on an answer (Bun then closes the connection after it); a response whose headers are immutable is left alone. */
function closeAfter(response: Response) {
  try {
    response.headers.set('connection', 'close')
  } catch {}
}

export interface CreateAppOptions {
  assets?: UiAssets
}

/** `/api/...` is accepted as an alias of `/proxy/api/...` (the spec uses both spellings). */
export function rewriteAlias(request: Request): Request {
  const url = request.url
  const i = url.indexOf('/api/', url.indexOf('//') + 2)
  if (i < 0) return request
  const pathStart = url.indexOf('/', url.indexOf('//') + 2)
  if (i !== pathStart) return request
  return new Request(url.slice(0, i) + '/proxy' + url.slice(i), request)
}

export function createApp(ctx: AppContext, opts: CreateAppOptions = {}) {
  const metrics = new RequestMetrics()
  const state: AppState = { shuttingDown: false, metrics }
  const metricsOn = Boolean(ctx.config.metrics.token || ctx.config.metrics.allow.length)
  const maxInFlight = ctx.config.server.max_in_flight
  const assets = opts.assets ?? noUi
  const features = () => ctx.license.features
  // HSTS whenever the site is reached over https: served with TLS itself, or behind a
  // TLS-terminating proxy (the base URL says https)
  const https = Boolean(ctx.config.server.tls_cert) || ctx.config.baseUrl.startsWith('https:')
  const trusted = ctx.config.server.trusted_proxies
  // as for the client address (http/client-address.ts): in-process requests have no connection
  const viaTrustedProxy = (request: Request, server: unknown) => {
    // the connection's address also for requests the alias or the body counter rebuilt
    const peer = connectionPeer(request, server as Parameters<typeof connectionPeer>[1])
    return peer === undefined ? true : peer !== null && isTrustedProxy(peer, trusted)
  }
  const bodyLimitBytes = ctx.config.server.body_limit_mb * 1024 * 1024

  let app = new Elysia({ normalize: true })
    .use(errorHandling(ctx.log, features))
    .use(security({ baseUrl: ctx.config.baseUrl, https, log: ctx.log, features, bodyLimitBytes, viaTrustedProxy, payCsp: payPageCsp([ctx.config.payments.stripe_js_url, ctx.config.payments.paypal_js_url]) }))
    .use(inputGuard())
    .use(
      openapi({
        path: '/proxy/api/openapi',
        specPath: '/proxy/api/openapi.json',
        provider: null,
        // request schemas describe what a client sends (the input side of transforms)
        mapJsonSchema: { zod: (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) },
        documentation: {
          info: { title: 'einlass API', version: process.env.EINLASS_VERSION ?? '0.1.0', description: 'Event registration, ticketing and check-in. Errors: {status, errorType, errorMessage, errorTranslation?, errorFields?}.' },
        },
      }),
    )
    .use(systemRoutes(ctx, state))
    .use(metricsRoutes(ctx, metrics)) as unknown as Elysia
  // the route template of each matched request (`/proxy/api/events/:id`), for /metrics; the answer's
  // status and time are taken in handle() below, which sees every answer (errors included)
  const routes = new WeakMap<Request, string>()
  if (metricsOn) {
    metrics.startLoopSampler()
    app = app.onTransform({ as: 'global' }, ({ request, route }) => {
      routes.set(request, route)
    }) as unknown as Elysia
  }

  for (const mod of MODULES) app = app.use(mod(ctx) as any) as unknown as Elysia

  app = app.get(
    '/*',
    async ({ request, set, path, server }) => {
      if (isApiPath(path)) return json(errorBody(404, 'ROUTE_NOT_FOUND', requestLanguage(request, features())), 404)
      const asset = serveAsset(assets, path, request, set.headers)
      if (asset) return asset
      if (/\.[a-z0-9]+$/i.test(path)) return json(errorBody(404, 'NOT_FOUND', requestLanguage(request, features())), 404)
      const link = await adoptGuestLink(ctx, request, server, set.headers as Record<string, string>)
      if (link) return link
      // SPA fallback: every UI route answers with index.html
      const planEvent = publicEventOfPath(path)
      const index = assets.indexHtml(path, planEvent !== null && (await publicPageHasPlan(ctx, planEvent).catch(() => false)))
      if (!index) return new Response('einlass: the UI is not built (run npm run build)', { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' } })
      set.headers['content-type'] = 'text/html; charset=utf-8'
      set.headers['cache-control'] = 'no-cache'
      return new Response(index, { headers: set.headers as Record<string, string> })
    },
    { detail: { hide: true } },
  ) as unknown as Elysia

  // Bun calls fetch(request, server): the connection's address is read from the request Bun made,
  // before the alias or the body counter replace it (client-address.ts)
  const handle = (request: Request, server?: Parameters<typeof rememberPeer>[1]) => {
    // Overload: above the bound a new request is answered at once with 503 and Retry-After rather
    // than queued behind the others (latency would grow without bound and every client time out);
    // the proxy retries it elsewhere, and /health, /ready and /metrics always answer.
    if (maxInFlight > 0 && metrics.inFlight >= maxInFlight && !ALWAYS_ANSWERED.has(pathOfUrl(request.url))) {
      metrics.refusedOverload++
      return Promise.resolve(json(errorBody(503, 'SERVER_BUSY', requestLanguage(request, features())), 503, { 'retry-after': '1', 'cache-control': 'no-store' }))
    }
    // Graceful drain (main.ts, second half of drain_seconds after SIGTERM): GET and HEAD get 503 at
    // once, which a proxy without active health checks retries on another process (nginx:
    // proxy_next_upstream http_503) and counts as this one failing, so it sends no more requests
    // here; writes are still served. Every answer closes its connection below (the whole drain), so
    // the proxy keeps no connection here that the closing port could cut.
    if (state.refuseReads && (request.method === 'GET' || request.method === 'HEAD') && !ALWAYS_ANSWERED.has(pathOfUrl(request.url))) {
      return Promise.resolve(json(errorBody(503, 'SERVER_BUSY', requestLanguage(request, features())), 503, { 'retry-after': '1', 'cache-control': 'no-store', connection: 'close' }))
    }
    metrics.inFlight++
    const t0 = metricsOn ? performance.now() : 0
    const seen = limitBodyStream(rewriteAlias(request), bodyLimitBytes)
    rememberPeer(request, server, seen)
    let ip: string | null = null
    const rc = { reqId: null, clientIp: () => (ip ??= clientIp(seen, server, trusted)) }
    // large JSON answers go out compressed when the client accepts it (http/compress.ts)
    return runInRequest(rc, () => app.handle(seen))
      .then((response) => {
        if (metricsOn) metrics.record(request.method, routes.get(seen) ?? 'unmatched', response.status, (performance.now() - t0) / 1000)
        return compressResponse(request, response)
      })
      .then((out) => {
        if (state.shuttingDown) closeAfter(out)
        return out
      })
      .finally(() => metrics.inFlight--)
  }
  return { app, handle, state }
}

export type App = ReturnType<typeof createApp>
