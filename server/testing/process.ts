// einlass as a real process, for tests that need one (CLI, TLS, shutdown, several servers on one
// database) and for the Playwright journeys. Node APIs only: used under bun test and under node.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const BUN = join(ROOT, 'node_modules', '.bin', 'bun')
/** The binary the journeys use (npm run test:e2e builds it with the test license key). */
export const E2E_BINARY = join(ROOT, 'e2e', '.artifacts', 'einlass')

/** Runs the server from source; the test license key is trusted as in the e2e build. */
export const SOURCE_COMMAND = [BUN, '--define', '__EINLASS_TRUST_TEST_LICENSE_KEY__=true', join(ROOT, 'server', 'main.ts')]

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => res(port))
    })
    s.on('error', rej)
  })
}

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs one einlass command to its end (from source unless `command` names the binary). */
export function runCli(args: string[], opts: { env?: Record<string, string>; cwd?: string; command?: string[]; timeoutMs?: number } = {}): CliResult {
  const [cmd, ...pre] = opts.command ?? SOURCE_COMMAND
  const r = spawnSync(cmd, [...pre, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...opts.env },
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 30_000,
  })
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' }
}

export interface ServerProcess {
  url: string
  port: number
  dataDir: string
  proc: ChildProcess
  /** everything the process wrote, stdout and stderr interleaved */
  logs: string[]
  /** stdout lines parsed as JSON log records (others skipped) */
  records(): Array<Record<string, any>>
  /** SIGTERM and wait for the exit code */
  stop(signal?: NodeJS.Signals): Promise<number | null>
  exited: Promise<number | null>
}

export interface StartOptions {
  env?: Record<string, string>
  /** command and leading arguments; default: the server from source */
  command?: string[]
  args?: string[]
  dataDir?: string
  cwd?: string
  /** remove the data dir on stop (default: when this function created it) */
  cleanup?: boolean
  https?: boolean
  readyTimeoutMs?: number
  /** listen on this port (a restart behind a proxy that names the port); default: a free one */
  port?: number
}

/** Starts `einlass serve` on a free port and waits until /ready answers 200. */
export async function startServerProcess(opts: StartOptions = {}): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort())
  const ownDir = !opts.dataDir
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'einlass-proc-'))
  const scheme = opts.https ? 'https' : 'http'
  const url = `${scheme}://127.0.0.1:${port}`
  const [cmd, ...pre] = opts.command ?? SOURCE_COMMAND
  const proc = spawn(cmd, [...pre, 'serve', ...(opts.args ?? [])], {
    cwd: opts.cwd ?? dataDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: String(port),
      EINLASS_HOST: '127.0.0.1',
      EINLASS_DATA_DIR: dataDir,
      EINLASS_BASE_URL: url,
      EINLASS_LOG_LEVEL: 'warn',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const logs: string[] = []
  const out: string[] = []
  proc.stdout!.on('data', (d) => {
    logs.push(String(d))
    out.push(String(d))
  })
  proc.stderr!.on('data', (d) => logs.push(String(d)))
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)))
  let exitCode: number | null | undefined
  void exited.then((c) => (exitCode = c))

  const deadline = Date.now() + (opts.readyTimeoutMs ?? 20_000)
  for (;;) {
    if (exitCode !== undefined) throw new Error(`einlass exited with ${exitCode} before it was ready:\n${logs.join('')}`)
    try {
      const r = await fetch(`${url}/ready`, opts.https ? ({ tls: { rejectUnauthorized: false } } as RequestInit) : undefined)
      if (r.ok) break
    } catch {}
    if (Date.now() > deadline) {
      proc.kill('SIGKILL')
      throw new Error(`einlass did not become ready:\n${logs.join('')}`)
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    url,
    port,
    dataDir,
    proc,
    logs,
    exited,
    records: () =>
      out
        .join('')
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => {
          try {
            return JSON.parse(l)
          } catch {
            return null
          }
        })
        .filter(Boolean),
    async stop(signal = 'SIGTERM') {
      if (exitCode === undefined) proc.kill(signal)
      const code = await exited
      if (opts.cleanup ?? ownDir) rmSync(dataDir, { recursive: true, force: true })
      return code
    },
  }
}
