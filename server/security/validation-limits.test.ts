// Every text a form takes has a length limit, checked by the engine the browser and the server share
// (so the form shows it: maxlength on the input, "Höchstens N Zeichen." when over), including each
// part of an ADDRESS answer (1–2 MB were stored before). Nothing over a limit is stored.
import { describe, expect, test } from 'bun:test'
import { t } from '../i18n/catalogue'
import { evaluate } from '../modules/forms/engine'
import { ADDRESS_LIMITS, TEXT_LIMITS } from '../modules/forms/values'
import { defaultDefs } from '../modules/forms/service'
import { type Agent, eventBody, forEachDialect, uniqueEmail } from '../testing/harness'

describe('the limits and their message', () => {
  test('German and English texts name the limit', () => {
    expect(t('de', 'field.MAX_CHARACTERS', { max: 255 })).toBe('Höchstens 255 Zeichen.')
    expect(t('en', 'field.MAX_CHARACTERS', { max: 255 })).toBe('At most 255 characters.')
  })

  test('the engine reports TOO_LONG with the limit for every kind of text', () => {
    const ctx = { now: new Date(), eventStart: new Date(Date.now() + 86400_000).toISOString(), defaultPhoneLocale: 'de', disabledCovidStates: [], maxVisitorPerSubscription: -1, vip: false, admin: false }
    const defs = defaultDefs().map((f) => (f.defaultField?.startsWith('ESCORT_') ? { ...f, appearance: 'VISIBLE' as const } : f))
    const e = evaluate(defs, {
      salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: 'g@example.org', fields: {},
      escortPersons: [{ firstName: 'x'.repeat(101), lastName: 'E', company: 'c'.repeat(501), info: 'i'.repeat(5001), phoneNumber: '1'.repeat(41), address: { street: 's'.repeat(1_000_000), city: 'Berlin', postCode: '10115' } }],
    }, ctx)
    const got = Object.fromEntries(e.invalid.map((p) => [p.field, [p.errorType, p.params?.max]]))
    expect(got).toMatchObject({
      'escortPersons.0.firstName': ['TOO_LONG', TEXT_LIMITS.name],
      'escortPersons.0.company': ['TOO_LONG', TEXT_LIMITS.text],
      'escortPersons.0.info': ['TOO_LONG', TEXT_LIMITS.textarea],
      'escortPersons.0.phoneNumber': ['TOO_LONG', TEXT_LIMITS.phone],
      'escortPersons.0.address': ['TOO_LONG', ADDRESS_LIMITS.street],
    })
  })
})

forEachDialect('length limits over the API', (h) => {
  let admin: Agent
  let eventId: number
  const ids: Record<string, number> = {}
  test('setup: a form with a text, a long text, an address and a delegate e-mail', async () => {
    admin = await h().admin()
    eventId = (await admin.post('/proxy/api/events', eventBody({ maxVisitors: null }))).body.id
    for (const type of ['TEXT', 'TEXTAREA', 'ADDRESS', 'DELEGATE_EMAIL']) {
      const r = await admin.post(`/proxy/api/events/${eventId}/fields`, { type, displayName: `Feld ${type}` })
      if (r.status !== 201) throw new Error(`${type}: ${r.text}`)
      ids[type] = r.body.id
    }
  })

  const register = (fields: Record<string, unknown>) =>
    h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email: uniqueEmail('limit'), fields } })

  test('each part of an ADDRESS answer is limited; a megabyte street is refused and nothing stored', async () => {
    for (const [part, max] of Object.entries(ADDRESS_LIMITS)) {
      if (part === 'country') continue
      const address = { street: 'Hauptstraße', streetNumber: '5', postCode: '10115', city: 'Berlin', country: 'DEU', [part]: 'x'.repeat(max + 1) }
      const r = await register({ [ids.ADDRESS]: address })
      expect(r.status).toBe(400)
      expect(r.body.errorFields).toContainEqual(expect.objectContaining({ field: `fields.${ids.ADDRESS}`, errorType: 'TOO_LONG' }))
    }
    const huge = await register({ [ids.ADDRESS]: { street: 's'.repeat(1_500_000), postCode: '10115', city: 'Berlin' } })
    expect(huge.status).toBe(400)
    const ok = await register({ [ids.ADDRESS]: { street: 's'.repeat(ADDRESS_LIMITS.street), streetNumber: '1', postCode: '10115', city: 'Berlin', country: 'DEU' } })
    expect(ok.status).toBe(201)
    const stored = await h().ctx.db.selectFrom('event_visitor').select('id').where('event_id', '=', eventId).execute()
    expect(stored).toHaveLength(1)
  })

  test('texts, long texts and e-mail addresses over their limit are refused with TOO_LONG', async () => {
    const cases: Array<[string, string]> = [
      ['TEXT', 'x'.repeat(TEXT_LIMITS.text + 1)],
      ['TEXTAREA', 'x'.repeat(TEXT_LIMITS.textarea + 1)],
      ['DELEGATE_EMAIL', `${'a.'.repeat(TEXT_LIMITS.email)}@example.org`],
    ]
    for (const [type, value] of cases) {
      const r = await register({ [ids[type]]: value })
      expect(r.status).toBe(400)
      expect(r.body.errorFields).toContainEqual(expect.objectContaining({ field: `fields.${ids[type]}`, errorType: 'TOO_LONG' }))
    }
  })
})
