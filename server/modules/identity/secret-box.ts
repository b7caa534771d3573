// Small at-rest encryption for secrets kept in the database (TOTP seeds): AES-256-GCM with a key
// derived from the data dir's signing key, so a stolen database alone does not reveal the seeds.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'
import type { Secrets } from '../../secrets'

// one key per purpose: a value sealed for one column cannot be opened as another's
const keyOf = (secrets: Secrets, purpose: string) => createHmac('sha256', Buffer.from(secrets.signingKey, 'base64')).update(`einlass:${purpose}`).digest()
const TFA = 'user_tfa.secret'

export function seal(secrets: Secrets, plain: string, purpose = TFA): string {
  const iv = randomBytes(12)
  const c = createCipheriv('aes-256-gcm', keyOf(secrets, purpose), iv)
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()])
  return `v1.${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64')}`
}

export function open(secrets: Secrets, sealed: string, purpose = TFA): string {
  if (!sealed.startsWith('v1.')) throw new Error('unknown sealed format')
  const raw = Buffer.from(sealed.slice(3), 'base64')
  const d = createDecipheriv('aes-256-gcm', keyOf(secrets, purpose), raw.subarray(0, 12))
  d.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8')
}
