// A license installed while einlass runs is in force on every process within seconds, without a
// restart (docs/operations.md "License"): each process looks every few seconds at where a license
// can come from — the row `einlass license install` writes on Postgres (one primary-key read), the
// configured file or the data dir's license.json (a stat) — and takes the license anew when one of
// them changed. It also takes it anew every ten minutes, so a license that expires ends on time.
// Polling rather than LISTEN/NOTIFY: LISTEN needs a session of its own, which a pgbouncer in
// transaction pooling does not give.
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { resolveLicense } from './bootstrap'
import type { AppContext } from './context'
import { storedLicense } from './install-state'

export const LICENSE_POLL_MS = 3_000
const REFRESH_MS = 10 * 60_000

function fileMark(path: string | null): string {
  if (!path) return '-'
  try {
    const s = statSync(path)
    return `${s.size}:${s.mtimeMs}`
  } catch {
    return 'missing'
  }
}

/** Starts watching; answers a function that stops it. */
export function watchLicense(ctx: AppContext, opts: { intervalMs?: number } = {}): () => void {
  const { config, log } = ctx
  const files = [config.license.file, join(config.dataDir, 'license.json')]
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | null = null
  let last: string | null = null
  let takenAt = Date.now()
  const look = async () => {
    const stored = ctx.dialect === 'postgres' ? await storedLicense(ctx.db) : null
    const mark = JSON.stringify([stored, ...files.map(fileMark)])
    if (last === null) last = mark // the start: bootstrap took the license already
    if (mark === last && Date.now() - takenAt < REFRESH_MS) return
    const changed = mark !== last
    last = mark
    takenAt = Date.now()
    const next = resolveLicense(config, changed ? log : { ...log, info() {}, warn() {} }, undefined, undefined, stored)
    const before = ctx.license
    if (JSON.stringify(next) === JSON.stringify(before)) return
    ctx.license = next
    log.info('license changed', { edition: next.edition, licensee: next.licensee, validUntil: next.validUntil, was: before.edition === 'licensed' ? before.licensee : before.edition })
  }
  const schedule = () => {
    if (stopped) return
    timer = setTimeout(async () => {
      try {
        await look()
      } catch (e) {
        log.debug('license check failed', { error: String(e) })
      }
      schedule()
    }, opts.intervalMs ?? LICENSE_POLL_MS)
    timer.unref?.()
  }
  void look().catch(() => {})
  schedule()
  return () => {
    stopped = true
    if (timer) clearTimeout(timer)
  }
}
