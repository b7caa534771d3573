import { expect, test } from 'bun:test'
import ICAL from 'ical.js'
import { formatDate, formatTime } from '../../i18n/format'
import { type Agent, eventBody, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent, licenseWith } from '../../testing/organiser'
import { verifyTicketCode } from '../checkin/signed-code'
import { guestWithToken, pageCount, pdfImages, pdfQrCodes, pdfText } from './test-helpers'
import { solidPng } from './wallet'

forEachDialect('guest documents: download tokens, ticket PDF, QR codes, calendar entry', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin({ agency: 'Agentur Nord' })
  })
  async function fetchRaw(path: string) {
    const res = await h().app.handle(new Request(`http://localhost${path}`, { redirect: 'manual' }))
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) }
  }

  test('the dashboard carries ticket and calendar tokens for a registered guest, nothing for others; wallet only when set up', async () => {
    const e = await createEvent(admin)
    const g = await guestWithToken(h(), admin, e.id)
    const dash = await g.guest.get('/proxy/api/guest/events')
    expect(dash.status).toBe(200)
    const entry = dash.body.confirmedEvents.find((x: any) => x.id === g.id)
    expect(Object.keys(entry.tokens).sort()).toEqual(['downloadLinkIcs', 'downloadLinkNameTags', 'downloadLinkTicket', 'downloadToken', 'downloadTokenIcs'])
    expect(entry.tokens.downloadToken).toMatch(/^[a-z2-7]{32}$/)
    expect(entry.tokens.downloadTokenIcs).toMatch(/^[a-z2-7]{32}$/)
    expect(entry.tokens.downloadTokenIcs).not.toBe(entry.tokens.downloadToken)
    expect(entry.tokens.downloadLinkTicket).toBe(`/proxy/api/download/${entry.tokens.downloadToken}`)
    // stable across views
    const again = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id)
    expect(again.tokens).toEqual(entry.tokens)
    // an invited guest of the same user gets the invitation's token only (no ticket, calendar, wallet)
    const other = await createEvent(admin, { displayName: 'Winterball' })
    const inv = await addGuest(admin, other.id, { email: g.email })
    await h().ctx.db.updateTable('event_visitor').set({ user_id: g.userId, status: 'INVITED' }).where('id', '=', inv.id).execute()
    const dash2 = await g.guest.get('/proxy/api/guest/events')
    const invTokens = dash2.body.invitedEvents.find((x: any) => x.id === inv.id).tokens
    expect(Object.keys(invTokens).sort()).toEqual(['downloadLinkInvitation', 'downloadToken'])
    expect(invTokens.downloadLinkInvitation).toBe(`/proxy/api/download/${invTokens.downloadToken}/invitation`)
  })

  test('twenty first views at once agree on one calendar and one wallet token', async () => {
    const e = await createEvent(admin)
    const g = await guestWithToken(h(), admin, e.id)
    const views = await Promise.all(Array.from({ length: 20 }, () => g.guest.get('/proxy/api/guest/events')))
    const ics = new Set(views.map((v) => v.body.confirmedEvents.find((x: any) => x.id === g.id).tokens.downloadTokenIcs))
    expect(views.every((v) => v.status === 200)).toBe(true)
    expect(ics.size).toBe(1)
    const row = await h().ctx.db.selectFrom('event_visitor').select(['download_token_ics', 'download_token_wallet']).where('id', '=', g.id).executeTakeFirstOrThrow()
    expect([...ics]).toEqual([row.download_token_ics])
    expect(row.download_token_wallet).toMatch(/^[a-z2-7]{32}$/)
  })

  test('ticket PDF: German file name, text in the event\'s zone, place, names; one signed QR per person, accepted by the desk', async () => {
    const e = await createEvent(admin, { displayName: 'Sommerfest Größe', subTitle: 'Grüße aus Köln', street: 'Hauptstraße', streetNumber: '5', postCode: '50667', city: 'Köln' })
    const g = await guestWithToken(h(), admin, e.id, { firstName: 'Grete', lastName: 'Gäßler' })
    const tokens = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens
    const r = await fetchRaw(`/api/download/${tokens.downloadToken}`) // the /api alias
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/pdf')
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="Ticket Sommerfest Grosse.pdf"; filename*=UTF-8''${encodeURIComponent('Ticket Sommerfest Größe.pdf')}`)
    expect(new TextDecoder().decode(r.bytes.slice(0, 5))).toBe('%PDF-')
    const text = await pdfText(r.bytes)
    const start = new Date(e.startDate)
    for (const s of [
      'TICKET',
      'Sommerfest Größe',
      'Grüße aus Köln',
      formatDate(start, 'Europe/Berlin'),
      `${formatTime(start, 'Europe/Berlin')} – ${formatTime(new Date(e.endDate), 'Europe/Berlin')} Uhr`,
      'Zeitzone: Europe/Berlin',
      'Halle 7',
      'Hauptstraße 5',
      '50667 Köln',
      'Agentur Nord',
      'Grete Gäßler',
      'Jörg Müller',
      'Zoë Weiß',
      'Begleitperson 2',
    ])
      expect(text).toContain(s)
    expect(text).toMatch(/\d{2}\.\d{2}\.\d{4}/)
    const codes = await pdfQrCodes(r.bytes)
    expect(codes).toHaveLength(3)
    const decoded = codes.map((c) => verifyTicketCode(h().ctx.secrets.signingKey, c)).sort((a, b) => a!.person - b!.person)
    expect(decoded.map((d) => [d!.eventId, d!.visitorId, d!.person])).toEqual([
      [e.id, g.id, 0],
      [e.id, g.id, 1],
      [e.id, g.id, 2],
    ])
    // the desk finds the registration and the scanned person, and checks in with the scanned code
    const escortCode = codes.find((c) => verifyTicketCode(h().ctx.secrets.signingKey, c)!.person === 2)!
    const look = await admin.get(`/proxy/api/events/${e.id}/checkin/lookup?code=${encodeURIComponent(escortCode)}`)
    expect(look.status).toBe(200)
    expect(look.body.items[0]).toMatchObject({ id: g.id, scannedPerson: 2 })
    const ci = await admin.post(`/proxy/api/events/${e.id}/checkin`, { code: escortCode, checkinGuests: [2], nonce: `n-${Date.now()}` })
    expect(ci.status).toBe(200)
    expect(ci.body.checkedIn).toEqual([2])
    // today's short ticket code still works
    const plain = await admin.get(`/proxy/api/events/${e.id}/checkin/lookup?code=${look.body.items[0].ticketCode}`)
    expect(plain.body.items[0].id).toBe(g.id)
    // another event of the agency: the ticket belongs elsewhere
    const other = await createEvent(admin, { displayName: 'Andere' })
    const wrong = await admin.get(`/proxy/api/events/${other.id}/checkin/lookup?code=${encodeURIComponent(escortCode)}`)
    expect(wrong.status).toBe(409)
    expect(wrong.body.errorType).toBe('TICKET_OTHER_EVENT')
    // forged: the same shape with another visitor id and the old signature
    const forged = escortCode.replace(/^E1-(\w+)-(\w+)-/, (_m, ev) => `E1-${ev}-ZZZ-`)
    const f = await admin.get(`/proxy/api/events/${e.id}/checkin/lookup?code=${encodeURIComponent(forged)}`)
    expect(f.status).toBe(404)
    expect(f.body).toMatchObject({ errorType: 'TICKET_NOT_FOUND', errorMessage: 'Zu diesem Code gibt es kein Ticket.' })
    // a new ticket code (place passed on) retires the printed QR codes
    await h().ctx.db.updateTable('event_visitor').set({ ticket_code: 'NEWCODE123' }).where('id', '=', g.id).execute()
    expect((await admin.get(`/proxy/api/events/${e.id}/checkin/lookup?code=${encodeURIComponent(escortCode)}`)).status).toBe(404)
  })

  test('calendar entry: METHOD:PUBLISH, stable UID, the zone, place and link; SEQUENCE rises when date, place or title change', async () => {
    const e = await createEvent(admin, { displayName: 'Herbstgala', timezone: 'America/New_York' })
    const g = await guestWithToken(h(), admin, e.id)
    const tokens = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens
    const read = async () => {
      const r = await fetchRaw(tokens.downloadLinkIcs)
      expect(r.status).toBe(200)
      expect(r.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
      expect(r.headers.get('content-disposition')).toContain("filename*=UTF-8''Herbstgala.ics")
      const comp = new ICAL.Component(ICAL.parse(new TextDecoder().decode(r.bytes)))
      const vtz = comp.getFirstSubcomponent('vtimezone')!
      const ev = new ICAL.Event(comp.getFirstSubcomponent('vevent')!)
      ev.startDate.zone = new ICAL.Timezone(vtz)
      return { method: comp.getFirstPropertyValue('method'), tzid: vtz.getFirstPropertyValue('tzid'), uid: ev.uid, sequence: ev.sequence, start: ev.startDate.toJSDate().toISOString(), startTzid: comp.getFirstSubcomponent('vevent')!.getFirstProperty('dtstart')!.getParameter('tzid'), location: ev.location, url: comp.getFirstSubcomponent('vevent')!.getFirstPropertyValue('url'), summary: ev.summary, description: ev.description }
    }
    const first = await read()
    expect(first).toMatchObject({ method: 'PUBLISH', tzid: 'America/New_York', startTzid: 'America/New_York', sequence: 0, summary: 'Herbstgala', location: 'Halle 7, Berlin', url: `${h().ctx.config.baseUrl}/guest/dashboard` })
    expect(first.uid).toBe(`einlass-${g.id}-${e.id}@localhost`)
    expect(first.start).toBe(new Date(e.startDate).toISOString())
    expect(first.description).toContain(`${h().ctx.config.baseUrl}/guest/dashboard`)
    const put = (over: Record<string, unknown>) => admin.put(`/proxy/api/events/${e.id}`, eventBody({ displayName: 'Herbstgala', timezone: 'America/New_York', startDate: e.startDate, endDate: e.endDate, ...over }))
    expect((await put({ maxVisitors: 80 })).status).toBe(200)
    expect((await read()).sequence).toBe(0)
    expect((await put({ maxVisitors: 80, city: 'Hamburg' })).status).toBe(200)
    const moved = await read()
    expect(moved).toMatchObject({ uid: first.uid, sequence: 1, location: 'Halle 7, Hamburg' })
    const later = new Date(new Date(e.startDate).getTime() + 3600_000).toISOString()
    expect((await put({ maxVisitors: 80, city: 'Hamburg', startDate: later })).status).toBe(200)
    const changed = await read()
    expect(changed).toMatchObject({ uid: first.uid, sequence: 2, start: later })
  })

  test('made-up tokens, declined and deleted registrations and deleted events answer 404; prepareDownloadInvitation checks ownership', async () => {
    const e = await createEvent(admin)
    const g = await guestWithToken(h(), admin, e.id)
    const tokens = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens
    expect((await fetchRaw(`/proxy/api/download/${'a'.repeat(32)}`)).status).toBe(404)
    expect((await fetchRaw('/proxy/api/download/..%2F..%2Fetc')).status).toBe(404)
    expect((await fetchRaw(`/proxy/api/download/${tokens.downloadToken}/secret`)).status).toBe(404)
    expect((await fetchRaw(`/proxy/api/download/${tokens.downloadTokenIcs}/ticket`)).status).toBe(404)
    // the wallet is not set up: its token is not offered and answers 404
    const wallet = (await h().ctx.db.selectFrom('event_visitor').select('download_token_wallet').where('id', '=', g.id).executeTakeFirstOrThrow()).download_token_wallet!
    expect((await fetchRaw(`/proxy/api/download/${wallet}`)).status).toBe(404)
    // the invitation of someone else's registration
    const other = await guestWithToken(h(), admin, e.id)
    const foreign = await g.guest.post(`/proxy/api/guest/${other.id}/prepareDownloadInvitation`, {})
    expect(foreign.status).toBe(404)
    expect(foreign.body.errorType).toBe('NOT_FOUND')
    expect((await h().request('POST', `/proxy/api/guest/${g.id}/prepareDownloadInvitation`, { body: {} })).status).toBe(401)
    // the guest withdraws: every token is dead
    const rej = await g.guest.post(`/proxy/api/guest/events/${e.id}/reject`, { visitor: g.id })
    expect(rej.status).toBe(200)
    for (const t of [tokens.downloadToken, tokens.downloadTokenIcs]) expect((await fetchRaw(`/proxy/api/download/${t}`)).status).toBe(404)
    // deleted registration / deleted event
    const x = await guestWithToken(h(), admin, e.id)
    const xt = (await x.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((y: any) => y.id === x.id).tokens
    expect((await fetchRaw(`/proxy/api/download/${xt.downloadToken}`)).status).toBe(200)
    await h().ctx.db.updateTable('event_visitor').set({ status: 'DELETED' }).where('id', '=', x.id).execute()
    expect((await fetchRaw(`/proxy/api/download/${xt.downloadToken}`)).status).toBe(404)
    const y = await guestWithToken(h(), admin, e.id)
    const yt = (await y.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((z: any) => z.id === y.id).tokens
    expect((await admin.delete(`/proxy/api/events/${e.id}`)).status).toBe(200)
    expect((await fetchRaw(`/proxy/api/download/${yt.downloadTokenIcs}`)).status).toBe(404)
  })

  test('name tags: one tag per person with its QR; invitation PDF through prepareDownloadInvitation', async () => {
    const e = await createEvent(admin, { displayName: 'Tagung', eventType: 'ONLINE', meetingUrl: 'https://meet.example.org/tagung' })
    const g = await guestWithToken(h(), admin, e.id)
    const tokens = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens
    const tags = await fetchRaw(tokens.downloadLinkNameTags)
    expect(tags.status).toBe(200)
    expect(tags.headers.get('content-disposition')).toContain(encodeURIComponent('Namensschilder Tagung.pdf'))
    const text = await pdfText(tags.bytes)
    for (const s of ['Grete Gast', 'Jörg Müller', 'Zoë Weiß', 'Gast', 'Begleitperson 1']) expect(text).toContain(s)
    expect((await pdfQrCodes(tags.bytes)).map((c) => verifyTicketCode(h().ctx.secrets.signingKey, c)?.person).sort()).toEqual([0, 1, 2])
    // an online event's ticket says ONLINE and the access link
    const ticket = await pdfText((await fetchRaw(tokens.downloadLinkTicket)).bytes)
    expect(ticket).toContain('ONLINE')
    expect(ticket).toContain('https://meet.example.org/tagung')
    // invitation: an invited registration
    await h().ctx.db.updateTable('event_visitor').set({ status: 'INVITED' }).where('id', '=', g.id).execute()
    const prep = await g.guest.post(`/proxy/api/guest/${g.id}/prepareDownloadInvitation`, {})
    expect(prep.status).toBe(200)
    expect(prep.body).toEqual({ status: 'DONE', pending: false, downloadToken: tokens.downloadToken, downloadLink: `/proxy/api/download/${tokens.downloadToken}/invitation` })
    const inv = await fetchRaw(prep.body.downloadLink)
    expect(inv.status).toBe(200)
    expect(inv.headers.get('content-disposition')).toContain(encodeURIComponent('Einladung Tagung.pdf'))
    const invText = await pdfText(inv.bytes)
    for (const s of ['EINLADUNG', 'Tagung', 'Grete Gast', 'Sie sind herzlich eingeladen.', `${h().ctx.config.baseUrl}/guest/dashboard`]) expect(invText).toContain(s)
    // the ticket is for registered guests only; the plain token now gives the invitation
    expect((await fetchRaw(`/proxy/api/download/${tokens.downloadToken}/ticket`)).status).toBe(404)
    expect(await pdfText((await fetchRaw(`/proxy/api/download/${tokens.downloadToken}`)).bytes)).toContain('EINLADUNG')
  })

  test('the agency\'s logo (an upload of its own) is on the ticket; a foreign upload is refused', async () => {
    const upload = async (agent: Agent, png: Buffer) => {
      const form = new FormData()
      form.append('file', new File([new Uint8Array(png)], 'logo.png', { type: 'image/png' }))
      form.append('type', 'LOGO')
      form.append('secure', 'false')
      const r = await agent.request('POST', '/proxy/api/asset', { form })
      expect(r.status).toBe(201)
      return r.body.id as number
    }
    const logoPng = solidPng(120, [200, 30, 30])
    const own = await upload(admin, logoPng)
    const other = await h().admin()
    const foreign = await upload(other, logoPng)
    const bad = await admin.put('/proxy/api/agency/documentSettings', { logoAssetId: foreign })
    expect(bad.status).toBe(400)
    expect(bad.body.errorFields).toEqual([{ field: 'logoAssetId', errorType: 'INVALID' }])
    expect((await admin.put('/proxy/api/agency/documentSettings', { logoAssetId: own })).body.logoAssetId).toBe(own)
    const e = await createEvent(admin, { displayName: 'Mit Logo' })
    const g = await guestWithToken(h(), admin, e.id)
    const tokens = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens
    const pdf = (await fetchRaw(tokens.downloadLinkTicket)).bytes
    const images = await pdfImages(pdf)
    expect(images).toEqual([{ width: 120, height: 120 }])
    await admin.put('/proxy/api/agency/documentSettings', { logoAssetId: null })
    expect(await pdfImages((await fetchRaw(tokens.downloadLinkTicket)).bytes)).toEqual([])
  })

  test('a download again is served from memory; a changed name or escort is a new render', async () => {
    const e = await createEvent(admin, { displayName: 'Wiederholung' })
    const g = await guestWithToken(h(), admin, e.id)
    const link = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens.downloadLinkTicket
    const first = (await fetchRaw(link)).bytes
    expect((await fetchRaw(link)).bytes).toEqual(first)
    await h().ctx.db.updateTable('event_visitor').set({ first_name: 'Margarete' }).where('id', '=', g.id).execute()
    await h().ctx.db.updateTable('escort_person').set({ last_name: 'Meier' }).where('visitor_id', '=', g.id).where('number', '=', 1).execute()
    const text = await pdfText((await fetchRaw(link)).bytes)
    expect(text).toContain('Margarete Gast')
    expect(text).toContain('Jörg Meier')
    expect(text).not.toContain('Jörg Müller')
  })

  test('the document calls are in the OpenAPI document', async () => {
    const r = await h().request('GET', '/proxy/api/openapi.json')
    expect(r.status).toBe(200)
    const paths = Object.keys(r.body.paths)
    for (const p of ['/proxy/api/download/{token}', '/proxy/api/download/{token}/{document}', '/proxy/api/guest/{id}/prepareDownloadInvitation', '/proxy/api/agency/documentSettings']) expect(paths).toContain(p)
  })

  test('SYSTEM_COVIDOO: only the entry-ticket PDF, one page and QR per person', async () => {
    const e = await createEvent(admin, { displayName: 'Einlass' })
    const g = await guestWithToken(h(), admin, e.id)
    const features = h().ctx.license.features
    ;(h().ctx.license as any).features = [...features, 'SYSTEM_COVIDOO']
    try {
      const tokens = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens
      expect(Object.keys(tokens).sort()).toEqual(['downloadLinkTicket', 'downloadToken'])
      const r = await fetchRaw(tokens.downloadLinkTicket)
      expect(r.headers.get('content-disposition')).toContain(encodeURIComponent('Einlassticket Einlass.pdf'))
      expect(await pageCount(r.bytes)).toBe(3)
      const text = await pdfText(r.bytes)
      expect(text).toContain('EINLASSTICKET')
      expect(text).toContain('Dieses Einlassticket gilt für eine Person.')
      expect((await pdfQrCodes(r.bytes)).length).toBe(3)
      expect((await fetchRaw(`/proxy/api/download/${tokens.downloadToken}/ticket`)).status).toBe(404)
    } finally {
      ;(h().ctx.license as any).features = features
    }
  })
}, { license: licenseWith([], { events: -1 }) })
