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

    test('the desk signs for the guest: stored with origin DESK and the staff account, then check-in passes without ignoring', async () => {
      // an agency of its own: the global agreements of the tests above do not apply
      const admin = await h().admin()
      const e = await createEvent(admin)
      const req = (await admin.post('/proxy/api/agreements', { displayName: 'Hausordnung', validity: 'EVENT', eventId: e.id })).body
      const v = await addGuest(admin, e.id, { status: 'CONFIRMED' })
      const checkin = () => admin.post(`/proxy/api/events/${e.id}/checkin`, { visitorId: v.id, nonce: `n-${crypto.randomUUID()}`, checkinGuests: 'ALL' })
      const refused = await checkin()
      expect(refused.status).toBe(409)
      expect(refused.body).toMatchObject({ errorType: 'AGREEMENTS_MISSING', missingAgreements: [{ id: req.id, displayName: 'Hausordnung' }] })
      const stored = () => h().ctx.db.selectFrom('visitor_agreement').selectAll().where('visitor_id', '=', v.id).execute()
      // a bad or empty signature is refused and nothing is stored
      for (const signature of [null, '', 'data:image/png;base64,AAAA', 'data:image/jpeg;base64,/9j/4AAQSkZJRg==', `data:image/png;base64,${Buffer.from('GIF89a'.padEnd(80, 'x')).toString('base64')}`]) {
        const bad = await admin.post(`/proxy/api/events/${e.id}/visitors/${v.id}/agreements`, { agreements: [{ id: req.id, status: 'CONFIRMED', signature }] })
        expect(bad.status).toBe(400)
        expect(bad.body.errorFields).toEqual([{ field: 'agreements.0.signature', errorType: 'SIGNATURE_REQUIRED' }])
      }
      const tooBig = await admin.post(`/proxy/api/events/${e.id}/visitors/${v.id}/agreements`, { agreements: [{ id: req.id, status: 'CONFIRMED', signature: PNG + 'A'.repeat(400_000) }] })
      expect(tooBig.status).toBe(400)
      expect(await stored()).toEqual([])
      expect((await checkin()).body.errorType).toBe('AGREEMENTS_MISSING')
      // signed at the desk
      const signed = await admin.post(`/proxy/api/events/${e.id}/visitors/${v.id}/agreements`, { agreements: [{ id: req.id, status: 'CONFIRMED', signature: PNG }] })
      expect(signed.status).toBe(200)
      expect(signed.body).toMatchObject([{ id: req.id, status: 'CONFIRMED', completed: true, origin: 'DESK' }])
      const rows = await stored()
      expect(rows.map((r) => [r.agreement_id, r.status, r.origin, r.account_id, r.signature])).toEqual([[req.id, 'CONFIRMED', 'DESK', admin.accountId, PNG]])
      const sigs = await admin.post('/proxy/api/agreements/signatures/search', { visitorId: v.id })
      expect(sigs.body.items).toMatchObject([{ agreementName: 'Hausordnung', origin: 'DESK', status: 'CONFIRMED', signatureId: rows[0].id }])
      const ok = await checkin()
      expect(ok.status).toBe(200)
      expect(ok.body.checkedIn).toEqual([0])
      const look = await admin.get(`/proxy/api/events/${e.id}/checkin/lookup?search=${encodeURIComponent(v.email)}`)
      expect(look.body.items[0].missingAgreements).toEqual([])
    })

    test('signing at the desk needs EVENT.CHECKIN in the event’s agency', async () => {
      // an agency of its own: the global agreements of the tests above do not apply
      const admin = await h().admin()
      const e = await createEvent(admin)
      const req = (await admin.post('/proxy/api/agreements', { displayName: 'Hausordnung', validity: 'EVENT', eventId: e.id })).body
      const v = await addGuest(admin, e.id, { status: 'CONFIRMED' })
      const path = `/proxy/api/events/${e.id}/visitors/${v.id}/agreements`
      const body = { agreements: [{ id: req.id, status: 'CONFIRMED', signature: PNG }] }
      // nobody signed in, the guest themself (no organiser permission), another agency
      expect((await h().agent().post(path, body)).status).toBe(401)
      const guest = await guestAgent(v)
      expect([401, 403]).toContain((await guest.post(path, body)).status)
      expect((await (await h().admin()).post(path, body)).status).toBe(404)
      expect(await h().ctx.db.selectFrom('visitor_agreement').select('id').where('visitor_id', '=', v.id).execute()).toEqual([])
      // an agreement of another event is not signable here
      const other = await createEvent(admin)
      const foreign = (await admin.post('/proxy/api/agreements', { displayName: 'Anderswo', validity: 'EVENT', eventId: other.id })).body
      const wrong = await admin.post(path, { agreements: [{ id: foreign.id, status: 'CONFIRMED', signature: PNG }] })
      expect(wrong.body.errorFields).toEqual([{ field: 'agreements.0.id', errorType: 'INVALID' }])
      // the check-in role may
      await h().ctx.db.updateTable('account').set({ user_role: 'AGENCY_CHECKIN' }).where('id', '=', admin.accountId).execute()
      try {
        expect((await admin.post(path, body)).status).toBe(200)
      } finally {
        await h().ctx.db.updateTable('account').set({ user_role: 'AGENCY_ADMIN' }).where('id', '=', admin.accountId).execute()
      }
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
