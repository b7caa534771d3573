// Builds the AppContext from a resolved configuration: database, migrations, secrets, license.
import { join } from 'node:path'
import { existsSync } from 'node:fs'
import { systemClock, type Clock } from './clock'
import type { Config } from './config/config'
import type { AppContext } from './context'
import { openDatabase, type DatabaseHandle } from './db/database'
import { migrateToLatest } from './db/migrate'
import { createLogger, type Logger } from './logger'
import { COMMUNITY, loadLicense, type LicenseState } from './modules/license/license'
import { trustedPublicKeys } from './modules/license/keys'
import { loadOrCreateSecrets } from './secrets'
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

export function resolveLicense(config: Config, log: Logger, publicKeys = trustedPublicKeys(), now = new Date()): LicenseState {
  const file = licenseFileOf(config)
  const license = file ? loadLicense(file, publicKeys, now) : COMMUNITY
  if (license.edition === 'licensed') {
    log.info('license valid', { licensee: license.licensee, validUntil: license.validUntil, features: license.features })
  } else {
    log.warn(`license: ${license.reason}; running with community edition limits`, { limits: license.limits })
  }
  return license
}

export async function bootstrap(
  config: Config,
  opts: { log?: Logger; clock?: Clock; migrate?: boolean; license?: LicenseState; poolSize?: number; storage?: ObjectStorage } = {},
): Promise<Bootstrapped> {
  const log = opts.log ?? createLogger(config.log.level)
  const handle = await openDatabase(config.databaseTarget, { poolSize: opts.poolSize })
  if (opts.migrate !== false) {
    const applied = await migrateToLatest(handle.db)
    if (applied.length) log.info('migrations applied', { migrations: applied })
  }
  const secrets = loadOrCreateSecrets(config.dataDir)
  let notifyMail = () => {}
  let notifyTasks = () => {}
  const ctx: AppContext = {
    config,
    db: handle.db,
    dialect: handle.dialect,
    clock: opts.clock ?? systemClock,
    log,
    secrets,
    license: opts.license ?? resolveLicense(config, log),
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
