// Where uploaded files live: one interface, two places (docs/operations.md "Storage").
//   file:            the uploads folder in the data dir (the default, one machine)
//   s3://bucket/pfx  S3-compatible object storage through Bun.s3 (several processes see the same files)
// Keys are flat names (`<random>.<ext>[.enc][.<side>]`); what is stored is already encrypted by the
// caller where it must be (assets/service.ts): the bucket never sees a plain secure upload.
// A storage that cannot be reached answers StorageUnavailable; the HTTP layer turns it into
// 503 STORAGE_UNAVAILABLE (assets/service.ts), the commands into one line and exit code 1.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Config, StorageTarget } from '../config/config'

export class StorageUnavailable extends Error {}

export interface StoredObject {
  key: string
  size: number
}

export type StorageData = Uint8Array | Blob

export interface ObjectStorage {
  readonly kind: 'file' | 's3'
  /** `file:/abs/dir` or `s3://bucket/prefix/`, for logs and messages (never a key) */
  readonly location: string
  /** writes the whole object or nothing (file: a temporary name renamed into place) */
  write(key: string, data: StorageData): Promise<number>
  /** the bytes, or null when there is no such object */
  read(key: string): Promise<Uint8Array | null>
  /** the bytes as a stream (nothing held in memory beyond a chunk), or null when there is none */
  stream(key: string): Promise<ReadableStream<Uint8Array> | null>
  /** the object's size, or null when there is none */
  size(key: string): Promise<number | null>
  /** removes the object; a missing one is no error */
  delete(key: string): Promise<void>
  /** every object, in no particular order */
  list(): AsyncIterable<StoredObject>
  /** reaches the storage and proves it may write, read and delete there (start-up check) */
  check(): Promise<void>
}

const tmpSuffix = () => `.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`

export class FileStorage implements ObjectStorage {
  readonly kind = 'file' as const
  readonly location: string
  constructor(readonly dir: string) {
    this.location = `file:${dir}`
  }
  private path(key: string) {
    if (!key || key.includes('/') || key.includes('\\') || key.startsWith('.')) throw new Error(`invalid storage key "${key}"`)
    return join(this.dir, key)
  }
  async write(key: string, data: StorageData): Promise<number> {
    const to = this.path(key)
    mkdirSync(this.dir, { recursive: true })
    const tmp = to + tmpSuffix()
    try {
      const n = await Bun.write(tmp, data)
      await rename(tmp, to)
      return n
    } catch (e) {
      await rm(tmp, { force: true })
      throw e
    }
  }
  async read(key: string): Promise<Uint8Array | null> {
    const f = Bun.file(this.path(key))
    if (!(await f.exists())) return null
    return new Uint8Array(await f.arrayBuffer())
  }
  async stream(key: string): Promise<ReadableStream<Uint8Array> | null> {
    const f = Bun.file(this.path(key))
    return (await f.exists()) ? f.stream() : null
  }
  async size(key: string): Promise<number | null> {
    const f = Bun.file(this.path(key))
    return (await f.exists()) ? f.size : null
  }
  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true })
  }
  async *list(): AsyncIterable<StoredObject> {
    if (!existsSync(this.dir)) return
    for (const e of readdirSync(this.dir, { withFileTypes: true })) {
      if (!e.isFile() || e.name.includes('.tmp-')) continue
      yield { key: e.name, size: statSync(join(this.dir, e.name)).size }
    }
  }
  async check(): Promise<void> {
    try {
      mkdirSync(this.dir, { recursive: true })
      const probe = join(this.dir, `.probe${tmpSuffix()}`)
      await Bun.write(probe, 'ok')
      await rm(probe, { force: true })
    } catch (e) {
      throw new StorageUnavailable(`${this.location}: ${(e as Error).message}`)
    }
  }
}

export interface S3Settings {
  bucket: string
  prefix: string
  endpoint?: string | null
  region?: string | null
  accessKeyId?: string | null
  secretAccessKey?: string | null
  virtualHostedStyle?: boolean
}

/** S3 error codes that mean "no such object" rather than "storage not reachable". */
const isMissing = (e: unknown) => (e as { code?: string })?.code === 'NoSuchKey' || (e as { code?: string })?.code === 'ENOENT'

/** Objects above this go up in parts (Bun's writer), so a large one never needs one request body. */
const PART_SIZE = 8 * 1024 * 1024

