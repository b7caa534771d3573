// Start-up of the compiled binary (issue 25): how long `einlass --version` and `einlass health` take
// (a container health check runs the latter every 30 s) and their peak memory, the time from spawn
// until /ready answers on an existing database (a restart; the first start, which creates and
// migrates it, is reported apart), and the resident memory once the server is idle. Every figure is the median
// of `runs` runs; the load average at the start and the end is reported beside them.
//   bun bench/startup.ts [--binary dist/einlass] [--runs 5] [--idle 2]
//   npm run bench -- --only startup
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { freePort } from '../server/testing/process'
import { BINARY, rssMb, start, stop, waitFor } from './lib'

export interface StartupBench {
  binary: string
  runs: number
  loadBefore: number[]
  loadAfter: number[]
  versionMs: number[]
  versionPeakRssMb: number[]
  healthMs: number[]
  healthPeakRssMb: number[]
  /** the very first start: creates and migrates the database */
  firstReadyMs: number
  /** restarts on that database */
  readyMs: number[]
  idleRssMb: number[]
  median: { versionMs: number; versionPeakRssMb: number; healthMs: number; healthPeakRssMb: number; readyMs: number; idleRssMb: number }
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10
const load = () => loadavg().map((x) => Math.round(x * 100) / 100)

/** One command to its end: wall time from spawn to exit and the peak resident memory. */
function timed(cmd: string[], env: Record<string, string>, cwd: string): { ms: number; peakRssMb: number; code: number | null; out: string } {
  const t0 = performance.now()
  const r = Bun.spawnSync(cmd, { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdout: 'pipe', stderr: 'pipe' })
  const ms = Math.round(performance.now() - t0)
  return { ms, peakRssMb: mb(r.resourceUsage?.maxRSS ?? NaN), code: r.exitCode, out: `${r.stdout.toString()}${r.stderr.toString()}` }
}

export async function startupBench(opts: { binary?: string; runs?: number; idleS?: number } = {}): Promise<StartupBench> {
  const binary = resolve(opts.binary ?? BINARY)
  const runs = opts.runs ?? 5
  const idleS = opts.idleS ?? 2
  const r: StartupBench = { binary, runs, loadBefore: load(), loadAfter: [], versionMs: [], versionPeakRssMb: [], healthMs: [], healthPeakRssMb: [], firstReadyMs: 0, readyMs: [], idleRssMb: [], median: {} as StartupBench['median'] }
  for (let i = 0; i < runs; i++) {
    const v = timed([binary, '--version'], {}, tmpdir())
    if (v.code !== 0) throw new Error(`--version failed: ${v.out}`)
    r.versionMs.push(v.ms)
    r.versionPeakRssMb.push(v.peakRssMb)
  }
  // one data dir: the first start creates and migrates the database (reported on its own), the
  // measured ones are restarts on it, as a container or a service restarts
  const dir = mkdtempSync(join(tmpdir(), 'einlass-startup-'))
  try {
    for (let i = 0; i <= runs; i++) {
      const port = await freePort()
      const env = { PORT: String(port), EINLASS_HOST: '127.0.0.1', EINLASS_DATA_DIR: dir, EINLASS_LOG_LEVEL: 'warn' }
      const t0 = performance.now()
      const p = start([binary, 'serve'], env, dir)
      try {
        await waitFor(`http://127.0.0.1:${port}/ready`, 20_000, 2)
        const readyMs = Math.round(performance.now() - t0)
        if (i === 0) {
          r.firstReadyMs = readyMs
          continue
        }
        r.readyMs.push(readyMs)
        await Bun.sleep(idleS * 1000)
        r.idleRssMb.push(rssMb(p.pid!))
        const h = timed([binary, 'health'], env, dir)
        if (h.code !== 0) throw new Error(`health failed: ${h.out}`)
        r.healthMs.push(h.ms)
        r.healthPeakRssMb.push(h.peakRssMb)
      } finally {
        await stop(p)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  r.loadAfter = load()
  r.median = {
    versionMs: median(r.versionMs),
    versionPeakRssMb: median(r.versionPeakRssMb),
    healthMs: median(r.healthMs),
    healthPeakRssMb: median(r.healthPeakRssMb),
    readyMs: median(r.readyMs),
    idleRssMb: median(r.idleRssMb),
  }
  return r
}

export function printStartup(r: StartupBench) {
  console.log(`\nStart-up of ${r.binary}, ${r.runs} runs each, median (all runs); load average ${r.loadBefore.join(' ')} → ${r.loadAfter.join(' ')}`)
  console.log('| | median | runs | target |')
  console.log('|---|---:|---|---|')
  console.log(`| \`einlass --version\` | ${r.median.versionMs} ms, peak ${r.median.versionPeakRssMb} MB | ${r.versionMs.join(' / ')} ms | < 100 ms |`)
  console.log(`| \`einlass health\` | ${r.median.healthMs} ms, peak ${r.median.healthPeakRssMb} MB | ${r.healthMs.join(' / ')} ms | < 100 ms |`)
  console.log(`| spawn → /ready 200, restart | ${r.median.readyMs} ms | ${r.readyMs.join(' / ')} ms | < 300 ms |`)
  console.log(`| spawn → /ready 200, first start (creates the database) | ${r.firstReadyMs} ms | one run | |`)
  console.log(`| resident memory, idle | ${r.median.idleRssMb} MB | ${r.idleRssMb.join(' / ')} MB | < 100 MB |`)
}

export const STARTUP_TARGETS = { versionMs: 100, healthMs: 100, readyMs: 300, idleRssMb: 100 }

/** The targets a run missed (by its medians). */
export function startupMisses(r: StartupBench): string[] {
  const m: string[] = []
  for (const [k, limit] of Object.entries(STARTUP_TARGETS) as [keyof typeof STARTUP_TARGETS, number][]) {
    if (r.median[k] >= limit) m.push(`${k} ${r.median[k]} >= ${limit}`)
  }
  return m
}

if (import.meta.main) {
  const args = process.argv.slice(2)
  const arg = (name: string) => {
    const i = args.indexOf(name)
    return i >= 0 ? args[i + 1] : undefined
  }
  const r = await startupBench({ binary: arg('--binary'), runs: Number(arg('--runs') ?? 5), idleS: Number(arg('--idle') ?? 2) })
  printStartup(r)
  const misses = startupMisses(r)
  if (misses.length) console.log(`targets missed: ${misses.join('; ')}`)
}
