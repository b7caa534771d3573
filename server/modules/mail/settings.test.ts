// Mail settings per agency (agency-side.md §3, §7; docs/mail.md): SMTP checked by a real login and
// a test mail against an SMTP sink with AUTH; DOMAIN checked by its SPF and DKIM records on a local
// DNS server (EINLASS_DNS_RESOLVER); the search call; the password never leaves the server.
import { afterAll, expect, test } from 'bun:test'
import { TestDnsServer } from '../../testing/dns-server'
import { type Agent, forEachDialect } from '../../testing/harness'
import { licenseWith } from '../../testing/organiser'
import { SmtpSink } from '../../testing/smtp-sink'
import { COMMUNITY } from '../license/license'

const dns = await new TestDnsServer().start()
const agencySmtp = await new SmtpSink({ auth: { user: 'agentur', pass: 'Geheim-SMTP-1' } }).start()
afterAll(async () => {
  dns.stop()
  await agencySmtp.stop()
})
const LICENSE = licenseWith(['MAIL_CUSTOM', 'MAIL_CUSTOM_SENDER_NAME'])

const smtpBody = (o: Record<string, unknown> = {}) => ({
  type: 'SMTP',
  displayName: 'Agentur-Server',
  host: '127.0.0.1',
  port: agencySmtp.port,
  tlsMode: 'NONE',
  user: 'agentur',
  password: 'Geheim-SMTP-1',
  smtpDomains: [{ name: 'agentur.example', prefix: null }],
  ...o,
})

