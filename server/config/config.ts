// Bootstrap settings. Precedence: command-line flags > environment > config file > defaults.
// Every setting is declared once in SETTINGS; the example file in config/ documents the same list
// and a test keeps both in step.
import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { parse as parseToml } from 'smol-toml'
import { z } from 'zod'
import { parseProxyEntry } from '../http/client-address'

/** list: a TOML array of strings, or comma-separated in the environment and on the command line */
export type SettingKind = 'string' | 'int' | 'bool' | 'list'

export interface SettingSpec {
  /** dotted path in the TOML file and in the resolved config object */
  key: string
  env: string
  flag: string
  kind: SettingKind
  default: string | number | boolean | readonly string[] | null
  doc: string
}

export const SETTINGS: SettingSpec[] = [
  { key: 'server.port', env: 'PORT', flag: '--port', kind: 'int', default: 3000, doc: 'TCP port to listen on.' },
  { key: 'server.host', env: 'EINLASS_HOST', flag: '--host', kind: 'string', default: '0.0.0.0', doc: 'Address to bind.' },
  { key: 'server.base_url', env: 'EINLASS_BASE_URL', flag: '--base-url', kind: 'string', default: null, doc: 'Public address used in links and mails; defaults to http://localhost:PORT.' },
  { key: 'server.tls_cert', env: 'EINLASS_TLS_CERT', flag: '--tls-cert', kind: 'string', default: null, doc: 'PEM certificate file; with tls_key einlass serves HTTPS itself.' },
  { key: 'server.tls_key', env: 'EINLASS_TLS_KEY', flag: '--tls-key', kind: 'string', default: null, doc: 'PEM private key file for tls_cert.' },
  {
    key: 'server.trusted_proxies',
    env: 'EINLASS_TRUSTED_PROXIES',
    flag: '--trusted-proxies',
    kind: 'list',
    default: [],
    doc: 'Reverse proxies (IP addresses or CIDR ranges) whose X-Forwarded-For is believed; the client is then the right-most entry that is not a trusted proxy.',
  },
  {
    key: 'server.max_in_flight',
    env: 'EINLASS_MAX_IN_FLIGHT',
    flag: '--max-in-flight',
    kind: 'int',
    default: 1000,
    doc: 'Requests one process works on at once; above it new requests get 503 with Retry-After at once (health, readiness and metrics excepted). 0 turns the bound off.',
  },
  {
    key: 'server.drain_seconds',
    env: 'EINLASS_DRAIN_SECONDS',
    flag: '--drain-seconds',
    kind: 'int',
    default: 0,
    doc: 'Seconds a process keeps serving after SIGTERM before it closes its port: /ready answers 503, every answer closes its connection, GET requests get 503 so that a proxy retries them elsewhere and takes the process out. 0: stop taking connections at once. Behind a proxy set it above the proxy\'s upstream keep-alive time.',
  },
  { key: 'server.body_limit_mb', env: 'EINLASS_BODY_LIMIT_MB', flag: '--body-limit-mb', kind: 'int', default: 25, doc: 'Largest request body accepted, in MB (uploads included).' },
  { key: 'data.dir', env: 'EINLASS_DATA_DIR', flag: '--data-dir', kind: 'string', default: './data', doc: 'Folder for the SQLite file, generated secrets, uploads and einlass.toml.' },
  { key: 'database.url', env: 'DATABASE_URL', flag: '--database-url', kind: 'string', default: null, doc: 'sqlite:PATH (relative to the data dir) or postgres://user@host:port/db[?schema=name]. Default sqlite:einlass.sqlite.' },
  { key: 'mail.smtp_url', env: 'SMTP_URL', flag: '--smtp-url', kind: 'string', default: null, doc: 'smtp://user:pass@host:port or smtps://…; without it mails stay in the outbox and are logged.' },
  { key: 'mail.from', env: 'EINLASS_MAIL_FROM', flag: '--mail-from', kind: 'string', default: 'einlass@localhost', doc: 'Sender address of all mails.' },
  { key: 'mail.from_name', env: 'EINLASS_MAIL_FROM_NAME', flag: '--mail-from-name', kind: 'string', default: 'einlass', doc: 'Sender name of all mails.' },
  {
    key: 'mail.dns_resolver',
    env: 'EINLASS_DNS_RESOLVER',
    flag: '--dns-resolver',
    kind: 'string',
    default: null,
    doc: "DNS server (host or host:port) that checks an agency's sending domain (SPF and DKIM records); default the system's resolvers.",
  },
  { key: 'license.file', env: 'EINLASS_LICENSE_FILE', flag: '--license-file', kind: 'string', default: null, doc: 'Signed license file; default license.json in the data dir when present. Without a valid one the community edition limits apply.' },
  {
    key: 'secrets.file',
    env: 'EINLASS_SECRETS_FILE',
    flag: '--secrets-file',
    kind: 'string',
    default: null,
    doc: 'JSON file with the install\'s secrets ({"uploadKey": …, "signingKey": …}, each 32 random bytes in base64), e.g. a systemd credential or a file from a secrets manager. Its keys win over the generated ones (database or secrets.json), which are then not written.',
  },
  { key: 'secrets.upload_key', env: 'EINLASS_UPLOAD_KEY', flag: '--upload-key', kind: 'string', default: null, doc: 'Key for uploads at rest (32 bytes, base64); wins over secrets.file. Give it in the environment or the file, not on the command line.' },
  { key: 'secrets.signing_key', env: 'EINLASS_SIGNING_KEY', flag: '--signing-key', kind: 'string', default: null, doc: 'Signing key (32 bytes, base64) from which QR signatures and sealed secrets derive their keys; wins over secrets.file. Environment or file, not the command line.' },
  { key: 'session.lifetime_days', env: 'EINLASS_SESSION_LIFETIME_DAYS', flag: '--session-lifetime-days', kind: 'int', default: 30, doc: 'Days of inactivity after which a login session ends (sliding expiry).' },
  {
    key: 'storage.url',
    env: 'EINLASS_STORAGE_URL',
    flag: '--storage-url',
    kind: 'string',
    default: 'file:',
    doc: 'Where uploads are kept: file: (the uploads folder in the data dir), file:PATH, or s3://bucket/prefix (S3-compatible storage; see the storage.s3_* settings).',
  },
  { key: 'storage.endpoint', env: 'EINLASS_S3_ENDPOINT', flag: '--s3-endpoint', kind: 'string', default: null, doc: 'S3 endpoint address, e.g. https://s3.eu-central-1.example.com; default the AWS endpoint of the region.' },
  { key: 'storage.region', env: 'EINLASS_S3_REGION', flag: '--s3-region', kind: 'string', default: null, doc: 'S3 region; default us-east-1 (or the one the endpoint names).' },
  { key: 'storage.access_key_id', env: 'EINLASS_S3_ACCESS_KEY_ID', flag: '--s3-access-key-id', kind: 'string', default: null, doc: 'S3 access key id; default the standard S3_ACCESS_KEY_ID / AWS_ACCESS_KEY_ID variables.' },
  { key: 'storage.secret_access_key', env: 'EINLASS_S3_SECRET_ACCESS_KEY', flag: '--s3-secret-access-key', kind: 'string', default: null, doc: 'S3 secret access key; default the standard S3_SECRET_ACCESS_KEY / AWS_SECRET_ACCESS_KEY variables.' },
  { key: 'storage.virtual_hosted_style', env: 'EINLASS_S3_VIRTUAL_HOSTED_STYLE', flag: '--s3-virtual-hosted-style', kind: 'bool', default: false, doc: 'Address the bucket as bucket.endpoint (virtual-hosted style) instead of endpoint/bucket (path style, the default).' },
  { key: 'uploads.max_file_mb', env: 'EINLASS_UPLOAD_MAX_MB', flag: '--upload-max-mb', kind: 'int', default: 20, doc: 'Largest upload accepted, in MB.' },
  { key: 'uploads.encrypt', env: 'EINLASS_UPLOAD_ENCRYPT', flag: '--upload-encrypt', kind: 'bool', default: true, doc: 'Encrypt uploaded files at rest (AES-256-GCM, key in the data dir).' },
  {
    key: 'uploads.unclaimed_pool_mb',
    env: 'EINLASS_UPLOAD_UNCLAIMED_POOL_MB',
    flag: '--upload-unclaimed-pool-mb',
    kind: 'int',
    default: 50,
    doc: 'MB of anonymous uploads no registration has claimed yet that one client address may have stored at once (they expire after an hour and count against no agency).',
  },
  {
    key: 'holds.address_places',
    env: 'EINLASS_HOLD_ADDRESS_PLACES',
    flag: '--hold-address-places',
    kind: 'int',
    default: 300,
    doc: 'Places (timeslot and seat holds) one client address may hold at once in one event, over every visitor behind it; each visitor is bounded by what one registration may take.',
  },
  { key: 'i18n.language', env: 'EINLASS_LANGUAGE', flag: '--language', kind: 'string', default: 'de', doc: 'Default language of UI, mails and PDFs.' },
  { key: 'i18n.locale', env: 'EINLASS_LOCALE', flag: '--locale', kind: 'string', default: 'de', doc: 'Locale for dates and numbers.' },
  { key: 'i18n.timezone', env: 'EINLASS_TIMEZONE', flag: '--timezone', kind: 'string', default: 'Europe/Berlin', doc: 'Default time zone for new events and displays.' },
  { key: 'support.email', env: 'EINLASS_SUPPORT_EMAIL', flag: '--support-email', kind: 'string', default: 'support@localhost', doc: 'Support address shown in the server edition (feature ordering, help).' },
  { key: 'payments.stripe_api_url', env: 'EINLASS_STRIPE_API_URL', flag: '--stripe-api-url', kind: 'string', default: 'https://api.stripe.com', doc: 'Stripe API base address (tests point it at a local fake).' },
  { key: 'payments.stripe_js_url', env: 'EINLASS_STRIPE_JS_URL', flag: '--stripe-js-url', kind: 'string', default: 'https://js.stripe.com/v3/', doc: 'Stripe.js, loaded by the pay page only for Stripe.' },
  { key: 'payments.mollie_api_url', env: 'EINLASS_MOLLIE_API_URL', flag: '--mollie-api-url', kind: 'string', default: 'https://api.mollie.com/v2/', doc: 'Mollie API base address.' },
  { key: 'payments.paypal_api_url', env: 'EINLASS_PAYPAL_API_URL', flag: '--paypal-api-url', kind: 'string', default: 'https://api-m.paypal.com', doc: 'PayPal REST API base address (live).' },
  { key: 'payments.paypal_sandbox_api_url', env: 'EINLASS_PAYPAL_SANDBOX_API_URL', flag: '--paypal-sandbox-api-url', kind: 'string', default: 'https://api-m.sandbox.paypal.com', doc: 'PayPal REST API base address (test mode).' },
  { key: 'payments.paypal_js_url', env: 'EINLASS_PAYPAL_JS_URL', flag: '--paypal-js-url', kind: 'string', default: 'https://www.paypal.com/sdk/js', doc: 'PayPal JS SDK, loaded by the pay page only for PayPal.' },
  { key: 'metrics.token', env: 'EINLASS_METRICS_TOKEN', flag: '--metrics-token', kind: 'string', default: null, doc: 'Bearer token a Prometheus scrape of /metrics must send. /metrics is off while neither this nor metrics.allow is set.' },
  { key: 'metrics.allow', env: 'EINLASS_METRICS_ALLOW', flag: '--metrics-allow', kind: 'list', default: [], doc: 'Addresses or CIDR ranges allowed to read /metrics (with a token set, both must hold).' },
  { key: 'audit.retention_days', env: 'EINLASS_AUDIT_RETENTION_DAYS', flag: '--audit-retention-days', kind: 'int', default: 730, doc: 'Days the audit log keeps an entry (at least 30; the database refuses to delete younger ones).' },
  {
    key: 'tasks.lease_seconds',
    env: 'EINLASS_TASK_LEASE_SECONDS',
    flag: '--task-lease-seconds',
    kind: 'int',
    default: 60,
    doc: 'Seconds a background task stays claimed by its process; a running task renews it every third of that. After a crash another process takes the task over once it has run out.',
  },
  { key: 'log.level', env: 'EINLASS_LOG_LEVEL', flag: '--log-level', kind: 'string', default: 'info', doc: 'debug, info, warn or error.' },
]

