import { describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveLicense } from '../../bootstrap'
import { loadConfig } from '../../config/config'
import { createLogger } from '../../logger'
import { eventBody, forEachDialect, TEST_PASSWORD, uniqueEmail } from '../../testing/harness'
import { testLicenseBody, testLicenseText, TEST_PRIVATE_KEY } from '../../testing/license-test-key'
import { startServerProcess } from '../../testing/process'
import { hashPassword } from '../identity/service'
import { PRODUCTION_PUBLIC_KEY, TEST_PUBLIC_KEY } from './keys'
import { paidEvent } from '../ticketing/testing'
import { COMMUNITY_LIMITS, hasFeature, loadLicense, signLicense, verifyLicenseText } from './license'

const KEYS = [PRODUCTION_PUBLIC_KEY, TEST_PUBLIC_KEY]
const dir = mkdtempSync(join(tmpdir(), 'einlass-license-'))
const write = (name: string, text: string) => {
  writeFileSync(join(dir, name), text)
  return join(dir, name)
}

describe('license verification', () => {
  test('a license signed with a trusted key is valid; key order in the file does not matter', () => {
    const r = verifyLicenseText(testLicenseText(), KEYS)
    expect(r.ok).toBe(true)
    const signed = signLicense(testLicenseBody(), TEST_PRIVATE_KEY)
    const reordered = { signature: signed.signature, license: Object.fromEntries(Object.entries(signed.license).reverse()) }
    expect(verifyLicenseText(JSON.stringify(reordered), KEYS).ok).toBe(true)
  })

  test('tampered, expired, malformed and foreign licenses are refused with a reason', () => {
    const tampered = JSON.parse(testLicenseText())
    tampered.license.features.push('SEATING')
    expect(verifyLicenseText(JSON.stringify(tampered), KEYS)).toMatchObject({ ok: false, problem: 'BAD_SIGNATURE' })
    expect(verifyLicenseText(testLicenseText({ validUntil: '2021-03-31' }), KEYS)).toMatchObject({ ok: false, problem: 'EXPIRED', reason: 'license expired on 2021-03-31' })
    expect(verifyLicenseText('{"license":', KEYS)).toMatchObject({ ok: false, problem: 'NOT_JSON' })
    expect(verifyLicenseText(JSON.stringify({ license: { ...testLicenseBody(), limits: { events: 'many' } }, signature: 'x' }), KEYS)).toMatchObject({ ok: false, problem: 'MALFORMED' })
    // only the production key is trusted by release builds
    expect(verifyLicenseText(testLicenseText(), [PRODUCTION_PUBLIC_KEY])).toMatchObject({ ok: false, problem: 'BAD_SIGNATURE' })
  })

  test('valid through the whole last day (UTC)', () => {
    const text = testLicenseText({ validUntil: '2030-06-30' })
    expect(verifyLicenseText(text, KEYS, new Date('2030-06-30T23:59:59Z')).ok).toBe(true)
    expect(verifyLicenseText(text, KEYS, new Date('2030-07-01T00:00:01Z')).ok).toBe(false)
  })

  test('loadLicense: features and limits from a valid file; community defaults otherwise', () => {
    const ok = loadLicense(write('ok.json', testLicenseText()), KEYS)
    expect(ok).toMatchObject({ edition: 'licensed', licensee: 'Testagentur GmbH', features: testLicenseBody().features, limits: testLicenseBody().limits, problem: null })
    const expired = loadLicense(write('old.json', testLicenseText({ validUntil: '2022-01-31' })), KEYS)
    expect(expired).toMatchObject({ edition: 'community', features: [], limits: COMMUNITY_LIMITS, problem: 'EXPIRED', licensee: 'Testagentur GmbH', validUntil: '2022-01-31' })
    expect(loadLicense(join(dir, 'missing.json'), KEYS)).toMatchObject({ edition: 'community', problem: 'FILE_NOT_FOUND', limits: COMMUNITY_LIMITS })
    expect(loadLicense(null, KEYS)).toMatchObject({ edition: 'community', problem: 'NO_FILE' })
  })
})

