// Lucia-style tokens: `id.secret`; only SHA-256(secret) is stored, compared in constant time.
import { sha256 } from '@oslojs/crypto/sha2'
import { constantTimeEqual } from '@oslojs/crypto/subtle'
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding'

export function randomString(bytes = 20): string {
  const b = new Uint8Array(bytes)
  crypto.getRandomValues(b)
  return encodeBase32LowerCaseNoPadding(b)
}

export const hashSecret = (secret: string) => encodeHexLowerCase(sha256(new TextEncoder().encode(secret)))

export function newToken(): { id: string; secret: string; token: string; secretHash: string } {
  const id = randomString(15)
  const secret = randomString(20)
  return { id, secret, token: `${id}.${secret}`, secretHash: hashSecret(secret) }
}

export function splitToken(token: string | null | undefined): { id: string; secret: string } | null {
  if (!token) return null
  const dot = token.indexOf('.')
  if (dot < 1 || dot === token.length - 1 || token.length > 200) return null
  return { id: token.slice(0, dot), secret: token.slice(dot + 1) }
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const a = new TextEncoder().encode(hashSecret(secret))
  const b = new TextEncoder().encode(storedHash)
  return a.length === b.length && constantTimeEqual(a, b)
}
