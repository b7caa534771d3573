// HTTP conventions every later module relies on: error shape, validation, OpenAPI completeness,
// health and readiness, request logs, security headers, cookies, origin check, body limit.
import { generateSecrets } from '../secrets'
import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../app'
import { bootstrap } from '../bootstrap'
import { loadConfig } from '../config/config'
import { createLogger, silentLogger } from '../logger'
import { COMMUNITY } from '../modules/license/license'
import { createHarness, eventBody, forEachDialect, TEST_PASSWORD } from '../testing/harness'
import { securityHeaders } from './security'
import { diskAssets, embeddedAssets, publicEventOfPath } from './ui-assets'

forEachDialect('HTTP conventions', (h) => {
  test('an unknown /proxy/api path answers JSON 404 in the error shape, for every method and the /api alias', async () => {
    for (const [method, path] of [['GET', '/proxy/api/nothing/here'], ['POST', '/proxy/api/nothing'], ['DELETE', '/api/nothing/1'], ['GET', '/proxy/whatever']] as const) {
      const r = await h().request(method, path, method === 'POST' ? { body: {} } : {})
      expect(r.status).toBe(404)
      expect(r.headers.get('content-type')).toStartWith('application/json')
      expect(r.body).toEqual({ status: 404, errorType: 'ROUTE_NOT_FOUND', errorMessage: 'Diese Schnittstelle gibt es nicht.', errorTranslation: 'Diese Schnittstelle gibt es nicht.' })
    }
  })

  test('errorTranslation follows the caller’s language, errorMessage stays German', async () => {
    const r = await h().request('GET', '/proxy/api/nope', { headers: { 'accept-language': 'en-GB,en;q=0.9' } })
    expect(r.body.errorMessage).toBe('Diese Schnittstelle gibt es nicht.')
    expect(r.body.errorTranslation).toBe('There is no such endpoint.')
  })

  test('UI routes get the SPA; a missing asset gets a JSON 404', async () => {
    const r = await h().request('GET', '/assets/nope-123.js')
    expect(r.status).toBe(404)
    expect(r.body.errorType).toBe('NOT_FOUND')
  })

  test('request validation becomes FIELD_ERROR with the offending fields', async () => {
    const r = await h().request('POST', '/proxy/api/setup', { body: { agencyName: '', email: 'kein-mail', password: 'x' } })
    expect(r.status).toBe(400)
    expect(r.body.errorType).toBe('FIELD_ERROR')
    expect(r.body.errorMessage).toBe('Die Daten konnten nicht gespeichert werden. Bitte füllen Sie alle Pflichtfelder aus.')
    expect(r.body.errorFields).toEqual(
      expect.arrayContaining([
        { field: 'agencyName', errorType: 'REQUIRED' },
        { field: 'email', errorType: 'INVALID_EMAIL' },
        { field: 'firstName', errorType: 'REQUIRED' },
      ]),
    )
    const params = await (await h().admin()).get('/proxy/api/events/abc')
    expect(params.status).toBe(400)
    expect(params.body).toMatchObject({ errorType: 'FIELD_ERROR', errorFields: [{ field: 'id', errorType: 'INVALID' }] })
  })

  test('a body that is not JSON gets INVALID_JSON', async () => {
    const broken = await h().app.handle(new Request('http://localhost/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email": ' }))
    expect(broken.status).toBe(400)
    expect((await broken.json()).errorType).toBe('INVALID_JSON')
  })

  test('the OpenAPI document lists every route of the app with a summary', async () => {
    const r = await h().request('GET', '/proxy/api/openapi.json')
    expect(r.status).toBe(200)
    const doc = r.body
    expect(doc.openapi).toStartWith('3.')
    const routes: Array<{ method: string; path: string; hooks?: { detail?: { hide?: boolean; summary?: string } } }> = (h().app.app as any).routes
    const missing: string[] = []
    let documented = 0
    for (const route of routes) {
      if (route.hooks?.detail?.hide) continue
      const path = route.path.replace(/:(\w+)/g, '{$1}')
      const op = doc.paths?.[path]?.[route.method.toLowerCase()]
      if (!op) missing.push(`${route.method} ${route.path}: not in the document`)
      else if (!op.summary?.trim()) missing.push(`${route.method} ${route.path}: no summary`)
      else documented++
    }
    expect(missing).toEqual([])
    expect(documented).toBeGreaterThan(15)
    // request schemas are in it too
    expect(doc.paths['/proxy/api/setup'].post.requestBody).toBeDefined()
  })

  test('/health is alive; /ready checks database and migrations', async () => {
    const health = await h().request('GET', '/health')
    expect(health.status).toBe(200)
    expect(health.body).toEqual({ status: 'ok' })
    const ready = await h().request('GET', '/ready')
    expect(ready.status).toBe(200)
    expect(ready.body).toEqual({ status: 'ready', database: true, migrations: true, shuttingDown: false })
  })

  test('/ready answers 503 while shutting down', async () => {
    h().app.state.shuttingDown = true
    try {
      const r = await h().request('GET', '/ready')
      expect(r.status).toBe(503)
      expect(r.body).toMatchObject({ status: 'not ready', shuttingDown: true })
      expect((await h().request('GET', '/health')).status).toBe(200)
    } finally {
      h().app.state.shuttingDown = false
    }
  })

  test('security headers and the CSP on API answers and UI pages; the embed frame may be framed', async () => {
    for (const path of ['/health', '/proxy/api/nope', '/events']) {
      const r = await h().request('GET', path)
      expect(r.headers.get('content-security-policy')).toContain("default-src 'self'")
      expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'self'")
      expect(r.headers.get('content-security-policy')).toContain("script-src 'self'")
      expect(r.headers.get('content-security-policy')).not.toContain("script-src 'self' 'unsafe-inline'")
      expect(r.headers.get('x-content-type-options')).toBe('nosniff')
      expect(r.headers.get('x-frame-options')).toBe('SAMEORIGIN')
      expect(r.headers.get('referrer-policy')).toBe('same-origin')
      expect(r.headers.get('strict-transport-security')).toBeNull()
    }
    const frame = await h().request('GET', '/public/event/12/frame')
    expect(frame.headers.get('content-security-policy')).toContain('frame-ancestors *')
    expect(frame.headers.get('x-frame-options')).toBeNull()
    expect(securityHeaders('/events', true)['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
  })

  test('the session cookie is HttpOnly and SameSite, not Secure over plain HTTP', async () => {
    const admin = await h().admin()
    const r = await h().request('POST', '/auth/login', { body: { email: admin.email, password: TEST_PASSWORD } })
    expect(r.status).toBe(200)
    const cookie = r.headers.getSetCookie()[0]
    expect(cookie).toContain('; HttpOnly')
    expect(cookie).toContain('; SameSite=Lax')
    expect(cookie).not.toContain('Secure')
  })

  test('origin check: cross-site state changes are refused, same-origin and non-browser ones pass', async () => {
    const body = { email: 'x@example.org', password: 'wrong-Password1!' }
    const evil = await h().request('POST', '/auth/login', { body, headers: { origin: 'https://evil.example' } })
    expect(evil.status).toBe(403)
    expect(evil.body).toMatchObject({ status: 403, errorType: 'CROSS_ORIGIN', errorMessage: 'Anfragen von fremden Seiten werden nicht angenommen.' })
    const fetchMeta = await h().request('DELETE', '/proxy/api/events/1', { headers: { 'sec-fetch-site': 'cross-site' } })
    expect(fetchMeta.status).toBe(403)
    // same origin (by Host or by the base URL), and clients that send no Origin, reach the handler
    for (const headers of [{ origin: 'http://localhost' }, { origin: 'http://localhost', host: 'localhost' }, { 'sec-fetch-site': 'same-origin' }, {}] as Record<string, string>[]) {
      const r = await h().request('POST', '/auth/login', { body, headers })
      expect(r.status).toBe(401)
      expect(r.body.errorType).toBe('INVALID_CREDENTIALS')
    }
    // reading is never refused
    expect((await h().request('GET', '/health', { headers: { origin: 'https://evil.example' } })).status).toBe(200)
  })

  test('bodies over the limit get 413 in the error shape, with or without Content-Length', async () => {
    const limit = h().ctx.config.server.body_limit_mb * 1024 * 1024
    const big = 'x'.repeat(limit + 10)
    const r = await h().app.handle(new Request('http://localhost/auth/login', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(big.length) }, body: big }))
    expect(r.status).toBe(413)
    expect(await r.json()).toEqual({ status: 413, errorType: 'PAYLOAD_TOO_LARGE', errorMessage: 'Die Anfrage ist zu groß.', errorTranslation: 'Die Anfrage ist zu groß.' })
    const chunks = new ReadableStream({
      start(c) {
        const part = new TextEncoder().encode('y'.repeat(1024 * 1024))
        for (let i = 0; i <= limit / part.length; i++) c.enqueue(part)
        c.close()
      },
    })
    const chunked = await h().app.handle(new Request('http://localhost/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: chunks, duplex: 'half' } as RequestInit))
    expect(chunked.status).toBe(413)
    expect((await chunked.json()).errorType).toBe('PAYLOAD_TOO_LARGE')
  })
}, { env: { EINLASS_BODY_LIMIT_MB: '2' } })

describe('request logs', () => {
  test('one JSON line per request with the request id, echoed in x-request-id', async () => {
    const lines: string[] = []
    const h = await createHarness('sqlite', { log: createLogger('info', (l) => lines.push(l)) })
    try {
      const r = await h.request('GET', '/proxy/api/nope', { headers: { 'x-request-id': 'abc-123' } })
      expect(r.headers.get('x-request-id')).toBe('abc-123')
      // an id a proxy sent is kept only when it is short and plain
      const odd = await h.request('GET', '/health', { headers: { 'x-request-id': 'x'.repeat(300) } })
      expect(odd.headers.get('x-request-id')).toMatch(/^[a-z0-9]+-[a-z0-9]+$/)
      const own = await h.request('GET', '/health')
      const id = own.headers.get('x-request-id')!
      expect(id).toMatch(/^[a-z0-9]+-[a-z0-9]+$/)
      await Bun.sleep(5)
      const records = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request')
      expect(records).toContainEqual({ time: expect.any(String), level: 'info', msg: 'request', reqId: 'abc-123', method: 'GET', path: '/proxy/api/nope', status: 404, ms: expect.any(Number) })
      expect(records).toContainEqual(expect.objectContaining({ reqId: id, path: '/health', status: 200 }))
    } finally {
      await h.close()
    }
  })

  test('at warn level no request lines are written (the hot path stays quiet)', async () => {
    const lines: string[] = []
    const h = await createHarness('sqlite', { log: createLogger('warn', (l) => lines.push(l)) })
    try {
      await h.request('GET', '/health')
      await h.request('GET', '/proxy/api/nope')
      await Bun.sleep(5)
      expect(lines).toEqual([])
    } finally {
      await h.close()
    }
  })

  test('an unexpected error logs its stack with the request id and answers INTERNAL_ERROR', async () => {
    const lines: string[] = []
    const h = await createHarness('sqlite', { log: createLogger('info', (l) => lines.push(l)) })
    try {
      const admin = await h.admin()
      const event = await admin.post('/proxy/api/events', eventBody())
      // break the database underneath the app: the next query fails in an unplanned way
      await h.ctx.db.schema.alterTable('event_visitor').renameTo('event_visitor_gone').execute()
      const r = await admin.get(`/proxy/api/events/${event.body.id}/visitors`, { headers: { 'x-request-id': 'boom-1' } })
      expect(r.status).toBe(500)
      expect(r.body).toMatchObject({ status: 500, errorType: 'INTERNAL_ERROR', errorMessage: 'Entschuldigung, hier ist etwas schief gelaufen.' })
      const err = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error')
      expect(err).toMatchObject({ level: 'error', reqId: 'boom-1', method: 'GET', path: `/proxy/api/events/${event.body.id}/visitors` })
      expect(err.error).toContain('event_visitor')
    } finally {
      await h.close()
    }
  })
})

describe('/ready without a database', () => {
  test('answers 503 when the database is unreachable', async () => {
    const config = loadConfig({ env: { EINLASS_DATA_DIR: '/tmp/einlass-unreachable', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, cwd: '/tmp' })
    // secrets given: on Postgres they are read from the database, which is not there
    const boot = await bootstrap(config, { log: silentLogger, migrate: false, license: COMMUNITY, secrets: generateSecrets() })
    const { handle } = createApp(boot.ctx)
    try {
      const r = await handle(new Request('http://localhost/ready'))
      expect(r.status).toBe(503)
      expect(await r.json()).toEqual({ status: 'not ready', database: false, migrations: false, shuttingDown: false })
      expect((await handle(new Request('http://localhost/health'))).status).toBe(200)
    } finally {
      await boot.handle.close()
    }
  })
})

test('pathOf gives what URL gives for the request paths the security layer sees', async () => {
  const { pathOf } = await import('./security')
  for (const u of [
    'http://127.0.0.1:3000/proxy/api/public/events/1/registrations',
    'http://h/',
    'http://h',
    'http://h/public/event/abc/frame?x=1#y',
    'http://h/public/event/abc/frame#y?z',
    'https://user:pw@h:8443/a/b/../c?q=/x',
    'http://h/public/event/..%2Fx/frame',
    'http://h/a/./b',
    'http://h/ä ö',
  ]) {
    expect(pathOf(u)).toBe(new URL(u).pathname)
  }
})

describe('UI pages', () => {
  test('/public/… routes get the page that preloads the public chunks, every other route the plain one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'einlass-ui-pages-'))
    try {
      writeFileSync(join(dir, 'index.html'), 'plain')
      writeFileSync(join(dir, 'index-public.html'), 'public')
      const assets = diskAssets(dir)
      expect(await assets.indexHtml('/public/event/7')!.text()).toBe('public')
      expect(await assets.indexHtml('/public/event/7/frame')!.text()).toBe('public')
      expect(await assets.indexHtml('/events')!.text()).toBe('plain')
      expect(await assets.indexHtml('/publicity')!.text()).toBe('plain')
      expect(await embeddedAssets({ '/index.html': join(dir, 'index.html'), '/index-public.html': join(dir, 'index-public.html') }).indexHtml('/public/event/7')!.text()).toBe('public')
      // an event page whose event has a seating plan (the server asks the seating module): the plan-first copy, when built
      expect(await assets.indexHtml('/public/event/7', true)!.text()).toBe('public')
      writeFileSync(join(dir, 'index-public-seating.html'), 'seating')
      expect(await diskAssets(dir).indexHtml('/public/event/7', true)!.text()).toBe('seating')
      expect(await diskAssets(dir).indexHtml('/public/event/7', false)!.text()).toBe('public')
      expect(await diskAssets(dir).indexHtml('/events', true)!.text()).toBe('plain')
      expect(await embeddedAssets({ '/index.html': join(dir, 'index.html'), '/index-public.html': join(dir, 'index-public.html'), '/index-public-seating.html': join(dir, 'index-public-seating.html') }).indexHtml('/public/event/7', true)!.text()).toBe('seating')
      rmSync(join(dir, 'index-public-seating.html'))
      // a build without the public copy still answers every route
      rmSync(join(dir, 'index-public.html'))
      expect(await diskAssets(dir).indexHtml('/public/event/7')!.text()).toBe('plain')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('the event of a public event page: digits only, bounded, not the frame', () => {
    expect(publicEventOfPath('/public/event/7')).toBe(7)
    expect(publicEventOfPath('/public/event/7/')).toBe(7)
    for (const p of ['/public/event/7/frame', '/public/event/', '/public/event/7x', '/public/event/-7', '/public/event/1e3', '/public/event/1234567890123456', '/events/7', '/public/event/7/../8'])
      expect(publicEventOfPath(p)).toBeNull()
  })
})
