// GET /metrics (issue 22 "Seeing inside") and the in-flight bound (issue 22 "Overload").
import { describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eventBody, forEachDialect } from '../testing/harness'

const TOKEN = 'metrics-token-0123456789'
const promtool = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => existsSync(p))

/** `promtool check metrics` reads the exposition on stdin; exit 0 and no lint warnings */
function promtoolCheck(text: string): string {
  const r = spawnSync(promtool!, ['check', 'metrics'], { input: text, encoding: 'utf8' })
  return `${r.status} ${r.stdout}${r.stderr}`.trim()
}

forEachDialect(
  '/metrics with a token',
  (h) => {
    test('without the token or with a wrong one: 401 in the error shape; with it the Prometheus text format', async () => {
      const none = await h().request('GET', '/metrics')
      expect(none.status).toBe(401)
      expect(none.body).toMatchObject({ status: 401, errorType: 'NOT_AUTHENTICATED' })
      expect(none.headers.get('www-authenticate')).toBe('Bearer')
      const wrong = await h().request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } })
      expect(wrong.status).toBe(401)
      const ok = await h().request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
      expect(ok.status).toBe(200)
      expect(ok.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
      expect(ok.text).toContain('einlass_database_up 1')
    })

    test('requests by route template (never the raw path), latency, in flight, outbox, tasks, holds, orders, memory, pool; promtool passes', async () => {
      const admin = await h().admin()
      const ids: number[] = []
      for (let i = 0; i < 3; i++) ids.push((await admin.post('/proxy/api/events', eventBody())).body.id)
      for (const id of ids) expect((await admin.get(`/proxy/api/events/${id}`)).status).toBe(200)
      expect((await admin.get('/proxy/api/events/999999')).status).toBe(404)
      await admin.post('/proxy/api/nothing/here', {})
      const text = (await h().request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text
      const line = (prefix: string) => text.split('\n').find((l) => l.startsWith(prefix))
      expect(line('einlass_http_requests_total{method="GET",route="/proxy/api/events/:id",status="200"}')).toEndWith(' 3')
      expect(line('einlass_http_requests_total{method="GET",route="/proxy/api/events/:id",status="404"}')).toEndWith(' 1')
      // no label per id: the cardinality stays bounded whatever clients ask for
      for (const id of ids) expect(text).not.toContain(`/proxy/api/events/${id}"`)
      expect(text).not.toContain('/proxy/api/nothing/here')
      expect(line('einlass_http_request_duration_seconds_count{method="GET",route="/proxy/api/events/:id"}')).toEndWith(' 4')
      expect(text).toMatch(/^einlass_http_requests_in_flight 1$/m) // the scrape itself
      for (const name of [
        'einlass_mail_outbox_pending ',
        'einlass_mail_outbox_oldest_age_seconds ',
        'einlass_tasks{state="waiting"} ',
        'einlass_tasks{state="running"} ',
        'einlass_task_lag_seconds ',
        'einlass_holds{kind="timeslot"} ',
        'einlass_holds{kind="chair"} ',
        'process_resident_memory_bytes ',
        'einlass_db_pool_connections{state="in_use"} ',
        'einlass_db_pool_waiting ',
        'einlass_event_loop_delay_seconds_count ',
      ])
        expect(line(name)).toBeDefined()
      // creating an admin queued mail (the welcome/confirmation) unless delivered: the depth is a number
      expect(Number(line('einlass_mail_outbox_pending ')!.split(' ')[1])).toBeGreaterThanOrEqual(0)
      if (promtool) expect(promtoolCheck(text)).toBe('0')
      else if (process.env.CI === 'true') throw new Error('promtool missing (scripts/ensure-test-tools.sh installs prometheus)')
    })

    test('mail waiting in the outbox shows with its age', async () => {
      const admin = await h().admin()
      const eventId = (await admin.post('/proxy/api/events', eventBody())).body.id
      expect(eventId).toBeGreaterThan(0)
      await h().ctx.db
        .insertInto('mail_outbox')
        .values({ kind: 'TEST', to_address: 'x@example.org', to_name: null, subject: 's', html: '', text: 't', template: null, params: null, attachments: '[]', agency_id: null, event_id: null, visitor_id: null, user_id: null, created_at: new Date(h().clock.now().getTime() - 120_000).toISOString(), next_attempt_at: new Date(h().clock.now().getTime() + 3600_000).toISOString() } as never)
        .execute()
      const text = (await h().request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text
      const age = Number(/^einlass_mail_outbox_oldest_age_seconds (\S+)$/m.exec(text)![1])
      expect(age).toBeGreaterThanOrEqual(120)
      expect(Number(/^einlass_mail_outbox_pending (\S+)$/m.exec(text)![1])).toBeGreaterThanOrEqual(1)
    })
  },
  { env: { EINLASS_METRICS_TOKEN: TOKEN } },
)

