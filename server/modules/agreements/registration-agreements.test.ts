// Issue 10 item 3: required agreements are part of registering. The public form lists them (text,
// version), a registration without the signature of a REQUIRED one is refused and stores nothing,
// optional ones may be signed or left, every decision is kept as given (text as shown, version,
// signature, time, origin REGISTRATION), and the guest dashboard lists what is still missing.
import { expect, test } from 'bun:test'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { addGuest } from '../../testing/organiser'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'
import { PNG } from './agreements.test'

forEachDialect('agreements while registering', (h) => {
  async function setup() {
    const admin = await h().admin()
    const event = (await admin.post('/proxy/api/events', eventBody())).body
    const req = (await admin.post('/proxy/api/agreements', { displayName: 'Hausordnung', validity: 'EVENT', eventId: event.id, description: '<p>Bitte <strong>keine</strong> Hunde.</p>' })).body
    const opt = (await admin.post('/proxy/api/agreements', { displayName: 'Fotos', validity: 'EVENT', eventId: event.id, appearance: 'VISIBLE' })).body
    return { admin, event, req, opt }
  }
  const register = (eventId: number, body: Record<string, unknown>) =>
    h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: { salutation: 'Frau', firstName: 'Anna', lastName: 'Becker', email: uniqueEmail('agree'), ...body } })
  const count = async (table: 'event_visitor' | 'agreement_signature', eventId: number) =>
    Number((await h().ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('event_id', '=', eventId).executeTakeFirstOrThrow()).n)

  test('the public form lists the agreements with text and version', async () => {
    const { event, req, opt } = await setup()
    const form = await h().request('GET', `/proxy/api/public/events/${event.id}/form`)
    expect(form.body.agreements).toEqual([
      { id: req.id, displayName: 'Hausordnung', description: '<p>Bitte <strong>keine</strong> Hunde.</p>', appearance: 'REQUIRED', version: 1 },
      { id: opt.id, displayName: 'Fotos', description: '', appearance: 'VISIBLE', version: 1 },
    ])
  })

  test('without the signature of a REQUIRED agreement the registration is refused and nothing is stored', async () => {
    const { event, req, opt } = await setup()
    const none = await register(event.id, {})
    expect(none.status).toBe(400)
    expect(none.body.errorType).toBe('FIELD_ERROR')
    expect(none.body.errorFields).toEqual([{ field: `agreements.${req.id}`, errorType: 'AGREEMENT_REQUIRED' }])
    expect(none.body.missingFields).toEqual([{ id: req.id, field: `agreements.${req.id}`, displayName: 'Hausordnung', errorType: 'AGREEMENT_REQUIRED' }])
    const unsigned = await register(event.id, { agreements: [{ id: req.id, status: 'CONFIRMED', signature: null }] })
    expect(unsigned.body.errorFields).toEqual([{ field: `agreements.${req.id}`, errorType: 'SIGNATURE_REQUIRED' }])
    const declined = await register(event.id, { agreements: [{ id: req.id, status: 'DECLINED' }] })
    expect(declined.body.errorFields).toEqual([{ field: `agreements.${req.id}`, errorType: 'AGREEMENT_REQUIRED' }])
    const foreign = await register(event.id, { agreements: [{ id: req.id, status: 'CONFIRMED', signature: PNG }, { id: 999999, status: 'CONFIRMED', signature: PNG }] })
    expect(foreign.body.errorFields).toEqual([{ field: 'agreements.999999', errorType: 'INVALID' }])
    void opt
    expect(await count('event_visitor', event.id)).toBe(0)
    expect(await count('agreement_signature', event.id)).toBe(0)
  })

  test('signed at registration: state and an immutable record with text, version, signature, time and origin', async () => {
    const { admin, event, req, opt } = await setup()
    const r = await register(event.id, { agreements: [{ id: req.id, status: 'CONFIRMED', signature: PNG, version: 1 }] })
    expect(r.status).toBe(201)
    const consent = await h().ctx.db.selectFrom('agreement_signature').selectAll().where('visitor_id', '=', r.body.visitorId).execute()
    expect(consent).toHaveLength(1)
    expect(consent[0]).toMatchObject({ agreement_id: req.id, status: 'CONFIRMED', agreement_name: 'Hausordnung', agreement_text: '<p>Bitte <strong>keine</strong> Hunde.</p>', agreement_version: 1, signature: PNG, origin: 'REGISTRATION' })
    const at = new Date(consent[0].decided_at).getTime()
    expect(at).toBeLessThanOrEqual(h().clock.now().getTime())
    expect(at).toBeGreaterThan(h().clock.now().getTime() - 10_000)
    // the organiser sees it signed (guest detail) and the desk does not ask again
    const d = await admin.get(`/proxy/api/events/${event.id}/visitors/${r.body.visitorId}`)
    expect(d.body.agreements.map((a: any) => [a.displayName, a.status])).toEqual([
      ['Hausordnung', 'CONFIRMED'],
      ['Fotos', null],
    ])
    // the organiser edits the text: a new version; the record keeps what the guest saw
    await admin.put(`/proxy/api/agreements/${req.id}`, { displayName: 'Hausordnung', validity: 'EVENT', eventId: event.id, description: '<p>Neu</p>' })
    const kept = await h().ctx.db.selectFrom('agreement_signature').select(['agreement_text as text', 'agreement_version as version']).where('visitor_id', '=', r.body.visitorId).executeTakeFirstOrThrow()
    expect(kept).toEqual({ text: '<p>Bitte <strong>keine</strong> Hunde.</p>', version: 1 })
    // a form still showing version 1 is asked to read the new text
    const stale = await register(event.id, { agreements: [{ id: req.id, status: 'CONFIRMED', signature: PNG, version: 1 }] })
    expect(stale.body.errorFields).toEqual([{ field: `agreements.${req.id}`, errorType: 'AGREEMENT_CHANGED' }])
    // optional ones may be signed too
    const both = await register(event.id, { agreements: [{ id: req.id, status: 'CONFIRMED', signature: PNG, version: 2 }, { id: opt.id, status: 'CONFIRMED', signature: PNG }] })
    expect(both.status).toBe(201)
    const rows = await h().ctx.db.selectFrom('agreement_signature').select(['agreement_id', 'agreement_version as version']).where('visitor_id', '=', both.body.visitorId).orderBy('agreement_id').execute()
    expect(rows).toEqual([
      { agreement_id: req.id, version: 2 },
      { agreement_id: opt.id, version: 1 },
    ])
  })

  test('the guest dashboard lists the REQUIRED agreements still missing', async () => {
    const { admin, event } = await setup()
    const g = await addGuest(admin, event.id, { status: 'CONFIRMED' })
    const v = await h().ctx.db.selectFrom('event_visitor').select('user_id').where('id', '=', g.id).executeTakeFirstOrThrow()
    const userId = v.user_id ?? (await h().ctx.db.insertInto('app_user').values({ email: g.email, password_hash: null, status: 'OK', language: 'de' }).returning('id').executeTakeFirstOrThrow()).id
    await h().ctx.db.updateTable('event_visitor').set({ user_id: userId }).where('id', '=', g.id).execute()
    const guest = h().agent()
    guest.headers['x-guest-token'] = await h().ctx.db.transaction().execute((trx) => issueAccessToken(h().ctx, trx, userId, GUEST_ACCESS))
    const dash = await guest.get('/proxy/api/guest/events')
    expect(dash.status).toBe(200)
    expect(dash.body.confirmedEvents[0].missingAgreements.map((a: any) => a.displayName)).toEqual(['Hausordnung'])
  })
})