export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const
  readonly location: string
  readonly client: Bun.S3Client
  constructor(readonly settings: S3Settings) {
    this.location = `s3://${settings.bucket}/${settings.prefix}`
    this.client = new Bun.S3Client({
      bucket: settings.bucket,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.region ? { region: settings.region } : {}),
      ...(settings.accessKeyId ? { accessKeyId: settings.accessKeyId } : {}),
      ...(settings.secretAccessKey ? { secretAccessKey: settings.secretAccessKey } : {}),
      virtualHostedStyle: settings.virtualHostedStyle ?? false,
    })
  }
  private fail(op: string, e: unknown): never {
    const code = (e as { code?: string })?.code
    throw new StorageUnavailable(`${this.location}: ${op} failed: ${code ? `${code}: ` : ''}${(e as Error)?.message ?? e}`)
  }
  private file(key: string) {
    if (!key || key.includes('/')) throw new Error(`invalid storage key "${key}"`)
    return this.client.file(this.settings.prefix + key)
  }
  async write(key: string, data: StorageData): Promise<number> {
    const size = data instanceof Blob ? data.size : data.byteLength
    try {
      // a PUT of the whole object is atomic; a multipart upload becomes visible only when completed
      if (size <= PART_SIZE) return await this.file(key).write(data)
      await this.file(key).write(data, { partSize: PART_SIZE } as never)
      return size
    } catch (e) {
      this.fail('write', e)
    }
  }
  async read(key: string): Promise<Uint8Array | null> {
    try {
      return new Uint8Array(await this.file(key).arrayBuffer())
    } catch (e) {
      if (isMissing(e)) return null
      this.fail('read', e)
    }
  }
  async stream(key: string): Promise<ReadableStream<Uint8Array> | null> {
    // ask for the object's size first: a missing object is a 404, not a broken stream mid-answer
    if ((await this.size(key)) === null) return null
    return this.file(key).stream()
  }
  async size(key: string): Promise<number | null> {
    try {
      return (await this.file(key).stat()).size
    } catch (e) {
      if (isMissing(e) || (e as { code?: string })?.code === 'NotFound') return null
      this.fail('stat', e)
    }
  }
  async delete(key: string): Promise<void> {
    try {
      await this.file(key).delete()
    } catch (e) {
      if (isMissing(e)) return
      this.fail('delete', e)
    }
  }
  async *list(): AsyncIterable<StoredObject> {
    let continuationToken: string | undefined
    for (;;) {
      let page: Awaited<ReturnType<Bun.S3Client['list']>>
      try {
        page = await this.client.list({ prefix: this.settings.prefix || undefined, continuationToken })
      } catch (e) {
        this.fail('list', e)
      }
      for (const o of page.contents ?? []) {
        const key = o.key.slice(this.settings.prefix.length)
        if (key && !key.includes('/') && !key.startsWith('.probe')) yield { key, size: o.size ?? 0 }
      }
      if (!page.isTruncated || !page.nextContinuationToken) return
      continuationToken = page.nextContinuationToken
    }
  }
  async check(): Promise<void> {
    const probe = `.probe${tmpSuffix()}`
    try {
      await this.file(probe).write('ok')
      const back = await this.file(probe).text()
      await this.file(probe).delete()
      if (back !== 'ok') throw new Error('an object written could not be read back')
    } catch (e) {
      this.fail('the start-up check (write, read, delete of a probe object)', e)
    }
  }
}

export function openStorage(target: StorageTarget, config?: Pick<Config, 'storage'>): ObjectStorage {
  if (target.kind === 'file') return new FileStorage(target.dir)
  const s = config?.storage
  return new S3Storage({
    bucket: target.bucket,
    prefix: target.prefix,
    endpoint: s?.endpoint,
    region: s?.region,
    accessKeyId: s?.access_key_id,
    secretAccessKey: s?.secret_access_key,
    virtualHostedStyle: s?.virtual_hosted_style,
  })
}

/** The storage a configuration names. */
export const storageOf = (config: Config) => openStorage(config.storageTarget, config)

/** SHA-256 of a stream, read chunk by chunk. */
export async function sha256Of(stream: ReadableStream<Uint8Array>): Promise<string> {
  const h = createHash('sha256')
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) h.update(chunk)
  return h.digest('hex')
}

export const ensureDir = (file: string) => mkdirSync(dirname(file), { recursive: true })