forEachDialect(
  '/metrics with an address allow-list',
  (h) => {
    test('a listed address reads it, another gets 403', async () => {
      // in-process requests have no connection: the forwarded address is the client's (client-address.ts)
      const inside = await h().request('GET', '/metrics', { headers: { 'x-forwarded-for': '10.1.2.3' } })
      expect(inside.status).toBe(200)
      expect(inside.text).toContain('# TYPE einlass_http_requests_total counter')
      const outside = await h().request('GET', '/metrics', { headers: { 'x-forwarded-for': '192.0.2.7' } })
      expect(outside.status).toBe(403)
      expect(outside.body).toMatchObject({ status: 403, errorType: 'FORBIDDEN' })
    })
  },
  { env: { EINLASS_METRICS_ALLOW: '10.0.0.0/8,127.0.0.1' } },
)

describe('off unless configured', () => {
  forEachDialect('/metrics not configured', (h) => {
    test('answers 404 like any unknown path, and records nothing', async () => {
      const r = await h().request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
      expect(r.status).toBe(404)
      expect(r.body.errorType).toBe('ROUTE_NOT_FOUND')
    })
  })
})

forEachDialect(
  'in-flight bound',
  (h) => {
    test('at the bound a request gets 503 SERVER_BUSY with Retry-After at once; /health, /ready and /metrics still answer', async () => {
      const m = h().app.state.metrics
      m.inFlight += 3 // three requests being worked on
      try {
        const busy = await h().request('GET', '/proxy/api/public/translations/languages')
        expect(busy.status).toBe(503)
        expect(busy.headers.get('retry-after')).toBe('1')
        expect(busy.body).toEqual({ status: 503, errorType: 'SERVER_BUSY', errorMessage: 'Der Server ist gerade ausgelastet. Bitte versuchen Sie es in einem Moment erneut.', errorTranslation: 'Der Server ist gerade ausgelastet. Bitte versuchen Sie es in einem Moment erneut.' })
        expect((await h().request('GET', '/health')).status).toBe(200)
        expect((await h().request('GET', '/ready')).status).toBe(200)
        const metrics = await h().request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
        expect(metrics.status).toBe(200)
        expect(metrics.text).toMatch(/^einlass_http_requests_refused_overload_total 1$/m)
      } finally {
        m.inFlight -= 3
      }
      expect((await h().request('GET', '/proxy/api/public/translations/languages')).status).toBe(200)
    })

    test('a burst above the bound: some answered, the rest 503, never a 500, and the count returns to zero', async () => {
      const admin = await h().admin()
      const eventId = (await admin.post('/proxy/api/events', eventBody())).body.id
      const statuses = await Promise.all(Array.from({ length: 60 }, () => admin.get(`/proxy/api/events/${eventId}`).then((r) => r.status)))
      expect(statuses.every((s) => s === 200 || s === 503)).toBe(true)
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3)
      expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0)
      expect(h().app.state.metrics.inFlight).toBe(0)
    })
  },
  { env: { EINLASS_MAX_IN_FLIGHT: '3', EINLASS_METRICS_TOKEN: TOKEN } },
)

describe('the Prometheus files in config/prometheus', () => {
  test('promtool accepts the scrape config and the three alerts', () => {
    if (!promtool) {
      if (process.env.CI === 'true') throw new Error('promtool missing')
      return
    }
    const dir = mkdtempSync(join(tmpdir(), 'prom-'))
    try {
      for (const f of ['prometheus.yml', 'einlass-alerts.yml']) copyFileSync(join(import.meta.dir, '../../config/prometheus', f), join(dir, f))
      writeFileSync(join(dir, 'einlass-metrics-token'), TOKEN)
      const rules = spawnSync(promtool, ['check', 'rules', join(dir, 'einlass-alerts.yml')], { encoding: 'utf8' })
      expect(rules.status).toBe(0)
      expect(rules.stdout).toContain('3 rules found')
      const config = spawnSync(promtool, ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' })
      expect(config.status).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
