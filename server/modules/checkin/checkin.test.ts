import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent, licenseWith } from '../../testing/organiser'

forEachDialect(
  'check-in desk',
  (h) => {
    let admin: Agent & { agencyId: number; accountId: number }
    let nonceSeq = 0
    const nonce = () => `n-${Date.now()}-${nonceSeq++}`
    test('setup', async () => {
      admin = await h().admin()
    })
    async function ticketGuest(eventId: number, body: Record<string, unknown> = {}) {
      const g = await addGuest(admin, eventId, { status: 'CONFIRMED', escortPersons: [{ firstName: 'Eva', lastName: 'Eins' }, { firstName: 'Zoe', lastName: 'Zwei' }], ...body })
      const d = await admin.get(`/proxy/api/events/${eventId}/visitors/${g.id}`)
      expect(d.body.ticketCode).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/)
      return { ...g, ticketCode: d.body.ticketCode as string } as { id: number; email: string; ticketCode: string }
    }
    const checkin = (eventId: number, body: Record<string, unknown>) => admin.post(`/proxy/api/events/${eventId}/checkin`, { nonce: nonce(), ...body })

    test('lookup by code (any case, spaces, without dash); other event and unknown codes', async () => {
      const e = await createEvent(admin)
      const g = await ticketGuest(e.id)
      const typed = ` ${g.ticketCode.replace('-', '').toLowerCase().replace(/0/g, 'o')} `
      const r = await admin.get(`/proxy/api/events/${e.id}/checkin/lookup?code=${encodeURIComponent(typed)}`)
      expect(r.status).toBe(200)
      expect(r.body.items[0]).toMatchObject({ id: g.id, status: 'CONFIRMED', canCheckin: true, ticketCode: g.ticketCode })
      expect(r.body.items[0].persons.map((p: any) => [p.person, p.firstName, p.checkState])).toEqual([
        [0, 'Grete', 'OPEN'],
        [1, 'Eva', 'OPEN'],
        [2, 'Zoe', 'OPEN'],
      ])
      const other = await createEvent(admin, { displayName: 'Andere' })
      const wrong = await admin.get(`/proxy/api/events/${other.id}/checkin/lookup?code=${g.ticketCode}`)
      expect(wrong.status).toBe(409)
      expect(wrong.body.errorMessage).toBe('Dieses Ticket gehört zu „Sommerfest“.')
      const none = await admin.get(`/proxy/api/events/${e.id}/checkin/lookup?code=ABCDE-FGHJK`)
      expect(none.status).toBe(404)
      expect(none.body).toMatchObject({ errorType: 'TICKET_NOT_FOUND', errorMessage: 'Zu diesem Code gibt es kein Ticket.' })
      const byName = await admin.get(`/proxy/api/events/${e.id}/checkin/lookup?search=grete`)
      expect(byName.body.items.map((x: any) => x.id)).toEqual([g.id])
    })

    test('a second scan shows when and by whom the person was checked in (issue 10, desk alert)', async () => {
      const e = await createEvent(admin)
      const g = await ticketGuest(e.id)
      const before = await admin.get(`/proxy/api/events/${e.id}/checkin/lookup?code=${g.ticketCode}`)
      expect(before.body.items[0].persons[0]).toMatchObject({ checkState: 'OPEN', checkinDate: null })
      expect(before.body.items[0].persons[0].checkinBy).toBeUndefined()
      expect((await checkin(e.id, { code: g.ticketCode, checkinGuests: [0] })).status).toBe(200)
      const again = await admin.get(`/proxy/api/events/${e.id}/checkin/lookup?code=${g.ticketCode}`)
      const [main, escort] = again.body.items[0].persons
      const me = await h().ctx.db.selectFrom('account').select(['first_name', 'last_name']).where('id', '=', admin.accountId).executeTakeFirstOrThrow()
      expect(main).toMatchObject({ checkState: 'CHECKED_IN', checkinBy: [me.first_name, me.last_name].filter(Boolean).join(' '), checkinOrigin: 'DESK' })
      expect(main.checkinBy).toBeTruthy()
      expect(Date.parse(main.checkinDate)).toBeGreaterThan(0)
      expect(escort.checkState).toBe('OPEN')
      expect(escort.checkinBy).toBeUndefined()
    })

    test('check in all, counts, status APPEARED, presence; check out one, re-entry; refusals', async () => {
      const e = await createEvent(admin)
      const g = await ticketGuest(e.id)
      const r = await checkin(e.id, { code: g.ticketCode, checkinGuests: 'ALL', note: 'Eingang Nord' })
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ replayed: false, visitorId: g.id, status: 'APPEARED', checkedIn: [0, 1, 2] })
      expect(await (await admin.get(`/proxy/api/events/${e.id}/checkin/counts`)).body).toEqual({ registered: 3, checkedIn: 3, checkedOut: 0 })
      const again = await checkin(e.id, { code: g.ticketCode, checkinGuests: 'ALL' })
      expect(again.status).toBe(409)
      expect(again.body).toMatchObject({ errorType: 'ALL_CHECKED_IN', errorMessage: 'Alle Personen sind bereits eingecheckt.' })
      const one = await checkin(e.id, { code: g.ticketCode, checkinGuests: [1] })
      expect(one.body.errorMessage).toBe('Eva Eins ist bereits eingecheckt.')
      const out = await checkin(e.id, { visitorId: g.id, checkoutGuests: [1] })
      expect(out.body.persons[1].checkState).toBe('CHECKED_OUT')
      expect((await checkin(e.id, { visitorId: g.id, checkoutGuests: [1] })).body.errorMessage).toBe('Eva Eins ist nicht eingecheckt.')
      expect(await (await admin.get(`/proxy/api/events/${e.id}/checkin/counts`)).body).toEqual({ registered: 3, checkedIn: 2, checkedOut: 1 })
      // re-entry of a checked-out person (the second reading of guest-side.md 5)
      const back = await checkin(e.id, { visitorId: g.id, checkinGuests: [1] })
      expect(back.body.persons[1].checkState).toBe('CHECKED_IN')
      const d = await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)
      expect(d.body.presentDates.filter((p: any) => p.person === 1).map((p: any) => Boolean(p.checkout))).toEqual([true, false])
      expect(d.body.presentDates.find((p: any) => p.person === 0)).toMatchObject({ note: 'Eingang Nord', origin: 'DESK', user: admin.accountId })
      const none = await checkin(e.id, { visitorId: g.id })
      expect(none.status).toBe(400)
      expect(none.body.errorFields).toEqual([{ field: 'checkinGuests', errorType: 'NO_GUESTS_SELECTED' }])
    })

    test('check-out needs a check-in; only CONFIRMED/APPEARED registrations check in', async () => {
      const e = await createEvent(admin)
      const g = await ticketGuest(e.id)
      const out = await checkin(e.id, { visitorId: g.id, checkoutGuests: [0] })
      expect(out.body.errorMessage).toBe('Grete Gast ist nicht eingecheckt.')
      const invited = await addGuest(admin, e.id)
      const r = await checkin(e.id, { visitorId: invited.id, checkinGuests: 'ALL' })
      expect(r.status).toBe(409)
      expect(r.body.errorType).toBe('CHECKIN_STATUS')
    })

    test('a retried request (same nonce) is a no-op that returns the first answer', async () => {
      const e = await createEvent(admin)
      const g = await ticketGuest(e.id)
      const n = nonce()
      const first = await admin.post(`/proxy/api/events/${e.id}/checkin`, { code: g.ticketCode, checkinGuests: [0], nonce: n })
      const second = await admin.post(`/proxy/api/events/${e.id}/checkin`, { code: g.ticketCode, checkinGuests: [0], nonce: n })
      expect(first.body.replayed).toBe(false)
      expect(second.status).toBe(200)
      expect(second.body).toMatchObject({ replayed: true, checkedIn: [0], visitorId: g.id })
      const rows = await h().ctx.db.selectFrom('presence').select('id').where('visitor_id', '=', g.id).execute()
      expect(rows).toHaveLength(1)
    })

    test('100 concurrent requests for one ticket: exactly one check-in', async () => {
      const e = await createEvent(admin)
      const g = await ticketGuest(e.id, { escortPersons: [] })
      const rs = await Promise.all(Array.from({ length: 100 }, () => admin.post(`/proxy/api/events/${e.id}/checkin`, { code: g.ticketCode, checkinGuests: 'ALL', nonce: nonce() })))
      const ok = rs.filter((r) => r.status === 200)
      expect(ok).toHaveLength(1)
      expect(rs.filter((r) => r.status === 409).every((r) => ['ALL_CHECKED_IN', 'ALREADY_CHECKED_IN'].includes(r.body.errorType))).toBe(true)
      expect(rs.filter((r) => r.status === 409)).toHaveLength(99)
      const rows = await h().ctx.db.selectFrom('presence').select('id').where('visitor_id', '=', g.id).execute()
      expect(rows).toHaveLength(1)
      // and the same nonce 30 times at once: one check-in, every answer a success
      const g2 = await ticketGuest(e.id, { escortPersons: [] })
      const n = nonce()
      const same = await Promise.all(Array.from({ length: 30 }, () => admin.post(`/proxy/api/events/${e.id}/checkin`, { code: g2.ticketCode, checkinGuests: [0], nonce: n })))
      expect(same.filter((r) => r.status === 200).length + same.filter((r) => r.body.errorType === 'ALREADY_CHECKED_IN').length).toBe(30)
      expect(same.filter((r) => r.status === 200 && r.body.replayed === false)).toHaveLength(1)
      expect(await h().ctx.db.selectFrom('presence').select('id').where('visitor_id', '=', g2.id).execute()).toHaveLength(1)
    })

    test('missing REQUIRED agreements refuse unless ignored', async () => {
      const e = await createEvent(admin)
      const g = await ticketGuest(e.id)
      await h().ctx.db.insertInto('agreement').values({ agency_id: admin.agencyId, event_id: e.id, validity: 'EVENT', display_name: 'Foto-Einwilligung', appearance: 'REQUIRED' }).execute()
      // written past the service: the desk sees it at once (the 'setup' counter's trigger)
      const r = await checkin(e.id, { code: g.ticketCode, checkinGuests: 'ALL' })
      expect(r.status).toBe(409)
      expect(r.body).toMatchObject({ errorType: 'AGREEMENTS_MISSING', missingAgreements: [{ displayName: 'Foto-Einwilligung' }] })
      const look = await admin.get(`/proxy/api/events/${e.id}/checkin/lookup?code=${g.ticketCode}`)
      expect(look.body.items[0].missingAgreements).toMatchObject([{ displayName: 'Foto-Einwilligung' }])
      expect((await checkin(e.id, { code: g.ticketCode, checkinGuests: 'ALL', ignoreMissingAgreements: true })).status).toBe(200)
    })

    test('the guest sees the ticket QR of a registered event; staff with the checkin role may check in; others 404', async () => {
      const e = await createEvent(admin)
      const g = await ticketGuest(e.id)
      const user = await h().ctx.db.selectFrom('app_user').select('id').where('email', '=', g.email).executeTakeFirst()
      const { issueAccessToken, GUEST_ACCESS } = await import('../identity/access-tokens')
      const userId = user?.id ?? (await h().ctx.db.insertInto('app_user').values({ email: g.email, status: 'OK' }).returning('id').executeTakeFirstOrThrow()).id
      await h().ctx.db.updateTable('event_visitor').set({ user_id: userId }).where('id', '=', g.id).execute()
      const token = await issueAccessToken(h().ctx, h().ctx.db, userId, GUEST_ACCESS)
      const t = await h().request('GET', `/proxy/api/guest/events/visitors/${g.id}/ticket`, { headers: { 'x-guest-token': token } })
      expect(t.status).toBe(200)
      expect(t.body.ticketCode).toBe(g.ticketCode)
      expect(t.body.qrSvg).toStartWith('<svg')
      expect((await h().request('GET', `/proxy/api/guest/events/visitors/${g.id}/ticket`)).status).toBe(401)
      const other = await h().admin()
      expect((await other.post(`/proxy/api/events/${e.id}/checkin`, { code: g.ticketCode, checkinGuests: 'ALL', nonce: nonce() })).status).toBe(404)
      await h().ctx.db.updateTable('account').set({ user_role: 'AGENCY_CHECKIN' }).where('id', '=', admin.accountId).execute()
      expect((await checkin(e.id, { code: g.ticketCode, checkinGuests: [0] })).status).toBe(200)
      expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/delete`)).status).toBe(403)
      await h().ctx.db.updateTable('account').set({ user_role: 'AGENCY_ADMIN' }).where('id', '=', admin.accountId).execute()
    })
  },
  { license: licenseWith([], { events: -1 }) },
)
