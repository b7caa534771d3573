// Who a mail comes from (agency-side.md §2.10, §3, §5; docs/mail.md): every §5 rule and its field
// error, the licence gates, the override at event and guest level, and delivery under the most
// specific sender: through the agency's SMTP server, DKIM-signed for an own domain (verified against
// the DNS key), failing visibly when the agency's server refuses, never under another sender.
import { afterAll, expect, test } from 'bun:test'
import { TestDnsServer } from '../../testing/dns-server'
import { verifyDkim } from '../../testing/dkim-verify'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent, licenseWith } from '../../testing/organiser'
import { SmtpSink } from '../../testing/smtp-sink'
import { COMMUNITY, type LicenseState } from '../license/license'

const dns = await new TestDnsServer().start()
const agencySmtp = await new SmtpSink({ auth: { user: 'agentur', pass: 'Geheim-SMTP-1' } }).start()
afterAll(async () => {
  dns.stop()
  await agencySmtp.stop()
})

forEachDialect(
  'mail sender',
  (h) => {
    let admin: Agent & { agencyId: number; email: string }
    let smtp: { id: number }
    let domain: { id: number; domainName: string }
    const signed = () => `signiert-${h().dialect}.example`

    async function withLicense<T>(l: LicenseState, fn: () => Promise<T>): Promise<T> {
      const ctx = h().ctx as { license: LicenseState }
      const before = ctx.license
      ctx.license = l
      try {
        return await fn()
      } finally {
        ctx.license = before
      }
    }
    const putAgency = (body: Record<string, unknown>) => admin.put('/proxy/api/agency/mailSender', { mailCustomSenderName: null, mailCustomSenderAddressName: null, mailCustomSenderAddressDomain: 'SYSTEM', mailSettingsId: null, ...body })
    const fieldsOf = (r: { body: any }) => (r.body.errorFields ?? []).map((f: any) => `${f.field}:${f.errorType}`)

    test('setup: an agency SMTP server (checked OK) and an own domain (DNS published, checked OK)', async () => {
      admin = await h().admin()
      smtp = (
        await admin.post('/proxy/api/mailSettings', { type: 'SMTP', displayName: 'Agentur-Server', host: '127.0.0.1', port: agencySmtp.port, tlsMode: 'NONE', user: 'agentur', password: 'Geheim-SMTP-1', smtpDomains: [{ name: 'agentur.example', prefix: 'events-' }, { name: 'zweite.example', prefix: null }] })
      ).body
      expect((await admin.post(`/proxy/api/mailSettings/${smtp.id}/check`, {})).body.mailSettingsStatus).toBe('OK')
      const d = (await admin.post('/proxy/api/mailSettings', { type: 'DOMAIN', displayName: 'Signiert', domainName: signed(), prefix: null })).body
      for (const r of d.dnsRecords) dns.set(r.name, [r.value])
      expect((await admin.post(`/proxy/api/mailSettings/${d.id}/check`, {})).body.mailSettingsStatus).toBe('OK')
      domain = d
    })

    test('§5: no "@" in the name; local part letters, digits, . _ -; required with a settings id; the name required with an own domain', async () => {
      expect(fieldsOf(await putAgency({ mailCustomSenderName: 'Agentur @ Süd' }))).toEqual(['mailCustomSenderName:SENDER_NAME_AT'])
      expect(fieldsOf(await putAgency({ mailCustomSenderName: 'Süd', mailCustomSenderAddressName: 'ev ents', mailCustomSenderAddressDomain: 'zweite.example', mailSettingsId: smtp.id }))).toEqual(['mailCustomSenderAddressName:INVALID_SENDER_ADDRESS'])
      expect(fieldsOf(await putAgency({ mailCustomSenderName: 'Süd', mailCustomSenderAddressName: 'ümlaut', mailCustomSenderAddressDomain: 'zweite.example', mailSettingsId: smtp.id }))).toEqual(['mailCustomSenderAddressName:INVALID_SENDER_ADDRESS'])
      expect(fieldsOf(await putAgency({ mailCustomSenderName: 'Süd', mailCustomSenderAddressDomain: 'zweite.example', mailSettingsId: smtp.id }))).toEqual(['mailCustomSenderAddressName:REQUIRED'])
      expect(fieldsOf(await putAgency({ mailCustomSenderAddressName: 'hallo', mailCustomSenderAddressDomain: 'zweite.example', mailSettingsId: smtp.id }))).toEqual(['mailCustomSenderName:SENDER_NAME_REQUIRED'])
      expect(fieldsOf(await putAgency({ mailCustomSenderName: 'Süd', mailCustomSenderAddressName: 'a..b', mailCustomSenderAddressDomain: 'zweite.example', mailSettingsId: smtp.id }))).toEqual(['mailCustomSenderAddressName:INVALID_FULL_MAIL'])
      const r = await putAgency({ mailCustomSenderName: 'Süd', mailCustomSenderAddressName: 'ev ents', mailCustomSenderAddressDomain: 'zweite.example', mailSettingsId: smtp.id })
      expect(r.status).toBe(400)
      expect(r.body.errorMessage).toBeTruthy()
    })

    test('§5: the four reserved provider addresses are refused at the server domain, in any case; fine at an own domain', async () => {
      for (const local of ['info', 'kontakt', 'Support', 'NOTFALL']) expect(fieldsOf(await putAgency({ mailCustomSenderAddressName: local, mailCustomSenderAddressDomain: 'AGENCY' }))).toEqual(['mailCustomSenderAddressName:INVALID_FULL_MAIL'])
      expect((await putAgency({ mailCustomSenderAddressName: 'infos', mailCustomSenderAddressDomain: 'AGENCY' })).status).toBe(200)
      expect((await putAgency({ mailCustomSenderName: 'Süd', mailCustomSenderAddressName: 'info', mailCustomSenderAddressDomain: 'zweite.example', mailSettingsId: smtp.id })).status).toBe(200)
    })

    test('§5: a domain with allowed prefixes takes only addresses that start with one', async () => {
      expect(fieldsOf(await putAgency({ mailCustomSenderName: 'Süd', mailCustomSenderAddressName: 'news', mailCustomSenderAddressDomain: 'agentur.example', mailSettingsId: smtp.id }))).toEqual(['mailCustomSenderAddressName:SENDER_PREFIX'])
      const ok = await putAgency({ mailCustomSenderName: 'Agentur Süd', mailCustomSenderAddressName: 'events-sommer', mailCustomSenderAddressDomain: 'agentur.example', mailSettingsId: smtp.id })
      expect(ok.status).toBe(200)
      expect(ok.body).toEqual({ mailCustomSenderName: 'Agentur Süd', mailCustomSenderAddressName: 'events-sommer', mailCustomSenderAddressDomain: 'agentur.example', mailSettingsId: smtp.id })
      expect((await admin.get('/proxy/api/agency/mailSender')).body).toEqual(ok.body)
    })

    test('a domain that is not one of the settings’ domains, or another agency’s settings, is refused; SYSTEM carries no local part', async () => {
      expect(fieldsOf(await putAgency({ mailCustomSenderName: 'Süd', mailCustomSenderAddressName: 'events-x', mailCustomSenderAddressDomain: 'fremd.example', mailSettingsId: smtp.id }))).toEqual(['mailCustomSenderAddressDomain:INVALID'])
      const other = await h().admin()
      const foreign = (await other.post('/proxy/api/mailSettings', { type: 'DOMAIN', displayName: 'Fremd', domainName: 'fremd.example', prefix: null })).body
      expect(fieldsOf(await putAgency({ mailCustomSenderName: 'Süd', mailCustomSenderAddressName: 'x', mailCustomSenderAddressDomain: 'fremd.example', mailSettingsId: foreign.id }))).toEqual(['mailCustomSenderAddressDomain:INVALID'])
      const sys = await other.put('/proxy/api/agency/mailSender', { mailCustomSenderName: 'Fremde Agentur', mailCustomSenderAddressName: 'egal', mailCustomSenderAddressDomain: 'SYSTEM', mailSettingsId: null })
      expect(sys.body).toEqual({ mailCustomSenderName: 'Fremde Agentur', mailCustomSenderAddressName: null, mailCustomSenderAddressDomain: 'SYSTEM', mailSettingsId: null })
    })

    test('the licence gates for real: a name needs MAIL_CUSTOM_SENDER_NAME, an address MAIL_CUSTOM', async () => {
      await withLicense(licenseWith(['MAIL_CUSTOM']), async () => {
        const r = await putAgency({ mailCustomSenderName: 'Süd' })
        expect(r.status).toBe(403)
        expect(r.body.errorType).toBe('WRONG_ABO')
        // without the name feature, an own domain needs no name
        expect((await putAgency({ mailCustomSenderAddressName: 'events-a', mailCustomSenderAddressDomain: 'agentur.example', mailSettingsId: smtp.id })).status).toBe(200)
      })
      await withLicense(licenseWith(['MAIL_CUSTOM_SENDER_NAME']), async () => {
        expect((await putAgency({ mailCustomSenderAddressName: 'hallo', mailCustomSenderAddressDomain: 'AGENCY' })).status).toBe(403)
        expect((await putAgency({ mailCustomSenderName: 'Nur Name' })).status).toBe(200)
      })
      await withLicense(COMMUNITY, async () => {
        expect((await putAgency({})).status).toBe(200)
      })
    })

    test('event and guest level: override off answers the level above; on stores its own; other agencies’ ids are not found', async () => {
      const e = await createEvent(admin)
      expect((await admin.get(`/proxy/api/events/${e.id}/mailSender`)).body).toEqual({ override: false, mailSender: null, mailSenderAddressName: null, mailSenderAddressDomain: null, mailSettingsId: null })
      expect(fieldsOf(await admin.put(`/proxy/api/events/${e.id}/mailSender`, { override: true, mailSender: 'a@b' }))).toEqual(['mailSender:SENDER_NAME_AT'])
      const on = await admin.put(`/proxy/api/events/${e.id}/mailSender`, { override: true, mailSender: 'Sommerfest', mailSenderAddressName: 'hallo', mailSenderAddressDomain: signed(), mailSettingsId: domain.id })
      expect(on.body).toEqual({ override: true, mailSender: 'Sommerfest', mailSenderAddressName: 'hallo', mailSenderAddressDomain: signed(), mailSettingsId: domain.id })
      const g = await addGuest(admin, e.id)
      expect(fieldsOf(await admin.put(`/proxy/api/events/${e.id}/visitors/${g.id}/mailSender`, { override: true, mailSenderAddressName: 'support', mailSenderAddressDomain: 'AGENCY' }))).toEqual(['mailSenderAddressName:INVALID_FULL_MAIL'])
      expect((await admin.put(`/proxy/api/events/${e.id}/visitors/${g.id}/mailSender`, { override: true, mailSender: 'Persönlich' })).body).toMatchObject({ override: true, mailSender: 'Persönlich', mailSenderAddressDomain: 'SYSTEM' })
      expect((await admin.put(`/proxy/api/events/${e.id}/visitors/${g.id}/mailSender`, { override: false })).body.override).toBe(false)
      const other = await h().admin()
      expect((await other.get(`/proxy/api/events/${e.id}/mailSender`)).status).toBe(404)
      expect((await other.put(`/proxy/api/events/${e.id}/mailSender`, { override: false })).status).toBe(404)
      const e2 = await createEvent(admin)
      expect((await admin.get(`/proxy/api/events/${e2.id}/visitors/${g.id}/mailSender`)).status).toBe(404)
      expect((await admin.put(`/proxy/api/events/${e.id}/mailSender`, { override: false })).body.override).toBe(false)
    })

    async function invite(eventId: number) {
      const g = await addGuest(admin, eventId)
      expect((await admin.post(`/proxy/api/events/${eventId}/visitors/${g.id}/invite`, {})).status).toBe(200)
      await h().deliverMail()
      return g
    }
    const outboxOf = (visitorId: number) => h().ctx.db.selectFrom('mail_outbox').selectAll().where('visitor_id', '=', visitorId).orderBy('id', 'desc').executeTakeFirstOrThrow()

    test('delivery: the agency sender goes through the agency’s SMTP server with its From; an event’s own domain is DKIM-signed; a guest’s override wins', async () => {
      await putAgency({ mailCustomSenderName: 'Agentur Süd', mailCustomSenderAddressName: 'events-sommer', mailCustomSenderAddressDomain: 'agentur.example', mailSettingsId: smtp.id })
      const e = await createEvent(admin)
      const g1 = await invite(e.id)
      const viaAgency = await agencySmtp.waitFor((m) => m.to.includes(g1.email))
      expect(viaAgency.from).toBe('events-sommer@agentur.example')
      expect(viaAgency.parsed.from?.value[0]).toEqual({ name: 'Agentur Süd', address: 'events-sommer@agentur.example' })
      expect(h().smtp.to(g1.email)).toHaveLength(0)
      expect(await outboxOf(g1.id)).toMatchObject({ status: 'SENT', from_address: 'Agentur Süd <events-sommer@agentur.example>' })

      await admin.put(`/proxy/api/events/${e.id}/mailSender`, { override: true, mailSender: 'Sommerfest', mailSenderAddressName: 'hallo', mailSenderAddressDomain: signed(), mailSettingsId: domain.id })
      const g2 = await invite(e.id)
      const viaDomain = await h().smtp.waitFor((m) => m.to.includes(g2.email))
      expect(viaDomain.parsed.from?.value[0]).toEqual({ name: 'Sommerfest', address: `hallo@${signed()}` })
      const dkim = await verifyDkim(viaDomain.raw, (s, d) => dns.txt.get(`${s}._domainkey.${d}`)?.[0]?.match(/p=([^;]+)/)?.[1] ?? null)
      expect(dkim).toEqual({ ok: true, domain: signed(), selector: (await admin.get(`/proxy/api/mailSettings/${domain.id}`)).body.dkimSelector })
      // the verifier refuses a changed message
      const tampered = Buffer.from(viaDomain.raw.toString().replace('Sommerfest', 'Winterfest'))
      expect((await verifyDkim(tampered, (s, d) => dns.txt.get(`${s}._domainkey.${d}`)?.[0]?.match(/p=([^;]+)/)?.[1] ?? null)).ok).toBe(false)

      const g3 = await addGuest(admin, e.id)
      await admin.put(`/proxy/api/events/${e.id}/visitors/${g3.id}/mailSender`, { override: true, mailSender: 'Ihr Team', mailSenderAddressDomain: 'SYSTEM' })
      expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${g3.id}/invite`, {})).status).toBe(200)
      await h().deliverMail()
      const viaSystem = await h().smtp.waitFor((m) => m.to.includes(g3.email))
      expect(viaSystem.parsed.from?.value[0]).toEqual({ name: 'Ihr Team', address: 'einlass@localhost' })
      expect(viaSystem.parsed.headers.has('dkim-signature')).toBe(false)
    })

    test('a failing agency SMTP server: the mail is FAILED with the server’s answer, never sent under another sender; the guest’s address is not marked', async () => {
      await putAgency({ mailCustomSenderName: 'Agentur Süd', mailCustomSenderAddressName: 'events-sommer', mailCustomSenderAddressDomain: 'agentur.example', mailSettingsId: smtp.id })
      await h().ctx.db.updateTable('mail_settings').set({ smtp_user: 'jemand-anders' }).where('id', '=', smtp.id).execute()
      try {
        const e = await createEvent(admin)
        const g = await invite(e.id)
        const row = await outboxOf(g.id)
        expect(row.status).toBe('FAILED')
        expect(row.last_error).toContain('535')
        expect(row.from_address).toBe('Agentur Süd <events-sommer@agentur.example>')
        expect(h().smtp.to(g.email)).toHaveLength(0)
        expect(agencySmtp.to(g.email)).toHaveLength(0)
        const mails = await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}/mails`)
        expect(mails.body).toMatchObject({ mailError: false, mailErrorText: null })
        expect(mails.body.items[0]).toMatchObject({ status: 'FAILED', from: 'Agentur Süd <events-sommer@agentur.example>', to: g.email })
        expect(mails.body.items[0].lastError).toContain('535')
      } finally {
        await h().ctx.db.updateTable('mail_settings').set({ smtp_user: 'agentur' }).where('id', '=', smtp.id).execute()
      }
    })

    test('an own domain whose check failed is not used: the mail fails saying so', async () => {
      const e = await createEvent(admin)
      await admin.put(`/proxy/api/events/${e.id}/mailSender`, { override: true, mailSender: 'Sommerfest', mailSenderAddressName: 'hallo', mailSenderAddressDomain: signed(), mailSettingsId: domain.id })
      await h().ctx.db.updateTable('mail_settings').set({ status: 'INVALID' }).where('id', '=', domain.id).execute()
      try {
        const g = await invite(e.id)
        expect(await outboxOf(g.id)).toMatchObject({ status: 'FAILED', last_error: 'MAIL_SETTINGS_INVALID: Signiert' })
        expect(h().smtp.to(g.email)).toHaveLength(0)
      } finally {
        await h().ctx.db.updateTable('mail_settings').set({ status: 'OK' }).where('id', '=', domain.id).execute()
      }
    })

    test('a bounce: the receiving server refuses the mail (5xx) and the guest’s address is marked failing with its answer, in the list and the detail; a later delivery clears it', async () => {
      await putAgency({})
      const e = await createEvent(admin)
      const g = await addGuest(admin, e.id)
      h().smtp.failNext = 1
      h().smtp.failCode = 550
      try {
        expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/invite`, {})).status).toBe(200)
        await h().deliverMail()
      } finally {
        h().smtp.failCode = 451
      }
      const mails = await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}/mails`)
      expect(mails.body.mailError).toBe(true)
      expect(mails.body.mailErrorText).toContain('550')
      const list = await admin.post(`/proxy/api/events/${e.id}/visitors/search`, { filter: { showMailError: true } })
      expect(list.status).toBe(200)
      expect(JSON.stringify(list.body)).toContain(g.email)
      const detail = await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)
      expect(detail.body).toMatchObject({ mailError: true })

      expect((await admin.post(`/proxy/api/events/${e.id}/visitors/${g.id}/invite`, {})).status).toBe(200)
      await h().deliverMail()
      expect((await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}/mails`)).body).toMatchObject({ mailError: false, mailErrorText: null })
    })

    test('mails to the agency’s staff come from einlass itself, not under the agency’s sender to guests', async () => {
      const { resolveSender } = await import('./sender')
      await putAgency({ mailCustomSenderName: 'Agentur Süd', mailCustomSenderAddressName: 'events-sommer', mailCustomSenderAddressDomain: 'agentur.example', mailSettingsId: smtp.id })
      const staff = await resolveSender(h().ctx, { kind: 'NEW_REGISTRATION', agency_id: admin.agencyId, event_id: null, visitor_id: null })
      expect(staff).toMatchObject({ name: 'einlass', address: 'einlass@localhost', smtp: null })
      const refundNotice = await resolveSender(h().ctx, { kind: 'PAYMENT_REFUND_FAILED_ORGANISER', agency_id: admin.agencyId, event_id: null, visitor_id: null })
      expect(refundNotice.address).toBe('einlass@localhost')
      const order = await resolveSender(h().ctx, { kind: 'TICKET_ORDER_PAID', agency_id: admin.agencyId, event_id: null, visitor_id: null })
      expect(order).toMatchObject({ name: 'Agentur Süd', address: 'events-sommer@agentur.example' })
    })
  },
  { license: licenseWith(['MAIL_CUSTOM', 'MAIL_CUSTOM_SENDER_NAME'], { events: -1 }), env: { EINLASS_DNS_RESOLVER: dns.address } },
)
