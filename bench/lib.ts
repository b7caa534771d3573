// Shared pieces of the benchmarks: the binary, processes, autocannon runs, /proc readings.
import autocannon from 'autocannon'
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dir, '..')
export const RESULTS = join(ROOT, 'bench', '.results')
export const BINARY = join(ROOT, 'dist', 'einlass')
export const BUN = join(ROOT, 'node_modules', '.bin', 'bun')

/** dist/einlass, built with `npm run build` when missing or when asked to. */
export function ensureBinary(rebuild: boolean) {
  if (!rebuild && existsSync(BINARY)) return
  const r = spawnSync(BUN, ['build.ts'], { cwd: ROOT, stdio: 'inherit' })
  if (r.status !== 0) throw new Error('build failed')
}

export function resultsDir() {
  mkdirSync(RESULTS, { recursive: true })
  return RESULTS
}

export async function waitFor(url: string, timeoutMs = 20_000, everyMs = 5): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      if ((await fetch(url)).ok) return
    } catch {}
    if (Date.now() > deadline) throw new Error(`${url} did not answer`)
    await Bun.sleep(everyMs)
  }
}

export function start(cmd: string[], env: Record<string, string>, cwd: string): ChildProcess {
  const p = spawn(cmd[0], cmd.slice(1), { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  p.stderr!.on('data', (d) => process.stderr.write(`[${cmd[0].split('/').pop()}] ${d}`))
  p.stdout!.resume()
  return p
}

export async function stop(p: ChildProcess) {
  if (p.exitCode !== null) return
  const done = new Promise((r) => p.once('exit', r))
  p.kill('SIGTERM')
  await done
}

/** Resident memory of a process in MB (VmRSS from /proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN)
  return Math.round((kb / 1024) * 10) / 10
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // fields after the command name (which may contain spaces) start at ") "
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(f[11]) + Number(f[12])
  return ticks / 100
}

export interface StormResult {
  requests: number
  perSecond: number
  created: number
  createdPerSecond: number
  statusCounts: Record<string, number>
  latencyP50: number
  latencyP99: number
  errors: number
  durationS: number
  /** server CPU per created registration, ms (set when the server's pid is known) */
  cpuMsPerRegistration?: number
}

/** Registration storm: every request a new e-mail (autocannon's setupRequest hook). */
export async function storm(url: string, opts: { connections: number; durationS: number; tag: string; headers?: Record<string, string>; serverPid?: number }): Promise<StormResult & { createdEmails: Set<string> }> {
  let n = 0
  const cpu0 = opts.serverPid ? cpuSeconds(opts.serverPid) : 0
  const createdEmails = new Set<string>()
  // @types/autocannon describes an older result shape; the fields read below are those of v9
  const result: any = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.durationS,
    pipelining: 1,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...opts.headers },
        setupRequest: (req: any, context: any) => {
          n++
          context.email = `${opts.tag}.${n}@bench.example`
          req.body = JSON.stringify({ salutation: 'Frau', firstName: 'Bea', lastName: `Bench ${n}`, email: context.email })
          return req
        },
        onResponse: (status: number, _body: string, context: any) => {
          if (status === 201) createdEmails.add(context.email)
        },
      },
    ],
  } as any)
  const statusCounts: Record<string, number> = {}
  for (const [code, v] of Object.entries(result.statusCodeStats ?? {})) statusCounts[code] = Number((v as { count: number }).count)
  const created = statusCounts['201'] ?? 0
  const seconds = result.duration ?? opts.durationS
  const cpuMsPerRegistration = opts.serverPid && created ? Math.round(((cpuSeconds(opts.serverPid) - cpu0) * 1000 * 1000) / created) / 1000 : undefined
  return {
    requests: result.requests.total,
    perSecond: Math.round(result.requests.total / seconds),
    created,
    createdPerSecond: Math.round(created / seconds),
    statusCounts,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    errors: result.errors + result.timeouts,
    durationS: Math.round(seconds * 10) / 10,
    createdEmails,
    cpuMsPerRegistration,
  }
}