describe('the license at start: one clear log line, never a crash', () => {
  const cases: Array<[string, string | null, RegExp]> = [
    ['valid', testLicenseText(), /^license valid$/],
    ['tampered', JSON.stringify({ ...JSON.parse(testLicenseText()), signature: Buffer.from('x'.repeat(64)).toString('base64') }), /^license: license signature does not match .*; running with community edition limits$/],
    ['expired', testLicenseText({ validUntil: '2020-01-31' }), /^license: license expired on 2020-01-31; running with community edition limits$/],
    ['malformed', '{"license": {}, "signature": ""}', /^license: license file is malformed \(license\.id: .*\); running with community edition limits$/],
    ['missing', null, /^license: license file not found: .*; running with community edition limits$/],
  ]
  for (const [name, text, expected] of cases) {
    test(name, () => {
      const file = text === null ? join(dir, `${name}-absent.json`) : write(`${name}.json`, text)
      const lines: string[] = []
      const config = loadConfig({ env: { EINLASS_DATA_DIR: dir, EINLASS_LICENSE_FILE: file }, cwd: dir })
      const state = resolveLicense(config, createLogger('info', (l) => lines.push(l)), KEYS)
      expect(lines).toHaveLength(1)
      const rec = JSON.parse(lines[0])
      expect(rec.msg).toMatch(expected)
      expect(rec.level).toBe(name === 'valid' ? 'info' : 'warn')
      expect(state.edition).toBe(name === 'valid' ? 'licensed' : 'community')
    })
  }

  test('a server with a tampered license starts on community defaults', async () => {
    const tampered = JSON.parse(testLicenseText({ limits: { events: 1, guestAccounts: 1, agencyUsers: 1, storageMb: 1 } }))
    tampered.license.limits.events = 100_000
    const file = write('tampered-server.json', JSON.stringify(tampered))
    const server = await startServerProcess({ env: { EINLASS_LICENSE_FILE: file, EINLASS_LOG_LEVEL: 'info' } })
    try {
      const init = await fetch(`${server.url}/proxy/api/app/init`).then((r) => r.json())
      expect(init.limits.allowedEvents).toBe(COMMUNITY_LIMITS.events)
      const licenseLines = server.records().filter((r) => /licen[cs]e/i.test(r.msg))
      expect(licenseLines.map((r) => r.msg)).toEqual(['license: license signature does not match (file changed or not issued for einlass); running with community edition limits'])
      expect(licenseLines[0].level).toBe('warn')
    } finally {
      await server.stop()
    }
  })
})

const licensed = loadLicense(write('harness.json', testLicenseText({ limits: { events: 3, guestAccounts: 200, agencyUsers: 4, storageMb: 512 } })), KEYS)

