// Self check-in (guest-side.md 2, 4, 5, 7): POST /api/guest/prepareCheckin and /api/guest/checkInOut.
import { expect, test } from 'bun:test'
import { PNG } from '../agreements/agreements.test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent, licenseWith } from '../../testing/organiser'

forEachDialect(
  'self check-in',
  (h) => {
    let admin: Agent & { agencyId: number; accountId: number }
    test('setup', async () => {
      admin = await h().admin()
    })
    const selfEvent = (o: Record<string, unknown> = {}) => createEvent(admin, { allowSelfCheckin: true, allowSelfCheckout: true, ...o })
    async function guestWithToken(eventId: number, escorts = 2) {
      const escortPersons = [{ firstName: 'Eva', lastName: 'Eins' }, { firstName: 'Zoe', lastName: 'Zwei' }].slice(0, escorts)
      const g = await addGuest(admin, eventId, { status: 'CONFIRMED', escortPersons })
      const row = await h().ctx.db.selectFrom('event_visitor').select('event_token').where('id', '=', g.id).executeTakeFirstOrThrow()
      return { ...g, token: row.event_token }
    }
    const anon = () => h().agent()
    const prepare = (token: string) => anon().post('/proxy/api/guest/prepareCheckin', { token })
    const io = (body: Record<string, unknown>) => anon().post('/proxy/api/guest/checkInOut', { origin: 'selfcheckin', ...body })

    test('prepareCheckin: the persons with their state and the rights; an unknown token answers 404', async () => {
      const e = await selfEvent({ checkinTarget: 'EVENT_PAGE' })
      const g = await guestWithToken(e.id)
      const r = await prepare(g.token)
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({
        id: g.id,
        firstName: 'Grete',
        visitorCount: 3,
        checkinCount: 0,
        checkoutCount: 0,
        mainGuestCheckedIn: false,
        allowSelfCheckin: true,
        allowSelfCheckout: true,
        checkinOpened: true,
        checkinTarget: 'EVENT_PAGE',
        event: { id: e.id, displayName: 'Sommerfest' },
        agreements: [],
        missingAgreements: [],
      })
      expect(r.body.checkinUrl).toEndWith(`/public/event/${e.id}`)
      expect(r.body.escortPersons.map((p: any) => [p.number, p.firstName, p.checkState])).toEqual([
        [1, 'Eva', 'OPEN'],
        [2, 'Zoe', 'OPEN'],
      ])
      expect(typeof r.body.tokens.downloadToken).toBe('string')
      expect((await prepare('nichtdaxxxxxxxxxxxxxx')).status).toBe(404)
      expect((await io({ token: 'nichtdaxxxxxxxxxxxxxx', checkinGuests: [0] })).status).toBe(404)
      const bad = await anon().post('/proxy/api/guest/prepareCheckin', {})
      expect(bad.status).toBe(400)
    })

    test('check in a selection, the rest, all in; check out; re-entry after check-out; counts refresh; redirect after check-in', async () => {
      const e = await selfEvent({ checkinTarget: 'CUSTOM', checkinUrl: 'https://example.org/live' })
      const g = await guestWithToken(e.id)
      const one = await io({ token: g.token, checkinGuests: [0, 2] })
      expect(one.status).toBe(200)
      expect(one.body).toMatchObject({ checkedIn: [0, 2], checkedOut: [], checkinCount: 2, checkoutCount: 0, mainGuestCheckedIn: true, status: 'APPEARED', redirectUrl: 'https://example.org/live' })
      const twice = await io({ token: g.token, checkinGuests: [2] })
      expect(twice.status).toBe(409)
      expect(twice.body).toMatchObject({ errorType: 'ALREADY_CHECKED_IN', errorMessage: 'Zoe Zwei ist bereits eingecheckt.' })
      expect((await io({ token: g.token, checkinGuests: [1] })).body.checkinCount).toBe(3)
      const out = await io({ token: g.token, checkoutGuests: [0, 1, 2] })
      expect(out.body).toMatchObject({ checkedOut: [0, 1, 2], checkinCount: 0, checkoutCount: 3, redirectUrl: null })
      const outAgain = await io({ token: g.token, checkoutGuests: [1] })
      expect(outAgain.body).toMatchObject({ errorType: 'NOT_CHECKED_IN', errorMessage: 'Eva Eins ist nicht eingecheckt.' })
      // re-entry (docs/organiser.md, Check-in: the second reading)
      const back = await io({ token: g.token, checkinGuests: [1] })
      expect(back.status).toBe(200)
      expect(back.body.escortPersons[0].checkState).toBe('CHECKED_IN')
      expect((await prepare(g.token)).body).toMatchObject({ checkinCount: 1, checkoutCount: 2 })
      // the desk sees the same state and the self check-in origin
      const presence = await h().ctx.db.selectFrom('presence').select(['person', 'origin']).where('visitor_id', '=', g.id).orderBy('id').execute()
      expect(presence.map((p) => p.origin)).toEqual(['SELF', 'SELF', 'SELF', 'SELF'])
      expect((await admin.get(`/proxy/api/events/${e.id}/checkin/counts`)).body).toEqual({ registered: 3, checkedIn: 1, checkedOut: 2 })
    })

    test('no guests selected; no self check-in or check-out right; closed until checkinOpenDate', async () => {
      const e = await selfEvent()
      const g = await guestWithToken(e.id, 0)
      const none = await io({ token: g.token, checkinGuests: [], checkoutGuests: [] })
      expect(none.status).toBe(400)
      expect(none.body).toMatchObject({ errorType: 'NO_GUESTS_SELECTED', errorMessage: 'Es wurden keine Gästen ausgewählt.' })
      const unknownPerson = await io({ token: g.token, checkinGuests: [5] })
      expect(unknownPerson.status).toBe(400)

      const inOnly = await selfEvent({ allowSelfCheckout: false })
      const g2 = await guestWithToken(inOnly.id, 0)
      expect((await io({ token: g2.token, checkinGuests: [0] })).status).toBe(200)
      const refused = await io({ token: g2.token, checkoutGuests: [0] })
      expect(refused.status).toBe(403)
      expect(refused.body).toMatchObject({ errorType: 'SELF_CHECKIN_NOT_ALLOWED', errorMessage: 'Sie haben keine Berechtigung zum Ein- oder Auschecken.' })

      const noSelf = await createEvent(admin)
      const g3 = await guestWithToken(noSelf.id, 0)
      expect((await prepare(g3.token)).body).toMatchObject({ allowSelfCheckin: false, allowSelfCheckout: false })
      expect((await io({ token: g3.token, checkinGuests: [0] })).body.errorType).toBe('SELF_CHECKIN_NOT_ALLOWED')

      const opens = new Date(Date.now() + 3 * 86400_000)
      opens.setUTCHours(16, 30, 0, 0)
      const later = await selfEvent({ checkinOpenDate: opens.toISOString() })
      const g4 = await guestWithToken(later.id, 0)
      expect((await prepare(g4.token)).body).toMatchObject({ checkinOpened: false, checkinOpenDate: opens.toISOString() })
      const closed = await io({ token: g4.token, checkinGuests: [0] })
      expect(closed.status).toBe(409)
      expect(closed.body.errorType).toBe('CHECKIN_NOT_OPEN')
      expect(closed.body.errorMessage).toMatch(/^Der Check-in öffnet am \d\d\.\d\d\.\d{4} um 17:30 Uhr\.$/)
      h().clock.set(new Date(opens.getTime() + 1000))
      try {
        expect((await prepare(g4.token)).body.checkinOpened).toBe(true)
        expect((await io({ token: g4.token, checkinGuests: [0] })).status).toBe(200)
      } finally {
        h().clock.set(new Date())
      }
      // a registration that is not confirmed cannot check in
      const pending = await addGuest(admin, e.id, { status: 'ADDED' })
      const tok = (await h().ctx.db.selectFrom('event_visitor').select('event_token').where('id', '=', pending.id).executeTakeFirstOrThrow()).event_token
      expect((await io({ token: tok, checkinGuests: [0] })).body.errorType).toBe('CHECKIN_STATUS')
    })

    test('required agreements: missing ones refuse; signed in the dialog they are stored immutably with origin SELF_CHECKIN', async () => {
      const own = await h().admin()
      const e = await createEvent(own, { allowSelfCheckin: true })
      const req = (await own.post('/proxy/api/agreements', { displayName: 'Hausordnung', validity: 'EVENT', eventId: e.id, description: '<p>Version eins</p>' })).body
      const opt = (await own.post('/proxy/api/agreements', { displayName: 'Fotos', validity: 'EVENT', eventId: e.id, appearance: 'VISIBLE' })).body
      const g = await addGuest(own, e.id, { status: 'CONFIRMED' })
      const token = (await h().ctx.db.selectFrom('event_visitor').select('event_token').where('id', '=', g.id).executeTakeFirstOrThrow()).event_token
      expect((await prepare(token)).body.missingAgreements).toEqual([{ id: req.id, displayName: 'Hausordnung' }])
      const missing = await io({ token, checkinGuests: [0] })
      expect(missing.status).toBe(409)
      expect(missing.body).toMatchObject({ errorType: 'AGREEMENTS_MISSING', missingAgreements: [{ id: req.id }] })
      const unsigned = await io({ token, checkinGuests: [0], agreements: [{ id: req.id, status: 'CONFIRMED', signature: null }] })
      expect(unsigned.body.errorFields).toEqual([{ field: 'agreements.0.signature', errorType: 'SIGNATURE_REQUIRED' }])
      const declineRequired = await io({ token, checkinGuests: [0], agreements: [{ id: req.id, status: 'DECLINED' }] })
      expect(declineRequired.body.errorType).toBe('AGREEMENT_REQUIRED')
      // the organiser changes the text: the signature names version 2 and keeps the text shown
      await own.put(`/proxy/api/agreements/${req.id}`, { displayName: 'Hausordnung', validity: 'EVENT', eventId: e.id, description: '<p>Version zwei</p>' })
      const ok = await io({
        token,
        checkinGuests: [0],
        agreements: [
          { id: req.id, status: 'CONFIRMED', signature: PNG },
          { id: opt.id, status: 'DECLINED' },
        ],
      })
      expect(ok.status).toBe(200)
      expect(ok.body.missingAgreements).toEqual([])
      expect(ok.body.agreements.map((a: any) => [a.displayName, a.status, a.origin])).toEqual([
        ['Hausordnung', 'CONFIRMED', 'SELF_CHECKIN'],
        ['Fotos', 'DECLINED', 'SELF_CHECKIN'],
      ])
      const log = await h().ctx.db.selectFrom('agreement_signature').selectAll().where('visitor_id', '=', g.id).orderBy('id').execute()
      expect(log.map((l) => [l.agreement_name, l.status, l.agreement_version, l.agreement_text, l.origin, l.signature === PNG])).toEqual([
        ['Hausordnung', 'CONFIRMED', 2, '<p>Version zwei</p>', 'SELF_CHECKIN', true],
        ['Fotos', 'DECLINED', 1, '', 'SELF_CHECKIN', false],
      ])
      // the organiser reads the record; re-signing adds to it and changes nothing recorded before
      await io({ token, checkoutGuests: [0], agreements: [{ id: opt.id, status: 'CONFIRMED', signature: PNG }] }).then((r) => expect(r.status).toBe(403))
      const resigned = await own.post(`/proxy/api/events/${e.id}/visitors/${g.id}/agreements`, { agreements: [{ id: opt.id, status: 'CONFIRMED', signature: PNG }] })
      expect(resigned.status).toBe(200)
      const record = await own.get(`/proxy/api/agreements/signatures/log?visitorId=${g.id}`)
      expect(record.body.map((r: any) => [r.displayName, r.status, r.version, r.origin, r.hasSignature])).toEqual([
        ['Hausordnung', 'CONFIRMED', 2, 'SELF_CHECKIN', true],
        ['Fotos', 'DECLINED', 1, 'SELF_CHECKIN', false],
        ['Fotos', 'CONFIRMED', 1, 'DESK', true],
      ])
      expect(record.body[0].description).toBe('<p>Version zwei</p>')
      const img = await own.get(`/proxy/api/agreements/signatures/log/${record.body[0].id}/signature`)
      expect([img.status, img.headers.get('content-type')]).toEqual([200, 'image/png'])
      expect((await admin.get(`/proxy/api/agreements/signatures/log?visitorId=${g.id}`)).status).toBe(404)
      expect((await admin.get(`/proxy/api/agreements/signatures/log/${record.body[0].id}/signature`)).status).toBe(404)
    })

    test('100 concurrent self check-ins of one person: exactly one goes through', async () => {
      const e = await selfEvent()
      const g = await guestWithToken(e.id, 0)
      const results = await Promise.all(Array.from({ length: 100 }, () => io({ token: g.token, checkinGuests: [0] })))
      const statuses = results.map((r) => r.status)
      expect(statuses.filter((s) => s === 200).length).toBe(1)
      expect(statuses.filter((s) => s === 409).length).toBe(99)
      const presence = await h().ctx.db.selectFrom('presence').select('id').where('visitor_id', '=', g.id).execute()
      expect(presence.length).toBe(1)
      expect((await admin.get(`/proxy/api/events/${e.id}/checkin/counts`)).body).toEqual({ registered: 1, checkedIn: 1, checkedOut: 0 })
    })

    test('the desk and self check-in race on one person: one check-in', async () => {
      const e = await selfEvent()
      const g = await guestWithToken(e.id, 0)
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? io({ token: g.token, checkinGuests: [0] }) : admin.post(`/proxy/api/events/${e.id}/checkin`, { visitorId: g.id, checkinGuests: [0], nonce: `race-${i}-${crypto.randomUUID()}` }))),
      )
      expect(results.filter((r) => r.status === 200).length).toBe(1)
      expect((await h().ctx.db.selectFrom('presence').select('id').where('visitor_id', '=', g.id).execute()).length).toBe(1)
    })
  },
  { license: licenseWith([], { events: -1 }) },
)
