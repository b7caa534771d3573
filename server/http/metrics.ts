// GET /metrics in the Prometheus text format (issue 22 "Seeing inside"). Off unless configured
// (metrics.token and/or metrics.allow); what it counts costs one Map update per request, and the
// database figures (outbox, tasks, holds, orders) are read only when Prometheus scrapes.
//
// Hand-written rather than prom-client: the exposition format is a few lines, the request path
// must stay cheap (issue 25), and prom-client's default collectors lean on Node's perf_hooks
// histograms that Bun does not implement. `promtool check metrics` checks the output in a test.
import { timingSafeEqual } from 'node:crypto'
import { Elysia } from 'elysia'
import { sql } from 'kysely'
import type { AppContext } from '../context'
import { clientIp, isTrustedProxy } from './client-address'
import { errorBody, json } from './errors'
import { requestLanguage } from './request'

/** seconds; a registration takes a few ms, a slow list export seconds */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const LOOP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]

interface Histogram {
  counts: number[]
  sum: number
  count: number
}

const newHistogram = (n: number): Histogram => ({ counts: new Array(n).fill(0), sum: 0, count: 0 })

function observe(h: Histogram, buckets: number[], v: number) {
  for (let i = 0; i < buckets.length; i++) if (v <= buckets[i]) h.counts[i]++
  h.sum += v
  h.count++
}

/** label values escaped as the text format wants them */
const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')

export class RequestMetrics {
  inFlight = 0
  refusedOverload = 0
  private readonly requests = new Map<string, number>()
  private readonly durations = new Map<string, Histogram>()
  private readonly loop = newHistogram(LOOP_BUCKETS.length)
  private loopMax = 0
  private loopTimer: ReturnType<typeof setInterval> | null = null

  /** route is Elysia's template (`/proxy/api/events/:id`), never the path: bounded label values */
  record(method: string, route: string, status: number, seconds: number) {
    const key = `${method}\u0000${route}`
    const ckey = `${key}\u0000${status}`
    this.requests.set(ckey, (this.requests.get(ckey) ?? 0) + 1)
    let h = this.durations.get(key)
    if (!h) this.durations.set(key, (h = newHistogram(BUCKETS.length)))
    observe(h, BUCKETS, seconds)
  }

  /** event-loop delay: how late a 100 ms timer fires */
  startLoopSampler() {
    if (this.loopTimer) return
    let expected = performance.now() + 100
    this.loopTimer = setInterval(() => {
      const now = performance.now()
      const late = Math.max(0, now - expected) / 1000
      expected = now + 100
      observe(this.loop, LOOP_BUCKETS, late)
      if (late > this.loopMax) this.loopMax = late
    }, 100)
    this.loopTimer.unref?.()
  }

  stop() {
    if (this.loopTimer) clearInterval(this.loopTimer)
    this.loopTimer = null
  }

  exposition(out: string[]) {
    out.push('# HELP einlass_http_requests_total HTTP requests answered, by route template and status.')
    out.push('# TYPE einlass_http_requests_total counter')
    for (const [k, n] of this.requests) {
      const [method, route, status] = k.split('\u0000')
      out.push(`einlass_http_requests_total{method="${esc(method)}",route="${esc(route)}",status="${status}"} ${n}`)
    }
    out.push('# HELP einlass_http_request_duration_seconds Time from the request to the answer, by route template.')
    out.push('# TYPE einlass_http_request_duration_seconds histogram')
    for (const [k, h] of this.durations) {
      const [method, route] = k.split('\u0000')
      const labels = `method="${esc(method)}",route="${esc(route)}"`
      histogramLines(out, 'einlass_http_request_duration_seconds', labels, BUCKETS, h)
    }
    gauge(out, 'einlass_http_requests_in_flight', 'Requests this process is working on now.', this.inFlight)
    out.push('# HELP einlass_http_requests_refused_overload_total Requests answered 503 at once because too many were in flight.')
    out.push('# TYPE einlass_http_requests_refused_overload_total counter')
    out.push(`einlass_http_requests_refused_overload_total ${this.refusedOverload}`)
    out.push('# HELP einlass_event_loop_delay_seconds How late a 100 ms timer fired (the event loop was busy).')
    out.push('# TYPE einlass_event_loop_delay_seconds histogram')
    histogramLines(out, 'einlass_event_loop_delay_seconds', '', LOOP_BUCKETS, this.loop)
    gauge(out, 'einlass_event_loop_delay_max_seconds', 'Largest event-loop delay since the last scrape.', this.loopMax)
    this.loopMax = 0
  }
}

