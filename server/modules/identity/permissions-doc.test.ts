// docs/permissions.md and ROLE_PERMISSIONS say the same thing, and every identity route refuses
// an anonymous caller unless it is meant to be public.
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { forEachDialect } from '../../testing/harness'
import { GUEST_ROLES, ORGANISER_ROLES, PERMISSIONS, ROLE_PERMISSIONS } from './roles'

test('docs/permissions.md matches ROLE_PERMISSIONS', () => {
  const doc = readFileSync(join(import.meta.dir, '../../../docs/permissions.md'), 'utf8')
  const header = doc.split('\n').find((l) => l.startsWith('| Permission |'))!
  const roles = header.split('|').map((s) => s.trim()).slice(2, 2 + ORGANISER_ROLES.length)
  expect(roles).toEqual([...ORGANISER_ROLES])
  const rows = doc.split('\n').filter((l) => /^\| [A-Z]+\.[A-Z.]+ \|/.test(l))
  const documented = new Map(rows.map((l) => {
    const cells = l.split('|').map((s) => s.trim())
    return [cells[1], cells.slice(2, 2 + roles.length).map((c) => c === '✓')] as const
  }))
  expect([...documented.keys()].sort()).toEqual([...PERMISSIONS].sort())
  for (const [permission, marks] of documented) {
    roles.forEach((role, i) => expect(`${permission} ${role} ${ROLE_PERMISSIONS[role as keyof typeof ROLE_PERMISSIONS].includes(permission as any)}`).toBe(`${permission} ${role} ${marks[i]}`))
  }
  for (const g of GUEST_ROLES) {
    expect(ROLE_PERMISSIONS[g]).toEqual([])
    expect(doc).toContain(g)
  }
})

const PUBLIC = new Set([
  'GET /proxy/api/setup',
  'POST /proxy/api/setup',
  'POST /auth/login',
  'POST /auth/login/tfa',
  'POST /auth/login/tfa/send',
  'GET /logout',
  // the company login starts and ends without a session (it makes one)
  'GET /proxy/auth/sso/start',
  'GET /proxy/auth/sso/callback',
  'POST /proxy/api/public/user/confirmDeletion',
  'GET /proxy/api/public/invitation',
  'POST /proxy/api/public/invitation',
  'POST /proxy/api/public/visitor/resendMail',
  'POST /proxy/api/public/password/forgot',
  'GET /proxy/api/public/password/reset',
  'POST /proxy/api/public/password/reset',
])

forEachDialect('identity routes refuse anonymous callers', (h) => {
  test('every identity, agency-user, notification and guest-identity route answers 401 without a login', async () => {
    const routes = (h().app.app as any).routes as Array<{ method: string; path: string }>
    const mine = routes.filter((r) =>
      /^\/(auth|userDetails|logout|proxy\/(userDetails|auth|account\/guest|api\/(user|user-tfa|notifications|introduction|agency\/users|setup|public\/(user|invitation|visitor\/resendMail|password))))/.test(r.path),
    )
    expect(mine.length).toBeGreaterThan(30)
    for (const r of mine) {
      const key = `${r.method} ${r.path}`
      if (PUBLIC.has(key)) continue
      const path = r.path.replace(/:id/g, '1') + (r.path.includes('account/guest') ? '?agency=1' : '')
      const res = await h().request(r.method, path, r.method === 'GET' ? {} : { body: {} })
      expect(`${key} → ${res.status === 401 || (res.status === 400 && res.body.errorType === 'FIELD_ERROR') ? 'refused' : res.status}`).toBe(`${key} → refused`)
    }
  })
})
