// The performance guard (issue 25): throughput of the hot paths as a RATIO to the raw Bun +
// bun:sqlite baseline (bench/baseline-server.ts) measured in the same run, compared with the ratios
// recorded in bench/guard.json. Fails when a ratio drops more than 25 % below its record (absolute
// rates mean nothing on a shared machine; a ratio moves much less, as both sides share the load).
//
//   npm run bench:guard                   query-count test, then 3 rounds of 5 s per path (~1.5 min)
//   npm run bench:guard -- --short        3 rounds of 2 s per path, no query-count test (npm test runs
//                                         it after the bun suite, which has the query counts already)
//   options: --rounds N --seconds S --connections C --build (build the binary first; --short always
//            builds unless EINLASS_BINARY is set) --update (write this run's ratios to bench/guard.json:
//            only on purpose, and say why in the commit) --strict (fail also on an overloaded machine)
//
// The binary runs on a fresh SQLite data dir (bench/organiser-lib.ts startBinary, test license key).
// Paths: public registration without form fields, a ticket order (one category, INVOICE), a self
// check-in (one person per registration token). Load from wrk (bench/wrk.ts, Lua scripts under
// bench/lua/ make every request unique). Each round measures the baseline, then each path, one after
// another, so a neighbour's burst hits a round, not one side of every ratio; the guard compares the
// path's best round with the baseline's best round (the quietest moment each side met). A failure on
// a machine overloaded in every round (load average above 4 per core) is reported as inconclusive and
// does not fail (--strict: it does). Every run's figures go to bench/.results/guard-<time>.json;
// docs/benchmarks.md "Performance guard and query counts per hot request" keeps the history.
import { Database } from 'bun:sqlite'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { BUN, ROOT, cpuSeconds, resultsDir, start, stop } from './lib'
import { BINARY, type Running, createEventVia, freePort, seedGuests, startBinary } from './organiser-lib'
import { ALLOWED_DROP, type Measured, OVERLOAD, PATHS, type PathName, type Recorded, type Round, judgeRounds, verdictOf } from './guard-judge'
import { type WrkResult, fmt, runWrk } from './wrk'

const argv = process.argv.slice(2)
const flag = (name: string) => argv.includes(`--${name}`)
const num = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? Number(argv[i + 1]) : dflt
}
const SHORT = flag('short')
const ROUNDS = num('rounds', 3)
const SECONDS = Math.max(1, Math.round(num('seconds', SHORT ? 2 : 5)))
const CONNECTIONS = num('connections', 64)
const GUARD_FILE = resolve(import.meta.dir, 'guard.json')


/** the machine's CPU time so far, in ticks: idle (with iowait) and total (/proc/stat) */
function machineCpu() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
  return { idle: f[3] + f[4], total: f.slice(0, 8).reduce((a, b) => a + b, 0) }
}
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

// 1. query counts (the full form; npm test has run them in the suite already)
if (!SHORT) {
  const r = spawnSync(BUN, ['test', '--timeout', '30000', 'server/testing/hot-path-queries.test.ts'], { cwd: ROOT, stdio: 'inherit' })
  if (r.status !== 0) {
    console.error('FAIL  query counts per hot request (server/testing/hot-path-queries.test.ts)')
    process.exit(1)
  }
  console.log('PASS  query counts per hot request')
}

// 2. the binary
if (!process.env.EINLASS_BINARY && (SHORT || flag('build') || !existsSync(BINARY))) {
  const r = spawnSync(BUN, ['build.ts', '--test-license-key', '--outfile', BINARY], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] })
  if (r.status !== 0) throw new Error('build failed')
}

const t0 = performance.now()
const recorded = JSON.parse(readFileSync(GUARD_FILE, 'utf8')) as Recorded
const MAX_ROUNDS = ROUNDS + (SHORT ? 3 : 4)
/** seconds from the start of the measurement (after the build) by which extra rounds must end */
const BUDGET_S = num('budget', SHORT ? 50 : 150)
/** guests seeded for self check-in at a time (more before a run that could reach the end) */
const GUEST_CHUNK = 20_000

