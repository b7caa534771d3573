// Hostile: every role against docs/permissions.md. The table of the document (not the code's copy)
// says which role holds which permission; one real call per permission must then answer 403
// NO_PERMISSION exactly for the roles without it. Guest-role accounts hold none, and also read no
// background tasks and no licence usage of their agency.
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Agent, eventBody, forEachDialect, uniqueEmail } from '../testing/harness'
import { addGuest, createEvent, licenseWith } from '../testing/organiser'
import { createUser, loginAs } from '../modules/identity/test-helpers'
import { GUEST_ROLES, ORGANISER_ROLES, PERMISSIONS, type Role } from '../modules/identity/roles'
import { uploadForm } from './fixtures'

/** permission → roles holding it, read from the table in docs/permissions.md */
function documentedTable(): Map<string, Set<string>> {
  const text = readFileSync(join(import.meta.dir, '../../docs/permissions.md'), 'utf8')
  const lines = text.split('\n').filter((l) => l.startsWith('|'))
  const header = lines[0].split('|').map((c) => c.trim())
  const out = new Map<string, Set<string>>()
  for (const l of lines.slice(2)) {
    const cells = l.split('|').map((c) => c.trim())
    if (!/^[A-Z]+(\.[A-Z]+)+$/.test(cells[1] ?? '')) continue
    out.set(cells[1], new Set(header.filter((r, i) => (ORGANISER_ROLES as readonly string[]).includes(r) && cells[i] === '✓')))
  }
  return out
}

interface Fixture {
  eventId: number
  visitorId: number
  spareEvent(): Promise<number>
}
type Probe = (a: Agent, f: Fixture) => Promise<{ status: number; body: any }>

/** One call per permission that needs exactly that permission (the body is valid, so 400 cannot hide a 403). */
const PROBES: Partial<Record<(typeof PERMISSIONS)[number], Probe>> = {
  'AGENCY.USERS': (a) => a.get('/proxy/api/agency/users'),
  'AGENCY.ABO': (a) => a.get('/proxy/api/license'),
  'EVENT.VIEW': (a, f) => a.get(`/proxy/api/events/${f.eventId}`),
  'EVENT.CREATE': (a) => a.post('/proxy/api/events', eventBody()),
  'EVENT.EDIT': (a, f) => a.post(`/proxy/api/events/${f.eventId}/unarchive`, {}),
  'EVENT.DELETE': async (a, f) => a.delete(`/proxy/api/events/${await f.spareEvent()}`),
  'EVENT.GUEST.VIEW': (a, f) => a.get(`/proxy/api/events/${f.eventId}/visitors`),
  'EVENT.GUEST.MANAGE': (a, f) => a.post(`/proxy/api/events/${f.eventId}/visitors`, { salutation: 'Herr', firstName: 'Rolf', lastName: 'Rolle', email: uniqueEmail('probe') }),
  'EVENT.GUEST.IMPORT': (a, f) => a.request('POST', `/proxy/api/events/${f.eventId}/imports`, { form: uploadForm(new TextEncoder().encode('E-Mail;Vorname;Nachname\na@example.org;A;B\n'), 'gaeste.csv') }),
  'EVENT.GUEST.EXPORT': (a, f) => a.get(`/proxy/api/events/${f.eventId}/visitors/export`),
  'EVENT.INVITE': (a, f) => a.post(`/proxy/api/events/${f.eventId}/visitors/${f.visitorId}/invite`, {}),
  'EVENT.CHECKIN': (a, f) => a.get(`/proxy/api/events/${f.eventId}/checkin/counts`),
  'EVENT.STATISTICS': (a, f) => a.get(`/proxy/api/events/${f.eventId}/statistics`),
  'AGREEMENT.MANAGE': (a) => a.post('/proxy/api/agreements', { displayName: 'Fotoerlaubnis', validity: 'GLOBAL' }),
  'TAG.MANAGE': (a) => a.post('/proxy/api/tags', { displayName: `Probe ${uniqueEmail('t')}` }),
  'ASSET.UPLOAD': (a) => a.request('POST', '/api/asset', { form: uploadForm(new TextEncoder().encode('Programm der Veranstaltung'), 'programm.pdf') }),
}
/** Permissions no route checks yet (a new route that does must add a probe above). */
const NO_ROUTE_YET = ['AGENCY.MANAGE']