const timezoneOk = (tz: string) => {
  try {
    new Intl.DateTimeFormat('de', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

export const ConfigSchema = z.object({
  server: z.object({
    port: z.number().int().min(0, 'must be between 0 and 65535').max(65535, 'must be between 0 and 65535'),
    host: z.string().min(1, 'must not be empty'),
    base_url: z.string().nullable(),
    tls_cert: z.string().nullable(),
    tls_key: z.string().nullable(),
    body_limit_mb: z.number().int().min(1, 'must be at least 1'),
    max_in_flight: z.number().int().min(0, 'must be 0 (off) or more'),
    drain_seconds: z.number().int().min(0, 'must be 0 or more').max(600, 'must be at most 600'),
    trusted_proxies: z.array(z.string()),
  }),
  data: z.object({ dir: z.string().min(1, 'must not be empty') }),
  database: z.object({ url: z.string().nullable() }),
  mail: z.object({
    smtp_url: z.string().nullable(),
    from: z.string().regex(/^[^@\s]+@[^@\s]+$/, 'must be an e-mail address'),
    from_name: z.string(),
    dns_resolver: z.string().nullable(),
  }),
  license: z.object({ file: z.string().nullable() }),
  secrets: z.object({ file: z.string().nullable(), upload_key: z.string().nullable(), signing_key: z.string().nullable() }),
  session: z.object({ lifetime_days: z.number().int().min(1, 'must be at least 1') }),
  storage: z.object({
    url: z.string().min(1, 'must not be empty'),
    endpoint: z.string().url('must be an http(s) address').nullable(),
    region: z.string().nullable(),
    access_key_id: z.string().nullable(),
    secret_access_key: z.string().nullable(),
    virtual_hosted_style: z.boolean(),
  }),
  uploads: z.object({ max_file_mb: z.number().int().min(1, 'must be at least 1'), encrypt: z.boolean(), unclaimed_pool_mb: z.number().int().min(1, 'must be at least 1') }),
  holds: z.object({ address_places: z.number().int().min(1, 'must be at least 1') }),
  i18n: z.object({
    language: z.enum(['de', 'de-du', 'en'], { error: 'must be de, de-du or en' }),
    locale: z.string().min(2, 'must be a locale such as de'),
    timezone: z.string().refine(timezoneOk, 'unknown time zone'),
  }),
  support: z.object({ email: z.string().regex(/^[^@\s]+@[^@\s]+$/, 'must be an e-mail address') }),
  payments: z.object({
    stripe_api_url: z.string().url('must be an http(s) address'),
    stripe_js_url: z.string().url('must be an http(s) address'),
    mollie_api_url: z.string().url('must be an http(s) address'),
    paypal_api_url: z.string().url('must be an http(s) address'),
    paypal_sandbox_api_url: z.string().url('must be an http(s) address'),
    paypal_js_url: z.string().url('must be an http(s) address'),
  }),
  metrics: z.object({ token: z.string().min(16, 'must be at least 16 characters').nullable(), allow: z.array(z.string()) }),
  audit: z.object({ retention_days: z.number().int().min(30, 'must be at least 30') }),
  tasks: z.object({ lease_seconds: z.number().int().min(2, 'must be at least 2') }),
  log: z.object({ level: z.enum(['debug', 'info', 'warn', 'error'], { error: 'must be debug, info, warn or error' }) }),
})

export type RawConfig = z.infer<typeof ConfigSchema>

/** Where uploads live: a folder, or a bucket with a key prefix (server/storage). */
export type StorageTarget = { kind: 'file'; dir: string } | { kind: 's3'; bucket: string; prefix: string }

export function parseStorageUrl(url: string, dataDir: string, name = 'EINLASS_STORAGE_URL'): StorageTarget {
  if (url === 'file:' || url === 'file') return { kind: 'file', dir: join(dataDir, 'uploads') }
  if (url.startsWith('file:')) {
    const p = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '')
    return { kind: 'file', dir: isAbsolute(p) ? p : join(dataDir, p) }
  }
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url)
  if (m) {
    const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '')
    return { kind: 's3', bucket: m[1], prefix: prefix ? `${prefix}/` : '' }
  }
  if (url.startsWith('s3://')) throw new ConfigError(name, `not a bucket name: "${url}" (s3://bucket/prefix, bucket in lower case letters, digits, dots and dashes)`)
  throw new ConfigError(name, `unsupported scheme "${url.split(':')[0]}" (use file: or s3://bucket/prefix)`)
}

