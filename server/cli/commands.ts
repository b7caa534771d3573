// The einlass commands that open the database or start the server: serve, migrate, create-admin,
// license, backup, restore, storage. main.ts imports this module only when one of them runs, so
// `einlass --version`, `--help` and `health` never evaluate the server's modules (issue 25).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import pkg from '../../package.json'
import { createApp } from '../app'
import { bootstrap, resolveLicense } from '../bootstrap'
import { storeLicense, storedLicense } from '../install-state'
import { parseFlags } from '../config/config'
import { migrateToLatest } from '../db/migrate'
import { openDatabase } from '../db/database'
import type { UiAssets } from '../http/ui-assets'
import { createLogger } from '../logger'
import { OpsError, backup as opsBackup, restore as opsRestore } from '../ops/backup'
import { storageMigrate } from '../ops/storage-migrate'
import { StorageUnavailable } from '../storage/storage'
import { trustedPublicKeys } from '../modules/license/keys'
import { watchLicense } from '../license-watch'
import { verifyLicenseText } from '../modules/license/license'
import { SetupBody } from '../modules/identity/model'
import { createAgencyWithAdmin, setupRequired } from '../modules/identity/service'
import { endWithParent } from '../lifecycle'
import { startMailWorker } from '../modules/mail/worker'
import { startTaskRunner } from '../modules/tasks/runner'
import { closeLiveStreams } from '../modules/checkin/live'
import { issuesToFields } from '../shared/validation'
import { AppError } from '../shared/errors'
import { ExitError, configOrExit } from './exit'

const VERSION: string = pkg.version

