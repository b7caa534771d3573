// Load from wrk (/usr/bin/wrk, C, two threads) instead of autocannon: on the two cores the server
// shares with its load generator, autocannon (JavaScript) took a core's worth of CPU and starved the
// server and the raw baseline unequally. Each scenario is a Lua script under bench/lua/ built on
// bench/lua/lib.lua, which makes every request unique (a counter over all threads) and prints its
// figures as one JSON line; this file runs wrk and reads that line.
import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'

export const LUA = resolve(import.meta.dir, 'lua')
export const WRK = process.env.WRK ?? '/usr/bin/wrk'

export interface WrkResult {
  /** answers received (wrk's count) */
  requests: number
  sent: number
  received: number
  /** 2xx answers */
  ok: number
  /** wrk's run time (µs); in fixed-count runs see windowS */
  durationUs: number
  /** monotonic clock (µs, the same in every wrk process): first request sent, last answer, first and last 2xx */
  firstUs: number
  lastUs: number
  first2xxUs: number
  last2xxUs: number
  /** first request sent → last answer received, seconds */
  windowS: number
  /** first request sent → last 2xx answer, seconds */
  okWindowS: number
  status: Record<string, number>
  errorTypes: Record<string, number>
  kinds: Record<string, number>
  /** non-2xx answers without {status, errorType, errorMessage} */
  badShape: number
  socketErrors: { connect: number; read: number; write: number; timeout: number }
  latencyMs: { p50: number; p90: number; p95: number; p99: number; max: number; mean: number }
}

export interface WrkOptions {
  url: string
  /** a file under bench/lua */
  script: string
  /** key=value arguments of the script */
  args?: Record<string, string | number>
  connections?: number
  threads?: number
  /** duration-based run (default 10 s; with limit: the longest it may take, default 300 s) … */
  seconds?: number
  /** … or exactly this many requests in total (the run ends when all are answered) */
  limit?: number
  /** answers slower than this count as timeouts (default 10 s) */
  timeoutS?: number
}

export async function runWrk(o: WrkOptions): Promise<WrkResult> {
  const threads = Math.min(o.threads ?? 2, o.connections ?? 64)
  const connections = o.connections ?? 64
  // a fixed-count run gets a generous -d; it is ended with SIGINT when every thread is done
  const seconds = o.limit ? (o.seconds ?? 300) : (o.seconds ?? 10)
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', `${o.timeoutS ?? 10}s`, '-s', join(LUA, o.script), o.url, '--', `threads=${threads}`]
  for (const [k, v] of Object.entries(o.args ?? {})) args.push(`${k}=${v}`)
  const env = { PATH: process.env.PATH ?? '', LUA_PATH: `${LUA}/?.lua;;`, ...(o.limit ? { WRK_LIMIT: String(o.limit) } : {}) }
  const p = spawn(WRK, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let finished = 0
  p.stdout!.on('data', (d) => {
    const s = String(d)
    out += s
    finished += s.split('WRK-THREAD-DONE').length - 1
    if (o.limit && finished >= threads) p.kill('SIGINT')
  })
  let err = ''
  p.stderr!.on('data', (d) => {
    err += String(d)
    process.stderr.write(`[wrk] ${d}`)
  })
  // a missing wrk never exits, it errors (ENOENT): said at once instead of waiting for ever
  const code = await new Promise<number | null>((r, fail) => {
    p.once('exit', r)
    p.once('error', (e) => fail(new Error(`wrk could not be started (${WRK}: ${e.message}); Debian: apt-get install wrk, or WRK=path`)))
  })
  const line = out.split('\n').find((l) => l.startsWith('WRK-JSON '))
  if (!line) throw new Error(`wrk gave no figures (exit ${code}):\n${out}\n${err}`)
  const j = JSON.parse(line.slice('WRK-JSON '.length))
  return {
    ...j,
    windowS: j.firstUs && j.lastUs ? (j.lastUs - j.firstUs) / 1e6 : 0,
    okWindowS: j.firstUs && j.last2xxUs ? (j.last2xxUs - j.firstUs) / 1e6 : 0,
  }
}

/** Per second over the run: wrk's duration for timed runs, the measured window for fixed counts. */
export function perSecond(r: WrkResult, n: number, fixed = false) {
  const s = fixed ? r.windowS : r.durationUs / 1e6
  return s > 0 ? n / s : 0
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

/** One line per target: the figure, the target and PASS / FAIL; returns whether all passed. */
export function verdicts(rows: Array<{ what: string; measured: string; target: string; pass: boolean }>): boolean {
  console.log('')
  for (const r of rows) console.log(`${r.pass ? 'PASS' : 'FAIL'}  ${r.what}: ${r.measured} (target ${r.target})`)
  return rows.every((r) => r.pass)
}

export const summary = (r: WrkResult) =>
  `${r.received} answers (${Object.entries(r.status)
    .map(([k, v]) => `${v} × ${k}`)
    .join(', ')}), latency p50 ${r.latencyMs.p50.toFixed(1)} ms, p95 ${r.latencyMs.p95.toFixed(1)} ms, p99 ${r.latencyMs.p99.toFixed(1)} ms, max ${r.latencyMs.max.toFixed(1)} ms${Object.keys(r.errorTypes).length ? `; errorTypes ${JSON.stringify(r.errorTypes)}` : ''}${r.badShape ? `; ${r.badShape} NOT in the error shape` : ''}${r.socketErrors.connect + r.socketErrors.read + r.socketErrors.write + r.socketErrors.timeout ? `; socket errors ${JSON.stringify(r.socketErrors)}` : ''}`