forEachDialect('security: roles against docs/permissions.md', (h) => {
  async function setup() {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const g = await addGuest(admin, e.id)
    const agents = new Map<Role, Agent>()
    for (const role of [...ORGANISER_ROLES, ...GUEST_ROLES]) {
      const u = await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role }] })
      agents.set(role, await loginAs(h(), u, { accountId: u.accounts[0].id }))
    }
    return { admin, e, g, agents }
  }

  test('every permission of the table has a probe (or is listed as without a route)', () => {
    const table = documentedTable()
    expect([...table.keys()].sort()).toEqual([...PERMISSIONS].sort())
    for (const p of PERMISSIONS) expect([p, !!PROBES[p] || NO_ROUTE_YET.includes(p)]).toEqual([p, true])
  })

  test('each role gets exactly what the document grants: 403 NO_PERMISSION otherwise; guest roles get nothing', async () => {
    const { admin, e, g, agents } = await setup()
    const table = documentedTable()
    const wrong: string[] = []
    for (const [role, agent] of agents) {
      for (const [permission, probe] of Object.entries(PROBES)) {
        const r = await probe!(agent, { eventId: e.id, visitorId: g.id, spareEvent: async () => (await createEvent(admin)).id })
        const granted = table.get(permission)!.has(role)
        const denied = r.status === 403 && r.body?.errorType === 'NO_PERMISSION'
        if (granted === denied || (granted && r.status >= 400)) wrong.push(`${role} ${permission}: ${granted ? 'granted' : 'denied'} but ${r.status} ${r.body?.errorType ?? ''}`)
      }
    }
    expect(wrong).toEqual([])
  })

  test('guest-role accounts read no background tasks and no licence usage of their agency', async () => {
    const { admin, e, agents } = await setup()
    // a real task of the agency: the invitation run of the organiser
    const inv = await admin.post(`/proxy/api/events/${e.id}/invitations`, {})
    const taskId = inv.body?.id ?? inv.body?.taskId ?? (await h().ctx.db.selectFrom('task').select('id').where('agency_id', '=', admin.agencyId).executeTakeFirst())?.id
    expect(taskId).toBeTruthy()
    expect((await admin.get(`/proxy/api/tasks/${taskId}`)).status).toBe(200)
    // usage the organiser sees
    await admin.request('POST', '/api/asset', { form: uploadForm(new Uint8Array(300_000).fill(7), 'gross.pdf') })
    expect((await admin.get('/proxy/api/app/init')).body.appInfo.limits.usedStorage).toBeGreaterThan(0)
    for (const role of GUEST_ROLES) {
      const agent = agents.get(role)!
      const t = await agent.get(`/proxy/api/tasks/${taskId}`)
      expect([role, t.status]).toEqual([role, 403])
      expect(t.text).not.toContain('current')
      expect((await agent.get('/proxy/api/license')).status).toBe(403)
      const init = (await agent.get('/proxy/api/app/init')).body.appInfo.limits
      expect([role, init.usedStorage, init.usedEvents, init.usedAgencyUsers, init.usedGuestAccounts]).toEqual([role, 0, 0, 0, 0])
    }
  })
}, { license: licenseWith([], { events: 10_000, agencyUsers: 1000 }) })

// The anonymous public reads only events the public form is served for (status OK, not OFFLINE):
// an offline event, a preset or a deleted one answers 404 exactly like an id that does not exist.
forEachDialect('security: the anonymous public and events that are not public', (h) => {
  test('availabilities, event page, form and prefill: 404 for OFFLINE, PRESET and DELETED events, like an unknown id', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'TIMESLOT', displayName: 'Zeit', timeslots: [{ displayName: '10 Uhr', capacity: 5 }] })
    const reads = (id: number) => [
      h().request('POST', '/proxy/api/public/reservation/availabilities', { body: { eventId: id } }),
      h().request('GET', `/proxy/api/public/events/${id}`),
      h().request('GET', `/proxy/api/public/events/${id}/form`),
      h().request('GET', `/proxy/api/public/events/${id}/prefill`),
    ]
    const unknown = await Promise.all(reads(999_999_999))
    expect(unknown.map((r) => r.status)).toEqual([404, 404, 404, 404])
    expect((await Promise.all(reads(e.id))).map((r) => r.status)).toEqual([200, 200, 200, 200])
    // PRIVATE events are reachable by their link: the form must keep working there
    for (const [column, value, expected] of [
      ['visibility', 'PRIVATE', 200],
      ['visibility', 'OFFLINE', 404],
      ['status', 'PRESET', 404],
      ['status', 'DELETED', 404],
    ] as const) {
      await h().ctx.db.updateTable('event').set({ visibility: 'PUBLIC', status: 'OK' }).where('id', '=', e.id).execute()
      await h().ctx.db.updateTable('event').set({ [column]: value }).where('id', '=', e.id).execute()
      const got = await Promise.all(reads(e.id))
      expect([column, value, got.map((r) => r.status)]).toEqual([column, value, [expected, expected, expected, expected]])
      if (expected === 404) for (const [i, r] of got.entries()) expect([value, i, r.body]).toEqual([value, i, unknown[i].body])
    }
  })
})