export async function serve(argv: string[], assets: UiAssets) {
  const t0 = performance.now()
  const config = configOrExit(argv)
  const log = createLogger(config.log.level)
  const boot = await bootstrap(config, { log })
  const { ctx } = boot
  // a bucket that cannot be reached (or refuses the keys) stops the start with one line, not the first upload
  try {
    await ctx.storage.check()
  } catch (e) {
    await boot.handle.close()
    if (e instanceof StorageUnavailable) throw new ExitError(`einlass: storage error: ${e.message}`, 1)
    throw e
  }
  const { app, handle, state } = createApp(ctx, { assets })
  const mail = startMailWorker(ctx)
  const tasks = startTaskRunner(ctx)
  boot.wire(mail.wake, tasks.wake)
  // a license installed meanwhile (einlass license install) is taken within seconds (license-watch.ts)
  const stopLicenseWatch = watchLicense(ctx)

  const tls = config.server.tls_cert && config.server.tls_key ? { cert: Bun.file(resolve(config.server.tls_cert)), key: Bun.file(resolve(config.server.tls_key)) } : undefined
  const server = Bun.serve({
    port: config.server.port,
    hostname: config.server.host,
    // the app answers over-limit bodies with 413 in the error shape; Bun's own cap is only a backstop
    maxRequestBodySize: Math.max(config.server.body_limit_mb * 1024 * 1024 * 2, 1024 * 1024 * 1024),
    idleTimeout: 30,
    tls,
    fetch: handle,
    error(e) {
      log.error('server error', { error: String(e?.stack ?? e) })
      return new Response(JSON.stringify({ status: 500, errorType: 'INTERNAL_ERROR', errorMessage: 'Entschuldigung, hier ist etwas schief gelaufen.' }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      })
    },
  })
  ;(app as any).server = server
  log.info('einlass ready', {
    version: VERSION,
    url: config.baseUrl,
    listen: `${tls ? 'https' : 'http'}://${server.hostname}:${server.port}`,
    database: ctx.dialect,
    dataDir: config.dataDir,
    storage: ctx.storage.location,
    edition: ctx.license.edition,
    startupMs: Math.round(performance.now() - t0),
  })
  mail.wake()
  tasks.wake()

  let stopping = false
  let endDrain = () => {}
  const shutdown = async (signal: string) => {
    // a second signal during the drain cuts it short (the running requests still finish)
    if (stopping) return endDrain()
    stopping = true
    state.shuttingDown = true
    log.info('shutting down', { signal })
    // Graceful drain behind a proxy (docs/operations.md "Graceful drain"): keep serving for
    // drain_seconds while /ready says 503 (a proxy with active health checks stops sending here) and
    // every answer closes its connection; in the second half GETs get 503 as well (a proxy without
    // them, nginx, retries those elsewhere and takes this process out). When the port closes below
    // the proxy holds no connection here and sends nothing more: no request it passed on is cut.
    const drainMs = config.server.drain_seconds * 1000
    if (drainMs > 0 && signal === 'SIGTERM') {
      log.info('draining', { seconds: config.server.drain_seconds })
      await new Promise<void>((done) => {
        const half = setTimeout(() => (state.refuseReads = true), drainMs / 2)
        const timer = setTimeout(done, drainMs)
        endDrain = () => {
          clearTimeout(half)
          clearTimeout(timer)
          done()
        }
      })
    }
    // stop accepting, let running requests finish (Bun waits for them), then close the rest
    // stop accepting, let running requests finish (Bun waits for them), then close the rest; the
    // check-in desks' live streams never finish by themselves (they reconnect to another process)
    closeLiveStreams()
    await server.stop(false)
    stopLicenseWatch()
    await Promise.all([mail.stop(), tasks.stop()])
    state.metrics.stop()
    await boot.handle.close()
    log.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
  // under `npm start` the server ends with npm (server/lifecycle.ts)
  endWithParent((why) => void shutdown(why))
  // one line for people (the log lines are JSON): where the server is and, on a first start, the setup page
  const setup = await setupRequired(ctx).catch(() => false)
  console.error(setup ? `einlass läuft: ${config.baseUrl} – zur Ersteinrichtung: ${config.baseUrl}/setup` : `einlass läuft: ${config.baseUrl}`)
}

export async function migrate(argv: string[]) {
  const config = configOrExit(argv)
  const handle = await openDatabase(config.databaseTarget)
  try {
    const applied = await migrateToLatest(handle.db)
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date')
  } finally {
    await handle.close()
  }
}

export async function createAdmin(argv: string[]) {
  const { flags } = parseFlags(argv)
  const config = configOrExit(argv)
  const input = SetupBody.safeParse({
    agencyName: flags.get('--agency'),
    email: flags.get('--email'),
    password: flags.get('--password'),
    firstName: flags.get('--first-name') ?? 'Admin',
    lastName: flags.get('--last-name') ?? 'Administrator',
  })
  if (!input.success) {
    const fields = issuesToFields(input.error.issues)
    const names: Record<string, string> = { agencyName: '--agency', email: '--email', password: '--password', firstName: '--first-name', lastName: '--last-name' }
    throw new ExitError(`einlass: ${fields.map((f) => `${names[f.field] ?? f.field}: ${f.errorType}`).join(', ')}`, 2)
  }
  const boot = await bootstrap(config, { log: createLogger('error') })
  try {
    const { user, account } = await createAgencyWithAdmin(boot.ctx, input.data, { onlyIfNoUser: true })
    console.log(`created agency "${input.data.agencyName}" (id ${account.agency_id}) with administrator ${user.email}`)
  } catch (e) {
    if (e instanceof AppError) throw new ExitError(`einlass: ${e.errorType === 'SETUP_DONE' ? 'a user exists already; create further users in the app' : e.errorType}`, 1)
    throw e
  } finally {
    await boot.handle.close()
  }
}

export async function license(argv: string[]) {
  const { rest } = parseFlags(argv)
  const [sub, file] = rest
  if (sub === 'verify') {
    if (!file) throw new ExitError('einlass: usage: einlass license verify FILE', 2)
    if (!existsSync(file)) throw new ExitError(`einlass: file not found: ${file}`, 1)
    const r = verifyLicenseText(readFileSync(file, 'utf8'), trustedPublicKeys())
    if (!r.ok) throw new ExitError(`einlass: license invalid: ${r.reason}`, 1)
    console.log(`license valid: ${r.license.licensee}, until ${r.license.validUntil}`)
    console.log(`features: ${r.license.features.join(', ') || '(none)'}`)
    console.log(`limits: ${Object.entries(r.license.limits).map(([k, v]) => `${k} ${v < 0 ? 'unlimited' : v}`).join(', ')}`)
    return
  }
  if (sub === 'install') {
    if (!file) throw new ExitError('einlass: usage: einlass license install FILE', 2)
    if (!existsSync(file)) throw new ExitError(`einlass: file not found: ${file}`, 1)
    const text = readFileSync(file, 'utf8')
    const r = verifyLicenseText(text, trustedPublicKeys())
    if (!r.ok) throw new ExitError(`einlass: license invalid: ${r.reason}`, 1)
    const config = configOrExit(argv)
    if (config.databaseTarget.dialect === 'postgres') {
      // every process of the install reads it from the database at its next start
      const handle = await openDatabase(config.databaseTarget)
      try {
        await migrateToLatest(handle.db)
        await storeLicense(handle.db, text)
      } finally {
        await handle.close()
      }
      console.log(`license of ${r.license.licensee} (until ${r.license.validUntil}) installed into the database; every running process takes it within seconds`)
    } else {
      mkdirSync(config.dataDir, { recursive: true })
      writeFileSync(join(config.dataDir, 'license.json'), text, { mode: 0o600 })
      console.log(`license of ${r.license.licensee} (until ${r.license.validUntil}) installed as ${join(config.dataDir, 'license.json')}; a running einlass takes it within seconds`)
    }
    if (config.license.file) console.log(`note: the configured license file ${config.license.file} still wins over the installed one`)
    return
  }
  if (sub === 'show' || sub === undefined) {
    const config = configOrExit(argv)
    let stored: string | null = null
    if (config.databaseTarget.dialect === 'postgres') {
      const handle = await openDatabase(config.databaseTarget)
      try {
        stored = await storedLicense(handle.db).catch(() => null)
      } finally {
        await handle.close()
      }
    }
    const l = resolveLicense(config, createLogger('error'), trustedPublicKeys(), new Date(), stored)
    if (l.edition === 'licensed') console.log(`licensed to ${l.licensee}, valid until ${l.validUntil} (${l.file})`)
    else console.log(`community edition: ${l.reason}`)
    console.log(`features: ${l.features.join(', ') || '(none)'}`)
    console.log(`limits: ${Object.entries(l.limits).map(([k, v]) => `${k} ${v < 0 ? 'unlimited' : v}`).join(', ')}`)
    return
  }
  throw new ExitError(`einlass: unknown license command "${sub}" (show, verify FILE, install FILE)`, 2)
}

export function backup(argv: string[]) {
  const { rest } = parseFlags(argv)
  const target = rest[0]
  if (!target) throw new ExitError('einlass: usage: einlass backup FILE.sqlite | DIR', 2)
  console.log(opsExit(() => opsBackup(configOrExit(argv), target)))
}

export function restore(argv: string[]) {
  const { flags, rest } = parseFlags(argv)
  // `restore --force DIR` reads DIR as the flag's value: take it as the source
  const forced = flags.get('--force')
  const source = rest[0] ?? (forced && forced !== 'true' ? forced : undefined)
  if (!source) throw new ExitError('einlass: usage: einlass restore DIR|FILE.sqlite [--force]', 2)
  console.log(opsExit(() => opsRestore(configOrExit(argv), source, flags.has('--force'))))
}

export async function storage(argv: string[]) {
  const { flags, rest } = parseFlags(argv)
  if (rest[0] !== 'migrate') throw new ExitError('einlass: usage: einlass storage migrate --to s3|file', 2)
  const config = configOrExit(argv)
  console.log(await opsExitAsync(() => storageMigrate(config, flags.get('--to'))))
}

/** An ops error (backup, restore) ends the process like every other command's: one line, its code. */
function opsExit<T>(f: () => T): T {
  try {
    return f()
  } catch (e) {
    if (e instanceof OpsError) throw new ExitError(e.message, e.code)
    throw e
  }
}

async function opsExitAsync<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f()
  } catch (e) {
    if (e instanceof OpsError) throw new ExitError(e.message, e.code)
    throw e
  }
}
