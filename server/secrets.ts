// Secrets generated on first start and kept in the data dir (mode 0600), never in the database.
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface Secrets {
  /** AES-256-GCM key for uploads at rest, base64 */
  uploadKey: string
  /** HMAC key for signed, non-session tokens (e.g. download links), base64 */
  signingKey: string
}

export function generateSecrets(): Secrets {
  return { uploadKey: randomBytes(32).toString('base64'), signingKey: randomBytes(32).toString('base64') }
}

export function loadOrCreateSecrets(dataDir: string): Secrets {
  const file = join(dataDir, 'secrets.json')
  if (existsSync(file)) {
    const s = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>
    const fresh = generateSecrets()
    const merged = { ...fresh, ...s } as Secrets
    if (Object.keys(s).length !== Object.keys(merged).length) writeFileSync(file, JSON.stringify(merged, null, 2), { mode: 0o600 })
    return merged
  }
  mkdirSync(dataDir, { recursive: true })
  const s = generateSecrets()
  writeFileSync(file, JSON.stringify(s, null, 2), { mode: 0o600 })
  chmodSync(file, 0o600)
  return s
}
