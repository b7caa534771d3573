// The upload queue (agency-side.md 2.9 and 3 "Upload queue entry", docs/media.md): files wait in
// order and go one at a time, the first starting 200 ms after it was added; each entry carries its
// progress 0–100 and its result, and can be aborted while it waits or uploads. Pure: the sender and
// the timer are handed in (tested in server/modules/media/upload-queue.test.ts).

export const QUEUE_START_DELAY_MS = 200

export type EntryStatus = 'waiting' | 'uploading' | 'done' | 'error' | 'aborted'

export interface QueueEntry<R> {
  id: number
  file: File
  /** the spec's entry fields: crypted (secure), uploadType, storeOwnMedia */
  crypted: boolean
  uploadType: UploadType
  storeOwnMedia: boolean
  status: EntryStatus
  /** 0 to 100 */
  progress: number
  result: R | null
  error: string | null
}

export type UploadType = 'USER' | 'EVENT' | 'LOGO' | 'BG' | 'DYNAMIC_FILE' | 'EVENT_GUEST'

export interface SendArgs {
  file: File
  crypted: boolean
  uploadType: UploadType
  storeOwnMedia: boolean
  onProgress(percent: number): void
  signal: AbortSignal
}

export interface QueueOptions<R> {
  /** prepares (checks, shrinks) and uploads one file; throws an Error whose message is shown */
  send(args: SendArgs): Promise<R>
  /** called when an entry is done (the target registers the upload, e.g. a gallery entry) */
  onDone?(entry: QueueEntry<R>): void | Promise<void>
  onError?(entry: QueueEntry<R>, error: unknown): void
  onChange?(entries: ReadonlyArray<QueueEntry<R>>): void
  schedule?(run: () => void, ms: number): unknown
  /** default DYNAMIC_FILE, encrypted (agency-side.md 8) */
  uploadType?: UploadType
  crypted?: boolean
  storeOwnMedia?: boolean
}

export class UploadQueue<R> {
  private seq = 0
  private list: QueueEntry<R>[] = []
  private running = false
  private scheduled = false
  private controllers = new Map<number, AbortController>()

  constructor(private readonly opts: QueueOptions<R>) {}

  get entries(): ReadonlyArray<QueueEntry<R>> {
    return this.list
  }

  /** Adds files; the run starts 200 ms after the first waiting file was added. */
  add(files: Iterable<File>): QueueEntry<R>[] {
    const added = [...files].map(
      (file): QueueEntry<R> => ({
        id: ++this.seq,
        file,
        crypted: this.opts.crypted ?? true,
        uploadType: this.opts.uploadType ?? 'DYNAMIC_FILE',
        storeOwnMedia: this.opts.storeOwnMedia ?? false,
        status: 'waiting',
        progress: 0,
        result: null,
        error: null,
      }),
    )
    if (!added.length) return added
    this.list = [...this.list, ...added]
    this.changed()
    if (!this.running && !this.scheduled) {
      this.scheduled = true
      ;(this.opts.schedule ?? ((f, ms) => setTimeout(f, ms)))(() => {
        this.scheduled = false
        void this.run()
      }, QUEUE_START_DELAY_MS)
    }
    return added
  }

  /** Aborts a waiting or uploading entry (a finished one stays as it is). */
  abort(id: number) {
    const e = this.list.find((x) => x.id === id)
    if (!e || (e.status !== 'waiting' && e.status !== 'uploading')) return
    this.controllers.get(id)?.abort()
    this.update(id, { status: 'aborted' })
  }

  /** Drops the finished entries from the list. */
  clearFinished() {
    this.list = this.list.filter((e) => e.status === 'waiting' || e.status === 'uploading')
    this.changed()
  }

  private async run() {
    if (this.running) return
    this.running = true
    try {
      for (;;) {
        const next = this.list.find((e) => e.status === 'waiting')
        if (!next) break
        await this.one(next.id)
      }
    } finally {
      this.running = false
    }
  }

  private async one(id: number) {
    const ctl = new AbortController()
    this.controllers.set(id, ctl)
    const entry = this.list.find((e) => e.id === id)!
    this.update(id, { status: 'uploading', progress: 0 })
    try {
      const result = await this.opts.send({
        file: entry.file,
        crypted: entry.crypted,
        uploadType: entry.uploadType,
        storeOwnMedia: entry.storeOwnMedia,
        signal: ctl.signal,
        onProgress: (p) => {
          if (!ctl.signal.aborted) this.update(id, { progress: Math.max(0, Math.min(100, Math.round(p))) })
        },
      })
      if (ctl.signal.aborted) return
      this.update(id, { status: 'done', progress: 100, result })
      await this.opts.onDone?.(this.list.find((e) => e.id === id)!)
    } catch (err) {
      if (ctl.signal.aborted) return
      this.update(id, { status: 'error', error: err instanceof Error ? err.message : String(err) })
      this.opts.onError?.(this.list.find((e) => e.id === id)!, err)
    } finally {
      this.controllers.delete(id)
    }
  }

  private update(id: number, patch: Partial<QueueEntry<R>>) {
    this.list = this.list.map((e) => (e.id === id ? { ...e, ...patch } : e))
    this.changed()
  }

  private changed() {
    this.opts.onChange?.(this.list)
  }
}