function histogramLines(out: string[], name: string, labels: string, buckets: number[], h: Histogram) {
  const sep = labels ? ',' : ''
  for (let i = 0; i < buckets.length; i++) out.push(`${name}_bucket{${labels}${sep}le="${buckets[i]}"} ${h.counts[i]}`)
  out.push(`${name}_bucket{${labels}${sep}le="+Inf"} ${h.count}`)
  out.push(`${name}_sum${labels ? `{${labels}}` : ''} ${h.sum}`)
  out.push(`${name}_count${labels ? `{${labels}}` : ''} ${h.count}`)
}

function gauge(out: string[], name: string, help: string, value: number, labelled?: Array<[string, number]>) {
  out.push(`# HELP ${name} ${help}`)
  out.push(`# TYPE ${name} gauge`)
  if (labelled) for (const [labels, v] of labelled) out.push(`${name}{${labels}} ${v}`)
  else out.push(`${name} ${value}`)
}

const n = (v: unknown) => Number(v ?? 0)
/** booleans are written as JS booleans on both dialects (server/db/types.ts) */
const NO = false as unknown as 0
const ageSeconds = (now: Date, iso: unknown) => (iso ? Math.max(0, (now.getTime() - new Date(iso as string).getTime()) / 1000) : 0)

/** the database's figures, read at scrape time (a handful of indexed counts) */
async function databaseLines(ctx: AppContext, out: string[]) {
  const now = ctx.clock.now()
  const nowIso = now.toISOString()
  const outbox = await ctx.db
    .selectFrom('mail_outbox')
    .select([sql<number>`count(*)`.as('n'), sql<string | null>`min(created_at)`.as('oldest')])
    .where('status', '=', 'PENDING')
    .executeTakeFirst()
  gauge(out, 'einlass_mail_outbox_pending', 'Mails waiting in the outbox.', n(outbox?.n))
  gauge(out, 'einlass_mail_outbox_oldest_age_seconds', 'Age of the oldest mail waiting in the outbox (0 when none).', ageSeconds(now, outbox?.oldest))
  const failed = await ctx.db.selectFrom('mail_outbox').select(sql<number>`count(*)`.as('n')).where('status', '=', 'FAILED').executeTakeFirst()
  gauge(out, 'einlass_mail_outbox_failed', 'Mails given up on (the notifications list shows them as failed).', n(failed?.n))

  const tasks = await ctx.db.selectFrom('task').select(['status', sql<number>`count(*)`.as('n')]).where('status', 'in', ['WAIT', 'RUNNING']).groupBy('status').execute()
  const byStatus = new Map(tasks.map((t) => [t.status, n(t.n)]))
  gauge(out, 'einlass_tasks', 'Background tasks waiting or running.', 0, [
    ['state="waiting"', byStatus.get('WAIT') ?? 0],
    ['state="running"', byStatus.get('RUNNING') ?? 0],
  ])
  const due = await ctx.db.selectFrom('task').select(sql<string | null>`min(run_after)`.as('oldest')).where('status', '=', 'WAIT').where('run_after', '<=', nowIso).executeTakeFirst()
  gauge(out, 'einlass_task_lag_seconds', 'How long the oldest due task has waited for a runner (0 when none).', ageSeconds(now, due?.oldest))

  const slots = await ctx.db.selectFrom('timeslot_reservation').select(sql<number>`coalesce(sum(amount), 0)`.as('n')).where('fixed', '=', NO).where('expires_at', '>', nowIso).executeTakeFirst()
  const chairs = await ctx.db.selectFrom('chair_reservation').select(sql<number>`coalesce(sum(amount), 0)`.as('n')).where('fixed', '=', NO).where('expires_at', '>', nowIso).executeTakeFirst()
  gauge(out, 'einlass_holds', 'Places held by guests who have not finished yet.', 0, [
    ['kind="timeslot"', n(slots?.n)],
    ['kind="chair"', n(chairs?.n)],
  ])
  const orders = await ctx.db.selectFrom('ticket_order').select(['status', sql<number>`count(*)`.as('n')]).groupBy('status').execute()
  gauge(
    out,
    'einlass_ticket_orders',
    'Ticket orders by state.',
    0,
    orders.map((o) => [`status="${esc(String(o.status))}"`, n(o.n)]),
  )
}

