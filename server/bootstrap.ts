// Builds the AppContext from a resolved configuration: database, migrations, secrets, license.
import { join } from 'node:path'
import { existsSync } from 'node:fs'
import { systemClock, type Clock } from './clock'
import type { Config } from './config/config'
import type { AppContext } from './context'
import { openDatabase, type DatabaseHandle } from './db/database'
import { migrateToLatest } from './db/migrate'
import { createLogger, type Logger } from './logger'
import { COMMUNITY, licenseOfText, loadLicense, type LicenseState } from './modules/license/license'
import { trustedPublicKeys } from './modules/license/keys'
import { sharedSecrets, storedLicense } from './install-state'
import { configuredSecrets, loadOrCreateSecrets, type Secrets } from './secrets'
import { type ObjectStorage, storageOf } from './storage/storage'

export interface Bootstrapped {
  ctx: AppContext
  handle: DatabaseHandle
  /** set by the server once the workers run */
  wire(mail: () => void, tasks: () => void): void
}

export function licenseFileOf(config: Config): string | null {
  if (config.license.file) return config.license.file
  const inDataDir = join(config.dataDir, 'license.json')
  return existsSync(inDataDir) ? inDataDir : null
}

/** The database's place in the license's `file` (shown by `einlass license show` and the log). */
export const LICENSE_IN_DATABASE = 'database (einlass license install)'

/**
 * Which license counts: a file named in the configuration (`license.file`) wins, then on Postgres
 * one installed into the database (`stored`, shared by every process), then license.json in the data dir.
 */
export function resolveLicense(config: Config, log: Logger, publicKeys = trustedPublicKeys(), now = new Date(), stored: string | null = null): LicenseState {
  const file = config.license.file ? config.license.file : stored === null ? licenseFileOf(config) : null
  const license = file ? loadLicense(file, publicKeys, now) : stored !== null ? licenseOfText(stored, LICENSE_IN_DATABASE, publicKeys, now) : COMMUNITY
  if (license.edition === 'licensed') {
    log.info('license valid', { licensee: license.licensee, validUntil: license.validUntil, features: license.features })
  } else {
    log.warn(`license: ${license.reason}; running with community edition limits`, { limits: license.limits })
  }
  return license
}

export async function bootstrap(
  config: Config,
  opts: { log?: Logger; clock?: Clock; migrate?: boolean; license?: LicenseState; secrets?: Secrets; poolSize?: number; storage?: ObjectStorage } = {},
): Promise<Bootstrapped> {
  const log = opts.log ?? createLogger(config.log.level)
  const handle = await openDatabase(config.databaseTarget, { poolSize: opts.poolSize })
  if (opts.migrate !== false) {
    const applied = await migrateToLatest(handle.db)
    if (applied.length) log.info('migrations applied', { migrations: applied })
  }
  // Postgres: shared by every process of the install (install-state.ts); SQLite: the data dir's file
  // per key: the configuration (secrets.file, EINLASS_UPLOAD_KEY, …), else what is stored, else generated
  const configured = opts.secrets ? {} : configuredSecrets(config)
  const secrets =
    opts.secrets ?? (handle.dialect === 'postgres' ? await sharedSecrets(handle.db, config.dataDir, log, configured) : loadOrCreateSecrets(config.dataDir, configured))
  let notifyMail = () => {}
  let notifyTasks = () => {}
  const ctx: AppContext = {
    config,
    db: handle.db,
    dialect: handle.dialect,
    clock: opts.clock ?? systemClock,
    log,
    secrets,
    license: opts.license ?? resolveLicense(config, log, undefined, undefined, handle.dialect === 'postgres' ? await storedLicense(handle.db) : null),
    storage: opts.storage ?? storageOf(config),
    notifyMail: () => notifyMail(),
    notifyTasks: () => notifyTasks(),
    poolStats: handle.poolStats,
  }
  return {
    ctx,
    handle,
    wire(mail, tasks) {
      notifyMail = mail
      notifyTasks = tasks
    },
  }
}
