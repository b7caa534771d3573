// Hostile: cross-site request forgery. A state-changing request (every non-GET, and the spec's GET
// revokeDeletion) must come from this site: Origin the base URL's origin (never "null"), Host the
// base URL's host, no cross-site Fetch Metadata. Clients that are no browsers send neither header.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../testing/harness'
import { createAgency, createUser, loginAs } from '../modules/identity/test-helpers'
import { hostAllowed, originAllowed } from '../http/security'

const BASE = 'http://localhost'

forEachDialect('security: CSRF', (h) => {
  /** a logged-in organiser and a harmless state change of theirs (hiding an introduction box) */
  async function victim() {
    const admin = await h().admin()
    const change = (headers: Record<string, string>) => admin.request('POST', '/proxy/api/introduction', { body: ['csrf-probe'], headers })
    const hidden = async () => ((await admin.get('/proxy/api/introduction')).body as string[]).includes('csrf-probe')
    return { admin, change, hidden }
  }

  test('refused with 403 CROSS_ORIGIN (German), nothing changes: Origin null, foreign Origin, other scheme, cross-site without Origin, foreign Host', async () => {
    const { change, hidden } = await victim()
    const attacks: Array<Record<string, string>> = [
      { origin: 'null' },
      { origin: 'null', 'sec-fetch-site': 'same-origin' },
      { origin: 'https://evil.example' },
      { origin: 'http://localhost.evil.example' },
      { origin: 'https://localhost' },
      { origin: 'not a url' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      // DNS rebinding: the attacker's name resolves to the server; Origin and Host agree, both foreign
      { host: 'evil.example', origin: 'http://evil.example' },
      { host: 'evil.example' },
      { host: 'localhost.evil.example', origin: 'http://localhost' },
    ]
    for (const headers of attacks) {
      const r = await change(headers)
      expect([JSON.stringify(headers), r.status, r.body.errorType]).toEqual([JSON.stringify(headers), 403, 'CROSS_ORIGIN'])
      expect(r.body.errorMessage).toBeTruthy()
      expect(r.headers.get('cache-control')).toBe('no-store')
    }
    expect(await hidden()).toBe(false)
  })

  test('allowed: the site itself (Origin, same-origin fetch, a typed address), a loopback Host for a localhost base URL, and clients that are no browsers', async () => {
    const { change } = await victim()
    for (const headers of [{ origin: BASE }, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, {}, { host: '127.0.0.1', origin: 'http://127.0.0.1' }, { host: 'LOCALHOST' }] as Array<Record<string, string>>) {
      const r = await change(headers)
      expect([JSON.stringify(headers), r.status]).toEqual([JSON.stringify(headers), 200])
    }
  })

  test('GET revokeDeletion changes state: a cross-site GET (img tag, link) is refused, the same origin passes', async () => {
    const a = await createAgency(h())
    const u = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_EDITOR' }] })
    const agent = await loginAs(h(), u)
    expect((await agent.delete(`/proxy/api/user/${u.userId}`, {})).status).toBe(200)
    const inProgress = async () => (await h().ctx.db.selectFrom('app_user').select('deletion_in_progress').where('id', '=', u.userId).executeTakeFirstOrThrow()).deletion_in_progress
    expect(await inProgress()).toBeTruthy()
    for (const path of ['/proxy/api/user/revokeDeletion', `/proxy/api/user/accounts/${u.accounts[0].id}/revokeDeletion`, '/api/user/revokeDeletion']) {
      for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': 'none' }, { origin: 'https://evil.example' }, { origin: 'null' }, { host: 'evil.example' }] as Array<Record<string, string>>) {
        const r = await agent.get(path, { headers })
        expect([path, JSON.stringify(headers), r.status, r.body.errorType]).toEqual([path, JSON.stringify(headers), 403, 'CROSS_ORIGIN'])
      }
    }
    expect(await inProgress()).toBeTruthy()
    const ok = await agent.get('/proxy/api/user/revokeDeletion', { headers: { 'sec-fetch-site': 'same-origin' } })
    expect(ok.status).toBe(200)
    expect(await inProgress()).toBeFalsy()
  })
})

test('the origin rules as a function: X-Forwarded-Host only from a trusted proxy; a configured base URL admits no loopback twin', () => {
  const post = (headers: Record<string, string>) => new Request('http://10.0.0.5:3000/proxy/api/events', { method: 'POST', headers })
  const base = 'https://tickets.example.org'
  expect(originAllowed(post({ host: '10.0.0.5:3000', 'x-forwarded-host': 'tickets.example.org', origin: base }), base, { viaTrustedProxy: true })).toBe(true)
  expect(originAllowed(post({ host: '10.0.0.5:3000', 'x-forwarded-host': 'tickets.example.org', origin: base }), base, { viaTrustedProxy: false })).toBe(false)
  expect(originAllowed(post({ host: 'tickets.example.org', 'x-forwarded-host': 'evil.example', origin: base }), base, { viaTrustedProxy: true })).toBe(false)
  expect(originAllowed(post({ host: 'tickets.example.org', origin: base }), base)).toBe(true)
  expect(originAllowed(post({ host: 'tickets.example.org', origin: 'http://tickets.example.org' }), base)).toBe(false)
  expect(hostAllowed('127.0.0.1', base)).toBe(false)
  expect(hostAllowed('127.0.0.1:3000', 'http://localhost:3000')).toBe(true)
  expect(hostAllowed('127.0.0.1:3001', 'http://localhost:3000')).toBe(false)
  expect(hostAllowed('[::1]:3000', 'http://localhost:3000')).toBe(true)
  // GETs other than the listed ones are never checked
  expect(originAllowed(new Request('http://evil.example/proxy/api/events', { headers: { origin: 'null' } }), base)).toBe(true)
})

test('a refused foreign host is named in the log once, with what to set (an install reached by its IP address)', async () => {
  const { Elysia } = await import('elysia')
  const { createLogger } = await import('../logger')
  const { security } = await import('../http/security')
  const lines: string[] = []
  const app = new Elysia()
    .use(security({ baseUrl: 'http://localhost:3000', https: false, log: createLogger('warn', (l) => lines.push(l)), features: () => [], bodyLimitBytes: 1 << 20 }))
    .post('/proxy/api/probe', () => 'ok')
  const post = (host: string) => app.handle(new Request(`http://${host}/proxy/api/probe`, { method: 'POST', headers: { host, origin: `http://${host}` } }))
  for (let i = 0; i < 3; i++) expect((await post('192.168.1.20:3000')).status).toBe(403)
  expect((await post('localhost:3000')).status).toBe(200)
  const warned = lines.map((l) => JSON.parse(l)).filter((r) => r.level === 'warn')
  expect(warned).toHaveLength(1)
  expect(warned[0]).toMatchObject({ host: '192.168.1.20:3000', baseUrl: 'http://localhost:3000' })
  expect(warned[0].msg).toContain('EINLASS_BASE_URL')
})
