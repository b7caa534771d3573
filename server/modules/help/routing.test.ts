// Where guests' reports, support questions and feedback go: about an event to its agency (the
// organiser's reports page and a mail to the agency's contact address, else its administrators),
// everything else to the server's support address only when one is configured
// (EINLASS_SUPPORT_EMAIL other than the default support@localhost). No mail carries raw JSON.
import { expect, test } from 'bun:test'
import { type Agent, type Harness, forEachDialect } from '../../testing/harness'
import { createEvent, licenseWith } from '../../testing/organiser'

type Admin = Agent & { agencyId: number; email: string }

function setup(h: () => Harness) {
  let n = 0
  const anon = () => {
    const a = h().agent()
    a.headers['x-forwarded-for'] = `203.0.113.${++n}`
    return a
  }
  const outbox = (where: { to?: string; kind?: string } = {}) => {
    let q = h().ctx.db.selectFrom('mail_outbox').select(['to_address', 'kind', 'subject', 'text'])
    if (where.to) q = q.where('to_address', '=', where.to)
    if (where.kind) q = q.where('kind', '=', where.kind)
    return q.execute()
  }
  async function agency(contact: string | null = 'gaeste@example.org') {
    const admin = (await h().admin()) as Admin
    await h().ctx.db.updateTable('agency').set({ contact_guest_mail: contact }).where('id', '=', admin.agencyId).execute()
    return admin
  }
  return { anon, outbox, agency }
}