function processLines(ctx: AppContext, out: string[]) {
  const mem = process.memoryUsage()
  gauge(out, 'process_resident_memory_bytes', 'Resident memory of this process.', mem.rss)
  gauge(out, 'einlass_heap_used_bytes', 'JavaScript heap in use.', mem.heapUsed)
  gauge(out, 'process_start_time_seconds', 'When this process started (Unix time).', Math.round(Date.now() / 1000 - process.uptime()))
  const pool = ctx.poolStats?.()
  if (pool) {
    gauge(out, 'einlass_db_pool_connections', 'Database connections of this process.', 0, [
      ['state="max"', pool.size],
      ['state="open"', pool.open],
      ['state="in_use"', pool.inUse],
    ])
    gauge(out, 'einlass_db_pool_waiting', 'Callers waiting for a database connection.', pool.waiting)
  }
}

/** who may read /metrics: the token (constant-time) and/or the address list */
export function metricsAccess(ctx: AppContext, request: Request, server: unknown): 'ok' | 'off' | 'unauthorized' | 'forbidden' {
  const { token, allow } = ctx.config.metrics
  if (!token && !allow.length) return 'off'
  if (allow.length) {
    const ip = clientIp(request, server as Parameters<typeof clientIp>[1], ctx.config.server.trusted_proxies)
    if (!isTrustedProxy(ip, allow)) return 'forbidden'
  }
  if (token) {
    const given = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''
    const a = Buffer.from(given)
    const b = Buffer.from(token)
    if (a.length !== b.length || !timingSafeEqual(a, b)) return 'unauthorized'
  }
  return 'ok'
}

export function metricsRoutes(ctx: AppContext, metrics: RequestMetrics) {
  return new Elysia({ name: 'metrics' }).get(
    '/metrics',
    async ({ request, server }) => {
      const access = metricsAccess(ctx, request, server)
      const lang = requestLanguage(request, ctx.license.features)
      if (access === 'off') return json(errorBody(404, 'ROUTE_NOT_FOUND', lang), 404)
      if (access === 'forbidden') return json(errorBody(403, 'FORBIDDEN', lang), 403)
      if (access === 'unauthorized') return json(errorBody(401, 'NOT_AUTHENTICATED', lang), 401, { 'www-authenticate': 'Bearer' })
      const out: string[] = []
      metrics.exposition(out)
      processLines(ctx, out)
      try {
        await databaseLines(ctx, out)
        gauge(out, 'einlass_database_up', 'Whether the last scrape could read the database.', 1)
      } catch {
        gauge(out, 'einlass_database_up', 'Whether the last scrape could read the database.', 0)
      }
      return new Response(out.join('\n') + '\n', { headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' } })
    },
    { detail: { hide: true } },
  )
}