forEachDialect(
  'app init and the license page (licensed)',
  (h) => {
    test('GET /proxy/api/app/init answers exactly the spec fields, limits from the license with usage', async () => {
      const admin = await h().admin()
      expect((await admin.post('/proxy/api/events', eventBody())).status).toBe(201)
      const r = await admin.get('/proxy/api/app/init')
      expect(r.status).toBe(200)
      expect(Object.keys(r.body).sort()).toEqual(['abos', 'agencyMessages', 'appInfo', 'avvInfo', 'invoiceSettingsFailed', 'limits', 'pausedStatus'])
      expect(Object.keys(r.body.appInfo).sort()).toEqual(['app', 'baseUrl', 'design', 'domain', 'invoiceSettingsFailed', 'limits', 'mailSender', 'mailSenderAddress', 'pausedStatus', 'saas', 'test'])
      expect(r.body.appInfo).toMatchObject({ baseUrl: 'http://localhost', saas: false, app: 'einlass', pausedStatus: null, invoiceSettingsFailed: false, test: false, design: null })
      const limits = { allowedEvents: 3, usedEvents: 1, allowedGuestAccounts: 200, usedGuestAccounts: 0, allowedAgencyUsers: 4, usedAgencyUsers: 1, allowedStorage: 512, usedStorage: 0 }
      expect(r.body.limits).toEqual(limits)
      expect(r.body.appInfo.limits).toEqual(limits)
      expect(r.body).toMatchObject({ avvInfo: { avvState: 'NOT_REQUIRED' }, abos: [{ aboType: 'SERVER_LICENSE', licensee: 'Testagentur GmbH' }], agencyMessages: [], pausedStatus: null, invoiceSettingsFailed: false })
    })

    test('a PAUSED agency: app/init says so (the UI hides booking hints then); other agencies are not affected', async () => {
      const admin = await h().admin()
      const agencyId = admin.agencyId
      await h().ctx.db.updateTable('agency').set({ status: 'PAUSED' }).where('id', '=', agencyId).execute()
      try {
        const r = await admin.get('/proxy/api/app/init')
        expect(r.body.pausedStatus).toBe('PAUSED')
        expect(r.body.appInfo.pausedStatus).toBe('PAUSED')
        expect((await h().request('GET', '/proxy/api/app/init')).body.pausedStatus).toBeNull()
      } finally {
        await h().ctx.db.updateTable('agency').set({ status: 'OK' }).where('id', '=', agencyId).execute()
      }
      expect((await admin.get('/proxy/api/app/init')).body.pausedStatus).toBeNull()
    })

    test('features of the license reach the user details', async () => {
      const admin = await h().admin()
      const r = await admin.get('/proxy/userDetails')
      expect(r.body.features).toEqual(testLicenseBody().features)
    })

    test('without login app/init still answers, with the allowed limits and no usage', async () => {
      const r = await h().request('GET', '/proxy/api/app/init')
      expect(r.status).toBe(200)
      expect(r.body.limits).toMatchObject({ allowedEvents: 3, usedEvents: 0 })
    })

    test('GET /proxy/api/license: holder, validity, features, limits with usage, support address', async () => {
      const admin = await h().admin()
      const r = await admin.get('/proxy/api/license')
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({
        edition: 'licensed',
        licensee: 'Testagentur GmbH',
        validUntil: testLicenseBody().validUntil,
        problem: null,
        supportEmail: 'support@localhost',
        limits: { allowedEvents: 3, usedEvents: 0, allowedAgencyUsers: 4, usedAgencyUsers: 1 },
      })
      expect(r.body.features).toContainEqual({ featureCode: 'MULTI_LANGUAGE', included: true, everyEdition: false })
      // ticket sales, seat plans, wallet tickets and reporting are part of every edition (issue 20 item 27)
      expect(r.body.features).toContainEqual({ featureCode: 'SEATING', included: true, everyEdition: true })
      expect(r.body.features).toContainEqual({ featureCode: 'MEDIA_GALLERY', included: true, everyEdition: false })
    })

    test('the license page needs AGENCY.ABO: an editor gets NO_PERMISSION, a stranger NOT_AUTHENTICATED', async () => {
      const admin = await h().admin()
      const email = uniqueEmail('editor')
      const db = h().ctx.db
      const user = await db.insertInto('app_user').values({ email, password_hash: await hashPassword(TEST_PASSWORD), status: 'OK' }).returning('id').executeTakeFirstOrThrow()
      await db.insertInto('account').values({ user_id: user.id, agency_id: admin.agencyId, user_role: 'AGENCY_EDITOR' }).execute()
      const editor = h().agent()
      expect((await editor.post('/auth/login', { email, password: TEST_PASSWORD })).status).toBe(200)
      const r = await editor.get('/proxy/api/license')
      expect(r.status).toBe(403)
      expect(r.body.errorType).toBe('NO_PERMISSION')
      const anon = await h().request('GET', '/proxy/api/license')
      expect(anon.status).toBe(401)
      expect(anon.body.errorType).toBe('NOT_AUTHENTICATED')
    })
  },
  { license: licensed },
)

