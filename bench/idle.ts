// The idle binary: time from process start until /ready answers 200, and resident memory once idle.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../server/testing/process'
import { BINARY, rssMb, start, stop, waitFor } from './lib'

export interface IdleRun {
  readyMs: number
  rssMb: number
}
export interface IdleBench {
  runs: IdleRun[]
  readyMsMedian: number
  readyMsMax: number
  rssMbMedian: number
  rssMbMax: number
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

export async function idleBench(opts: { runs: number; idleS: number }): Promise<IdleBench> {
  const runs: IdleRun[] = []
  for (let i = 0; i < opts.runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'einlass-idle-'))
    const port = await freePort()
    // every run but the first starts on an existing database (the usual restart)
    const t0 = performance.now()
    const p = start([BINARY, 'serve'], { PORT: String(port), EINLASS_HOST: '127.0.0.1', EINLASS_DATA_DIR: dir, EINLASS_LOG_LEVEL: 'warn' }, dir)
    try {
      await waitFor(`http://127.0.0.1:${port}/ready`, 10_000, 2)
      const readyMs = Math.round(performance.now() - t0)
      await Bun.sleep(opts.idleS * 1000)
      runs.push({ readyMs, rssMb: rssMb(p.pid!) })
    } finally {
      await stop(p)
      rmSync(dir, { recursive: true, force: true })
    }
  }
  const ready = runs.map((r) => r.readyMs)
  const rss = runs.map((r) => r.rssMb)
  return { runs, readyMsMedian: median(ready), readyMsMax: Math.max(...ready), rssMbMedian: median(rss), rssMbMax: Math.max(...rss) }
}
