// app/init tells the truth (issue 23): abos and invoiceSettingsFailed from the licence, agencyMessages
// from real conditions (licence ending within 30 days, a limit 90 % used, a payment webhook refused);
// and the subscription edition's payment calls answer that this edition orders through support.
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eventBody, forEachDialect } from '../../testing/harness'
import { testLicenseText } from '../../testing/license-test-key'
import { PRODUCTION_PUBLIC_KEY, TEST_PUBLIC_KEY } from '../license/keys'
import { loadLicense } from '../license/license'
import { STRIPE, onlineEvent, startFakes, stripeHook } from '../payments/testing'
import { RATE_LIMITS } from '../identity/rate-limit'
import { createUser, loginAs } from '../identity/test-helpers'

const KEYS = [PRODUCTION_PUBLIC_KEY, TEST_PUBLIC_KEY]
const dir = mkdtempSync(join(tmpdir(), 'einlass-init-'))
const licenseFile = (name: string, overrides: Parameters<typeof testLicenseText>[0]) => {
  writeFileSync(join(dir, name), testLicenseText(overrides))
  return join(dir, name)
}
const inDays = (d: number) => new Date(Date.now() + d * 24 * 3600_000).toISOString().slice(0, 10)
const fakes = startFakes()
afterAll(() => fakes.stop())

const messages = async (agent: { get(path: string): Promise<{ body: any }> }) => (await agent.get('/proxy/api/app/init')).body.agencyMessages as Array<Record<string, unknown>>

forEachDialect(
  'app/init from the licence: ending soon, limits 90 % used',
  (h) => {
    test('the licence is the abo; it ends in 20 days: LICENSE_EXPIRES with the days left', async () => {
      const admin = await h().admin()
      const r = await admin.get('/proxy/api/app/init')
      expect(r.body.abos).toEqual([
        expect.objectContaining({ aboType: 'SERVER_LICENSE', licensee: 'Testagentur GmbH', validUntil: inDays(20), additionalEvents: 0, additionalAccounts: 0, additionalAgencyUsers: 0, link: null, priceNetto: null }),
      ])
      expect(r.body.invoiceSettingsFailed).toBe(false)
      expect(r.body.agencyMessages).toContainEqual({ agencyMessageType: 'LICENSE_EXPIRES', validUntil: inDays(20), daysLeft: 20 })
    })

    test('LIMIT_NEARLY_REACHED from 90 % of a limit (9 of 10 events), not below; the agency’s usage only', async () => {
      const admin = await h().admin()
      for (let i = 0; i < 8; i++) expect((await admin.post('/proxy/api/events', eventBody())).status).toBe(201)
      expect((await messages(admin)).filter((m) => m.agencyMessageType === 'LIMIT_NEARLY_REACHED')).toEqual([])
      expect((await admin.post('/proxy/api/events', eventBody())).status).toBe(201)
      expect((await messages(admin)).filter((m) => m.agencyMessageType === 'LIMIT_NEARLY_REACHED')).toEqual([{ agencyMessageType: 'LIMIT_NEARLY_REACHED', limit: 'events', allowed: 10, used: 9 }])
      // another agency's organiser sees nothing of it; nobody signed in sees no messages and no abos
      const other = await h().admin()
      expect((await messages(other)).filter((m) => m.agencyMessageType === 'LIMIT_NEARLY_REACHED')).toEqual([])
      const anon = await h().request('GET', '/proxy/api/app/init')
      expect(anon.body).toMatchObject({ agencyMessages: [], abos: [] })
    })
  },
  { license: loadLicense(licenseFile('soon.json', { validUntil: inDays(20), limits: { events: 10, guestAccounts: 100, agencyUsers: 5, storageMb: 100 } }), KEYS) },
)

forEachDialect(
  'app/init with a licence far from its end',
  (h) => {
    test('no LICENSE_EXPIRES 60 days ahead', async () => {
      const admin = await h().admin()
      expect((await messages(admin)).map((m) => m.agencyMessageType)).not.toContain('LICENSE_EXPIRES')
    })
  },
  { license: loadLicense(licenseFile('later.json', { validUntil: inDays(60) }), KEYS) },
)

forEachDialect(
  'app/init with an expired licence file',
  (h) => {
    test('invoiceSettingsFailed: the configured licence does not hold; the abo is the community edition', async () => {
      const admin = await h().admin()
      const r = await admin.get('/proxy/api/app/init')
      expect(r.body.invoiceSettingsFailed).toBe(true)
      expect(r.body.appInfo.invoiceSettingsFailed).toBe(true)
      expect(r.body.abos).toEqual([expect.objectContaining({ aboType: 'COMMUNITY', validUntil: null })])
    })
  },
  { license: loadLicense(licenseFile('expired.json', { validUntil: '2020-01-01' }), KEYS) },
)