export type DatabaseTarget =
  | { dialect: 'sqlite'; path: string }
  | { dialect: 'postgres'; url: string; schema: string | null }

export interface Config extends RawConfig {
  baseUrl: string
  dataDir: string
  storageTarget: StorageTarget
  databaseTarget: DatabaseTarget
  configFile: string | null
}

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    readonly problem: string,
  ) {
    super(`${setting}: ${problem}`)
  }
}

function coerce(spec: SettingSpec, raw: unknown, origin: string): unknown {
  if (raw === undefined || raw === null) return raw
  if (spec.kind === 'int') {
    if (typeof raw === 'number') return raw
    const s = String(raw).trim()
    if (!/^-?\d+$/.test(s)) throw new ConfigError(origin, `not a whole number: "${s}"`)
    return Number(s)
  }
  if (spec.kind === 'bool') {
    if (typeof raw === 'boolean') return raw
    const s = String(raw).trim().toLowerCase()
    if (['1', 'true', 'yes', 'on'].includes(s)) return true
    if (['0', 'false', 'no', 'off'].includes(s)) return false
    throw new ConfigError(origin, `not true or false: "${s}"`)
  }
  if (spec.kind === 'list') {
    const items = Array.isArray(raw) ? raw : String(raw).split(',')
    if (items.some((i) => typeof i !== 'string')) throw new ConfigError(origin, 'must be a list of strings')
    return (items as string[]).map((i) => i.trim()).filter(Boolean)
  }
  if (typeof raw !== 'string') throw new ConfigError(origin, 'must be a string')
  return raw === '' ? null : raw
}

