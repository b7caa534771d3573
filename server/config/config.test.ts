import { describe, expect, test } from 'bun:test'
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parse as parseToml } from 'smol-toml'
import { ConfigError, loadConfig, SETTINGS } from './config'

const EXAMPLE = resolve(import.meta.dir, '../../config/einlass.example.toml')
const tmp = () => mkdtempSync(join(tmpdir(), 'einlass-config-'))

/** The ConfigError message of a load that must fail. */
function failure(opts: Parameters<typeof loadConfig>[0]): string {
  try {
    loadConfig(opts)
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError)
    return (e as Error).message
  }
  throw new Error('expected a configuration error')
}

describe('config/einlass.example.toml', () => {
  const text = readFileSync(EXAMPLE, 'utf8')
  const parsed = parseToml(text) as Record<string, Record<string, unknown>>

  test('documents every setting with its default, env name and flag', () => {
    for (const s of SETTINGS) {
      const [section, key] = s.key.split('.')
      const body = text.slice(text.indexOf(`[${section}]`))
      const sectionText = body.slice(0, body.indexOf('\n[', 1) > 0 ? body.indexOf('\n[', 1) : undefined)
      if (s.default === null) {
        // settings without a default are shown commented out
        expect(sectionText).toMatch(new RegExp(`^# ${key} = `, 'm'))
        expect(parsed[section]?.[key]).toBeUndefined()
      } else {
        expect(parsed[section]?.[key]).toEqual(s.default)
      }
      expect(sectionText).toContain(`Env ${s.env}`)
      expect(sectionText).toContain(`flag ${s.flag}`)
    }
  })

  test('holds nothing that is not a setting', () => {
    const keys = Object.entries(parsed).flatMap(([section, values]) => Object.keys(values).map((k) => `${section}.${k}`))
    const commented = [...text.matchAll(/^# ([a-z_]+) = /gm)].length
    expect(keys.length + commented).toBe(SETTINGS.length)
    for (const k of keys) expect(SETTINGS.map((s) => s.key)).toContain(k)
  })

  test("README's table names every setting with its env, flag and key", () => {
    const readme = readFileSync(resolve(import.meta.dir, '../../README.md'), 'utf8')
    for (const s of SETTINGS) expect(readme).toContain(`| \`${s.env}\` | \`${s.flag}\` | \`${s.key}\` |`)
  })

  test('loading the example gives the same as no file at all', () => {
    const cwd = tmp()
    const plain = loadConfig({ env: {}, cwd })
    const withFile = loadConfig({ env: {}, cwd, argv: ['--config', EXAMPLE] })
    expect({ ...withFile, configFile: null } as typeof plain).toEqual(plain)
  })
})

describe('loadConfig', () => {
  test('defaults: port 3000, ./data, SQLite in the data dir, German, Europe/Berlin', () => {
    const cwd = tmp()
    const c = loadConfig({ env: {}, cwd })
    expect(c.server.port).toBe(3000)
    expect(c.dataDir).toBe(join(cwd, 'data'))
    expect(c.databaseTarget).toEqual({ dialect: 'sqlite', path: join(cwd, 'data', 'einlass.sqlite') })
    expect(c.baseUrl).toBe('http://localhost:3000')
    expect(c.i18n).toEqual({ language: 'de', locale: 'de', timezone: 'Europe/Berlin' })
    expect(c.mail.smtp_url).toBeNull()
    expect(c.configFile).toBeNull()
  })

  test('precedence: flags > environment > config file > defaults', () => {
    const cwd = tmp()
    const file = join(cwd, 'custom.toml')
    writeFileSync(file, '[server]\nport = 4000\nbody_limit_mb = 7\n[log]\nlevel = "warn"\n[support]\nemail = "file@example.org"\n')
    const base = { cwd, argv: ['--config', file] }
    // file over defaults
    let c = loadConfig({ ...base, env: {} })
    expect(c.server.port).toBe(4000)
    expect(c.server.body_limit_mb).toBe(7)
    expect(c.log.level).toBe('warn')
    // environment over file
    c = loadConfig({ ...base, env: { PORT: '5000', EINLASS_LOG_LEVEL: 'error' } })
    expect(c.server.port).toBe(5000)
    expect(c.log.level).toBe('error')
    expect(c.support.email).toBe('file@example.org')
    // flags over environment
    c = loadConfig({ cwd, argv: ['--config', file, '--port', '6000', '--log-level=debug'], env: { PORT: '5000', EINLASS_LOG_LEVEL: 'error' } })
    expect(c.server.port).toBe(6000)
    expect(c.log.level).toBe('debug')
    expect(c.server.body_limit_mb).toBe(7)
    expect(c.configFile).toBe(file)
  })

  test('EINLASS_CONFIG names the file too; a named file that is missing stops the start', () => {
    const cwd = tmp()
    writeFileSync(join(cwd, 'x.toml'), '[server]\nport = 4100\n')
    expect(loadConfig({ cwd, env: { EINLASS_CONFIG: 'x.toml' } }).server.port).toBe(4100)
    expect(failure({ cwd, env: {}, argv: ['--config', 'nope.toml'] })).toBe(`--config: file not found: ${join(cwd, 'nope.toml')}`)
    expect(failure({ cwd, env: { EINLASS_CONFIG: 'nope.toml' } })).toBe(`EINLASS_CONFIG: file not found: ${join(cwd, 'nope.toml')}`)
  })

  test('einlass.toml in the data dir is read without --config', () => {
    const cwd = tmp()
    const dataDir = join(cwd, 'store')
    mkdirSync(dataDir)
    writeFileSync(join(dataDir, 'einlass.toml'), '[server]\nport = 4200\n[i18n]\ntimezone = "Europe/Vienna"\n')
    const c = loadConfig({ cwd, env: { EINLASS_DATA_DIR: 'store' } })
    expect(c.configFile).toBe(join(dataDir, 'einlass.toml'))
    expect(c.server.port).toBe(4200)
    expect(c.i18n.timezone).toBe('Europe/Vienna')
    expect(c.databaseTarget).toEqual({ dialect: 'sqlite', path: join(dataDir, 'einlass.sqlite') })
    // the --data-dir flag points there as well
    expect(loadConfig({ cwd, env: {}, argv: ['--data-dir', dataDir] }).server.port).toBe(4200)
  })

  test('DATABASE_URL: sqlite paths relative to the data dir, postgres with a schema', () => {
    const cwd = tmp()
    expect(loadConfig({ cwd, env: { DATABASE_URL: 'sqlite:other.db' } }).databaseTarget).toEqual({ dialect: 'sqlite', path: join(cwd, 'data', 'other.db') })
    expect(loadConfig({ cwd, env: { DATABASE_URL: 'sqlite:/var/lib/x.db' } }).databaseTarget).toEqual({ dialect: 'sqlite', path: '/var/lib/x.db' })
    expect(loadConfig({ cwd, env: { DATABASE_URL: 'postgres://u@db:5432/einlass?schema=tenant_a' } }).databaseTarget).toEqual({
      dialect: 'postgres',
      url: 'postgres://u@db:5432/einlass',
      schema: 'tenant_a',
    })
  })

  test('bad values stop with one line naming the setting and the problem', () => {
    const cwd = tmp()
    expect(failure({ cwd, env: { DATABASE_URL: 'mysql://root@localhost/einlass' } })).toBe('DATABASE_URL: unsupported scheme "mysql"')
    expect(failure({ cwd, env: { DATABASE_URL: 'postgres://u@h/db?schema=a-b' } })).toBe('DATABASE_URL: invalid schema name "a-b"')
    expect(failure({ cwd, env: { PORT: 'abc' } })).toBe('PORT: not a whole number: "abc"')
    expect(failure({ cwd, env: { PORT: '70000' } })).toBe('PORT: must be between 0 and 65535')
    expect(failure({ cwd, env: {}, argv: ['--port', '-1'] })).toBe('--port: must be between 0 and 65535')
    expect(failure({ cwd, env: { EINLASS_TIMEZONE: 'Mars/Olympus_Mons' } })).toBe('EINLASS_TIMEZONE: unknown time zone')
    expect(failure({ cwd, env: { EINLASS_LANGUAGE: 'fr' } })).toBe('EINLASS_LANGUAGE: must be de, de-du or en')
    expect(failure({ cwd, env: { EINLASS_LOG_LEVEL: 'loud' } })).toBe('EINLASS_LOG_LEVEL: must be debug, info, warn or error')
    expect(failure({ cwd, env: { EINLASS_UPLOAD_ENCRYPT: 'maybe' } })).toBe('EINLASS_UPLOAD_ENCRYPT: not true or false: "maybe"')
    expect(failure({ cwd, env: { EINLASS_BASE_URL: 'ftp://x' } })).toBe('EINLASS_BASE_URL: must be an http(s) URL: "ftp://x"')
    expect(failure({ cwd, env: { SMTP_URL: 'http://mail' } })).toBe('SMTP_URL: unsupported scheme "http" (use smtp:// or smtps://)')
    expect(failure({ cwd, env: { EINLASS_SUPPORT_EMAIL: 'nobody' } })).toBe('EINLASS_SUPPORT_EMAIL: must be an e-mail address')
    expect(failure({ cwd, env: { EINLASS_TLS_CERT: 'cert.pem' } })).toBe('EINLASS_TLS_KEY: TLS needs both a certificate and a key')
    expect(failure({ cwd, env: { EINLASS_TLS_CERT: 'cert.pem', EINLASS_TLS_KEY: 'key.pem' } })).toBe('EINLASS_TLS_CERT: file not found: cert.pem')
    expect(failure({ cwd, env: {}, argv: ['--prot', '1'] })).toBe('--prot: unknown option (see einlass --help)')
  })

  test('a bad value in the file names the key and the file', () => {
    const cwd = tmp()
    const file = join(cwd, 'bad.toml')
    writeFileSync(file, '[i18n]\ntimezone = "Nowhere/City"\n')
    expect(failure({ cwd, env: {}, argv: ['--config', file] })).toBe(`i18n.timezone (${file}): unknown time zone`)
    writeFileSync(file, '[server]\nprot = 1\n')
    expect(failure({ cwd, env: {}, argv: ['--config', file] })).toBe(`server.prot (${file}): unknown setting (see config/einlass.example.toml)`)
    writeFileSync(file, '[server\nport = 1\n')
    expect(failure({ cwd, env: {}, argv: ['--config', file] })).toStartWith(`${file}: cannot be read as TOML:`)
  })

  test('trusted proxies: a list in the file, comma-separated in env and flag, each an address or CIDR range', () => {
    const cwd = tmp()
    expect(loadConfig({ cwd, env: {} }).server.trusted_proxies).toEqual([])
    const file = join(cwd, 'proxies.toml')
    writeFileSync(file, '[server]\ntrusted_proxies = ["127.0.0.1", "10.0.0.0/8"]\n')
    expect(loadConfig({ cwd, env: {}, argv: ['--config', file] }).server.trusted_proxies).toEqual(['127.0.0.1', '10.0.0.0/8'])
    // env over file, flag over env
    expect(loadConfig({ cwd, env: { EINLASS_TRUSTED_PROXIES: ' ::1 , fd00::/8,' }, argv: ['--config', file] }).server.trusted_proxies).toEqual(['::1', 'fd00::/8'])
    expect(loadConfig({ cwd, env: { EINLASS_TRUSTED_PROXIES: '::1' }, argv: ['--trusted-proxies', '192.0.2.1'] }).server.trusted_proxies).toEqual(['192.0.2.1'])
    expect(failure({ cwd, env: { EINLASS_TRUSTED_PROXIES: '127.0.0.1, proxy.example.org' } })).toBe('EINLASS_TRUSTED_PROXIES: not an IP address or CIDR range: "proxy.example.org"')
    expect(failure({ cwd, env: {}, argv: ['--trusted-proxies', '10.0.0.0/33'] })).toBe('--trusted-proxies: not an IP address or CIDR range: "10.0.0.0/33"')
    writeFileSync(file, '[server]\ntrusted_proxies = [1]\n')
    expect(failure({ cwd, env: {}, argv: ['--config', file] })).toBe(`server.trusted_proxies (${file}): must be a list of strings`)
  })

  test('base URL follows the port, and https when TLS is configured', () => {
    const cwd = tmp()
    writeFileSync(join(cwd, 'c.pem'), 'x')
    writeFileSync(join(cwd, 'k.pem'), 'x')
    expect(loadConfig({ cwd, env: { PORT: '8080' } }).baseUrl).toBe('http://localhost:8080')
    const tls = loadConfig({ cwd, env: { EINLASS_TLS_CERT: 'c.pem', EINLASS_TLS_KEY: 'k.pem' } })
    expect(tls.baseUrl).toBe('https://localhost:3000')
    expect(tls.server.tls_cert).toBe(join(cwd, 'c.pem'))
    expect(loadConfig({ cwd, env: { EINLASS_BASE_URL: 'https://tickets.example.org/' } }).baseUrl).toBe('https://tickets.example.org')
  })
})
