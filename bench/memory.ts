// Memory of the compiled binary under work (issue 25): no leak. The server is warmed up (registrations
// and a guest export, so every code path in question is loaded and its caches are filled), its resident
// memory read once it has settled; then N registrations (100,000 by default) and an export of a
// 10,000-guest list; the resident memory must come back under 1.3 × the warmed-up value within a
// minute. A ratio to the process's own warmed-up value, not an absolute figure, so a loaded machine
// makes the run slower, not red; a leak grows with N and stays.
//   bun bench/memory.ts [--binary dist/einlass] [--registrations 100000] [--export-guests 10000]
//   npm run bench -- --only memory
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { freePort } from '../server/testing/process'
import { BINARY, rssMb, start, stop, waitFor } from './lib'

export const MEMORY_LIMIT_RATIO = 1.3

export interface MemoryBench {
  binary: string
  registrations: number
  exportGuests: number
  warmRssMb: number
  peakRssMb: number
  /** resident memory each second after the work ended, until it was under the limit or 60 s passed */
  afterRssMb: number[]
  settledRssMb: number
  ratio: number
  ok: boolean
  registrationsPerSecond: number
  exportBytes: number
  load: number[]
}

async function setupServer(binary: string, dataDir: string) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const proc = start([binary, 'serve'], { PORT: String(port), EINLASS_HOST: '127.0.0.1', EINLASS_DATA_DIR: dataDir, EINLASS_BASE_URL: url, EINLASS_LOG_LEVEL: 'warn' }, dataDir)
  await waitFor(`${url}/ready`)
  const post = (path: string, body: unknown, cookie?: string) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) })
  const setup = await post('/proxy/api/setup', { agencyName: 'Bench GmbH', email: 'bench@example.org', password: 'Geheim123!', firstName: 'B', lastName: 'B' })
  if (setup.status !== 200) throw new Error(`setup failed: ${setup.status} ${await setup.text()}`)
  const cookie = setup.headers.getSetCookie()[0].split(';')[0]
  const event = async (name: string) => {
    const begin = new Date(Date.now() + 30 * 86400_000)
    const r = await post('/proxy/api/events', { displayName: name, startDate: begin.toISOString(), endDate: new Date(begin.getTime() + 3600_000).toISOString(), timezone: 'Europe/Berlin', locationName: 'Halle', maxVisitors: 1_000_000 }, cookie)
    if (r.status !== 201) throw new Error(`event failed: ${r.status} ${await r.text()}`)
    return (await r.json()).id as number
  }
  let n = 0
  /** `count` registrations to the event, `parallel` at a time; throws on any answer but 201 */
  const register = async (eventId: number, count: number, parallel = 16) => {
    let left = count
    const worker = async () => {
      while (left > 0) {
        left--
        const i = ++n
        const r = await post(`/proxy/api/public/events/${eventId}/registrations`, { salutation: 'Frau', firstName: 'Mia', lastName: `Memory ${i}`, email: `mem.${i}@bench.example` })
        if (r.status !== 201) throw new Error(`registration ${i}: ${r.status} ${await r.text()}`)
        await r.arrayBuffer()
      }
    }
    await Promise.all(Array.from({ length: parallel }, worker))
  }
  /** the whole guest list of the event as CSV (streamed by the server); its size in bytes */
  const exportList = async (eventId: number) => {
    const r = await fetch(`${url}/proxy/api/events/${eventId}/visitors/export`, { headers: { cookie } })
    if (r.status !== 200) throw new Error(`export: ${r.status} ${await r.text()}`)
    return (await r.arrayBuffer()).byteLength
  }
  return { proc, event, register, exportList }
}

/** The resident memory once it stops falling (three readings a second apart within 1 MB), at most `maxS`. */
async function settled(pid: number, maxS = 10): Promise<number> {
  const readings: number[] = []
  for (let i = 0; i < maxS; i++) {
    await Bun.sleep(1000)
    readings.push(rssMb(pid))
    const last = readings.slice(-3)
    if (last.length === 3 && Math.max(...last) - Math.min(...last) < 1) break
  }
  return readings[readings.length - 1]
}

export async function memoryBench(opts: { binary?: string; registrations?: number; exportGuests?: number } = {}): Promise<MemoryBench> {
  const binary = resolve(opts.binary ?? BINARY)
  const total = opts.registrations ?? 100_000
  const exportGuests = Math.min(opts.exportGuests ?? 10_000, total)
  const dir = mkdtempSync(join(tmpdir(), 'einlass-memory-'))
  const s = await setupServer(binary, dir)
  const pid = s.proc.pid!
  try {
    // warm-up: every path of the run once, so what is loaded on first use (and the caches) counts in the base
    const warm = await s.event('Warm-up')
    await s.register(warm, 2_000)
    await s.exportList(warm)
    const warmRssMb = await settled(pid)

    const listed = await s.event('Export')
    const other = await s.event('Storm')
    let peak = warmRssMb
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 250)
    const t0 = performance.now()
    await s.register(listed, exportGuests)
    await s.register(other, total - exportGuests)
    const registrationsPerSecond = Math.round(total / ((performance.now() - t0) / 1000))
    const exportBytes = await s.exportList(listed)
    clearInterval(sampler)
    peak = Math.max(peak, rssMb(pid))

    const limit = warmRssMb * MEMORY_LIMIT_RATIO
    const afterRssMb: number[] = []
    for (let i = 0; i < 60; i++) {
      await Bun.sleep(1000)
      afterRssMb.push(rssMb(pid))
      if (afterRssMb[afterRssMb.length - 1] < limit) break
    }
    const settledRssMb = afterRssMb[afterRssMb.length - 1]
    const ratio = Math.round((settledRssMb / warmRssMb) * 100) / 100
    return { binary, registrations: total, exportGuests, warmRssMb, peakRssMb: peak, afterRssMb, settledRssMb, ratio, ok: settledRssMb < limit, registrationsPerSecond, exportBytes, load: loadavg().map((x) => Math.round(x * 100) / 100) }
  } finally {
    await stop(s.proc)
    rmSync(dir, { recursive: true, force: true })
  }
}

export function printMemory(r: MemoryBench) {
  console.log(`\nMemory of ${r.binary}: ${r.registrations} registrations (${r.registrationsPerSecond}/s, 16 at a time) and a ${r.exportGuests}-guest export (${Math.round(r.exportBytes / 1024)} KB); load average ${r.load.join(' ')}`)
  console.log(`warmed up ${r.warmRssMb} MB, peak ${r.peakRssMb} MB, afterwards ${r.settledRssMb} MB after ${r.afterRssMb.length} s (${r.afterRssMb.join(' ')}): ${r.ratio} × the warmed-up value, limit ${MEMORY_LIMIT_RATIO} × → ${r.ok ? 'no leak' : 'GREW'}`)
}

if (import.meta.main) {
  const args = process.argv.slice(2)
  const arg = (name: string) => {
    const i = args.indexOf(name)
    return i >= 0 ? Number(args[i + 1]) : undefined
  }
  const r = await memoryBench({ binary: args.includes('--binary') ? args[args.indexOf('--binary') + 1] : undefined, registrations: arg('--registrations'), exportGuests: arg('--export-guests') })
  printMemory(r)
  if (!r.ok) process.exit(1)
}