/** Dotted keys of every non-table value in a parsed TOML document. */
function leafKeys(obj: Record<string, unknown>, prefix = ''): string[] {
  const out: string[] = []
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k
    if (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)) out.push(...leafKeys(v as Record<string, unknown>, key))
    else out.push(key)
  }
  return out
}

function getPath(obj: any, path: string): unknown {
  return path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj)
}

function setPath(obj: any, path: string, value: unknown) {
  const parts = path.split('.')
  let o = obj
  for (const p of parts.slice(0, -1)) o = o[p] ??= {}
  o[parts[parts.length - 1]] = value
}

/** Splits `--name value` / `--name=value` flags off argv; returns the flags and what remains. */
export function parseFlags(argv: string[]): { flags: Map<string, string>; rest: string[] } {
  const flags = new Map<string, string>()
  const rest: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=')
      if (eq > 0) flags.set(a.slice(0, eq), a.slice(eq + 1))
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags.set(a, argv[++i])
      else flags.set(a, 'true')
    } else rest.push(a)
  }
  return { flags, rest }
}

export function parseDatabaseUrl(url: string | null, dataDir: string, name = 'DATABASE_URL'): DatabaseTarget {
  if (!url) return { dialect: 'sqlite', path: join(dataDir, 'einlass.sqlite') }
  if (url.startsWith('sqlite:')) {
    const p = url.slice('sqlite:'.length).replace(/^\/\//, '')
    if (!p) throw new ConfigError(name, 'sqlite: needs a file path')
    if (p === ':memory:') return { dialect: 'sqlite', path: ':memory:' }
    return { dialect: 'sqlite', path: isAbsolute(p) ? p : join(dataDir, p) }
  }
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(url)
  if (!m) throw new ConfigError(name, `not a URL: "${url}"`)
  const scheme = m[1].toLowerCase()
  if (scheme !== 'postgres' && scheme !== 'postgresql') {
    throw new ConfigError(name, `unsupported scheme "${scheme}"`)
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new ConfigError(name, `not a URL: "${url}"`)
  }
  const schema = parsed.searchParams.get('schema')
  if (schema && !/^[a-z_][a-z0-9_]*$/i.test(schema)) throw new ConfigError(name, `invalid schema name "${schema}"`)
  parsed.searchParams.delete('schema')
  return { dialect: 'postgres', url: parsed.toString(), schema }
}

export interface LoadOptions {
  argv?: string[]
  env?: Record<string, string | undefined>
  cwd?: string
}

/** Resolves the configuration; throws ConfigError with one line naming the setting and the problem. */
export function loadConfig(opts: LoadOptions = {}): Config {
  const env = opts.env ?? process.env
  const cwd = opts.cwd ?? process.cwd()
  const { flags } = parseFlags(opts.argv ?? [])
  for (const f of flags.keys()) {
    if (f !== '--config' && !SETTINGS.some((s) => s.flag === f) && !EXTRA_FLAGS.has(f)) {
      throw new ConfigError(f, 'unknown option (see einlass --help)')
    }
  }

  // The data dir decides where einlass.toml is looked for, so resolve it first without the file.
  const dataDirSpec = SETTINGS.find((s) => s.key === 'data.dir')!
  const explicitConfig = flags.get('--config') ?? env.EINLASS_CONFIG ?? null
  let fileValues: Record<string, unknown> = {}
  let configFile: string | null = null
  const preDataDir = String(flags.get(dataDirSpec.flag) ?? env[dataDirSpec.env] ?? dataDirSpec.default)
  const candidate = explicitConfig ? resolve(cwd, explicitConfig) : join(resolve(cwd, preDataDir), 'einlass.toml')
  if (existsSync(candidate)) {
    try {
      fileValues = parseToml(readFileSync(candidate, 'utf8')) as Record<string, unknown>
    } catch (e) {
      throw new ConfigError(candidate, `cannot be read as TOML: ${(e as Error).message.split('\n')[0]}`)
    }
    configFile = candidate
  } else if (explicitConfig) {
    throw new ConfigError(flags.has('--config') ? '--config' : 'EINLASS_CONFIG', `file not found: ${candidate}`)
  }

  for (const key of leafKeys(fileValues)) {
    if (!SETTINGS.some((s) => s.key === key)) throw new ConfigError(`${key} (${configFile})`, 'unknown setting (see config/einlass.example.toml)')
  }

  // Where each value came from, so an error names the place the user has to fix.
  const origins = new Map<string, string>()
  const raw: Record<string, unknown> = {}
  for (const spec of SETTINGS) {
    let value: unknown = spec.default
    let origin = spec.env
    const fromFile = getPath(fileValues, spec.key)
    if (fromFile !== undefined) {
      origin = `${spec.key} (${configFile})`
      value = coerce(spec, fromFile, origin)
    }
    if (env[spec.env] !== undefined && env[spec.env] !== '') {
      origin = spec.env
      value = coerce(spec, env[spec.env], origin)
    }
    if (flags.has(spec.flag)) {
      origin = spec.flag
      value = coerce(spec, flags.get(spec.flag), origin)
    }
    origins.set(spec.key, origin)
    setPath(raw, spec.key, value)
  }
  const nameOf = (key: string) => origins.get(key) ?? key

  const result = ConfigSchema.safeParse(raw)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw new ConfigError(nameOf(issue.path.join('.')), issue.message)
  }
  const cfg = result.data
  const dataDir = resolve(cwd, cfg.data.dir)
  const databaseTarget = parseDatabaseUrl(cfg.database.url, dataDir, nameOf('database.url'))
  const storageTarget = parseStorageUrl(cfg.storage.url, dataDir, nameOf('storage.url'))
  if ((cfg.server.tls_cert === null) !== (cfg.server.tls_key === null)) {
    throw new ConfigError(cfg.server.tls_cert ? nameOf('server.tls_key') : nameOf('server.tls_cert'), 'TLS needs both a certificate and a key')
  }
  for (const k of ['tls_cert', 'tls_key'] as const) {
    const p = cfg.server[k]
    if (p && !existsSync(resolve(cwd, p))) throw new ConfigError(nameOf(`server.${k}`), `file not found: ${p}`)
  }
  let baseUrl = cfg.server.base_url
  if (baseUrl) {
    try {
      const u = new URL(baseUrl)
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error()
    } catch {
      throw new ConfigError(nameOf('server.base_url'), `must be an http(s) URL: "${baseUrl}"`)
    }
    baseUrl = baseUrl.replace(/\/+$/, '')
  } else {
    baseUrl = `${cfg.server.tls_cert ? 'https' : 'http'}://localhost:${cfg.server.port}`
  }
  const notProxy = cfg.server.trusted_proxies.find((p) => !parseProxyEntry(p))
  if (notProxy !== undefined) throw new ConfigError(nameOf('server.trusted_proxies'), `not an IP address or CIDR range: "${notProxy}"`)
  const notAllowed = cfg.metrics.allow.find((p) => !parseProxyEntry(p))
  if (notAllowed !== undefined) throw new ConfigError(nameOf('metrics.allow'), `not an IP address or CIDR range: "${notAllowed}"`)
  if (cfg.mail.smtp_url && !/^smtps?:\/\//i.test(cfg.mail.smtp_url)) {
    throw new ConfigError(nameOf('mail.smtp_url'), `unsupported scheme "${cfg.mail.smtp_url.split(':')[0]}" (use smtp:// or smtps://)`)
  }
  const server = { ...cfg.server, tls_cert: cfg.server.tls_cert && resolve(cwd, cfg.server.tls_cert), tls_key: cfg.server.tls_key && resolve(cwd, cfg.server.tls_key) }
  return { ...cfg, server, baseUrl, dataDir, databaseTarget, storageTarget, configFile }
}

/** Flags that are not settings but are accepted by the CLI's sub-commands. */
export const EXTRA_FLAGS = new Set(['--email', '--password', '--agency', '--help', '--version', '--first-name', '--last-name', '--force', '--to'])
