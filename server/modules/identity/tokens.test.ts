// The token helpers on the hot path are our own: they must give exactly what @oslojs gave before,
// or tokens and hashes stored earlier would no longer match.
import { expect, test } from 'bun:test'
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding'
import { base32, hashSecret, newToken, randomString, secretMatches } from './tokens'

test('base32 equals @oslojs encodeBase32LowerCaseNoPadding for every length and many values', () => {
  for (let n = 0; n <= 41; n++) {
    for (let k = 0; k < 50; k++) {
      const b = new Uint8Array(n)
      crypto.getRandomValues(b)
      expect(base32(b)).toBe(encodeBase32LowerCaseNoPadding(b))
    }
  }
  expect(base32(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff]))).toBe('77777777')
  expect(base32(new TextEncoder().encode('foobar'))).toBe('mzxw6ytboi')
})

test('hashSecret equals the @oslojs SHA-256 hex digest; tokens verify', () => {
  for (let k = 0; k < 50; k++) {
    const s = randomString(1 + k)
    expect(hashSecret(s)).toBe(encodeHexLowerCase(sha256(new TextEncoder().encode(s))))
  }
  expect(hashSecret('äöü €')).toBe(encodeHexLowerCase(sha256(new TextEncoder().encode('äöü €'))))
  const t = newToken()
  expect(t.token).toBe(`${t.id}.${t.secret}`)
  expect(t.secret).toMatch(/^[a-z2-7]{32}$/)
  expect(secretMatches(t.secret, t.secretHash)).toBe(true)
  expect(secretMatches(`${t.secret}x`, t.secretHash)).toBe(false)
})
