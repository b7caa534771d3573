// Secrets from the configuration (secrets.ts, docs/operations.md "Secrets from the configuration"):
// per key the key's own setting, then the secrets file, then secrets.json, then a fresh one; configured
// keys are never written; a configured key that differs from a stored one is refused; bad input
// is a configuration error naming the setting. Postgres: install-state.test.ts.
import { describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, loadConfig } from './config/config'
import { configuredSecrets, generateSecrets, loadOrCreateSecrets, SecretsMismatchError } from './secrets'
import { runCli } from './testing/process'

const dir = () => mkdtempSync(join(tmpdir(), 'einlass-cfgsecrets-'))
const configWith = (env: Record<string, string>) => loadConfig({ cwd: dir(), env, argv: [] })

describe('secrets from the configuration', () => {
  test('precedence per key: EINLASS_UPLOAD_KEY/EINLASS_SIGNING_KEY over the file over secrets.json over generated', () => {
    const [inFile, inEnv, stored] = [generateSecrets(), generateSecrets(), generateSecrets()]
    const d = dir()
    const file = join(d, 'keys.json')
    writeFileSync(file, JSON.stringify({ uploadKey: inFile.uploadKey }))
    // the file names the upload key only: the signing key comes from secrets.json
    const data = dir()
    writeFileSync(join(data, 'secrets.json'), JSON.stringify({ signingKey: stored.signingKey }))
    expect(loadOrCreateSecrets(data, configuredSecrets(configWith({ EINLASS_SECRETS_FILE: file })))).toEqual({ uploadKey: inFile.uploadKey, signingKey: stored.signingKey })
    // ... and the file's key was not written into secrets.json
    expect(JSON.parse(readFileSync(join(data, 'secrets.json'), 'utf8'))).toEqual({ signingKey: stored.signingKey })
    // the key's own setting wins over the file
    writeFileSync(file, JSON.stringify(inFile))
    const c = configuredSecrets(configWith({ EINLASS_SECRETS_FILE: file, EINLASS_SIGNING_KEY: inEnv.signingKey }))
    expect(c).toEqual({ uploadKey: inFile.uploadKey, signingKey: inEnv.signingKey })
    // nothing configured: secrets.json as before, generated on the first start
    const fresh = dir()
    const made = loadOrCreateSecrets(fresh, configuredSecrets(configWith({})))
    expect(JSON.parse(readFileSync(join(fresh, 'secrets.json'), 'utf8'))).toEqual(made)
  })

  test('every key configured: no secrets.json is written', () => {
    const s = generateSecrets()
    const data = dir()
    expect(loadOrCreateSecrets(data, configuredSecrets(configWith({ EINLASS_UPLOAD_KEY: s.uploadKey, EINLASS_SIGNING_KEY: s.signingKey })))).toEqual(s)
    expect(existsSync(join(data, 'secrets.json'))).toBe(false)
  })

  test('a configured key that differs from the stored one is refused; the same one is fine', () => {
    const stored = generateSecrets()
    const data = dir()
    writeFileSync(join(data, 'secrets.json'), JSON.stringify(stored))
    expect(() => loadOrCreateSecrets(data, { uploadKey: generateSecrets().uploadKey })).toThrow(SecretsMismatchError)
    expect(() => loadOrCreateSecrets(data, { uploadKey: generateSecrets().uploadKey })).toThrow('the configured uploadKey differs from the one in')
    expect(loadOrCreateSecrets(data, { uploadKey: stored.uploadKey })).toEqual(stored)
  })

  test('bad input: a configuration error naming the setting', () => {
    const d = dir()
    const bad = (env: Record<string, string>) => {
      try {
        configuredSecrets(configWith(env))
        return 'accepted'
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError)
        return (e as Error).message
      }
    }
    expect(bad({ EINLASS_UPLOAD_KEY: 'zu-kurz' })).toBe('EINLASS_UPLOAD_KEY: must be 32 random bytes in base64 (openssl rand -base64 32)')
    expect(bad({ EINLASS_SECRETS_FILE: join(d, 'missing.json') })).toStartWith('EINLASS_SECRETS_FILE: cannot read')
    writeFileSync(join(d, 'extra.json'), JSON.stringify({ uploadKey: generateSecrets().uploadKey, sessionKey: 'x' }))
    expect(bad({ EINLASS_SECRETS_FILE: join(d, 'extra.json') })).toContain('unknown key "sessionKey"')
    writeFileSync(join(d, 'short.json'), JSON.stringify({ signingKey: 'abc' }))
    expect(bad({ EINLASS_SECRETS_FILE: join(d, 'short.json') })).toBe('EINLASS_SECRETS_FILE (signingKey): must be 32 random bytes in base64 (openssl rand -base64 32)')
  })

  test('the command line: a bad key stops einlass with exit 2 and one line; with a good file it works and writes no secrets.json', () => {
    const data = dir()
    const r = runCli(['create-admin', '--agency', 'Schlüssel GmbH', '--email', 'a@schluessel.example', '--password', 'Geheim123!'], { env: { EINLASS_DATA_DIR: data, EINLASS_SIGNING_KEY: 'nicht-base64' }, timeoutMs: 60_000 })
    expect(r.code).toBe(2)
    expect(r.stderr.trim()).toBe('einlass: configuration error: EINLASS_SIGNING_KEY: must be 32 random bytes in base64 (openssl rand -base64 32)')
    const file = join(dir(), 'secrets.json')
    writeFileSync(file, JSON.stringify(generateSecrets()), { mode: 0o600 })
    const ok = runCli(['create-admin', '--agency', 'Schlüssel GmbH', '--email', 'a@schluessel.example', '--password', 'Geheim123!'], { env: { EINLASS_DATA_DIR: data, EINLASS_SECRETS_FILE: file }, timeoutMs: 60_000 })
    expect(ok.stderr).toBe('')
    expect(ok.code).toBe(0)
    expect(existsSync(join(data, 'secrets.json'))).toBe(false)
  }, 120_000)
})
