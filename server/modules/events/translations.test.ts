import { expect, test } from 'bun:test'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { linkIn as link } from '../../testing/smtp-sink'
import { createEvent, licenseWith } from '../../testing/organiser'

forEachDialect(
  "events: the organiser's translations of the event texts (issue 24)",
  (h) => {
    const guest = (email = uniqueEmail('guest'), language = 'fr') => ({ salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email, language })

    test('stores a translation per language, sanitised, within the German limits; an empty one is removed', async () => {
      const admin = await h().admin()
      const e = await createEvent(admin, { description: '<p>Willkommen</p>', locationName: 'Halle 7' })
      const empty = await admin.get(`/proxy/api/events/${e.id}/translations`)
      expect(empty.status).toBe(200)
      expect(empty.body.languages).toContain('fr')
      expect(empty.body.languages).toContain('de-ls')
      expect(empty.body.languages).not.toContain('de')
      expect(empty.body.languages).not.toContain('de-du')
      expect(empty.body.german).toMatchObject({ displayName: 'Sommerfest', description: '<p>Willkommen</p>', locationName: 'Halle 7' })
      expect(empty.body.translations).toEqual({})

      const put = await admin.put(`/proxy/api/events/${e.id}/translations/fr`, { displayName: ' Fête d’été ', description: '<p>Bienvenue<script>alert(1)</script></p>', subTitle: '', locationName: null })
      expect(put.status).toBe(200)
      expect(put.body).toEqual({ displayName: 'Fête d’été', subTitle: null, description: '<p>Bienvenue</p>', locationName: null })
      const read = await admin.get(`/proxy/api/events/${e.id}/translations`)
      expect(read.body.translations).toEqual({ fr: { displayName: 'Fête d’été', subTitle: null, description: '<p>Bienvenue</p>', locationName: null } })

      // the same limits as the German fields
      const long = await admin.put(`/proxy/api/events/${e.id}/translations/fr`, { displayName: 'x'.repeat(201), subTitle: 'y'.repeat(301) })
      expect(long.status).toBe(400)
      expect(long.body.errorFields).toEqual(expect.arrayContaining([{ field: 'displayName', errorType: 'TOO_LONG' }, { field: 'subTitle', errorType: 'TOO_LONG' }]))
      expect((await admin.put(`/proxy/api/events/${e.id}/translations/fr`, { displayName: 'x'.repeat(200) })).status).toBe(200)

      // German is the source, not a translation; unknown languages are refused
      for (const lang of ['de', 'de-du', 'xx']) {
        const r = await admin.put(`/proxy/api/events/${e.id}/translations/${lang}`, { displayName: 'X' })
        expect(r.status).toBe(400)
        expect(r.body.errorFields).toEqual([{ field: 'language', errorType: 'INVALID' }])
      }

      // all fields empty: the translation is gone
      expect((await admin.put(`/proxy/api/events/${e.id}/translations/fr`, { displayName: '' })).status).toBe(200)
      expect((await admin.get(`/proxy/api/events/${e.id}/translations`)).body.translations).toEqual({})
    })

    test('a copy takes the translations along; a renamed copy drops the translated name', async () => {
      const admin = await h().admin()
      const e = await createEvent(admin)
      await admin.put(`/proxy/api/events/${e.id}/translations/fr`, { displayName: 'Fête', subTitle: 'Avec orchestre' })
      const same = await admin.post(`/proxy/api/events/${e.id}/copy`, { displayName: 'Sommerfest' })
      expect(same.status).toBe(201)
      expect((await admin.get(`/proxy/api/events/${same.body.id}/translations`)).body.translations.fr).toMatchObject({ displayName: 'Fête', subTitle: 'Avec orchestre' })
      const renamed = await admin.post(`/proxy/api/events/${e.id}/copy`, { displayName: 'Herbstfest' })
      expect((await admin.get(`/proxy/api/events/${renamed.body.id}/translations`)).body.translations.fr).toMatchObject({ displayName: null, subTitle: 'Avec orchestre' })
    })

    test("another agency's event: 404 for reading and writing its translations", async () => {
      const owner = await h().admin()
      const other = await h().admin()
      const e = await createEvent(owner)
      expect((await owner.put(`/proxy/api/events/${e.id}/translations/fr`, { displayName: 'Fête' })).status).toBe(200)
      expect((await other.get(`/proxy/api/events/${e.id}/translations`)).status).toBe(404)
      expect((await other.put(`/proxy/api/events/${e.id}/translations/fr`, { displayName: 'Piraté' })).status).toBe(404)
      expect((await owner.get(`/proxy/api/events/${e.id}/translations`)).body.translations.fr.displayName).toBe('Fête')
      expect((await h().request('GET', `/proxy/api/events/${e.id}/translations`)).status).toBe(401)
    })

    test('guests see their language: public page, confirmation mail, dashboard; German where the organiser gave none', async () => {
      const admin = await h().admin()
      const e = await createEvent(admin, eventBody({ description: '<p>Willkommen</p>' }))
      expect((await admin.put(`/proxy/api/events/${e.id}/translations/fr`, { displayName: 'Fête d’été', description: '<p>Bienvenue</p>' })).status).toBe(200)

      const pub = await h().request('GET', `/proxy/api/public/events/${e.id}`)
      expect(pub.body.displayName).toBe('Sommerfest')
      expect(pub.body.translations).toEqual({ fr: { displayName: 'Fête d’été', description: '<p>Bienvenue</p>' } })

      const fr = uniqueEmail('francoise')
      expect((await h().request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: guest(fr, 'fr') })).status).toBe(201)
      const en = uniqueEmail('emily')
      expect((await h().request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: guest(en, 'en') })).status).toBe(201)
      await h().deliverMail()
      const frMail = await h().smtp.waitFor((m) => m.to.includes(fr))
      expect(frMail.subject).toBe('Votre inscription : Fête d’été')
      // no English translation: the German name
      expect((await h().smtp.waitFor((m) => m.to.includes(en))).subject).toBe('Your registration: Sommerfest')

      const token = new URL(link(frMail, '/guest/dashboard?token=')).searchParams.get('token')!
      const dashFr = await h().request('GET', '/proxy/api/guest/events', { headers: { 'x-guest-token': token, 'x-language': 'fr' } })
      expect(dashFr.body.confirmedEvents[0].event).toMatchObject({ displayName: 'Fête d’été', description: '<p>Bienvenue</p>', address: { locationName: 'Halle 7' } })
      // the calendar entry is written in the registration's language: the French name
      const ics = dashFr.body.confirmedEvents[0].tokens.downloadLinkIcs as string
      expect(ics).toBeTruthy()
      const cal = await h().request('GET', ics.replace(/^https?:\/\/[^/]+/, ''))
      expect(cal.status).toBe(200)
      expect(cal.text).toContain('SUMMARY:Fête d’été')
      const dashDe = await h().request('GET', '/proxy/api/guest/events', { headers: { 'x-guest-token': token, 'x-language': 'de' } })
      expect(dashDe.body.confirmedEvents[0].event.displayName).toBe('Sommerfest')
    })
  },
  { license: licenseWith(['MULTI_LANGUAGE']) },
)

forEachDialect('events: translations without MULTI_LANGUAGE', (h) => {
  test('only Leichte Sprache and English are offered; French is refused', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    expect((await admin.get(`/proxy/api/events/${e.id}/translations`)).body.languages).toEqual(['en', 'de-ls'])
    const r = await admin.put(`/proxy/api/events/${e.id}/translations/fr`, { displayName: 'Fête' })
    expect(r.status).toBe(400)
    expect((await admin.put(`/proxy/api/events/${e.id}/translations/de-ls`, { displayName: 'Das Sommer-Fest' })).status).toBe(200)
  })
})
