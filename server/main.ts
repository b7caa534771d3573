// The einlass command: serve (default), migrate, create-admin, license, backup, --help, --version.
// The only file with side effects at start; everything else is built by functions it calls.
// It imports only what `--version`, `--help` and `health` need: the commands that open the database
// or start the server live in cli/commands.ts and are imported when one of them runs, so a health
// check every 30 s does not evaluate the whole server (PDF, payment SDKs, e-invoice; issue 25).
import { join } from 'node:path'
import pkg from '../package.json'
import { ConfigError, parseFlags, SETTINGS } from './config/config'
import { type UiAssets, diskAssets } from './http/ui-assets'
import { ExitError, configOrExit } from './cli/exit'

export const VERSION: string = pkg.version

const HELP = `einlass ${VERSION} — event registration, ticketing and check-in

Usage: einlass [command] [options]

Commands:
  serve                     start the server (default)
  migrate                   apply pending database migrations and exit
  create-admin --email E --password P --agency NAME [--first-name F --last-name L]
                            create an agency and its administrator (only while no user exists)
  license show              show the license in use and the limits that apply
  license verify FILE       check a license file's signature and validity
  license install FILE      verify and install a license (Postgres: into the database, for every process)
  backup FILE.sqlite        write a consistent copy of the SQLite database to FILE
  backup DIR                the same plus secrets, license and every upload, with checksums
  restore DIR|FILE [--force]
                            restore a backup into the data dir (an empty one; --force moves an
                            install that is there aside); every login ends
  storage migrate --to s3|file
                            copy every upload from the data dir into the bucket of
                            EINLASS_STORAGE_URL (or back), verifying each; resumable
  health                    exit 0 when the server on this machine answers /health, else 1
                            (for container health checks; uses PORT and the TLS settings)
  --help                    this text
  --version                 the version

Options (also as environment variables or in einlass.toml; flags win):
${SETTINGS.map((s) => `  ${`${s.flag} <${s.kind}>`.padEnd(34)}${s.env}; ${s.doc}`).join('\n')}
  --config FILE                     EINLASS_CONFIG; TOML file (default: einlass.toml in the data dir)
`

/** GET /health on this machine's port; exit code 0 or 1 (the Docker HEALTHCHECK, no curl needed). */
async function health(argv: string[]) {
  const config = configOrExit(argv)
  const scheme = config.server.tls_cert ? 'https' : 'http'
  const url = `${scheme}://127.0.0.1:${config.server.port}/health`
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(3000), tls: { rejectUnauthorized: false } } as RequestInit)
    const body = (await r.json().catch(() => null)) as { status?: string } | null
    if (r.ok && body?.status === 'ok') {
      console.log(`healthy: ${url}`)
      return
    }
    throw new ExitError(`einlass: unhealthy: ${url} answered ${r.status}`, 1)
  } catch (e) {
    if (e instanceof ExitError) throw e
    throw new ExitError(`einlass: unhealthy: ${url}: ${(e as Error).message}`, 1)
  }
}

export async function run(argv: string[], assets: UiAssets): Promise<void> {
  const { flags, rest } = parseFlags(argv)
  if (flags.has('--version')) {
    console.log(VERSION)
    return
  }
  const command = rest[0] ?? 'serve'
  if (flags.has('--help') || command === 'help') {
    console.log(HELP)
    return
  }
  // the arguments without the command word itself
  const at = argv.indexOf(command)
  const tail = at < 0 ? argv : argv.slice(0, at).concat(argv.slice(at + 1))
  const commands = () => import('./cli/commands')
  try {
    switch (command) {
      case 'serve':
        return await (await commands()).serve(tail, assets)
      case 'migrate':
        return await (await commands()).migrate(tail)
      case 'create-admin':
        return await (await commands()).createAdmin(tail)
      case 'license':
        return await (await commands()).license(tail)
      case 'backup':
        return (await commands()).backup(tail)
      case 'restore':
        return (await commands()).restore(tail)
      case 'storage':
        return await (await commands()).storage(tail)
      case 'health':
        return await health(tail)
      default:
        throw new ExitError(`einlass: unknown command "${command}" (see einlass --help)`, 2)
    }
  } catch (e) {
    if (e instanceof ExitError) {
      console.error(e.message)
      process.exit(e.code)
    }
    // a configured secret that is malformed or differs from the stored one (secrets.ts)
    if (e instanceof ConfigError) {
      console.error(`einlass: configuration error: ${e.message}`)
      process.exit(2)
    }
    console.error(`einlass: ${(e as Error)?.message ?? e}`)
    process.exit(1)
  }
}

if (import.meta.main) {
  const uiDir = join(import.meta.dir, '..', 'ui', 'build', 'public')
  await run(process.argv.slice(2), diskAssets(uiDir))
}
