// The UI's upload queue and client checks (ui/shared/upload; agency-side.md 2.9 and 8): one file at
// a time, the first 200 ms after it was added, progress 0–100, results, abort while waiting or
// uploading; the size, extension and pixel rules and the shrink targets.
import { expect, test } from 'bun:test'
import { checkFile, checkPixels, shrinkTarget } from '../../../ui/shared/upload/checks'
import { QUEUE_START_DELAY_MS, type SendArgs, UploadQueue } from '../../../ui/shared/upload/queue'

const file = (name: string, size = 100) => new File([new Uint8Array(size)], name)

function harness() {
  const timers: Array<{ run: () => void; ms: number }> = []
  const calls: Array<SendArgs & { resolve(v: string): void; reject(e: Error): void }> = []
  const done: string[] = []
  const q = new UploadQueue<string>({
    schedule: (run, ms) => timers.push({ run, ms }),
    send: (a) => new Promise((resolve, reject) => calls.push({ ...a, resolve, reject })),
    onDone: (e) => void done.push(e.file.name),
    uploadType: 'EVENT',
    crypted: false,
  })
  return { q, timers, calls, done }
}
const tick = () => new Promise((r) => setTimeout(r, 0))

test('nothing starts before 200 ms; then one at a time in order, with progress and results', async () => {
  const { q, timers, calls, done } = harness()
  q.add([file('a.png'), file('b.png')])
  q.add([file('c.png')])
  expect(timers.map((t) => t.ms)).toEqual([QUEUE_START_DELAY_MS])
  expect(QUEUE_START_DELAY_MS).toBe(200)
  expect(calls).toHaveLength(0)
  expect(q.entries.map((e) => [e.status, e.uploadType, e.crypted])).toEqual([['waiting', 'EVENT', false], ['waiting', 'EVENT', false], ['waiting', 'EVENT', false]])
  timers[0].run()
  await tick()
  expect(calls.map((c) => c.file.name)).toEqual(['a.png'])
  calls[0].onProgress(41.6)
  expect(q.entries[0]).toMatchObject({ status: 'uploading', progress: 42 })
  calls[0].onProgress(140)
  expect(q.entries[0].progress).toBe(100)
  calls[0].resolve('asset-a')
  await tick()
  expect(q.entries[0]).toMatchObject({ status: 'done', progress: 100, result: 'asset-a' })
  expect(calls.map((c) => c.file.name)).toEqual(['a.png', 'b.png'])
  calls[1].reject(new Error('Die Datei ist zu klein (mindestens 10 Byte).'))
  await tick()
  expect(q.entries[1]).toMatchObject({ status: 'error', error: 'Die Datei ist zu klein (mindestens 10 Byte).' })
  calls[2].resolve('asset-c')
  await tick()
  expect(done).toEqual(['a.png', 'c.png'])
  // a file added after the run ended waits 200 ms again
  q.add([file('d.png')])
  expect(timers).toHaveLength(2)
})

test('abort: an uploading entry stops its request; a waiting one is skipped; finished ones stay', async () => {
  const { q, timers, calls, done } = harness()
  const [a, b, c] = q.add([file('a.png'), file('b.png'), file('c.png')])
  q.abort(b.id)
  timers[0].run()
  await tick()
  expect(calls[0].signal.aborted).toBe(false)
  q.abort(a.id)
  expect(calls[0].signal.aborted).toBe(true)
  calls[0].reject(new Error('aborted'))
  await tick()
  expect(q.entries.map((e) => e.status)).toEqual(['aborted', 'aborted', 'uploading'])
  expect(calls.map((x) => x.file.name)).toEqual(['a.png', 'c.png'])
  calls[1].resolve('ok')
  await tick()
  q.abort(c.id)
  expect(q.entries[2].status).toBe('done')
  expect(done).toEqual(['c.png'])
  q.clearFinished()
  expect(q.entries).toEqual([])
})

test('client checks: 10 B minimum, 20 MB maximum, extensions per upload type, 12000 px', () => {
  expect(checkFile({ name: 'a.png', size: 9 }, 'EVENT')).toEqual({ code: 'UPLOAD_TOO_SMALL' })
  expect(checkFile({ name: 'a.png', size: 10 }, 'EVENT')).toBeNull()
  expect(checkFile({ name: 'a.png', size: 20 * 1024 * 1024 + 1 }, 'EVENT')).toEqual({ code: 'UPLOAD_TOO_LARGE', mb: 20 })
  expect(checkFile({ name: 'a.png', size: 20 * 1024 * 1024 }, 'EVENT')).toBeNull()
  expect(checkFile({ name: 'plan.pdf', size: 100 }, 'EVENT')).toMatchObject({ code: 'UPLOAD_WRONG_EXTENSION', extensions: 'jpg, jpeg, png, webp, gif' })
  expect(checkFile({ name: 'plan.pdf', size: 100 }, 'DYNAMIC_FILE')).toBeNull()
  expect(checkFile({ name: 'prog.exe', size: 100 }, 'DYNAMIC_FILE')).toMatchObject({ code: 'UPLOAD_WRONG_EXTENSION' })
  expect(checkPixels(12000, 12000)).toBeNull()
  expect(checkPixels(12001, 10)).toEqual({ code: 'IMAGE_TOO_LARGE' })
})

test('shrink: over 2000 px on the longer side; JPEG at 0.75; GIF and small images untouched', () => {
  expect(shrinkTarget(2000, 1500, 'image/jpeg')).toBeNull()
  expect(shrinkTarget(4000, 3000, 'image/jpeg')).toEqual({ width: 2000, height: 1500, type: 'image/jpeg', quality: 0.75 })
  expect(shrinkTarget(1000, 4000, 'image/png')).toEqual({ width: 500, height: 2000, type: 'image/png' })
  expect(shrinkTarget(5000, 5000, 'image/gif')).toBeNull()
})
