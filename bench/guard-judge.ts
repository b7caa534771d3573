// The verdict of the performance guard (bench/guard.ts) from its rounds, apart so that a test can
// show it fails (server/testing/guard-judge.test.ts).
export type PathName = 'registration' | 'order' | 'checkin'
export const PATHS: PathName[] = ['registration', 'order', 'checkin']
/** a ratio may drop this much below its record before the guard fails */
export const ALLOWED_DROP = 0.25
/** the throughput ratio is judged only when the machine had this share of its CPU idle (see judgeRounds) */
export const QUIET_IDLE = 0.1
/** runnable tasks per core (1-minute load average) above which a failing run is inconclusive (--strict: failed) */
export const OVERLOAD = 4

export interface Ratios {
  throughput: number
  cpu: number
}
export interface Recorded {
  note: string
  ratios: Record<PathName, Ratios>
}
export interface Measured {
  /** 2xx answers per second */
  rate: number
  /** server CPU (user + system) per 2xx answer, ms */
  cpuMs: number
  ok: number
  other: number
  p99: number
  /** share of the machine's CPU time left idle during the run (/proc/stat) */
  idle: number
}
export type Round = Record<'baseline' | PathName, Measured> & { load: string }

// Two ratios per path, each compared with its record:
// - throughput: the path's best round against the baseline's best round (the quietest moment each
//   side met; a round's own ratio is inflated when only the baseline met a neighbour's burst).
//   Judged only when the machine had CPU to spare while the path ran (its best round left at least
//   QUIET_IDLE of the machine idle): on a saturated machine the baseline, which needs ~0.07 ms of
//   CPU per request, loses far less to the neighbours than einlass, and the ratio fell to a third
//   within minutes with the code unchanged (docs/benchmarks.md).
// - CPU: the baseline's server CPU per request against einlass' (/proc, best round): what each
//   could do with a core of its own; it moves little with the neighbours' load, so it is judged
//   in every run.
export function judgeRounds(rounds: Round[], recorded: Recorded) {
  const result = {} as Record<PathName, { throughput: number; median: number; ratios: number[]; cpu: number; idle: number; judged: boolean; recorded: Ratios; pass: boolean; why: string[] }>
  for (const p of PATHS) {
    const ratios = rounds.map((r) => r[p].rate / r.baseline.rate)
    const sorted = [...ratios].sort((a, b) => a - b)
    const bestRound = rounds.reduce((a, b) => (b[p].rate > a[p].rate ? b : a))
    const throughput = bestRound[p].rate / Math.max(...rounds.map((r) => r.baseline.rate))
    const median = sorted[Math.floor(sorted.length / 2)]
    const cpu = Math.max(...rounds.map((r) => r.baseline.cpuMs / r[p].cpuMs))
    const idle = bestRound[p].idle
    const judged = idle >= QUIET_IDLE
    const rec = recorded.ratios[p]
    const why: string[] = []
    if (cpu < rec.cpu * (1 - ALLOWED_DROP)) why.push(`CPU ratio ${cpu.toFixed(3)} < ${(rec.cpu * (1 - ALLOWED_DROP)).toFixed(3)}`)
    if (judged && throughput < rec.throughput * (1 - ALLOWED_DROP)) why.push(`throughput ratio ${throughput.toFixed(3)} < ${(rec.throughput * (1 - ALLOWED_DROP)).toFixed(3)}`)
    // answers other than 2xx mean the run measured errors, not the path: a failure as well
    if (!rounds.every((r) => r[p].ok > 0 && r[p].other <= r[p].ok * 0.001)) why.push(`answers other than 2xx: ${rounds.map((r) => r[p].other).join(', ')}`)
    result[p] = { throughput, median, ratios, cpu, idle, judged, recorded: rec, pass: why.length === 0, why }
  }
  return result
}

/** PASS, FAIL, or INCONCLUSIVE: failing while the machine was overloaded in every round (the quietest round's load per core above OVERLOAD) */
export function verdictOf(result: ReturnType<typeof judgeRounds>, rounds: Round[], cores: number, strict = false): 'PASS' | 'FAIL' | 'INCONCLUSIVE' {
  if (PATHS.every((p) => result[p].pass)) return 'PASS'
  const quietest = Math.min(...rounds.map((r) => Number(r.load.split(' ')[0]))) / cores
  return quietest > OVERLOAD && !strict ? 'INCONCLUSIVE' : 'FAIL'
}
