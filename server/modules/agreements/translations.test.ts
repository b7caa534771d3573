import { expect, test } from 'bun:test'
import { forEachDialect, uniqueEmail } from '../../testing/harness'
import { linkIn as link } from '../../testing/smtp-sink'
import { createEvent, licenseWith } from '../../testing/organiser'

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

forEachDialect(
  "agreements: the organiser's translations of name and text (issue 24)",
  (h) => {
    async function setup() {
      const admin = await h().admin()
      const e = await createEvent(admin)
      const a = await admin.post('/proxy/api/agreements', { displayName: 'Fotoerlaubnis', description: '<p>Wir fotografieren.</p>', validity: 'EVENT', eventId: e.id, appearance: 'VISIBLE' })
      expect(a.status).toBe(201)
      return { admin, e, agreement: a.body as { id: number } }
    }

    test('stores a translation per language within the German limits; refuses German and unknown languages', async () => {
      const { admin, agreement } = await setup()
      const path = `/proxy/api/agreements/${agreement.id}/translations`
      expect((await admin.get(path)).body).toMatchObject({ german: { displayName: 'Fotoerlaubnis', description: '<p>Wir fotografieren.</p>' }, translations: {} })
      const put = await admin.put(`${path}/fr`, { displayName: 'Autorisation photo', description: '<p>Nous photographions.<script>alert(1)</script></p>' })
      expect(put.status).toBe(200)
      expect(put.body).toEqual({ displayName: 'Autorisation photo', description: '<p>Nous photographions.</p>' })
      expect((await admin.get(path)).body.translations.fr.displayName).toBe('Autorisation photo')
      const long = await admin.put(`${path}/fr`, { displayName: 'x'.repeat(201) })
      expect(long.status).toBe(400)
      expect(long.body.errorFields).toEqual([{ field: 'displayName', errorType: 'TOO_LONG' }])
      for (const lang of ['de', 'xx']) expect((await admin.put(`${path}/${lang}`, { displayName: 'X' })).body.errorFields).toEqual([{ field: 'language', errorType: 'INVALID' }])
    })

    test("another agency's agreement: 404", async () => {
      const { agreement } = await setup()
      const other = await h().admin()
      expect((await other.get(`/proxy/api/agreements/${agreement.id}/translations`)).status).toBe(404)
      expect((await other.put(`/proxy/api/agreements/${agreement.id}/translations/fr`, { displayName: 'Piraté' })).status).toBe(404)
    })

    test('the public form carries the translations; the dashboard shows the guest language, German where none', async () => {
      const { admin, e, agreement } = await setup()
      await admin.put(`/proxy/api/agreements/${agreement.id}/translations/fr`, { displayName: 'Autorisation photo' })
      const form = await h().request('GET', `/proxy/api/public/events/${e.id}/form`)
      const shown = form.body.agreements.find((a: any) => a.id === agreement.id)
      expect(shown).toMatchObject({ displayName: 'Fotoerlaubnis', translations: { fr: { displayName: 'Autorisation photo' } } })

      const email = uniqueEmail('agnes')
      const r = await h().request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Agnès', lastName: 'Gast', email, language: 'fr', agreements: [] } })
      expect(r.status).toBe(201)
      await h().deliverMail()
      const token = new URL(link(await h().smtp.waitFor((m) => m.to.includes(email)), '/guest/dashboard?token=')).searchParams.get('token')!
      const path = `/proxy/api/guest/events/visitors/${r.body.id ?? r.body.visitorId}/agreements`
      const fr = await h().request('GET', path, { headers: { 'x-guest-token': token, 'x-language': 'fr' } })
      expect(fr.status).toBe(200)
      // the name in French, the text German (no French text given)
      expect(fr.body.find((a: any) => a.id === agreement.id)).toMatchObject({ displayName: 'Autorisation photo', description: '<p>Wir fotografieren.</p>' })
      const de = await h().request('GET', path, { headers: { 'x-guest-token': token, 'x-language': 'de' } })
      expect(de.body.find((a: any) => a.id === agreement.id).displayName).toBe('Fotoerlaubnis')

      // signed on the French page: the record keeps the name as the guest read it
      const signed = await h().request('POST', path, { headers: { 'x-guest-token': token, 'x-language': 'fr' }, body: { agreements: [{ id: agreement.id, status: 'CONFIRMED', signature: PNG }] } })
      expect(signed.status).toBe(200)
      const log = await h().request('GET', `${path}/log`, { headers: { 'x-guest-token': token, 'x-language': 'fr' } })
      expect(JSON.stringify(log.body)).toContain('Autorisation photo')
    })

    test("the self check-in shows and records the agreements in the registration's language", async () => {
      const { admin, agreement } = await setup()
      const e = await createEvent(admin, { allowSelfCheckin: true })
      void agreement
      const r = await h().request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Agnès', lastName: 'Gast', email: uniqueEmail('agnes'), language: 'fr', agreements: [] } })
      expect(r.status).toBe(201)
      // a required agreement the organiser adds after the registration: asked at the self check-in
      const a = await admin.post('/proxy/api/agreements', { displayName: 'Hausordnung', description: '<p>Bitte leise.</p>', validity: 'EVENT', eventId: e.id, appearance: 'REQUIRED' })
      expect(a.status).toBe(201)
      expect((await admin.put(`/proxy/api/agreements/${a.body.id}/translations/fr`, { displayName: 'Règlement intérieur', description: '<p>Silence, s’il vous plaît.</p>' })).status).toBe(200)
      const id = r.body.id ?? r.body.visitorId
      const row = await h().ctx.db.selectFrom('event_visitor').select(['event_token', 'language']).where('id', '=', id).executeTakeFirstOrThrow()
      expect(row.language).toBe('fr')
      const prep = await h().request('POST', '/proxy/api/guest/prepareCheckin', { body: { token: row.event_token } })
      expect(prep.status).toBe(200)
      expect(prep.body.agreements.find((x: any) => x.id === a.body.id)).toMatchObject({ displayName: 'Règlement intérieur', description: '<p>Silence, s’il vous plaît.</p>' })
      expect(prep.body.missingAgreements).toEqual([{ id: a.body.id, displayName: 'Règlement intérieur' }])
      const io = await h().request('POST', '/proxy/api/guest/checkInOut', { body: { origin: 'selfcheckin', token: row.event_token, checkinGuests: [0], agreements: [{ id: a.body.id, status: 'CONFIRMED', signature: PNG }] } })
      expect(io.status).toBe(200)
      // the record keeps the text as the guest read it
      const text = await h().ctx.db.selectFrom('agreement_signature').selectAll().where('agreement_id', '=', a.body.id).execute()
      expect(JSON.stringify(text)).toContain('Règlement intérieur')
    })
  },
  { license: licenseWith(['MULTI_LANGUAGE']) },
)
