import { expect, test } from 'bun:test'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent, licenseWith } from '../../testing/organiser'

export const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

forEachDialect(
  'agreements and signatures',
  (h) => {
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

    test('global and event agreements; descriptions sanitised; an event sees its own plus the global ones', async () => {
      const e = await createEvent(admin)
      const other = await createEvent(admin)
      const g = await admin.post('/proxy/api/agreements', { displayName: 'Datenschutz', validity: 'GLOBAL', description: '<p>Text <a href="javascript:x">a</a><a href="tel:+49">b</a><img src=x onerror=alert(1)></p>' })
      expect(g.status).toBe(201)
      expect(g.body).toMatchObject({ validity: 'GLOBAL', type: 'global', appearance: 'REQUIRED', eventId: null })
      expect(g.body.description).toContain('href="tel:+49"')
      expect(g.body.description).not.toContain('javascript')
      expect(g.body.description).not.toContain('onerror')
      const ev = await admin.post('/proxy/api/agreements', { displayName: 'Fotos', validity: 'EVENT', eventId: e.id, appearance: 'VISIBLE' })
      expect(ev.body).toMatchObject({ type: 'event', eventId: e.id, appearance: 'VISIBLE' })
      await admin.post('/proxy/api/agreements', { displayName: 'Anderes', validity: 'EVENT', eventId: other.id })
      const names = async (body: Record<string, unknown>) => ((await admin.post('/proxy/api/agreements/search', body)).body as any[]).map((a) => a.displayName)
      expect(await names({ eventId: e.id })).toEqual(['Datenschutz', 'Fotos'])
      expect(await names({ validity: 'GLOBAL' })).toEqual(['Datenschutz'])
      const noEvent = await admin.post('/proxy/api/agreements', { displayName: 'X', validity: 'EVENT' })
      expect(noEvent.body.errorFields).toEqual([{ field: 'eventId', errorType: 'REQUIRED' }])
      const foreign = await h().admin()
      expect((await foreign.post('/proxy/api/agreements', { displayName: 'X', validity: 'EVENT', eventId: e.id })).body.errorFields).toEqual([{ field: 'eventId', errorType: 'INVALID' }])
      expect((await foreign.put(`/proxy/api/agreements/${g.body.id}`, { displayName: 'X', validity: 'GLOBAL' })).status).toBe(404)
      const withdrawn = await admin.delete(`/proxy/api/agreements/${g.body.id}`)
      expect(withdrawn.body.active).toBe(false)
      expect(await names({ eventId: e.id })).toEqual(['Fotos'])
    })

    test('the guest signs: CONFIRMED needs a PNG signature, a REQUIRED one cannot be declined, a re-sign replaces', async () => {
      const e = await createEvent(admin)
      const req = (await admin.post('/proxy/api/agreements', { displayName: 'Hausordnung', validity: 'EVENT', eventId: e.id })).body
      const opt = (await admin.post('/proxy/api/agreements', { displayName: 'Newsletter', validity: 'EVENT', eventId: e.id, appearance: 'VISIBLE' })).body
      const v = await addGuest(admin, e.id, { status: 'CONFIRMED' })
      const guest = await guestAgent(v)
      const list = await guest.get(`/proxy/api/guest/events/visitors/${v.id}/agreements`)
      expect(list.body.map((a: any) => [a.displayName, a.completed])).toEqual([
        ['Hausordnung', false],
        ['Newsletter', false],
      ])
      const noSig = await guest.post(`/proxy/api/guest/events/visitors/${v.id}/agreements`, { agreements: [{ id: req.id, status: 'CONFIRMED', signature: 'data:image/png;base64,AAAA' }] })
      expect(noSig.status).toBe(400)
      expect(noSig.body.errorFields).toEqual([{ field: 'agreements.0.signature', errorType: 'SIGNATURE_REQUIRED' }])
      const declineReq = await guest.post(`/proxy/api/guest/events/visitors/${v.id}/agreements`, { agreements: [{ id: req.id, status: 'DECLINED' }] })
      expect(declineReq.body).toMatchObject({ errorType: 'AGREEMENT_REQUIRED', errorMessage: 'Diese Einverständniserklärung ist erforderlich und kann nicht abgelehnt werden.' })
      const ok = await guest.post(`/proxy/api/guest/events/visitors/${v.id}/agreements`, {
        agreements: [
          { id: req.id, status: 'CONFIRMED', signature: PNG },
          { id: opt.id, status: 'DECLINED' },
        ],
      })
      expect(ok.status).toBe(200)
      expect(ok.body.map((a: any) => [a.displayName, a.status, a.completed, a.signatureId != null])).toEqual([
        ['Hausordnung', 'CONFIRMED', true, true],
        ['Newsletter', 'DECLINED', true, false],
      ])
      const resign = await guest.post(`/proxy/api/guest/events/visitors/${v.id}/agreements`, { agreements: [{ id: opt.id, status: 'CONFIRMED', signature: PNG }] })
      expect(resign.body[1]).toMatchObject({ status: 'CONFIRMED', declineDate: null })
      // who signed what and when, with the image
      const sigs = await admin.post('/proxy/api/agreements/signatures/search', { eventId: e.id })
      expect(sigs.body.total).toBe(2)
      expect(sigs.body.items[0]).toMatchObject({ firstName: 'Grete', status: 'CONFIRMED', origin: 'GUEST', validity: 'EVENT' })
      const img = await admin.get(`/proxy/api/agreements/signatures/${sigs.body.items[0].signatureId}/signature`)
      expect(img.status).toBe(200)
      expect(img.headers.get('content-type')).toBe('image/png')
      const foreign = await h().admin()
      expect((await foreign.get(`/proxy/api/agreements/signatures/${sigs.body.items[0].signatureId}/signature`)).status).toBe(404)
      // the guest list filter by agreement and the guest detail
      const filtered = await admin.post(`/proxy/api/events/${e.id}/visitors/search`, { filter: { agreements: [req.id, opt.id] } })
      expect(filtered.body.items.map((x: any) => x.id)).toEqual([v.id])
      const detail = await admin.get(`/proxy/api/events/${e.id}/visitors/${v.id}`)
      expect(detail.body.agreements.map((a: any) => a.status)).toEqual(['CONFIRMED', 'CONFIRMED'])
      // someone else's registration
      const stranger = await guestAgent(await addGuest(admin, e.id))
      expect((await stranger.get(`/proxy/api/guest/events/visitors/${v.id}/agreements`)).status).toBe(404)
    })

    test('agreement filter: decision dates and validity; end before start refused', async () => {
      const e = await createEvent(admin)
      const glob = (await admin.post('/proxy/api/agreements', { displayName: 'AGB', validity: 'GLOBAL' })).body
      const v = await addGuest(admin, e.id)
      const desk = await admin.post(`/proxy/api/events/${e.id}/visitors/${v.id}/agreements`, { agreements: [{ id: glob.id, status: 'CONFIRMED', signature: PNG }] })
      expect(desk.status).toBe(200)
      const today = new Date().toISOString().slice(0, 10)
      const s = async (filter: Record<string, unknown>) => (await admin.post('/proxy/api/agreements/signatures/search', { filter, visitorId: v.id })).body
      expect((await s({ validity: 'GLOBAL' })).items.map((x: any) => [x.agreementName, x.origin])).toEqual([['AGB', 'DESK']])
      expect((await s({ validity: 'EVENT' })).total).toBe(0)
      expect((await s({ startDate: '2000-01-01', endDate: '2000-01-02' })).total).toBe(0)
      expect((await s({ startDate: '2000-01-01', endDate: '2999-01-01' })).total).toBe(1)
      const bad = await s({ startDate: today, endDate: '2000-01-01' })
      expect(bad.errorFields).toEqual([{ field: 'filter.endDate', errorType: 'END_BEFORE_START' }])
    })

    test('copying an event copies its own agreements', async () => {
      const e = await createEvent(admin)
      await admin.post('/proxy/api/agreements', { displayName: 'Nur hier', validity: 'EVENT', eventId: e.id })
      const copy = (await admin.post(`/proxy/api/events/${e.id}/copy`, {})).body
      const list = (await admin.post('/proxy/api/agreements/search', { eventId: copy.id })).body
      expect(list.map((a: any) => [a.displayName, a.eventId])).toContainEqual(['Nur hier', copy.id])
    })
  },
  { license: licenseWith([], { events: -1 }) },
)
