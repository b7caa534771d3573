// WAL checkpoints on a worker thread with its own connection.
// Why: the automatic checkpoint is off (database.ts) so no commit pays for one. Run on the main
// thread, the passive checkpoint each second copied the last second's WAL into the database file
// and synced it there: 35–45 ms during the forms bench, in which the event loop answered nothing —
// the largest part of the registrations' p99. A PASSIVE checkpoint on a second connection runs
// beside the writer (it copies only frames no reader still needs and never waits), so it moves to a
// worker and the server's thread never blocks on it.
// The worker is made from a Blob so the compiled binary needs no second entry point. It starts with
// the first write to checkpoint (an idle server does not carry its ~5 MB).
import type { Database } from 'bun:sqlite'

const WORKER_SOURCE = `
import { Database } from 'bun:sqlite'
let db = null
let failures = 0
function checkpoint() {
  try {
    const r = db.query('pragma wal_checkpoint(PASSIVE)').get()
    failures = 0
    return r
  } catch (e) {
    // another checkpoint in progress or the file briefly locked: the next turn tries again
    if (++failures === 10) postMessage({ type: 'error', message: String(e && e.message || e) })
    return null
  }
}
self.onmessage = (e) => {
  const m = e.data
  if (m.type === 'open') {
    db = new Database(m.path, { readwrite: true, create: false })
    db.exec('pragma busy_timeout = 1000')
    postMessage({ type: 'opened' })
  } else if (m.type === 'now') {
    postMessage({ type: 'done', id: m.id, result: checkpoint() })
  } else if (m.type === 'restart') {
    // only while the main connection writes nothing (the driver holds it): the whole WAL is copied,
    // and a write of one unchanged header field starts the WAL over here, so the WAL header's sync
    // that goes with it happens on this thread, not in the server's next commit
    const result = checkpoint()
    if (result && result.checkpointed === result.log) {
      try {
        const v = db.query('pragma user_version').get().user_version
        db.exec('begin immediate')
        db.exec('pragma user_version = ' + Number(v))
        db.exec('commit')
      } catch (e) {
        try { db.exec('rollback') } catch {}
      }
    }
    postMessage({ type: 'done', id: m.id, result })
  } else if (m.type === 'close') {
    try { db && db.close() } catch {}
    db = null
    postMessage({ type: 'closed' })
  }
}
`

export interface CheckpointResult {
  busy: number
  log: number
  checkpointed: number
}

export interface Checkpointer {
  /** a passive checkpoint on the worker, answered when done; null when it failed or the worker is gone */
  now(): Promise<CheckpointResult | null>
  /**
   * Only while no transaction can commit on the main connection (driver.quiet): copies the whole WAL
   * and starts it over with a one-frame write, so the next commit appends without syncing a new header.
   */
  restart(): Promise<CheckpointResult | null>
  /** the worker has stopped: checkpoints must run elsewhere */
  readonly broken: boolean
  close(): Promise<void>
}

export async function startCheckpointer(path: string, onError: (message: string) => void): Promise<Checkpointer> {
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'application/javascript' }))
  const worker = new Worker(url, { smol: true } as WorkerOptions)
  const waiting = new Map<number, (r: CheckpointResult | null) => void>()
  let closed: (() => void) | null = null
  let nextId = 0
  /** the worker failed: every waiting and later call answers null (the caller checkpoints itself) */
  let broken = false
  const breakDown = () => {
    broken = true
    for (const resolve of waiting.values()) resolve(null)
    waiting.clear()
  }
  const opened = new Promise<void>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent) => {
      const m = e.data
      if (m.type === 'opened') resolve()
      else if (m.type === 'done') {
        waiting.get(m.id)?.(m.result)
        waiting.delete(m.id)
      } else if (m.type === 'error') onError(m.message)
      else if (m.type === 'closed') closed?.()
    }
    worker.onerror = (e) => {
      onError(String((e as ErrorEvent).message ?? e))
      breakDown()
      reject(e)
    }
    worker.addEventListener('close', breakDown)
  })
  worker.postMessage({ type: 'open', path })
  try {
    await opened
  } finally {
    URL.revokeObjectURL(url)
  }
  const call = (type: 'now' | 'restart'): Promise<CheckpointResult | null> => {
    if (broken) return Promise.resolve(null)
    const id = ++nextId
    return new Promise((resolve) => {
      waiting.set(id, resolve)
      worker.postMessage({ type, id })
    })
  }
  // the worker must not keep the process alive on its own (commands such as `migrate` end)
  ;(worker as Worker & { unref(): void }).unref()
  return {
    now() {
      return call('now')
    },
    restart() {
      return call('restart')
    },
    get broken() {
      return broken
    },
    async close() {
      const done = new Promise<void>((resolve) => (closed = resolve))
      worker.postMessage({ type: 'close' })
      await Promise.race([done, Bun.sleep(2000)])
      worker.terminate()
    },
  }
}

/** A database opened from a file (not `:memory:`) can be checkpointed from a second connection. */
export const checkpointable = (raw: Database) => raw.filename !== '' && raw.filename !== ':memory:'