forEachDialect(
  'help routing without a configured support address',
  (h) => {
    const { anon, outbox, agency } = setup(h)

    test('feedback about an event reaches its agency: the reports page and a mail to the contact address; nothing to support@localhost', async () => {
      const admin = await agency()
      const e = await createEvent(admin, { displayName: 'Sommerfest' })
      const r = await anon().post('/proxy/api/public/feedback', { name: 'Gerd Gast', email: 'gerd@example.org', page: '/guest/dashboard', message: 'Der Einlass ging sehr schnell.', eventId: e.id })
      expect(r.status).toBe(200)
      const page = await admin.get('/proxy/api/agency/reports')
      expect(page.body.total).toBe(1)
      expect(page.body.items[0]).toMatchObject({ kind: 'FEEDBACK', id: r.body.id, eventId: e.id, eventName: 'Sommerfest', reason: 'Der Einlass ging sehr schnell.', firstName: 'Gerd Gast', email: 'gerd@example.org' })
      const mails = await outbox({ kind: 'FEEDBACK' })
      expect(mails.map((m) => m.to_address)).toEqual(['gaeste@example.org'])
      expect(mails[0].subject).toBe(`Feedback #${r.body.id}: Sommerfest`)
      expect(mails[0].text).toContain('Der Einlass ging sehr schnell.')
      expect(mails[0].text).toContain('Gerd Gast')
      expect(await outbox({ to: 'support@localhost' })).toEqual([])
      // another agency's page shows none of it
      expect((await (await agency()).get('/proxy/api/agency/reports')).body.total).toBe(0)
    })

    test('a support question about an event goes to the agency, its context as readable text (no raw JSON)', async () => {
      const admin = await agency()
      const e = await createEvent(admin, { displayName: 'Messe' })
      const r = await anon().post('/proxy/api/public/report/support', { subject: 'Ticket fehlt', content: 'Ich finde mein Ticket nicht.', originUrl: 'http://localhost/guest/dashboard', state: '/guest/dashboard', dialog: 'help', additionalData: { language: 'de' }, eventName: null, eventId: e.id })
      expect(r.status).toBe(200)
      const page = await admin.get('/proxy/api/agency/reports')
      expect(page.body.items[0]).toMatchObject({ kind: 'SUPPORT', id: r.body.id, subject: 'Ticket fehlt', reason: 'Ich finde mein Ticket nicht.', eventName: 'Messe' })
      const [mail, ...more] = await outbox({ kind: 'SUPPORT_MESSAGE' })
      expect(more).toEqual([])
      expect(mail.to_address).toBe('gaeste@example.org')
      expect(mail.text).toContain('Ich finde mein Ticket nicht.')
      expect(mail.text).toContain('Sprache: Deutsch')
      expect(mail.text).toContain('Veranstaltung: Messe')
      expect(mail.text).not.toMatch(/[{}"]/)
    })

    test('without a contact address the mail goes to the agency\'s administrators', async () => {
      const admin = await agency(null)
      const e = await createEvent(admin, { displayName: 'Gala' })
      const r = await anon().post('/proxy/api/public/feedback', { message: 'Schön war es.', eventId: e.id })
      expect(r.status).toBe(200)
      expect((await outbox({ kind: 'FEEDBACK' })).filter((m) => m.subject.includes('Gala')).map((m) => m.to_address)).toEqual([admin.email])
    })

    test('an event-related legal report goes to the agency only; without an event it is stored and mailed to nobody', async () => {
      const admin = await agency()
      const e = await createEvent(admin, { useReporting: true, displayName: 'Stadtlauf' })
      const r = await anon().post('/proxy/api/public/report', { reportType: 'FRAUD', eventId: e.id, reason: 'Falsche Tickets im Umlauf', firstName: 'Rita', lastName: 'Ruf', email: 'rita@example.org', confirmCorrectData: true })
      expect(r.status).toBe(200)
      expect((await admin.get('/proxy/api/agency/reports')).body.items[0]).toMatchObject({ kind: 'REPORT', reportType: 'FRAUD' })
      expect((await outbox({ kind: 'GUEST_REPORT' })).some((m) => m.to_address === 'gaeste@example.org' && m.subject.startsWith(`Meldung #${r.body.id}`))).toBe(true)
      const general = [
        await anon().post('/proxy/api/public/report', { reportType: 'SEXUAL_ABUSE', reason: 'x' }),
        await anon().post('/proxy/api/public/report/support', { subject: 'Frage', content: 'Wie geht das?' }),
        await anon().post('/proxy/api/public/feedback', { message: 'Allgemein gut.' }),
      ]
      expect(general.map((g) => g.status)).toEqual([200, 200, 200])
      expect(await h().ctx.db.selectFrom('feedback').select('id').where('id', '=', general[2].body.id).execute()).toHaveLength(1)
      expect(await outbox({ to: 'support@localhost' })).toEqual([])
    })
  },
  { license: licenseWith([], { events: -1 }), env: { EINLASS_TRUSTED_PROXIES: '0.0.0.0/0,::/0' } },
)

forEachDialect(
  'help routing with a configured support address',
  (h) => {
    const { anon, outbox, agency } = setup(h)

    test('support and feedback without an event go to the configured support address, readable; about an event to the agency only', async () => {
      const admin = await agency()
      const e = await createEvent(admin, { displayName: 'Kongress' })
      const s = await anon().post('/proxy/api/public/report/support', { subject: 'Login', content: 'Mein Link geht nicht.', additionalData: { language: 'en', screen: 'dashboard' } })
      const f = await anon().post('/proxy/api/public/feedback', { message: 'Gute Software.' })
      const about = await anon().post('/proxy/api/public/feedback', { message: 'Zu wenig Stühle.', eventId: e.id })
      expect([s.status, f.status, about.status]).toEqual([200, 200, 200])
      const toSupport = await outbox({ to: 'hilfe@betreiber.example' })
      expect(toSupport.map((m) => m.kind).sort()).toEqual(['FEEDBACK', 'SUPPORT_MESSAGE'])
      const sm = toSupport.find((m) => m.kind === 'SUPPORT_MESSAGE')!
      expect(sm.text).toContain('Sprache: Englisch')
      expect(sm.text).toContain('screen: dashboard')
      expect(sm.text).not.toMatch(/[{}"]/)
      expect((await outbox({ kind: 'FEEDBACK' })).filter((m) => m.subject.includes('Kongress')).map((m) => m.to_address)).toEqual(['gaeste@example.org'])
    })

    test('a legal report about an event goes to the agency and to the support address', async () => {
      const admin = await agency()
      const e = await createEvent(admin, { useReporting: true })
      const r = await anon().post('/proxy/api/public/report', { reportType: 'TERRORISM', eventId: e.id, reason: 'Drohung', firstName: 'Rita', lastName: 'Ruf', email: 'rita@example.org', confirmCorrectData: true })
      const to = (await outbox()).filter((m) => m.subject.startsWith(`Meldung #${r.body.id}`)).map((m) => m.to_address).sort()
      expect(to).toEqual(['gaeste@example.org', 'hilfe@betreiber.example'])
    })
  },
  { license: licenseWith([], { events: -1 }), env: { EINLASS_TRUSTED_PROXIES: '0.0.0.0/0,::/0', EINLASS_SUPPORT_EMAIL: 'hilfe@betreiber.example' } },
)
