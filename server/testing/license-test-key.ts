// The private half of the TEST license key (public half: TEST_PUBLIC_KEY in modules/license/keys.ts).
// Not a secret: only test builds (build.ts --test-license-key) and `bun test` trust it; release
// binaries trust the production key alone.
import { type LicenseBody, signLicense } from '../modules/license/license'

export const TEST_PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIOgWuVoHXfou1JT++V7VZ6cyUi32I2UUp1nGlAsnHnue
-----END PRIVATE KEY-----`

/** A license body valid for a year with every known feature, overridable per test. */
export function testLicenseBody(overrides: Partial<LicenseBody> = {}): LicenseBody {
  const until = new Date(Date.now() + 365 * 86400_000).toISOString().slice(0, 10)
  return {
    id: 'test-0001',
    licensee: 'Testagentur GmbH',
    issuedAt: new Date().toISOString().slice(0, 10),
    validUntil: until,
    features: ['MULTI_LANGUAGE', 'MAIL_CUSTOM', 'MAIL_CUSTOM_SENDER_NAME', 'EVENT_PRESET', 'MEDIA_GALLERY'],
    limits: { events: 100, guestAccounts: 50_000, agencyUsers: 25, storageMb: 10_240 },
    ...overrides,
  }
}

/** The JSON text of a license file signed with the test key. */
export function testLicenseText(overrides: Partial<LicenseBody> = {}): string {
  return JSON.stringify(signLicense(testLicenseBody(overrides), TEST_PRIVATE_KEY), null, 2)
}