forEachDialect('the license page (community edition)', (h) => {
  test('shows the community limits and why they apply', async () => {
    const admin = await h().admin()
    const r = await admin.get('/proxy/api/license')
    expect(r.body).toMatchObject({ edition: 'community', licensee: null, validUntil: null, problem: 'NO_FILE', limits: { allowedEvents: COMMUNITY_LIMITS.events } })
    // the page says what the server does: ticket sales, seat plans, wallet tickets and reporting work
    // in every edition (README, Editions); the licence features are not included
    const included = r.body.features.filter((f: { included: boolean }) => f.included).map((f: { featureCode: string }) => f.featureCode)
    expect(included.sort()).toEqual(['REPORTING', 'SEATING', 'TICKETING', 'WALLET'])
    expect(r.body.features.filter((f: { everyEdition: boolean }) => f.everyEdition).map((f: { featureCode: string }) => f.featureCode).sort()).toEqual(['REPORTING', 'SEATING', 'TICKETING', 'WALLET'])
    expect(hasFeature(h().ctx.license, 'TICKETING')).toBe(true)
    expect(hasFeature(h().ctx.license, 'MULTI_LANGUAGE')).toBe(false)
    // and the gates agree: a community server sells tickets and saves a seat plan
    const { event } = await paidEvent(admin)
    expect((await admin.put(`/proxy/api/events/${event.id}/seatingplan`, { priceCategories: [], areas: [{ displayName: 'Saal', chairs: [] }] })).status).toBe(200)
  })
})

describe('scripts/license-sign.ts (vendor tool)', () => {
  const { BUN, ROOT, runCli } = require('../../testing/process') as typeof import('../../testing/process')
  const sign = (args: string[]) => runCli(args, { command: [BUN, join(ROOT, 'scripts', 'license-sign.ts')] })

  test('signs a license with the private key file given; einlass verifies it', () => {
    const key = write('vendor.pem', TEST_PRIVATE_KEY)
    const out = join(dir, 'issued.json')
    const r = sign(['--key', key, '--licensee', 'Agentur Süd GmbH', '--valid-until', '2031-12-31', '--features', 'MULTI_LANGUAGE,MAIL_CUSTOM', '--events', '-1', '--agency-users', '12', '--out', out])
    expect(r.stderr.trim()).toBe(`license-sign: wrote ${out} for Agentur Süd GmbH, valid until 2031-12-31`)
    expect(r.code).toBe(0)
    const state = loadLicense(out, KEYS)
    expect(state).toMatchObject({ edition: 'licensed', licensee: 'Agentur Süd GmbH', validUntil: '2031-12-31', features: ['MULTI_LANGUAGE', 'MAIL_CUSTOM'] })
    expect(state.limits).toEqual({ events: -1, guestAccounts: COMMUNITY_LIMITS.guestAccounts, agencyUsers: 12, storageMb: COMMUNITY_LIMITS.storageMb })
  })

  test('refuses bad input with one line', () => {
    const key = write('vendor2.pem', TEST_PRIVATE_KEY)
    expect(sign(['--licensee', 'X', '--valid-until', '2030-01-01']).stderr.trim()).toBe('license-sign: --key PRIVATE_KEY.pem is required')
    expect(sign(['--key', key, '--licensee', 'X', '--valid-until', '31.12.2030']).stderr.trim()).toBe('license-sign: --valid-until: not a date (YYYY-MM-DD): "31.12.2030"')
    const r = sign(['--key', key, '--licensee', 'X', '--valid-until', '2030-01-01', '--features', 'TELEPORT'])
    expect(r.code).toBe(2)
    expect(r.stderr).toStartWith('license-sign: --features: unknown feature "TELEPORT"')
    expect(sign(['--key', write('not-a-key.pem', 'hello'), '--licensee', 'X', '--valid-until', '2030-01-01']).stderr).toStartWith('license-sign: --key: not an Ed25519 private key')
  })
})
