// Everything a request handler or job may use, built once in main.ts (or by the test harness).
import type { Clock } from './clock'
import type { Config } from './config/config'
import type { Db, Dialect, PoolStats } from './db/database'
import type { Logger } from './logger'
import type { LicenseState } from './modules/license/license'
import type { Secrets } from './secrets'
import type { ObjectStorage } from './storage/storage'

export interface AppContext {
  config: Config
  db: Db
  dialect: Dialect
  clock: Clock
  log: Logger
  secrets: Secrets
  license: LicenseState
  /** where uploads live: the data dir's uploads folder or an S3 bucket (server/storage) */
  storage: ObjectStorage
  /** wakes the mail worker after a commit that queued mail (no-op when no worker runs) */
  notifyMail(): void
  /** wakes the task runner after a commit that queued a task */
  notifyTasks(): void
  /** connections in use and callers waiting (/metrics); absent in contexts without a pool of their own */
  poolStats?(): PoolStats
}