forEachDialect(
  'app/init: payment webhooks, the abo calls',
  (h) => {
    test('a refused webhook call makes PAYMENT_WEBHOOK_FAILING until one is accepted again', async () => {
      const admin = await h().admin()
      const { methods } = (await onlineEvent(admin, STRIPE)) as any
      const methodId: number = methods?.[0]?.id ?? (await h().ctx.db.selectFrom('payment_method').select('id').where('agency_id', '=', admin.agencyId).executeTakeFirstOrThrow()).id
      expect((await messages(admin)).map((m) => m.agencyMessageType)).not.toContain('PAYMENT_WEBHOOK_FAILING')
      const bad = await h().app.handle(new Request(`http://localhost/proxy/api/payments/stripe/webhook/${methodId}`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=falsch' }, body: '{}' }))
      expect(bad.status).toBe(400)
      const failing = (await messages(admin)).filter((m) => m.agencyMessageType === 'PAYMENT_WEBHOOK_FAILING')
      expect(failing).toEqual([{ agencyMessageType: 'PAYMENT_WEBHOOK_FAILING', paymentMethodId: methodId, since: expect.any(String) }])
      // the guest-role and other agencies do not see it
      expect((await messages(await h().admin())).map((m) => m.agencyMessageType)).not.toContain('PAYMENT_WEBHOOK_FAILING')
      const good = await stripeHook(h(), fakes.stripe, methodId, 'pi_nicht_bekannt')
      expect(good.status).toBe(200)
      expect((await messages(admin)).map((m) => m.agencyMessageType)).not.toContain('PAYMENT_WEBHOOK_FAILING')
    })

    test('the three /api/abo calls answer 409 BOOKING_VIA_SUPPORT with the support address; AGENCY.ABO only', async () => {
      const admin = await h().admin()
      const editor = await loginAs(h(), await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }] }))
      for (const path of ['/proxy/api/abo/proceed/paymentSelection', '/proxy/api/abo/proceed/paymentPay', '/proxy/api/abo/clearPayment']) {
        const r = await admin.post(path, { aboType: 'PRO' })
        expect(r.status).toBe(409)
        expect(r.body).toEqual({
          status: 409,
          errorType: 'BOOKING_VIA_SUPPORT',
          errorMessage: 'In der Server-Edition werden Funktionen und Erweiterungen nicht online gebucht, sondern über den Support bestellt (support@localhost).',
          errorTranslation: expect.any(String),
          supportEmail: 'support@localhost',
        })
        expect((await editor.post(path, {})).status).toBe(403)
        expect((await h().request('POST', path)).status).toBe(401)
      }
    })
  },
  { env: fakes.env },
)

forEachDialect('ordering through support', (h) => {
  test('POST /proxy/api/license/request mails the support address what is wanted, with agency, licence and requester; audited', async () => {
    const admin = await h().admin({ agency: 'Agentur Nordlicht' })
    const r = await admin.post('/proxy/api/license/request', { featureType: 'ADDITIONAL_EVENTS', amount: 10, message: 'Guten Tag,\n\nwir brauchen mehr Veranstaltungen.' })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ sent: true, supportEmail: 'support@localhost', wanted: '10 weitere Veranstaltungen' })
    await h().deliverMail()
    const mail = h().smtp.mails.find((m) => m.to.includes('support@localhost') && m.subject.includes('Agentur Nordlicht'))!
    expect(mail.subject).toBe('Bestellanfrage: 10 weitere Veranstaltungen (Agentur Nordlicht)')
    expect(mail.text).toContain('wir brauchen mehr Veranstaltungen.')
    expect(mail.text).toContain(`Angefragt von: Ada Admin <${admin.email}>`)
    expect(mail.text).toContain(`Agentur: Agentur Nordlicht (#${admin.agencyId})`)
    const feature = await admin.post('/proxy/api/license/request', { featureType: 'FEATURE', featureCode: 'MEDIA_GALLERY', message: 'Bitte die Mediengalerie.' })
    expect(feature.body.wanted).toBe('Mediengalerie')
    const log = await h().ctx.db.selectFrom('audit_log').select('detail').where('agency_id', '=', admin.agencyId).where('action', '=', 'license.request').execute()
    expect(log.map((l) => JSON.parse(l.detail!).featureType)).toEqual(['ADDITIONAL_EVENTS', 'FEATURE'])
  })

  test('bad requests: a limit without amount, an unknown feature, an empty message; AGENCY.ABO only', async () => {
    const admin = await h().admin()
    const noAmount = await admin.post('/proxy/api/license/request', { featureType: 'ADDITIONAL_STORAGE', message: 'x' })
    expect(noAmount.body).toMatchObject({ status: 400, errorType: 'FIELD_ERROR', errorFields: [{ field: 'amount', errorType: 'REQUIRED' }] })
    const unknown = await admin.post('/proxy/api/license/request', { featureType: 'FEATURE', featureCode: 'TELEPORT', message: 'x' })
    expect(unknown.body.errorFields).toEqual([{ field: 'featureCode', errorType: 'INVALID' }])
    const empty = await admin.post('/proxy/api/license/request', { featureType: 'FEATURE', featureCode: 'MEDIA_GALLERY', message: '  ' })
    expect(empty.status).toBe(400)
    const editor = await loginAs(h(), await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_EDITOR' }] }))
    expect((await editor.post('/proxy/api/license/request', { featureType: 'FEATURE', featureCode: 'MEDIA_GALLERY', message: 'x' })).status).toBe(403)
    // nothing was queued for any of them
    expect(await h().ctx.db.selectFrom('mail_outbox').select('id').where('kind', '=', 'SUPPORT_ORDER_REQUEST').where('agency_id', '=', admin.agencyId).execute()).toEqual([])
  })

  test('at most 10 order requests per user and hour', async () => {
    const admin = await h().admin()
    const body = { featureType: 'FEATURE', featureCode: 'MEDIA_GALLERY', message: 'Bitte.' }
    for (let i = 0; i < RATE_LIMITS.LICENSE_REQUEST_USER.max; i++) expect((await admin.post('/proxy/api/license/request', body)).status).toBe(200)
    const over = await admin.post('/proxy/api/license/request', body)
    expect(over.status).toBe(429)
    expect(over.body.errorType).toBe('RATE_LIMITED')
    expect((await h().ctx.db.selectFrom('mail_outbox').select('id').where('kind', '=', 'SUPPORT_ORDER_REQUEST').where('agency_id', '=', admin.agencyId).execute()).length).toBe(RATE_LIMITS.LICENSE_REQUEST_USER.max)
  })
})
