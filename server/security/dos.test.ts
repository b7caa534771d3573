// One request must not hurt everyone: validation runs in linear time or on bounded input. Each case
// is the previous worst case of its pattern (an e-mail address with many dots in an escort field, a
// 20 KB contact card with a long street line, addresses and texts of megabytes) costs about what a
// harmless input of the same length costs, where it took seconds before. No absolute times (a loaded
// CI machine is slow for everyone): each worst case is compared with a plain input of its length in
// the same run, and allowed 20× that plus a few milliseconds of scheduling noise; quadratic
// backtracking on these inputs costs thousands of times more.
import { describe, expect, test } from 'bun:test'
import { defaultDefs } from '../modules/forms/service'
import { evaluate } from '../modules/forms/engine'
import { installPhoneParser } from '../modules/forms/values'
import { phoneToE164 } from '../modules/forms/phone'
import { parseContactCard } from '../modules/visitors/contact-parser'
import { email, isEmailAddress } from '../shared/validation'
import { type Agent, eventBody, forEachDialect, uniqueEmail } from '../testing/harness'

installPhoneParser(phoneToE164)

/** the best of three runs: the machine is shared, a single run may be preempted */
async function fastest(f: () => unknown | Promise<unknown>): Promise<number> {
  let best = Infinity
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now()
    await f()
    best = Math.min(best, performance.now() - t0)
  }
  return best
}
/** the worst case costs at most 20× a plain input of its length (+ 5 ms of noise) */
async function expectLinear(worst: () => unknown | Promise<unknown>, plain: () => unknown | Promise<unknown>) {
  const w = await fastest(worst)
  const p = await fastest(plain)
  expect(w).toBeLessThan(p * 20 + 5)
}
const plainOf = (s: string) => 'a'.repeat(s.length)

// the worst cases of the patterns used before (quadratic backtracking)
const DOTTED_EMAIL = `a@${'a.'.repeat(20_000)} ` // ~1 s in /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const DOTS_THEN_AT = `a@${'.'.repeat(40_000)}@` // ~2 s
const STREET_SPACES = `a${' '.repeat(20_000)}a` // ~1 s in the street/number split
const ctx = { now: new Date(), eventStart: new Date(Date.now() + 86400_000).toISOString(), defaultPhoneLocale: 'de', disabledCovidStates: [], maxVisitorPerSubscription: -1, vip: false, admin: false }
const withEscortEmail = () => defaultDefs().map((f) => (f.defaultField === 'ESCORT_EMAIL' || f.defaultField === 'ESCORT_ADDRESS' ? { ...f, appearance: 'VISIBLE' as const } : f))
const basics = { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: 'grete@example.org', fields: {} }

describe('linear-time checks', () => {
  test('e-mail addresses: the engine, the shared schema and the escort check', async () => {
    for (const bad of [DOTTED_EMAIL, DOTS_THEN_AT, DOTTED_EMAIL.trim() + '\n']) {
      await expectLinear(() => isEmailAddress(bad), () => isEmailAddress(plainOf(bad)))
      await expectLinear(() => email().safeParse(bad), () => email().safeParse(plainOf(bad)))
      let e: ReturnType<typeof evaluate> | null = null
      const withEmail = (x: string) => evaluate(withEscortEmail(), { ...basics, escortPersons: [{ firstName: 'E', lastName: 'E', email: x }] }, ctx)
      await expectLinear(() => (e = withEmail(bad)), () => withEmail(plainOf(bad)))
      expect(e!.invalid.map((p) => [p.field, p.errorType, p.params])).toEqual([['escortPersons.0.email', 'TOO_LONG', { max: 254 }]])
    }
    // within the limit the check still decides correctly
    expect(isEmailAddress('grete.gast@example.org')).toBe(true)
    for (const no of ['grete@example', 'grete@@example.org', '@example.org', 'grete@.org', 'grete@example.', 'gr ete@example.org', `${'a'.repeat(250)}@b.de`]) expect(isEmailAddress(no)).toBe(false)
  })

  test('a 20 KB contact card with a pathological street line is parsed in linear time', async () => {
    const card = `BEGIN:VCARD\nVERSION:3.0\nN:Gast;Grete\nADR:;;${STREET_SPACES};Berlin;;10115;Deutschland\nEND:VCARD`
    expect(card.length).toBeLessThanOrEqual(20_100)
    const plainCard = `BEGIN:VCARD\nVERSION:3.0\nN:Gast;Grete\nADR:;;${plainOf(STREET_SPACES)};Berlin;;10115;Deutschland\nEND:VCARD`
    await expectLinear(() => parseContactCard(card), () => parseContactCard(plainCard))
    const numbers = `BEGIN:VCARD\nVERSION:3.0\nADR:${'1 '.repeat(10_000)}x\nEND:VCARD`
    await expectLinear(() => parseContactCard(numbers), () => parseContactCard(plainCard))
  })
})

forEachDialect('pathological input over the API costs what plain input of its size costs', (h) => {
  let admin: Agent
  let eventId: number
  test('setup: an event whose form asks escorts for e-mail and address', async () => {
    admin = await h().admin()
    const ev = await admin.post('/proxy/api/events', eventBody({ maxVisitors: null }))
    eventId = ev.body.id
    const fields = (await admin.get(`/proxy/api/events/${eventId}/fields`)).body.fields
    for (const code of ['ESCORT_EMAIL', 'ESCORT_ADDRESS']) {
      const f = fields.find((x: any) => x.defaultField === code)
      expect((await admin.put(`/proxy/api/events/${eventId}/fields/${f.id}`, { ...f, appearance: 'VISIBLE' })).status).toBe(200)
    }
  })

  test('a long made-up e-mail address in an escort field', async () => {
    for (const bad of [DOTTED_EMAIL, DOTS_THEN_AT]) {
      const body = { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: uniqueEmail('dos'), escortPersons: [{ firstName: 'E', lastName: 'E', email: bad }] }
      const plain = { ...body, email: uniqueEmail('dos'), escortPersons: [{ firstName: 'E', lastName: 'E', email: plainOf(bad) }] }
      let status = 0
      await expectLinear(
        async () => (status = (await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body })).status),
        () => h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: plain }),
      )
      expect(status).toBe(400)
    }
  })

  test('the public contact-card parser with a 20 KB card', async () => {
    const card = `BEGIN:VCARD\nVERSION:3.0\nADR:;;a${' '.repeat(19_800)}a;Berlin;;10115;DE\nEND:VCARD`
    const plainCard = `BEGIN:VCARD\nVERSION:3.0\nADR:;;a${'b'.repeat(19_800)}a;Berlin;;10115;DE\nEND:VCARD`
    let status = 0
    await expectLinear(
      async () => (status = (await h().request('POST', '/proxy/api/public/parser', { body: { data: card } })).status),
      () => h().request('POST', '/proxy/api/public/parser', { body: { data: plainCard } }),
    )
    expect(status).toBe(200)
  })
})
