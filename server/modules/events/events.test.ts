import { expect, test } from 'bun:test'
import { eventBody, forEachDialect } from '../../testing/harness'
import { createEvent, licenseWith } from '../../testing/organiser'
import { embedCode } from './embed'

forEachDialect(
  'events: editor, filter, copy, archive, delete',
  (h) => {
    test('stores every guest-visible field and the check-in settings; sanitises the description', async () => {
      const admin = await h().admin()
      const tag = (await admin.post('/proxy/api/tags', { displayName: 'Region---Nord' })).body
      const campaign = (await admin.post('/proxy/api/campaigns', { displayName: 'Frühjahr' })).body
      const body = eventBody({
        subTitle: 'Mit Band',
        description: '<p>Hallo <strong>Welt</strong><script>alert(1)</script><a href="javascript:alert(1)">x</a><a href="https://example.org">y</a></p>',
        primaryColor: '#AA3300',
        accentColor: '#003366',
        hideDeclineButton: true,
        useReporting: true,
        disabledCovidStates: ['TESTED'],
        maxVisitorPerSubscription: 3,
        currency: 'CHF',
        registrationButtonType: 'REGISTER',
        externalConfirmationLink: 'https://example.org/danke',
        externalConfirmationLabel: 'Weiter',
        defaultPhoneLocale: 'AT',
        lockBasicData: true,
        allowSelfCheckin: true,
        allowSelfCheckout: true,
        checkinOpenDate: new Date(Date.now() + 86400_000).toISOString(),
        checkinTarget: 'CUSTOM',
        checkinUrl: 'https://example.org/live',
        options: ['CAN_EDIT_REGISTRATION_DATA'],
        tags: [tag.id],
        campaigns: [campaign.id],
      })
      const e = await createEvent(admin, body)
      const r = await admin.get(`/proxy/api/events/${e.id}`)
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({
        subTitle: 'Mit Band',
        primaryColor: '#aa3300',
        accentColor: '#003366',
        hideDeclineButton: true,
        useReporting: true,
        disabledCovidStates: ['TESTED'],
        maxVisitorPerSubscription: 3,
        currency: 'CHF',
        registrationButtonType: 'REGISTER',
        externalConfirmationLink: 'https://example.org/danke',
        defaultPhoneLocale: 'at',
        lockBasicData: true,
        allowSelfCheckin: true,
        allowSelfCheckout: true,
        checkinTarget: 'CUSTOM',
        checkinUrl: 'https://example.org/live',
        options: ['CAN_EDIT_REGISTRATION_DATA'],
        tags: [{ id: tag.id, displayName: 'Region---Nord', group: 'Region', name: 'Nord', type: 'DEFAULT' }],
        campaigns: [{ id: campaign.id, displayName: 'Frühjahr' }],
      })
      expect(r.body.description).toContain('<strong>Welt</strong>')
      expect(r.body.description).not.toContain('script')
      expect(r.body.description).not.toContain('javascript:')
      expect(r.body.description).toContain('href="https://example.org"')
    })

    test('the event image must be an upload of the same agency', async () => {
      const admin = await h().admin()
      const other = await h().admin()
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')
      const upload = async (agent: typeof admin) => {
        const form = new FormData()
        form.append('file', new File([png], 'bild.png', { type: 'image/png' }))
        form.append('type', 'EVENT')
        form.append('secure', 'false')
        const r = await agent.request('POST', '/proxy/api/asset', { form })
        expect(r.status).toBe(201)
        return r.body.id as number
      }
      const own = await upload(admin)
      const foreign = await upload(other)
      const e = await createEvent(admin, { imageAssetId: own })
      expect(e.image).toMatchObject({ id: own })
      const bad = await admin.post('/proxy/api/events', eventBody({ imageAssetId: foreign }))
      expect(bad.status).toBe(400)
      expect(bad.body.errorFields).toEqual([{ field: 'imageAssetId', errorType: 'INVALID' }])
    })

    test('check-in target CUSTOM needs a URL, MEETING_URL a meeting URL; links must be http(s)', async () => {
      const admin = await h().admin()
      const r = await admin.post('/proxy/api/events', eventBody({ checkinTarget: 'CUSTOM', externalConfirmationLink: 'javascript:alert(1)' }))
      expect(r.status).toBe(400)
      expect(r.body.errorFields).toEqual(expect.arrayContaining([{ field: 'checkinUrl', errorType: 'REQUIRED' }, { field: 'externalConfirmationLink', errorType: 'INVALID_URL' }]))
      const m = await admin.post('/proxy/api/events', eventBody({ checkinTarget: 'MEETING_URL' }))
      expect(m.body.errorFields).toEqual([{ field: 'meetingUrl', errorType: 'REQUIRED' }])
    })

    test('tags and campaigns of another agency are refused', async () => {
      const a = await h().admin()
      const b = await h().admin()
      const foreign = (await b.post('/proxy/api/tags', { displayName: 'Fremd' })).body
      const r = await a.post('/proxy/api/events', eventBody({ tags: [foreign.id] }))
      expect(r.status).toBe(400)
      expect(r.body.errorFields).toEqual([{ field: 'tags', errorType: 'INVALID' }])
    })

    test('capacity cannot drop below the places taken', async () => {
      const admin = await h().admin()
      const e = await createEvent(admin, { maxVisitors: 10 })
      await h().ctx.db.updateTable('event').set({ seats_taken: 4 }).where('id', '=', e.id).execute()
      const r = await admin.put(`/proxy/api/events/${e.id}`, eventBody({ maxVisitors: 3 }))
      expect(r.status).toBe(409)
      expect(r.body.errorType).toBe('CAPACITY_BELOW_TAKEN')
      expect(r.body.errorMessage).toBe('Die Kapazität darf nicht kleiner sein als die bereits belegten Plätze (4).')
      expect((await admin.put(`/proxy/api/events/${e.id}`, eventBody({ maxVisitors: 4 }))).status).toBe(200)
    })

    test('event filter: dates, today, visibilities, tags, campaigns, incomplete, archived, deleted', async () => {
      const admin = await h().admin()
      const now = Date.now()
      const day = 86400_000
      const tag = (await admin.post('/proxy/api/tags', { displayName: 'Messe' })).body
      const camp = (await admin.post('/proxy/api/campaigns', { displayName: 'Herbst' })).body
      const today = await createEvent(admin, { displayName: 'Heute', startDate: new Date(now - 3600_000).toISOString(), endDate: new Date(now + 3600_000).toISOString(), tags: [tag.id] })
      const later = await createEvent(admin, { displayName: 'Später', startDate: new Date(now + 30 * day).toISOString(), endDate: new Date(now + 30 * day + 3600_000).toISOString(), visibility: 'PRIVATE', campaigns: [camp.id] })
      const incomplete = await createEvent(admin, { displayName: 'Ohne Ort', locationName: null, city: null, visibility: 'OFFLINE' })
      const archived = await createEvent(admin, { displayName: 'Archiv' })
      expect((await admin.post(`/proxy/api/events/${archived.id}/archive`)).body.archived).toBe(true)
      const search = async (filter: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
        const r = await admin.post('/proxy/api/events/search', { filter, ...extra })
        expect(r.status).toBe(200)
        return (r.body.items as any[]).map((e) => e.displayName).sort()
      }
      expect(await search({})).toEqual(['Heute', 'Ohne Ort', 'Später'])
      expect(await search({ onlyTodayEvents: true })).toEqual(['Heute'])
      const inTwentyDays = new Date(now + 20 * day).toISOString().slice(0, 10)
      expect(await search({ startDate: inTwentyDays })).toEqual(['Später'])
      expect(await search({ endDate: inTwentyDays })).toEqual(['Heute', 'Ohne Ort'])
      expect(await search({ visibilities: ['PRIVATE', 'OFFLINE'] })).toEqual(['Ohne Ort', 'Später'])
      expect(await search({ visibility: 'PUBLIC' })).toEqual(['Heute'])
      expect(await search({ tags: [tag.id] })).toEqual(['Heute'])
      expect(await search({ campaigns: [camp.id] })).toEqual(['Später'])
      expect(await search({ onlyShowUncomplete: true })).toEqual(['Ohne Ort'])
      expect(await search({ archivedFilter: 'ONLY_ARCHIVED' })).toEqual(['Archiv'])
      expect(await search({ archivedFilter: 'SHOW_ALL' })).toEqual(['Archiv', 'Heute', 'Ohne Ort', 'Später'])
      expect(await search({}, { search: 'spä' })).toEqual(['Später'])
      const inc = await admin.get(`/proxy/api/events/${incomplete.id}`)
      expect(inc.body.incomplete).toEqual(['LOCATION_NAME', 'CITY'])

      expect((await admin.delete(`/proxy/api/events/${later.id}`)).body.status).toBe('DELETED')
      expect(await search({})).toEqual(['Heute', 'Ohne Ort'])
      expect(await search({ showDeleted: true })).toEqual(['Heute', 'Ohne Ort', 'Später'])
      expect(await search({ status: 'DELETED' })).toEqual(['Später'])
      expect((await h().request('GET', `/proxy/api/public/events/${later.id}`)).status).toBe(404)
      expect((await admin.post(`/proxy/api/events/${later.id}/restore`)).body.status).toBe('OK')
      expect((await admin.post(`/proxy/api/events/${later.id}/restore`)).status).toBe(409)
      expect(today.id).toBeGreaterThan(0)
    })

    test('filter: end date before start date is refused', async () => {
      const admin = await h().admin()
      const r = await admin.post('/proxy/api/events/search', { filter: { startDate: '2027-05-10', endDate: '2027-05-09' } })
      expect(r.status).toBe(400)
      expect(r.body.errorFields).toEqual([{ field: 'filter.endDate', errorType: 'END_BEFORE_START' }])
    })

    test('copy: settings, tags, campaigns, no guests, places start at 0; counts against the events limit', async () => {
      const admin = await h().admin()
      const tag = (await admin.post('/proxy/api/tags', { displayName: 'Kopie' })).body
      const e = await createEvent(admin, { tags: [tag.id], primaryColor: '#112233' })
      await h().ctx.db.updateTable('event').set({ seats_taken: 7 }).where('id', '=', e.id).execute()
      const r = await admin.post(`/proxy/api/events/${e.id}/copy`, { displayName: 'Sommerfest (Kopie)' })
      expect(r.status).toBe(201)
      expect(r.body).toMatchObject({ displayName: 'Sommerfest (Kopie)', primaryColor: '#112233', seatsTaken: 0, status: 'OK', tags: [{ id: tag.id }] })
      expect(r.body.id).not.toBe(e.id)
      // the copy starts offline: its public page and registration answer 404 until it is published
      expect(e.visibility).toBe('PUBLIC')
      expect(r.body.visibility).toBe('OFFLINE')
      const anon = h().agent()
      expect((await anon.get(`/proxy/api/public/events/${r.body.id}`)).status).toBe(404)
      expect((await anon.get(`/proxy/api/public/events/${e.id}`)).status).toBe(200)
      // the community license allows 5 events per agency
      for (let i = 0; i < 3; i++) expect((await admin.post(`/proxy/api/events/${e.id}/copy`, {})).status).toBe(201)
      const over = await admin.post(`/proxy/api/events/${e.id}/copy`, {})
      expect(over.status).toBe(403)
      expect(over.body.errorType).toBe('LIMIT_EVENTS_EXCEEDED')
      const create = await admin.post('/proxy/api/events', eventBody())
      expect(create.body.errorType).toBe('LIMIT_EVENTS_EXCEEDED')
    })

    test('presets need EVENT_PRESET', async () => {
      const admin = await h().admin()
      const e = await createEvent(admin)
      const r = await admin.post(`/proxy/api/events/${e.id}/copy`, { status: 'PRESET' })
      expect(r.status).toBe(403)
      expect(r.body.errorType).toBe('WRONG_ABO')
      expect((await admin.post('/proxy/api/events/search', { filter: { status: 'PRESET' } })).body.errorType).toBe('WRONG_ABO')
    })

    test('other agencies get 404 for every event call; the checkin role cannot edit', async () => {
      const a = await h().admin()
      const b = await h().admin()
      const e = await createEvent(a)
      expect((await b.get(`/proxy/api/events/${e.id}`)).status).toBe(404)
      expect((await b.put(`/proxy/api/events/${e.id}`, eventBody())).status).toBe(404)
      expect((await b.post(`/proxy/api/events/${e.id}/copy`, {})).status).toBe(404)
      expect((await b.delete(`/proxy/api/events/${e.id}`)).status).toBe(404)
      expect((await b.get(`/proxy/api/events/${e.id}/embed`)).status).toBe(404)
      await h().ctx.db.updateTable('account').set({ user_role: 'AGENCY_CHECKIN' }).where('id', '=', b.accountId).execute()
      const own = await h().ctx.db.insertInto('event').values({ agency_id: b.agencyId, display_name: 'X', start_date: new Date().toISOString(), end_date: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow()
      const put = await b.put(`/proxy/api/events/${own.id}`, eventBody())
      expect(put.status).toBe(403)
      expect(put.body.errorType).toBe('NO_PERMISSION')
      expect((await b.get(`/proxy/api/events/${own.id}/embed`)).status).toBe(403)
    })

    test('embed: links and iframe with hideCookieinfo, scrollId, default height 450', async () => {
      const admin = await h().admin()
      const e = await createEvent(admin, { displayName: 'Fest & "Feier"' })
      const r = await admin.get(`/proxy/api/events/${e.id}/embed`)
      expect(r.body).toMatchObject({ publicUrl: `http://localhost/public/event/${e.id}`, frameUrl: `http://localhost/public/event/${e.id}/frame`, height: 450 })
      expect(r.body.iframeCode).toContain('height="450"')
      expect(r.body.iframeCode).toContain('title="Fest &amp; &quot;Feier&quot;"')
      const o = await admin.get(`/proxy/api/events/${e.id}/embed?hideCookieinfo=true&scrollId=anmeldung&height=600`)
      expect(o.body.frameUrl).toBe(`http://localhost/public/event/${e.id}/frame?hideCookieinfo=true&scrollId=anmeldung`)
      expect(o.body.iframeCode).toContain('height="600"')
      expect(o.body.iframeCode).toContain('frame?hideCookieinfo=true&amp;scrollId=anmeldung')
      // one code everywhere: the resizing one (the iframe grows through /embed.js, 450 px to start)
      expect(r.body.iframeCode).toContain(`id="einlass-${e.id}"`)
      expect(r.body.iframeCode).toContain('style="width:100%;height:450px;border:0"')
      expect(r.body.iframeCode).toContain('<script src="http://localhost/embed.js" async></script>')
      expect(r.body.iframeCode).toBe(embedCode({ eventId: e.id, frameUrl: r.body.frameUrl, origin: 'http://localhost', title: 'Fest & "Feier"' }))
    })

    test('sort upcoming: the next event on top, then past ones with the latest first (issue 10)', async () => {
      const admin = await h().admin()
      const at = (days: number, name: string) => {
        const start = new Date(Date.now() + days * 86400_000)
        return h().ctx.db.updateTable('event').set({ start_date: start.toISOString(), end_date: new Date(start.getTime() + 3600_000).toISOString() }).where('display_name', '=', name).execute()
      }
      for (const name of ['Nächstes Jahr', 'Nächste Woche', 'Morgen', 'Gestern', 'Letzten Monat']) await createEvent(admin, { displayName: name })
      await at(365, 'Nächstes Jahr')
      await at(7, 'Nächste Woche')
      await at(1, 'Morgen')
      await at(-1, 'Gestern')
      await at(-30, 'Letzten Monat')
      const r = await admin.post('/proxy/api/events/search', { sort: { field: 'upcoming', direction: 'asc' }, perPage: 50 })
      expect(r.status).toBe(200)
      expect(r.body.items.map((e: any) => e.displayName)).toEqual(['Morgen', 'Nächste Woche', 'Nächstes Jahr', 'Gestern', 'Letzten Monat'])
      const paged = await admin.post('/proxy/api/events/search', { sort: { field: 'upcoming', direction: 'asc' }, perPage: 2, page: 1 })
      expect(paged.body.items.map((e: any) => e.displayName)).toEqual(['Nächstes Jahr', 'Gestern'])
    })

    test('public page data: the description sanitised, the organiser contact when set (issue 10.2)', async () => {
      const admin = await h().admin()
      const e = await createEvent(admin, { description: '<p>Grüße aus <b>Köln</b></p>' })
      // a row written around the sanitiser (old data, an import) never reaches the page as is
      await h().ctx.db.updateTable('event').set({ description: '<p onclick="x()">Hallo<script>alert(1)</script></p>' }).where('id', '=', e.id).execute()
      const anon = h().agent()
      const r = await anon.get(`/proxy/api/public/events/${e.id}`)
      expect(r.body.description).toBe('<p>Hallo</p>')
      expect(r.body.contact).toBeNull()
      await h().ctx.db.updateTable('agency').set({ contact_guest: 'Team Gäste', contact_guest_mail: 'gaeste@agentur.example' }).where('id', '=', admin.agencyId).execute()
      const c = await anon.get(`/proxy/api/public/events/${e.id}`)
      expect(c.body.contact).toEqual({ name: 'Team Gäste', phone: null, mail: 'gaeste@agentur.example' })
      expect(c.body.legal).toEqual({ imprintUrl: null, imprintText: null, privacyUrl: null, privacyText: null })
      // the agency's imprint (an address) and privacy notice (a text, sanitised) from the help settings
      await h().ctx.db.updateTable('agency').set({ imprint_url: 'https://agentur.example/impressum', privacy_text: '<p>Wir speichern nur, was nötig ist.<img src=x onerror=alert(1)></p>' }).where('id', '=', admin.agencyId).execute()
      const l = await anon.get(`/proxy/api/public/events/${e.id}`)
      expect(l.body.legal.imprintUrl).toBe('https://agentur.example/impressum')
      expect(l.body.legal.privacyText).toContain('Wir speichern nur, was nötig ist.')
      expect(l.body.legal.privacyText).not.toContain('onerror')
    })

    test('autoCompleteList and the status catalogue', async () => {
      const admin = await h().admin()
      const e = await createEvent(admin, { displayName: 'Picker' })
      const r = await admin.get('/proxy/api/events/autoCompleteList')
      expect(r.body).toEqual([{ id: e.id, displayName: 'Picker', startDate: e.startDate }])
      const s = await h().request('GET', '/proxy/api/static/status')
      expect(s.body.visitor).toContainEqual({ status: 'REQUIRE_APPROVAL', displayName: 'Wartet auf Freigabe', cssClass: 'badge-warn' })
      expect(s.body.visitor).toContainEqual({ status: 'WAITING_LIST', displayName: 'Warteliste', cssClass: 'badge-info' })
      expect(s.body.visitor).toHaveLength(11)
      expect(s.body.event.map((x: any) => x.status)).toEqual(['OK', 'PRESET', 'GLOBAL_PRESET', 'DELETED'])
      const en = await h().request('GET', '/proxy/api/static/status', { headers: { 'x-language': 'en' } })
      expect(en.body.task).toContainEqual({ status: 'FINISHED', displayName: 'Finished', cssClass: 'badge-ok' })
    })
  },
)

forEachDialect(
  'events: presets with EVENT_PRESET',
  (h) => {
    test('save as preset, list presets, global presets are shared read-only, create from a preset', async () => {
      const a = await h().admin()
      const b = await h().admin()
      const e = await createEvent(a, { displayName: 'Gala' })
      const preset = await a.post(`/proxy/api/events/${e.id}/copy`, { status: 'PRESET', displayName: 'Gala-Vorlage' })
      expect(preset.status).toBe(201)
      const global = await a.post(`/proxy/api/events/${e.id}/copy`, { status: 'GLOBAL_PRESET', displayName: 'Gala global' })
      const names = async (agent: typeof a, status: unknown) => ((await agent.post('/proxy/api/events/search', { filter: { status } })).body.items as any[]).map((x) => x.displayName).sort()
      expect(await names(a, 'PRESET')).toEqual(['Gala-Vorlage'])
      expect(await names(a, ['PRESET', 'GLOBAL_PRESET'])).toEqual(['Gala global', 'Gala-Vorlage'])
      expect(await names(b, ['PRESET', 'GLOBAL_PRESET'])).toEqual(['Gala global'])
      expect(await names(a, null)).toEqual(['Gala'])
      expect((await b.get(`/proxy/api/events/${global.body.id}`)).status).toBe(200)
      expect((await b.get(`/proxy/api/events/${preset.body.id}`)).status).toBe(404)
      expect((await b.put(`/proxy/api/events/${global.body.id}`, eventBody())).status).toBe(404)
      const fromGlobal = await b.post(`/proxy/api/events/${global.body.id}/copy`, { status: 'OK', displayName: 'Meine Gala' })
      expect(fromGlobal.status).toBe(201)
      expect(fromGlobal.body).toMatchObject({ status: 'OK', displayName: 'Meine Gala', agencyId: b.agencyId })
    })
  },
  { license: licenseWith(['EVENT_PRESET']) },
)

forEachDialect(
  'events limit: presets do not count',
  (h) => {
    test('only events with status OK count (archived ones do); presets can be made at the limit; deleting frees a place', async () => {
      const admin = await h().admin()
      const used = async () => (await admin.get('/proxy/api/app/init')).body.limits.usedEvents
      const a = await createEvent(admin, { displayName: 'A' })
      const b = await createEvent(admin, { displayName: 'B' })
      expect((await admin.post(`/proxy/api/events/${b.id}/archive`)).status).toBe(200)
      expect(await used()).toBe(2)
      // at the limit: presets are still possible and do not count
      const preset = await admin.post(`/proxy/api/events/${a.id}/copy`, { status: 'PRESET', displayName: 'Vorlage' })
      expect(preset.status).toBe(201)
      expect((await admin.post(`/proxy/api/events/${a.id}/copy`, { status: 'GLOBAL_PRESET', displayName: 'Global' })).status).toBe(201)
      expect(await used()).toBe(2)
      // but an event from the preset is an event
      const fromPreset = await admin.post(`/proxy/api/events/${preset.body.id}/copy`, { status: 'OK' })
      expect(fromPreset.status).toBe(403)
      expect(fromPreset.body).toMatchObject({ errorType: 'LIMIT_EVENTS_EXCEEDED', allowed: 2, used: 2 })
      expect((await admin.post('/proxy/api/events', eventBody())).body.errorType).toBe('LIMIT_EVENTS_EXCEEDED')
      expect((await admin.delete(`/proxy/api/events/${a.id}`)).status).toBe(200)
      expect(await used()).toBe(1)
      expect((await admin.post(`/proxy/api/events/${preset.body.id}/copy`, { status: 'OK', displayName: 'Aus Vorlage' })).status).toBe(201)
      expect((await admin.post(`/proxy/api/events/${a.id}/restore`)).body.errorType).toBe('LIMIT_EVENTS_EXCEEDED')
    })

    test('concurrent creations never pass the limit', async () => {
      const admin = await h().admin()
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => admin.post('/proxy/api/events', eventBody({ displayName: `Ansturm ${i}` }))))
      expect(results.filter((r) => r.status === 201).length).toBe(2)
      expect(results.filter((r) => r.status === 403).every((r) => r.body.errorType === 'LIMIT_EVENTS_EXCEEDED')).toBe(true)
    })
  },
  { license: licenseWith(['EVENT_PRESET'], { events: 2 }) },
)
