// Lucia-style tokens: `id.secret`; only SHA-256(secret) is stored, compared in constant time.
import { createHash } from 'node:crypto'
import { constantTimeEqual } from '@oslojs/crypto/subtle'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'

/**
 * RFC 4648 base32, lower case, no padding (what @oslojs/encoding's encodeBase32LowerCaseNoPadding
 * gives, checked by a test): five bits at a time in plain numbers; oslo's BigInt arithmetic took
 * a twentieth of a registration for its four tokens.
 */
export function base32(bytes: Uint8Array): string {
  let out = ''
  let buffer = 0
  let bits = 0
  for (let i = 0; i < bytes.length; i++) {
    buffer = ((buffer << 8) | bytes[i]) & 0xfff
    bits += 8
    while (bits >= 5) {
      bits -= 5
      out += ALPHABET[(buffer >> bits) & 31]
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31]
  return out
}

export function randomString(bytes = 20): string {
  const b = new Uint8Array(bytes)
  crypto.getRandomValues(b)
  return base32(b)
}

/** SHA-256 as lower-case hex (native; the same digest as before with @oslojs/crypto). */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex')

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
