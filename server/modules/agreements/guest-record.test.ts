// The guest's view of their own signature record: what they signed or declined, when, which version,
// where, with the text as it was shown (a later change of the agreement does not rewrite it) and the
// drawn signature; only for the guest's own registration (another guest's id answers 404).
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent } from '../../testing/organiser'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

forEachDialect('agreements: the guest\'s signature record', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin()
  })
  async function guestAgent(visitor: { id: number; email: string }) {
    const db = h().ctx.db
    const userId = (await db.insertInto('app_user').values({ email: visitor.email, status: 'OK' }).returning('id').executeTakeFirstOrThrow()).id
    await db.updateTable('event_visitor').set({ user_id: userId }).where('id', '=', visitor.id).execute()
    const agent = h().agent()
    agent.headers['x-guest-token'] = await issueAccessToken(h().ctx, db, userId, GUEST_ACCESS)
    return agent
  }
  async function fetchRaw(path: string, headers: Record<string, string>) {
    const res = await h().app.handle(new Request(`http://localhost${path}`, { headers }))
    return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) }
  }

  test('decisions newest first with the text and version as shown, the origin and the signature; the agreement changing later rewrites nothing', async () => {
    const e = await createEvent(admin, { allowSelfCheckin: true })
    const house = (await admin.post('/proxy/api/agreements', { displayName: 'Hausordnung', validity: 'EVENT', eventId: e.id, description: '<p>Ich halte mich an die <strong>Hausordnung</strong>.</p>' })).body
    const photo = (await admin.post('/proxy/api/agreements', { displayName: 'Fotoerlaubnis', validity: 'EVENT', eventId: e.id, appearance: 'VISIBLE', description: '<p>Fotos dürfen veröffentlicht werden.</p>' })).body
    const v = await addGuest(admin, e.id, { status: 'CONFIRMED' })
    const guest = await guestAgent(v)
    const path = `/proxy/api/guest/events/visitors/${v.id}/agreements/log`
    expect((await guest.get(path)).body).toEqual([])
    // from the dashboard: signed and declined; later the photo permission signed at the desk
    const sign = await guest.post(`/proxy/api/guest/events/visitors/${v.id}/agreements`, { agreements: [{ id: house.id, status: 'CONFIRMED', signature: PNG }, { id: photo.id, status: 'DECLINED' }] })
    expect(sign.status).toBe(200)
    await admin.put(`/proxy/api/agreements/${house.id}`, { displayName: 'Hausordnung 2027', validity: 'EVENT', eventId: e.id, description: '<p>Neue Regeln.</p>' })
    const desk = await admin.post(`/proxy/api/events/${e.id}/visitors/${v.id}/agreements`, { agreements: [{ id: photo.id, status: 'CONFIRMED', signature: PNG }] })
    expect(desk.status).toBe(200)
    const r = await guest.get(path)
    expect(r.status).toBe(200)
    expect(r.body.map((d: any) => [d.displayName, d.status, d.origin, d.version, d.hasSignature])).toEqual([
      ['Fotoerlaubnis', 'CONFIRMED', 'DESK', 1, true],
      ['Fotoerlaubnis', 'DECLINED', 'GUEST', 1, false],
      ['Hausordnung', 'CONFIRMED', 'GUEST', 1, true],
    ])
    const houseEntry = r.body[2]
    expect(houseEntry.description).toBe('<p>Ich halte mich an die <strong>Hausordnung</strong>.</p>')
    expect(houseEntry.agreementId).toBe(house.id)
    expect(Date.parse(houseEntry.decidedAt)).toBeGreaterThan(0)
    // the staff account behind a desk decision is the organiser's business
    expect(Object.keys(r.body[0])).not.toContain('accountId')
    // the drawn signature, as PNG
    const img = await fetchRaw(`${path}/${houseEntry.id}/signature`, guest.headers)
    expect(img.status).toBe(200)
    expect(img.type).toBe('image/png')
    expect(Buffer.from(img.bytes).toString('base64')).toBe(PNG.slice(PNG.indexOf(',') + 1))
    // a decline has no image
    expect((await guest.get(`${path}/${r.body[1].id}/signature`)).status).toBe(404)
  })

  test('only the guest\'s own registration: another guest, another registration\'s signature, no guest', async () => {
    const e = await createEvent(admin)
    const house = (await admin.post('/proxy/api/agreements', { displayName: 'Hausordnung', validity: 'EVENT', eventId: e.id })).body
    const v = await addGuest(admin, e.id, { status: 'CONFIRMED' })
    const guest = await guestAgent(v)
    await guest.post(`/proxy/api/guest/events/visitors/${v.id}/agreements`, { agreements: [{ id: house.id, status: 'CONFIRMED', signature: PNG }] })
    const [mine] = (await guest.get(`/proxy/api/guest/events/visitors/${v.id}/agreements/log`)).body
    const w = await addGuest(admin, e.id, { status: 'CONFIRMED' })
    const stranger = await guestAgent(w)
    expect((await stranger.get(`/proxy/api/guest/events/visitors/${v.id}/agreements/log`)).status).toBe(404)
    expect((await stranger.get(`/proxy/api/guest/events/visitors/${v.id}/agreements/log/${mine.id}/signature`)).status).toBe(404)
    // the stranger's own registration with the other's signature id
    expect((await stranger.get(`/proxy/api/guest/events/visitors/${w.id}/agreements/log/${mine.id}/signature`)).status).toBe(404)
    expect((await stranger.get(`/proxy/api/guest/events/visitors/${w.id}/agreements/log`)).body).toEqual([])
    expect((await h().request('GET', `/proxy/api/guest/events/visitors/${v.id}/agreements/log`)).status).toBe(401)
    // the organiser's session is no guest of this registration either
    expect((await admin.get(`/proxy/api/guest/events/visitors/${v.id}/agreements/log`)).status).toBe(404)
  })
})
