// einlass benchmarks (figures go to docs/benchmarks.md).
//   npm run bench                       every benchmark below (builds dist/einlass when missing)
//   npm run bench -- --only registration|idle|startup|memory   [--rebuild] [--duration 10] [--connections 64]
//                                       [--registrations 100000] (memory)
// Results are printed as a table and written to bench/.results/<date>.json. Exits 1 when a target
// is missed or a consistency check fails.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseFlags } from '../server/config/config'
import { idleBench } from './idle'
import { ensureBinary, resultsDir } from './lib'
import { memoryBench, printMemory } from './memory'
import { registrationBench } from './registration'
import { printStartup, startupBench, startupMisses } from './startup'

const TARGETS = { registrationsPerSecond: 2000, ratio: 0.2, readyMs: 500, rssMb: 100 }

const { flags } = parseFlags(process.argv.slice(2))
const only = flags.get('--only')
const durationS = Number(flags.get('--duration') ?? 10)
const connections = Number(flags.get('--connections') ?? 64)
ensureBinary(flags.has('--rebuild'))

const out: Record<string, unknown> = { date: new Date().toISOString(), cpus: navigator.hardwareConcurrency, bun: Bun.version, targets: TARGETS }
const misses: string[] = []

if (!only || only === 'registration') {
  const r = await registrationBench({ connections, durationS, warmupS: 3 })
  out.registration = r
  console.log(`\nPublic registration storm, ${connections} connections, ${durationS} s, SQLite`)
  console.log('| server | registrations/s | p50 ms | p99 ms | server CPU ms per registration | 201 | other answers |')
  console.log('|---|---:|---:|---:|---:|---:|---|')
  for (const [name, s] of [['einlass (compiled binary)', r.einlass], ['Bun + bun:sqlite baseline', r.baseline]] as const) {
    const other = Object.entries(s.statusCounts).filter(([c]) => c !== '201').map(([c, n]) => `${c}: ${n}`).join(', ') || '–'
    console.log(`| ${name} | ${s.createdPerSecond} | ${s.latencyP50} | ${s.latencyP99} | ${s.cpuMsPerRegistration ?? '–'} | ${s.created} | ${other}${s.errors ? `, errors: ${s.errors}` : ''} |`)
  }
  console.log(`ratio einlass / baseline: ${r.ratio} (registrations/s), ${r.cpuRatio} (CPU per registration)`)
  console.log(`capacity check: ${r.capacityCheck.created} of ${r.capacityCheck.capacity} places taken, seats_taken ${r.capacityCheck.seatsTaken}, ${r.capacityCheck.refusedFull} refused as full`)
  for (const c of r.checks) console.log(`check: ${c}`)
  if (r.einlass.createdPerSecond < TARGETS.registrationsPerSecond) misses.push(`registrations/s ${r.einlass.createdPerSecond} < ${TARGETS.registrationsPerSecond}`)
  if (r.ratio < TARGETS.ratio) misses.push(`ratio ${r.ratio} < ${TARGETS.ratio}`)
}

if (!only || only === 'idle') {
  const r = await idleBench({ runs: 5, idleS: 2 })
  out.idle = r
  console.log('\nIdle binary (5 starts, fresh data dir each)')
  console.log(`ready after start: median ${r.readyMsMedian} ms, max ${r.readyMsMax} ms`)
  console.log(`resident memory when idle: median ${r.rssMbMedian} MB, max ${r.rssMbMax} MB`)
  if (r.readyMsMax >= TARGETS.readyMs) misses.push(`ready ${r.readyMsMax} ms >= ${TARGETS.readyMs}`)
  if (r.rssMbMax >= TARGETS.rssMb) misses.push(`memory ${r.rssMbMax} MB >= ${TARGETS.rssMb}`)
}

if (!only || only === 'startup') {
  const r = await startupBench({ runs: 5, idleS: 2 })
  out.startup = r
  printStartup(r)
  misses.push(...startupMisses(r))
}

if (!only || only === 'memory') {
  const r = await memoryBench({ registrations: Number(flags.get('--registrations') ?? 100_000), exportGuests: 10_000 })
  out.memory = r
  printMemory(r)
  if (!r.ok) misses.push(`memory after the run ${r.ratio} × the warmed-up value`)
}

const file = join(resultsDir(), `${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
writeFileSync(file, JSON.stringify(out, null, 2))
console.log(`\nresults: ${file}`)
if (misses.length) {
  console.error(`targets missed: ${misses.join('; ')}`)
  process.exit(1)
}
console.log('all targets met')