forEachDialect(
  'mail settings',
  (h) => {
    let admin: Agent & { agencyId: number; email: string }
    test('setup', async () => {
      admin = await h().admin()
    })

    test('SMTP settings: created INVALID until checked, the password stored sealed and never answered', async () => {
      const r = await admin.post('/proxy/api/mailSettings', smtpBody())
      expect(r.status).toBe(201)
      expect(r.body).toMatchObject({ type: 'SMTP', displayName: 'Agentur-Server', host: '127.0.0.1', tlsMode: 'NONE', user: 'agentur', passwordSet: true, mailSettingsStatus: 'INVALID', smtpDomains: [{ name: 'agentur.example', prefix: null }] })
      expect(JSON.stringify(r.body)).not.toContain('Geheim-SMTP-1')
      const row = await h().ctx.db.selectFrom('mail_settings').selectAll().where('id', '=', r.body.id).executeTakeFirstOrThrow()
      expect(row.smtp_password).toMatch(/^v1\./)
      expect(row.smtp_password).not.toContain('Geheim')
      expect((await admin.get(`/proxy/api/mailSettings/${r.body.id}`)).body).toEqual(r.body)
    })

    test('bad input answers field errors, never a 500', async () => {
      const bad = await admin.post('/proxy/api/mailSettings', smtpBody({ port: 70000, smtpDomains: [{ name: 'kein domain', prefix: 'a b' }] }))
      expect(bad.status).toBe(400)
      expect(bad.body.errorFields.map((f: any) => `${f.field}:${f.errorType}`).sort()).toEqual(['port:INVALID', 'smtpDomains.0.name:INVALID_DOMAIN', 'smtpDomains.0.prefix:INVALID_PREFIX'])
      const noPassword = await admin.post('/proxy/api/mailSettings', smtpBody({ password: null }))
      expect(noPassword.status).toBe(400)
      expect(noPassword.body.errorFields).toEqual([{ field: 'password', errorType: 'REQUIRED' }])
      expect((await admin.post('/proxy/api/mailSettings', { type: 'FAX', displayName: 'x' })).status).toBe(400)
      expect((await admin.post('/proxy/api/mailSettings', smtpBody({ smtpDomains: [] }))).body.errorFields).toEqual([{ field: 'smtpDomains', errorType: 'REQUIRED' }])
    })

    test('SMTP check: a wrong password is INVALID with the server’s answer; the right one logs in and sends a test mail to the checker', async () => {
      const created = (await admin.post('/proxy/api/mailSettings', smtpBody({ displayName: 'Falsch', password: 'falsch' }))).body
      const failed = await admin.post(`/proxy/api/mailSettings/${created.id}/check`, {})
      expect(failed.status).toBe(200)
      expect(failed.body).toMatchObject({ mailSettingsStatus: 'INVALID', statusCode: 'SMTP_LOGIN_FAILED' })
      expect(failed.body.statusMessage).toContain('535')
      expect(failed.body.checkedAt).toBeTruthy()
      expect(agencySmtp.logins.at(-1)).toEqual({ user: 'agentur', ok: false })

      // a new password without the type's other fields changing: the stored status goes back to INVALID until checked
      const fixed = await admin.put(`/proxy/api/mailSettings/${created.id}`, smtpBody({ displayName: 'Richtig' }))
      expect(fixed.body).toMatchObject({ mailSettingsStatus: 'INVALID', statusCode: null, checkedAt: null })
      const ok = await admin.post(`/proxy/api/mailSettings/${created.id}/check`, {})
      expect(ok.body).toMatchObject({ mailSettingsStatus: 'OK', statusCode: null, statusMessage: null })
      const testMail = await agencySmtp.waitFor((m) => m.to.includes(admin.email))
      expect(testMail.from).toBe('einlass-test@agentur.example')
      expect(testMail.subject).toBe('einlass: Test der Mail-Einstellungen')

      // only the name changes: still OK; the password left out: kept
      const renamed = await admin.put(`/proxy/api/mailSettings/${created.id}`, smtpBody({ displayName: 'Umbenannt', password: undefined }))
      expect(renamed.body).toMatchObject({ mailSettingsStatus: 'OK', passwordSet: true, displayName: 'Umbenannt' })
      const moved = await admin.put(`/proxy/api/mailSettings/${created.id}`, smtpBody({ displayName: 'Umbenannt', password: undefined, port: 2 }))
      expect(moved.body.mailSettingsStatus).toBe('INVALID')
    })

    test('SMTP check: a server that does not answer is INVALID, not OK', async () => {
      const created = (await admin.post('/proxy/api/mailSettings', smtpBody({ displayName: 'Weg', port: 1 }))).body
      const r = await admin.post(`/proxy/api/mailSettings/${created.id}/check`, {})
      expect(r.body).toMatchObject({ mailSettingsStatus: 'INVALID', statusCode: 'SMTP_LOGIN_FAILED' })
      expect(r.body.statusMessage).toMatch(/ECONNREFUSED|connect/i)
    })

    test('DOMAIN settings: einlass makes a DKIM key and names the DNS records; the check reads SPF and DKIM from DNS', async () => {
      const domain = `${h().dialect}-agentur.example`
      const r = await admin.post('/proxy/api/mailSettings', { type: 'DOMAIN', displayName: 'Eigene Domain', domainName: domain.toUpperCase(), prefix: 'events-, info-' })
      expect(r.status).toBe(201)
      expect(r.body).toMatchObject({ type: 'DOMAIN', domainName: domain, prefix: 'events-, info-', mailSettingsStatus: 'INVALID' })
      const [spf, dkim] = r.body.dnsRecords
      expect(spf).toEqual({ type: 'TXT', name: domain, value: 'v=spf1 include:localhost ~all', purpose: 'SPF' })
      expect(dkim.name).toBe(`${r.body.dkimSelector}._domainkey.${domain}`)
      expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/)
      const row = await h().ctx.db.selectFrom('mail_settings').selectAll().where('id', '=', r.body.id).executeTakeFirstOrThrow()
      expect(row.dkim_private_key).toMatch(/^v1\./)
      expect(JSON.stringify(r.body)).not.toContain('PRIVATE KEY')

      const check = async () => (await admin.post(`/proxy/api/mailSettings/${r.body.id}/check`, {})).body
      expect(await check()).toMatchObject({ mailSettingsStatus: 'INVALID', statusCode: 'MAIL_SPF_MISSING' })
      dns.set(domain, ['v=spf1 mx -all'])
      expect(await check()).toMatchObject({ mailSettingsStatus: 'INVALID', statusCode: 'MAIL_SPF_MISSING', statusMessage: 'v=spf1 mx -all' })
      dns.set(domain, ['google-site-verification=abc', spf.value])
      expect(await check()).toMatchObject({ mailSettingsStatus: 'INVALID', statusCode: 'MAIL_DKIM_MISSING' })
      dns.set(dkim.name, ['v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAx'])
      expect(await check()).toMatchObject({ mailSettingsStatus: 'INVALID', statusCode: 'MAIL_DKIM_MISMATCH' })
      dns.set(dkim.name, [dkim.value])
      expect(await check()).toMatchObject({ mailSettingsStatus: 'OK', statusCode: null })
      // another domain name: checked again before it counts
      const moved = await admin.put(`/proxy/api/mailSettings/${r.body.id}`, { type: 'DOMAIN', displayName: 'Eigene Domain', domainName: `neu-${domain}`, prefix: null })
      expect(moved.body).toMatchObject({ mailSettingsStatus: 'INVALID', domainName: `neu-${domain}` })
      expect((await admin.put(`/proxy/api/mailSettings/${r.body.id}`, smtpBody())).status).toBe(400)
    })

    test('search: sorted by displayName, page size up to 100000; other agencies’ settings are not found', async () => {
      const other = await h().admin()
      await other.post('/proxy/api/mailSettings', smtpBody({ displayName: 'AAA fremd' }))
      const r = await admin.post('/proxy/api/mailSettings/search', { paging: { page: 0, perPage: 100000 } })
      expect(r.status).toBe(200)
      const names = r.body.items.map((i: any) => i.displayName)
      expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : 1)))
      expect(names).not.toContain('AAA fremd')
      expect(r.body).toMatchObject({ perPage: 100000, page: 0, total: names.length })
      expect((await admin.post('/proxy/api/mailSettings/search', {})).body.perPage).toBe(100000)
      expect((await admin.post('/proxy/api/mailSettings/search', { paging: { perPage: 100001 } })).status).toBe(400)
      const foreign = (await other.post('/proxy/api/mailSettings/search', {})).body.items[0]
      expect((await admin.get(`/proxy/api/mailSettings/${foreign.id}`)).status).toBe(404)
      expect((await admin.put(`/proxy/api/mailSettings/${foreign.id}`, smtpBody())).status).toBe(404)
      expect((await admin.post(`/proxy/api/mailSettings/${foreign.id}/check`, {})).status).toBe(404)
      expect((await admin.delete(`/proxy/api/mailSettings/${foreign.id}`)).status).toBe(404)
    })

    test('delete: gone; while a sender uses it, refused with 409', async () => {
      const a = (await admin.post('/proxy/api/mailSettings', smtpBody({ displayName: 'Zum Löschen' }))).body
      expect((await admin.delete(`/proxy/api/mailSettings/${a.id}`)).status).toBe(200)
      expect((await admin.get(`/proxy/api/mailSettings/${a.id}`)).status).toBe(404)
      const b = (await admin.post('/proxy/api/mailSettings', smtpBody({ displayName: 'Benutzt' }))).body
      expect((await admin.put('/proxy/api/agency/mailSender', { mailCustomSenderName: 'Agentur', mailCustomSenderAddressName: 'events', mailCustomSenderAddressDomain: 'agentur.example', mailSettingsId: b.id })).status).toBe(200)
      const refused = await admin.delete(`/proxy/api/mailSettings/${b.id}`)
      expect(refused.status).toBe(409)
      expect(refused.body.errorType).toBe('MAIL_SETTINGS_IN_USE')
      // removing the used domain is refused the same way
      expect((await admin.put(`/proxy/api/mailSettings/${b.id}`, smtpBody({ displayName: 'Benutzt', smtpDomains: [{ name: 'anders.example', prefix: null }] }))).status).toBe(409)
      await admin.put('/proxy/api/agency/mailSender', { mailCustomSenderName: null, mailCustomSenderAddressName: null, mailCustomSenderAddressDomain: 'SYSTEM', mailSettingsId: null })
      expect((await admin.delete(`/proxy/api/mailSettings/${b.id}`)).status).toBe(200)
    })

    test('the licence gates for real: without MAIL_CUSTOM no settings are made or checked', async () => {
      const ctx = h().ctx as { license: typeof COMMUNITY }
      const before = ctx.license
      ctx.license = COMMUNITY
      try {
        const r = await admin.post('/proxy/api/mailSettings', smtpBody())
        expect(r.status).toBe(403)
        expect(r.body.errorType).toBe('WRONG_ABO')
      } finally {
        ctx.license = before
      }
    })

    test('without a login the calls answer 401', async () => {
      const r = await h().request('POST', '/proxy/api/mailSettings/search', { body: {} })
      expect(r.status).toBe(401)
    })
  },
  { license: LICENSE, env: { EINLASS_DNS_RESOLVER: dns.address } },
)
