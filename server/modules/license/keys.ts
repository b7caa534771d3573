// Public keys licenses are verified against. The production key's private half is held by the
// vendor and never enters this repository. A build made for tests (build.ts --test-license-key)
// trusts the test key as well; the release build trusts only the production key.
export const PRODUCTION_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEABI2goOXJEW2LLqxD5S0SeTk8j/g8EpffQjifMpfshus=
-----END PUBLIC KEY-----`

/** Test key pair: public here, private in server/testing/license-test-key.ts. Not a secret. */
export const TEST_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEA516bOkg3d7D2/NRwpCkt4bQG9AhfkwsN2Ibu4UMUo44=
-----END PUBLIC KEY-----`

declare const __EINLASS_TRUST_TEST_LICENSE_KEY__: boolean | undefined

/** Keys trusted by this build. */
export function trustedPublicKeys(): string[] {
  const trustTest = typeof __EINLASS_TRUST_TEST_LICENSE_KEY__ !== 'undefined' && __EINLASS_TRUST_TEST_LICENSE_KEY__ === true
  return trustTest ? [PRODUCTION_PUBLIC_KEY, TEST_PUBLIC_KEY] : [PRODUCTION_PUBLIC_KEY]
}
