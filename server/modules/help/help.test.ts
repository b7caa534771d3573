// Report, support, feedback and imprint calls (guest-side.md 2, 3, 5, 7, 8) on both dialects.
import { expect, test } from 'bun:test'
import { RATE_LIMITS } from '../identity/rate-limit'
import { eraseHelpData } from './service'
import { type Agent, forEachDialect } from '../../testing/harness'
import { createEvent, licenseWith } from '../../testing/organiser'

forEachDialect(
  'reports, support, feedback, imprint',
  (h) => {
    let admin: Agent & { agencyId: number; accountId: number; email: string }
    test('setup', async () => {
      admin = await h().admin()
      await h().ctx.db.updateTable('agency').set({ contact_guest: 'Petra Plan', contact_guest_phone: '+49 30 123', contact_guest_mail: 'gaeste@example.org' }).where('id', '=', admin.agencyId).execute()
    })
    // every test its own client address: the rate limits count per address
    let n = 0
    const anon = () => {
      const a = h().agent()
      a.headers['x-forwarded-for'] = `198.51.100.${++n}`
      return a
    }
    const valid = { firstName: 'Rita', lastName: 'Ruf', email: 'Rita@Example.org', confirmCorrectData: true, reason: 'Am Eingang wurde gedrängelt.' }

    test('report info: event types only with an event that offers reporting; the organiser contact for step 2', async () => {
      const none = await anon().get('/proxy/api/public/report/info')
      expect(none.body.reportTypes.map((t: any) => t.value)).toEqual(['FRAUD', 'TERRORISM', 'LEGAL_ABUSE_HATE', 'SEXUAL_ABUSE', 'LEGAL_ABUSE_TRAFFICKING', 'LEGAL_ABUSE_VIOLENCE', 'LEGAL_ABUSE_TRADE', 'LEGAL_ABUSE_INFRINGEMENT', 'LEGAL_ABUSE_OTHER'])
      const e = await createEvent(admin, { useReporting: true })
      const r = await anon().get(`/proxy/api/public/report/info?eventId=${e.id}`)
      expect(r.body.reportTypes.slice(0, 3)).toEqual([
        { value: 'EVENT_RELATED', translationKey: 'report.type.EVENT_RELATED', visible: true, showForm: false },
        { value: 'CANCEL_EVENT', translationKey: 'report.type.CANCEL_EVENT', visible: true, showForm: false },
        { value: 'FRAUD', translationKey: 'report.type.FRAUD', visible: true, showForm: true },
      ])
      expect(r.body.contactInfo).toMatchObject({ guestContact: 'Petra Plan', phones: ['+49 30 123'], mails: ['gaeste@example.org'] })
      const off = await createEvent(admin)
      expect((await anon().get(`/proxy/api/public/report/info?eventId=${off.id}`)).status).toBe(404)
    })

    test('a report reaches the agency (list, mail to its contact address) and, for legal abuse, the support address', async () => {
      const e = await createEvent(admin, { useReporting: true, displayName: 'Stadtlauf' })
      const r = await anon().post('/proxy/api/public/report', { ...valid, reportType: 'LEGAL_ABUSE_HATE', eventId: e.id, submitIdentity: true, important: true, originUrl: 'https://x/public/event/1' })
      expect(r.status).toBe(200)
      expect(r.body.submitted).toBe(true)
      const list = await admin.get('/proxy/api/agency/reports')
      expect(list.body.items[0]).toMatchObject({ id: r.body.id, reportType: 'LEGAL_ABUSE_HATE', eventName: 'Stadtlauf', important: true, firstName: 'Rita', email: 'rita@example.org' })
      await h().deliverMail()
      const toAdmin = await h().smtp.waitFor((m) => m.to.includes('gaeste@example.org') && m.subject.startsWith(`Meldung #${r.body.id}`))
      expect(toAdmin.subject).toBe(`Meldung #${r.body.id}: Hassrede oder Diskriminierung`)
      await h().smtp.waitFor((m) => m.to.includes(h().ctx.config.support.email) && m.subject.startsWith(`Meldung #${r.body.id}`))
      // without identity release the organiser does not see who reported
      const hidden = await anon().post('/proxy/api/public/report', { ...valid, reportType: 'FRAUD', eventId: e.id })
      expect((await admin.get('/proxy/api/agency/reports')).body.items[0]).toMatchObject({ id: hidden.body.id, firstName: null, email: null })
      // another agency sees none of it; guests and nobody cannot list
      expect((await (await h().admin()).get('/proxy/api/agency/reports')).body.total).toBe(0)
      expect((await anon().get('/proxy/api/agency/reports')).status).toBe(401)
    })

    test('§5 rules: reason required, names ≥ 2, valid e-mail, confirmCorrectData; FIELD_ERROR names the fields', async () => {
      const e = await createEvent(admin, { useReporting: true })
      const bad = await anon().post('/proxy/api/public/report', { reportType: 'FRAUD', eventId: e.id, reason: '', firstName: 'R', lastName: '', email: 'nope', confirmCorrectData: false })
      expect(bad.status).toBe(400)
      expect(bad.body.errorType).toBe('FIELD_ERROR')
      expect(bad.body.errorFields).toEqual(
        expect.arrayContaining([
          { field: 'reason', errorType: 'REQUIRED' },
          { field: 'firstName', errorType: 'MIN_LENGTH_2' },
          { field: 'lastName', errorType: 'REQUIRED' },
          { field: 'email', errorType: 'INVALID_EMAIL' },
          { field: 'confirmCorrectData', errorType: 'CHECKBOX_REQUIRED' },
        ]),
      )
      // event-related types are answered by the contact info, not a report; and need an event
      const related = await anon().post('/proxy/api/public/report', { ...valid, reportType: 'EVENT_RELATED', eventId: e.id })
      expect(related.body.errorFields).toEqual([{ field: 'reportType', errorType: 'INVALID' }])
      expect((await anon().post('/proxy/api/public/report', { ...valid, reportType: 'NOPE' })).status).toBe(400)
      // an event without reporting
      const off = await createEvent(admin)
      expect((await anon().post('/proxy/api/public/report', { ...valid, reportType: 'FRAUD', eventId: off.id })).status).toBe(404)
    })

    test('SEXUAL_ABUSE: identity not required, and cleared even when sent', async () => {
      const e = await createEvent(admin, { useReporting: true })
      const r = await anon().post('/proxy/api/public/report', { reportType: 'SEXUAL_ABUSE', eventId: e.id, reason: 'Vorfall am Stand 3', firstName: 'Rita', lastName: 'Ruf', email: 'rita@example.org', submitIdentity: true })
      expect(r.status).toBe(200)
      const row = await h().ctx.db.selectFrom('guest_report').selectAll().where('id', '=', r.body.id).executeTakeFirstOrThrow()
      expect([row.first_name, row.last_name, row.email, Boolean(row.submit_identity), Boolean(row.sexual_abuse)]).toEqual([null, null, null, false, true])
      // without an event: a legal report goes to the support address only
      const free = await anon().post('/proxy/api/public/report', { reportType: 'SEXUAL_ABUSE', reason: 'x' })
      expect(free.status).toBe(200)
      expect((await h().ctx.db.selectFrom('guest_report').select('agency_id').where('id', '=', free.body.id).executeTakeFirstOrThrow()).agency_id).toBeNull()
    })

    test('support: subject and details required; stored with the context; about an event mailed to its agency', async () => {
      const e = await createEvent(admin, { displayName: 'Messe' })
      const bad = await anon().post('/proxy/api/public/report/support', { subject: ' ', content: '' })
      expect(bad.body.errorFields).toEqual([
        { field: 'subject', errorType: 'REQUIRED' },
        { field: 'content', errorType: 'REQUIRED' },
      ])
      const r = await anon().post('/proxy/api/public/report/support', { subject: 'Ticket fehlt', content: 'Ich finde mein Ticket nicht.', originUrl: '/guest/dashboard', state: 'guest.dashboard', dialog: null, additionalData: { lang: 'de' }, eventId: e.id })
      expect(r.status).toBe(200)
      const row = await h().ctx.db.selectFrom('support_message').selectAll().where('id', '=', r.body.id).executeTakeFirstOrThrow()
      expect(row).toMatchObject({ subject: 'Ticket fehlt', state: 'guest.dashboard', event_name: 'Messe', agency_id: admin.agencyId, additional_data: '{"lang":"de"}' })
      await h().deliverMail()
      const mail = await h().smtp.waitFor((m) => m.subject === `Support #${r.body.id}: Ticket fehlt`)
      expect(mail.to).toContain('gaeste@example.org')
    })

    test('feedback: message required, name and e-mail optional (a given e-mail must be valid)', async () => {
      expect((await anon().post('/proxy/api/public/feedback', { message: '' })).body.errorFields).toEqual([{ field: 'message', errorType: 'REQUIRED' }])
      expect((await anon().post('/proxy/api/public/feedback', { message: 'x', email: 'nope' })).body.errorFields).toEqual([{ field: 'email', errorType: 'INVALID_EMAIL' }])
      const r = await anon().post('/proxy/api/public/feedback', { message: 'Sehr übersichtlich!', page: '/guest/dashboard', email: '' })
      expect(r.status).toBe(200)
      await h().deliverMail()
      await h().smtp.waitFor((m) => m.subject === `Feedback #${r.body.id}` && m.to.includes(h().ctx.config.support.email))
    })

    test('the anonymous calls are rate limited per client address', async () => {
      const a = anon()
      for (let i = 0; i < RATE_LIMITS.FEEDBACK_ADDRESS.max; i++) expect((await a.post('/proxy/api/public/feedback', { message: `m${i}` })).status).toBe(200)
      const over = await a.post('/proxy/api/public/feedback', { message: 'eins zu viel' })
      expect(over.status).toBe(429)
      expect(over.body.errorType).toBe('RATE_LIMITED')
      const b = anon()
      for (let i = 0; i < RATE_LIMITS.SUPPORT_ADDRESS.max; i++) expect((await b.post('/proxy/api/public/report/support', { subject: 's', content: 'c' })).status).toBe(200)
      expect((await b.post('/proxy/api/public/report/support', { subject: 's', content: 'c' })).status).toBe(429)
      const c = anon()
      for (let i = 0; i < RATE_LIMITS.REPORT_ADDRESS.max; i++) expect((await c.post('/proxy/api/public/report', { reportType: 'SEXUAL_ABUSE', reason: 'r' })).status).toBe(200)
      expect((await c.post('/proxy/api/public/report', { reportType: 'SEXUAL_ABUSE', reason: 'r' })).status).toBe(429)
      // another address is not affected
      expect((await anon().post('/proxy/api/public/feedback', { message: 'ok' })).status).toBe(200)
    })

    test('erasing a person forgets who sent reports, support messages and feedback, keeps what was sent', async () => {
      const e = await createEvent(admin, { useReporting: true })
      const mail = 'weg@example.org'
      const r = await anon().post('/proxy/api/public/report', { ...valid, email: mail, reportType: 'FRAUD', eventId: e.id, submitIdentity: true })
      const f = await anon().post('/proxy/api/public/feedback', { message: 'gut', email: mail, name: 'Wer' })
      const db = h().ctx.db
      await db.transaction().execute((trx) => eraseHelpData(trx, { userId: -1, email: mail, agencyId: null }))
      expect(await db.selectFrom('guest_report').select(['first_name', 'email', 'reason']).where('id', '=', r.body.id).executeTakeFirstOrThrow()).toEqual({ first_name: null, email: null, reason: valid.reason })
      expect(await db.selectFrom('feedback').select(['name', 'email', 'message']).where('id', '=', f.body.id).executeTakeFirstOrThrow()).toEqual({ name: null, email: null, message: 'gut' })
    })

    test('imprint: the agency edits text (sanitised) or URLs; guests read it; checks', async () => {
      const r = await admin.put('/proxy/api/agency/imprint', { imprintText: '<p>Muster GmbH<script>x()</script></p>', imprintUrl: null, privacyText: '', privacyUrl: 'https://example.org/datenschutz' })
      expect(r.status).toBe(200)
      const pub = await anon().get(`/proxy/api/public/agency/${admin.agencyId}/imprint`)
      expect(pub.body).toMatchObject({ imprintText: '<p>Muster GmbH</p>', imprintUrl: null, privacyText: null, privacyUrl: 'https://example.org/datenschutz', contactGuest: null })
      // the guest contact shown by the report dialog (step 2) is set here too
      await admin.put('/proxy/api/agency/imprint', { contactGuest: 'Petra Plan', contactGuestPhone: '+49 30 123', contactGuestMail: 'Gaeste@Example.org' })
      expect((await anon().get(`/proxy/api/public/agency/${admin.agencyId}/imprint`)).body).toMatchObject({ contactGuest: 'Petra Plan', contactGuestMail: 'gaeste@example.org', imprintText: null })
      expect((await admin.put('/proxy/api/agency/imprint', { contactGuestMail: 'x' })).body.errorFields).toEqual([{ field: 'contactGuestMail', errorType: 'INVALID_EMAIL' }])
      expect((await admin.put('/proxy/api/agency/imprint', { imprintUrl: 'javascript:alert(1)' })).body.errorFields).toEqual([{ field: 'imprintUrl', errorType: 'INVALID_URL' }])
      expect((await anon().get('/proxy/api/public/agency/999999/imprint')).status).toBe(404)
      expect((await anon().put('/proxy/api/agency/imprint', {})).status).toBe(401)
    })
  },
  { license: licenseWith([], { events: -1 }), env: { EINLASS_TRUSTED_PROXIES: '0.0.0.0/0,::/0', EINLASS_SUPPORT_EMAIL: 'betrieb@example.org' } },
)
