// Hostile: redirect targets. `/logout?redirect=`, `/auth/select/{id}?redirect=` and the login page's
// `?redirect=` go through one function (server/shared/redirect.ts, also bundled into the UI): the
// target stays on the site whatever it contains, and a bad one never becomes a 500.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../testing/harness'
import { safeRedirect } from '../shared/redirect'

const ATTACKS = [
  'https://evil.example',
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '/%09/evil.example',
  '/%2F/evil.example',
  '/%2f%2fevil.example',
  '/%5Cevil.example',
  '/%5cevil.example',
  '/.//evil.example',
  '/./\\evil.example',
  '/../../evil.example/..//evil.example',
  'javascript:alert(1)',
  '/%0d%0aSet-Cookie:%20x=1',
  '/ok\r\nSet-Cookie: x=1',
  ' /\\evil.example',
  'evil.example',
  '/%E0%A4%A',
  `/${'a'.repeat(5000)}`,
]

/** Where a browser would go from a Location header on http://localhost. */
const landing = (location: string) => new URL(location, 'http://localhost')

test('safeRedirect: every trick lands on the site; plain paths pass unchanged', () => {
  for (const a of ATTACKS) {
    const to = safeRedirect(a, '/login')
    expect([a, landing(to).origin]).toEqual([a, 'http://localhost'])
    expect([a, to.startsWith('/') && !to.startsWith('//') && !/[\\\u0000-\u001f]/.test(to)]).toEqual([a, true])
  }
  for (const ok of ['/events', '/events?account=3', '/guest/dashboard#top', '/public/event/5?sl=abc%20d']) expect(safeRedirect(ok)).toBe(ok)
  expect(safeRedirect(undefined, '/x')).toBe('/x')
  expect(safeRedirect(42, '/x')).toBe('/x')
})

test('the UI follows ?redirect= through the same function', async () => {
  const src = await Bun.file(new URL('../../ui/apps/auth/index.tsx', import.meta.url)).text()
  expect(src).toContain("from '../../../server/shared/redirect'")
  expect(src).toMatch(/safeRedirect\(to/)
})

forEachDialect('security: redirects', (h) => {
  test('/logout?redirect= and /auth/select/{id}?redirect= answer 302 to this site for every trick (never 500)', async () => {
    const admin = await h().admin()
    for (const a of ATTACKS) {
      const q = encodeURIComponent(a)
      const out = await h().request('GET', `/logout?redirect=${q}`)
      expect([a, out.status]).toEqual([a, 302])
      expect([a, landing(out.headers.get('location')!).origin]).toEqual([a, 'http://localhost'])
      const sel = await admin.get(`/auth/select/${admin.accountId}?redirect=${q}`)
      expect([a, sel.status]).toEqual([a, 302])
      expect([a, landing(sel.headers.get('location')!).origin]).toEqual([a, 'http://localhost'])
    }
    expect((await h().request('GET', '/logout?redirect=%2Fevents%3Fx%3D1')).headers.get('location')).toBe('/events?x=1')
  })
})
