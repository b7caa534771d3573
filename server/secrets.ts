// The install's secrets. Generated on first start and kept in the data dir (secrets.json, mode 0600;
// SQLite) or the database (install-state.ts; Postgres), unless the configuration names them
// (secrets.file / EINLASS_SECRETS_FILE, secrets.upload_key / EINLASS_UPLOAD_KEY,
// secrets.signing_key / EINLASS_SIGNING_KEY). Per key: the key's own setting, then the secrets
// file, then the stored one, then a fresh one. Configured keys are never written anywhere, and a
// configured key that differs from one already stored is refused: the data is encrypted with that one.
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Config, ConfigError } from './config/config'

export interface Secrets {
  /** AES-256-GCM key for uploads at rest, base64 */
  uploadKey: string
  /** HMAC key for signed, non-session tokens (e.g. download links), base64 */
  signingKey: string
}

export const SECRET_KEYS = ['uploadKey', 'signingKey'] as const satisfies ReadonlyArray<keyof Secrets>

export function generateSecrets(): Secrets {
  return { uploadKey: randomBytes(32).toString('base64'), signingKey: randomBytes(32).toString('base64') }
}

/** A configured key that differs from the stored one its data is encrypted or signed with: the start is refused. */
export class SecretsMismatchError extends Error {}

const SETTING_OF: Record<keyof Secrets, { key: 'upload_key' | 'signing_key'; env: string }> = {
  uploadKey: { key: 'upload_key', env: 'EINLASS_UPLOAD_KEY' },
  signingKey: { key: 'signing_key', env: 'EINLASS_SIGNING_KEY' },
}

function checkKey(value: unknown, where: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(value.trim()) || Buffer.from(value.trim(), 'base64').length !== 32)
    throw new ConfigError(where, 'must be 32 random bytes in base64 (openssl rand -base64 32)')
  return value.trim()
}

/** The secrets the configuration names (possibly none, possibly some keys only). */
export function configuredSecrets(config: Pick<Config, 'secrets'>): Partial<Secrets> {
  const out: Partial<Secrets> = {}
  const file = config.secrets.file
  if (file) {
    let parsed: unknown
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'))
    } catch (e) {
      throw new ConfigError('EINLASS_SECRETS_FILE', `cannot read ${file} as JSON: ${(e as Error).message}`)
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError('EINLASS_SECRETS_FILE', `${file} must hold a JSON object {"uploadKey": …, "signingKey": …}`)
    for (const [k, v] of Object.entries(parsed)) {
      if (!(SECRET_KEYS as readonly string[]).includes(k)) throw new ConfigError('EINLASS_SECRETS_FILE', `${file}: unknown key "${k}" (known: ${SECRET_KEYS.join(', ')})`)
      out[k as keyof Secrets] = checkKey(v, `EINLASS_SECRETS_FILE (${k})`)
    }
  }
  for (const k of SECRET_KEYS) {
    const v = config.secrets[SETTING_OF[k].key]
    if (v) out[k] = checkKey(v, SETTING_OF[k].env)
  }
  return out
}

/** The keys einlass keeps itself (those the configuration does not name). */
export const ownKeys = (configured: Partial<Secrets>) => SECRET_KEYS.filter((k) => configured[k] === undefined)

export function pickKeys(s: Partial<Secrets>, keys: ReadonlyArray<keyof Secrets>): Partial<Secrets> {
  return Object.fromEntries(keys.filter((k) => s[k] !== undefined).map((k) => [k, s[k]])) as Partial<Secrets>
}

/** Refuses a configured key that differs from the one stored in `where`. */
export function refuseMismatch(configured: Partial<Secrets>, stored: Partial<Secrets>, where: string) {
  const differs = SECRET_KEYS.filter((k) => configured[k] !== undefined && stored[k] !== undefined && stored[k] !== configured[k])
  if (differs.length)
    throw new SecretsMismatchError(
      `the configured ${differs.join(' and ')} differ${differs.length === 1 ? 's' : ''} from the one in ${where}, with which this install's data is encrypted and signed; configure the stored one (einlass does not re-encrypt), or remove it from ${where} if this install holds no data yet`,
    )
}

export function loadOrCreateSecrets(dataDir: string, configured: Partial<Secrets> = {}): Secrets {
  const file = join(dataDir, 'secrets.json')
  const own = ownKeys(configured)
  if (existsSync(file)) {
    const s = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>
    refuseMismatch(configured, s, file)
    const merged = { ...pickKeys(generateSecrets(), own), ...s }
    if (Object.keys(s).length !== Object.keys(merged).length) writeFileSync(file, JSON.stringify(merged, null, 2), { mode: 0o600 })
    return { ...merged, ...configured } as Secrets
  }
  // every key configured: nothing to keep in the data dir
  if (!own.length) return configured as Secrets
  mkdirSync(dataDir, { recursive: true })
  const s = pickKeys(generateSecrets(), own)
  writeFileSync(file, JSON.stringify(s, null, 2), { mode: 0o600 })
  chmodSync(file, 0o600)
  return { ...s, ...configured } as Secrets
}