// 3. the baseline and einlass, both started now and kept running through the rounds
const dir = mkdtempSync(join(tmpdir(), 'einlass-guard-'))
const basePort = await freePort()
const baseline = start([BUN, join(ROOT, 'bench', 'baseline-server.ts'), String(basePort), join(dir, 'baseline.sqlite'), '1000000000'], {}, ROOT)
const baseUrl = `http://127.0.0.1:${basePort}`
let s: Running | null = null
let failed = false
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${baseUrl}/`, { method: 'POST', body: JSON.stringify({ email: 'probe@bench.example', firstName: 'p', lastName: 'p' }) })).status === 201) break
    } catch {}
    if (i > 500) throw new Error('baseline did not start')
    await Bun.sleep(20)
  }
  s = await startBinary({}, { license: true })
  const server = s
  const json = async (r: Response, want: number, what: string) => {
    if (r.status !== want) throw new Error(`${what}: ${r.status} ${await r.text()}`)
    return r.json() as Promise<any>
  }
  const regEvent = await createEventVia(server, { maxVisitors: null, displayName: 'Anmeldung' })
  const orderEvent = await createEventVia(server, { maxVisitors: null, displayName: 'Karten' })
  const category = await json(await fetch(`${server.url}/proxy/api/events/${orderEvent}/ticketCategories`, { method: 'POST', headers: server.headers, body: JSON.stringify({ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: null }) }), 201, 'category')
  const invoice = await json(await fetch(`${server.url}/proxy/api/agency/paymentMethods`, { method: 'POST', headers: server.headers, body: JSON.stringify({ method: 'INVOICE' }) }), 201, 'payment method')
  await json(await fetch(`${server.url}/proxy/api/events/${orderEvent}/paymentMethods`, { method: 'PUT', headers: server.headers, body: JSON.stringify({ ids: [invoice.id] }) }), 200, 'event payment methods')
  const checkinEvent = await createEventVia(server, { maxVisitors: null, displayName: 'Einlass' })
  let seeded = 0
  const seedUpTo = (n: number) => {
    if (n <= seeded) return
    const more = Math.max(GUEST_CHUNK, n - seeded)
    seedGuests(server.dataDir, checkinEvent, more, { confirmed: true, from: seeded })
    seeded += more
  }
  seedUpTo(GUEST_CHUNK)
  {
    const rw = new Database(join(server.dataDir, 'einlass.sqlite'))
    rw.exec('pragma busy_timeout = 10000')
    rw.query('update event set allow_self_checkin = 1 where id = ?').run(checkinEvent)
    rw.close()
  }

  let checkinOffset = 0
  const runs = {
    baseline: (tag: string, seconds: number) => runWrk({ url: baseUrl, script: 'registrations.lua', connections: CONNECTIONS, seconds, args: { path: '/', tag } }),
    registration: (tag: string, seconds: number) => runWrk({ url: server.url, script: 'registrations.lua', connections: CONNECTIONS, seconds, args: { path: `/proxy/api/public/events/${regEvent}/registrations`, tag } }),
    order: (tag: string, seconds: number) => runWrk({ url: server.url, script: 'orders.lua', connections: CONNECTIONS, seconds, args: { path: `/proxy/api/public/events/${orderEvent}/registrations`, category: category.id, tag } }),
    checkin: async (_tag: string, seconds: number) => {
      // registrations 10 … (the tokens of seedGuests are long enough from 10 on), never one twice
      const r = await runWrk({ url: server.url, script: 'checkin.lua', connections: CONNECTIONS, seconds, args: { event: checkinEvent, guests: 1_000_000_000, origin: server.url, offset: checkinOffset } })
      checkinOffset += r.sent
      if (10 + checkinOffset > seeded) throw new Error(`more check-ins (${checkinOffset}) than seeded guests (${seeded})`)
      return r
    },
  }
  const pidOf = (name: string) => (name === 'baseline' ? baseline.pid! : server.proc.pid!)
  const measure = async (name: keyof typeof runs, tag: string): Promise<Measured> => {
    const cpu0 = cpuSeconds(pidOf(name))
    const stat0 = machineCpu()
    const r: WrkResult = await runs[name](tag, SECONDS)
    const cpu = cpuSeconds(pidOf(name)) - cpu0
    const stat1 = machineCpu()
    const rate = r.ok / (r.durationUs / 1e6)
    return { rate, cpuMs: (cpu * 1000) / Math.max(1, r.ok), ok: r.ok, other: r.received - r.ok, p99: r.latencyMs.p99, idle: (stat1.idle - stat0.idle) / Math.max(1, stat1.total - stat0.total) }
  }

  console.log(`set up in ${((performance.now() - t0) / 1000).toFixed(1)} s (${seeded} guests seeded)`)
  // warm-up: JIT, page cache, the caches of the hot paths
  for (const name of ['baseline', ...PATHS] as const) await runs[name](`warm`, 1)

  const rounds: Round[] = []
  const oneRound = async () => {
    const round = rounds.length
    // enough guests for a fast check-in run, seeded before anything of the round is measured
    seedUpTo(10 + checkinOffset + SECONDS * 12_000)
    const base = await measure('baseline', `b${round}`)
    const m = { baseline: base } as Record<'baseline' | PathName, Measured>
    for (const p of PATHS) m[p] = await measure(p, `r${round}`)
    rounds.push({ ...m, load: load() })
    console.log(
      `round ${round + 1}: baseline ${fmt(base.rate)}/s, ${base.cpuMs.toFixed(3)} ms CPU; ` +
        PATHS.map((p) => `${p} ${fmt(m[p].rate)}/s (ratio ${(m[p].rate / base.rate).toFixed(3)}, ${m[p].cpuMs.toFixed(3)} ms CPU, idle ${(m[p].idle * 100).toFixed(0)} %)`).join('; ') +
        ` — load ${rounds[round].load}`,
    )
  }

  const judge = () => judgeRounds(rounds, recorded)

  for (let i = 0; i < ROUNDS; i++) await oneRound()
  let result = judge()
  // a machine busy with others' work lowers both ratios; more rounds give the best-of a quieter moment
  // (within the time budget) before a failure is reported
  while (PATHS.some((p) => !result[p].pass) && rounds.length < MAX_ROUNDS && (performance.now() - t0) / 1000 + 4 * (SECONDS + 0.3) < BUDGET_S) {
    console.log(`failing so far (${PATHS.filter((p) => !result[p].pass).join(', ')}): one more round`)
    await oneRound()
    result = judge()
  }

  console.log(`\n${rounds.length} rounds of ${SECONDS} s, ${CONNECTIONS} connections, load ${load()}, ${((performance.now() - t0) / 1000).toFixed(1)} s in all`)
  console.log('| path | throughput ratio (best to best) | median of rounds | machine idle | recorded, fails below | CPU ratio (best) | recorded, fails below | |')
  console.log('|---|---:|---:|---:|---:|---:|---:|---|')
  for (const p of PATHS) {
    const r = result[p]
    const f = (x: number) => x.toFixed(3)
    console.log(
      `| ${p} | ${f(r.throughput)}${r.judged ? '' : ' (not judged: busy)'} | ${f(r.median)} | ${(r.idle * 100).toFixed(0)} % | ${f(r.recorded.throughput)}, ${f(r.recorded.throughput * (1 - ALLOWED_DROP))} | ${f(r.cpu)} | ${f(r.recorded.cpu)}, ${f(r.recorded.cpu * (1 - ALLOWED_DROP))} | ${r.pass ? 'PASS' : `FAIL: ${r.why.join('; ')}`} |`,
    )
  }
  writeFileSync(join(resultsDir(), `guard-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify({ date: new Date().toISOString(), short: SHORT, rounds, result }, null, 2))
  if (flag('update')) {
    const down = (x: number) => Math.floor(x * 1000) / 1000
    const next: Recorded = { ...recorded, ratios: Object.fromEntries(PATHS.map((p) => [p, { throughput: result[p].judged ? down(result[p].throughput) : recorded.ratios[p].throughput, cpu: down(result[p].cpu) }])) as Recorded['ratios'] }
    writeFileSync(GUARD_FILE, `${JSON.stringify(next, null, 2)}\n`)
    console.log(`bench/guard.json updated: ${JSON.stringify(next.ratios)}`)
  }
  // a failure while the machine was overloaded in every round is inconclusive (guard-judge.ts): at load
  // 20-26 on two cores einlass needed 3-4 times its usual CPU per request, the baseline 1.5 times
  const verdict = verdictOf(result, rounds, navigator.hardwareConcurrency, flag('strict'))
  failed = verdict === 'FAIL'
  const quietest = Math.min(...rounds.map((r) => Number(r.load.split(' ')[0]))) / navigator.hardwareConcurrency
  if (verdict === 'INCONCLUSIVE') {
    console.error(
      `\nperformance guard INCONCLUSIVE: below the records, but the machine was overloaded in every round (load ${(quietest * navigator.hardwareConcurrency).toFixed(1)} on ${navigator.hardwareConcurrency} cores at the quietest; ` +
        `judged up to ${OVERLOAD} per core). Not counted as a failure; run \`npm run bench:guard\` again on a quieter machine (--strict fails here too).`,
    )
  } else if (failed)
    console.error(
      `\nperformance guard FAILED: a ratio to the raw baseline dropped more than ${ALLOWED_DROP * 100} % below bench/guard.json. ` +
        'Find what made the path slower (bench/profile-summary.ts, the query counts); change the record only on purpose (--update) and say why.',
    )
  else console.log('\nperformance guard passed')
} finally {
  await s?.stop()
  await stop(baseline)
  rmSync(dir, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
