import { expect, test } from 'bun:test'
import { forEachDialect, uniqueEmail } from '../../testing/harness'
import { addGuest, createEvent } from '../../testing/organiser'
import { attributeShortLink } from './service'

forEachDialect('short links, contact parser, statistics', (h) => {
  test('create (random or own code), search, redirect counts clicks, delete needs the code; attribution', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const tag = (await admin.post('/proxy/api/tags', { displayName: 'Plakat' })).body
    const camp = (await admin.post('/proxy/api/campaigns', { displayName: 'Sommer' })).body
    const a = await admin.post('/proxy/api/shortLinks', { eventId: e.id, tagIds: [tag.id], campaignId: camp.id })
    expect(a.status).toBe(201)
    expect(a.body.code).toMatch(/^[a-z2-9]{6}$/)
    expect(a.body.url).toBe(`http://localhost/s/${a.body.code}`)
    const own = await admin.post('/proxy/api/shortLinks', { eventId: e.id, code: 'Sommer26' })
    expect(own.body.code).toBe('sommer26')
    const taken = await admin.post('/proxy/api/shortLinks', { eventId: e.id, code: 'SOMMER26' })
    expect(taken.status).toBe(409)
    expect(taken.body.errorType).toBe('SHORT_LINK_TAKEN')
    const go = await h().request('GET', '/s/SOMMER26')
    expect(go.status).toBe(302)
    expect(go.headers.get('location')).toBe(`/public/event/${e.id}?sl=sommer26`)
    expect((await h().request('GET', '/s/nope12')).status).toBe(404)
    const list = await admin.post('/proxy/api/tags/shortLinks', { eventId: e.id })
    expect(list.body.map((x: any) => [x.code, x.clicks])).toContainEqual(['sommer26', 1])
    expect((await admin.post('/proxy/api/tags/shortLinks', { search: 'somm' })).body).toHaveLength(1)
    const wrong = await admin.delete(`/proxy/api/shortLinks/${own.body.id}`, { code: 'falsch' })
    expect(wrong.body.errorFields).toEqual([{ field: 'code', errorType: 'CODE_MISMATCH' }])
    const other = await h().admin()
    expect((await other.delete(`/proxy/api/shortLinks/${own.body.id}`, { code: 'sommer26' })).status).toBe(404)
    expect((await admin.delete(`/proxy/api/shortLinks/${own.body.id}`, { code: 'sommer26' })).status).toBe(200)
    const g = await addGuest(admin, e.id)
    await attributeShortLink(h().ctx.db, g.id, e.id, a.body.code)
    const d = await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)
    expect(d.body.tags.map((t: any) => t.id)).toEqual([tag.id])
    expect(d.body.campaigns.map((t: any) => t.id)).toEqual([camp.id])
  })

  test('a public registration through a short link gets its tags and campaign; unknown or other events\' codes attach nothing', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const elsewhere = await createEvent(admin)
    const tag = (await admin.post('/proxy/api/tags', { displayName: 'Flyer' })).body
    const tag2 = (await admin.post('/proxy/api/tags', { displayName: 'Messe' })).body
    const camp = (await admin.post('/proxy/api/campaigns', { displayName: 'Herbst' })).body
    const link = (await admin.post('/proxy/api/shortLinks', { eventId: e.id, tagIds: [tag.id, tag2.id], campaignId: camp.id })).body
    const otherLink = (await admin.post('/proxy/api/shortLinks', { eventId: elsewhere.id, tagIds: [tag.id] })).body
    // the redirect hands the code to the page, which sends it along with the registration
    const sl = new URL((await h().request('GET', `/s/${link.code.toUpperCase()}`)).headers.get('location')!, 'http://localhost').searchParams.get('sl')
    const register = (shortLink: string | null) =>
      h().request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Sina', lastName: 'Link', email: uniqueEmail('sl'), shortLink } })
    const labels = async (visitorId: number) => {
      const d = (await admin.get(`/proxy/api/events/${e.id}/visitors/${visitorId}`)).body
      return { tags: d.tags.map((t: any) => t.id).sort(), campaigns: d.campaigns.map((c: any) => c.id) }
    }
    const via = await register(sl)
    expect(via.status).toBe(201)
    expect(await labels(via.body.visitorId)).toEqual({ tags: [tag.id, tag2.id].sort(), campaigns: [camp.id] })
    for (const code of [null, 'unbekannt', otherLink.code]) {
      const r = await register(code)
      expect(r.status).toBe(201)
      expect(await labels(r.body.visitorId)).toEqual({ tags: [], campaigns: [] })
    }
    // an entry the guest takes over keeps its own tags and gains the link's
    const invited = await addGuest(admin, e.id, { tags: [tag2.id] })
    // through the guest's own invitation (its event token): strangers with the e-mail are refused
    const token = (await h().ctx.db.selectFrom('event_visitor').select('event_token').where('id', '=', invited.id).executeTakeFirstOrThrow()).event_token
    const over = await h().request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Ina', lastName: 'Vite', email: invited.email, shortLink: link.code }, headers: { 'x-guest-token': token } })
    expect(over.body.visitorId).toBe(invited.id)
    expect(await labels(invited.id)).toEqual({ tags: [tag.id, tag2.id].sort(), campaigns: [camp.id] })
  })

  test('parser: vCard 3.0 with folding, escapes and address; vCard 2.1 quoted-printable; MECARD; unknown', async () => {
    const vcard = 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Müller;Anna;;Dr.;\r\nFN:Dr. Anna Müller\r\nORG:ACME GmbH;Vertrieb\r\nTITLE:Leiterin\\, Vertrieb\r\nEMAIL;TYPE=INTERNET:Anna@Example.org\r\nTEL;TYPE=CELL:+49 171 1234567\r\nTEL;TYPE=WORK:+49 30 123\r\nADR;TYPE=WORK:;;Hauptstraße 5a;Berlin;;10115;Deutschland\r\nURL:https://acme.example\r\nEND:VCARD'
    const r = await h().request('POST', '/proxy/api/public/parser', { body: { data: vcard } })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      salutation: null,
      title: 'Dr.',
      firstName: 'Anna',
      lastName: 'Müller',
      email: 'anna@example.org',
      company: 'ACME GmbH',
      position: 'Leiterin, Vertrieb',
      phoneNumber: '+49 30 123',
      mobilePhoneNumber: '+49 171 1234567',
      web: 'https://acme.example',
      address: { street: 'Hauptstraße', streetNumber: '5a', postCode: '10115', city: 'Berlin', country: 'DEU' },
    })
    const v21 = 'BEGIN:VCARD\nVERSION:2.1\nN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:J=C3=BCrgen;Paul;;Herr\nEMAIL:p@example.org\nEND:VCARD'
    expect((await h().request('POST', '/proxy/api/public/parser', { body: { data: v21 } })).body).toMatchObject({ lastName: 'Jürgen', firstName: 'Paul', salutation: 'Herr' })
    const me = await h().request('POST', '/proxy/api/public/parser', { body: { data: 'MECARD:N:Doe,John;TEL:+4930111;EMAIL:john@example.org;ORG:Foo\\; Bar;ADR:,,Ring 1,Wien,,1010,Österreich;URL:https\\://x.example;;' } })
    expect(me.body).toMatchObject({ lastName: 'Doe', firstName: 'John', phoneNumber: '+4930111', email: 'john@example.org', company: 'Foo; Bar', web: 'https://x.example', address: { street: 'Ring', streetNumber: '1', city: 'Wien', postCode: '1010', country: 'AUT' } })
    const bad = await h().request('POST', '/proxy/api/public/parser', { body: { data: 'hello' } })
    expect(bad.status).toBe(400)
    expect(bad.body.errorType).toBe('PARSER_UNKNOWN_FORMAT')
  })

  test('statistics: registrations per day, status counts, check-in curve', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const a = await addGuest(admin, e.id, { status: 'CONFIRMED', escortPersons: [{ firstName: 'E', lastName: 'S' }] })
    await addGuest(admin, e.id, { status: 'CONFIRMED' })
    await addGuest(admin, e.id)
    await admin.post(`/proxy/api/events/${e.id}/checkin`, { visitorId: a.id, checkinGuests: 'ALL' })
    await admin.post(`/proxy/api/events/${e.id}/checkin`, { visitorId: a.id, checkoutGuests: [1] })
    const s = await admin.get(`/proxy/api/events/${e.id}/statistics`)
    expect(s.status).toBe(200)
    expect(s.body.registrations).toHaveLength(1)
    expect(s.body.registrations[0]).toMatchObject({ registrations: 2, persons: 3, cumulativePersons: 3 })
    expect(s.body.statusCounts).toEqual({ ADDED: { registrations: 1, persons: 1 }, APPEARED: { registrations: 1, persons: 2 }, CONFIRMED: { registrations: 1, persons: 1 } })
    expect(s.body.checkins.at(-1)).toMatchObject({ present: 1 })
    expect(s.body.checkins.reduce((x: number, c: any) => x + c.checkins, 0)).toBe(2)
    expect(s.body.totals).toMatchObject({ registrations: 2, persons: 3, checkins: 2, presentNow: 1 })
    const other = await h().admin()
    expect((await other.get(`/proxy/api/events/${e.id}/statistics`)).status).toBe(404)
  })
})
