// `einlass storage migrate --to s3|file`: copies every upload object between the data dir's uploads
// folder and the bucket of EINLASS_STORAGE_URL (docs/operations.md "Storage").
//   --to s3    from <dataDir>/uploads (or the file: path given with --from) into the configured bucket
//   --to file  from the configured bucket into <dataDir>/uploads
// Each object is streamed (never whole in memory), then read back from the target and its SHA-256
// compared with the source's. Resumable: an object the target already holds with the same size and
// checksum is skipped, so a run that broke off is simply run again. The source is never changed;
// the server may keep running (a new upload during the run lands where the server writes; run the
// command again after switching EINLASS_STORAGE_URL to pick up what came meanwhile).
import type { Config } from '../config/config'
import { type ObjectStorage, FileStorage, S3Storage, StorageUnavailable, openStorage, sha256Of } from '../storage/storage'
import { OpsError } from './backup'

export interface MigrateResult {
  copied: number
  skipped: number
  bytes: number
}

async function hashOf(storage: ObjectStorage, key: string): Promise<string | null> {
  const s = await storage.stream(key)
  return s ? sha256Of(s) : null
}

/**
 * The target's checksum after a write, read again a few times before it counts as different: some
 * S3-compatible servers answer a read right after an overwrite with the object still being written
 * (s3rver does; docs/dependencies.md), and eventually consistent ones with the old version.
 */
async function verified(to: ObjectStorage, key: string, expected: string): Promise<string | null> {
  let got: string | null = null
  for (let attempt = 0; attempt < 5; attempt++) {
    if (attempt) await Bun.sleep(200 * attempt)
    got = await hashOf(to, key)
    if (got === expected) return got
  }
  return got
}

/** Copies every object of `from` that `to` lacks (or holds differently), verifying each. */
export async function copyObjects(from: ObjectStorage, to: ObjectStorage, onProgress?: (key: string, what: 'copied' | 'skipped') => void): Promise<MigrateResult> {
  const result: MigrateResult = { copied: 0, skipped: 0, bytes: 0 }
  for await (const o of from.list()) {
    const source = await hashOf(from, o.key)
    if (source === null) continue // deleted since the listing (an expired upload): nothing to copy
    const there = await to.size(o.key)
    if (there === o.size && (await hashOf(to, o.key)) === source) {
      result.skipped++
      onProgress?.(o.key, 'skipped')
      continue
    }
    await to.write(o.key, await blobOf(from, o.key))
    const copied = await verified(to, o.key, source)
    if (copied !== source) throw new OpsError(`einlass: storage migrate: ${o.key} differs after copying (SHA-256 ${copied} instead of ${source}); nothing was deleted, run the command again`)
    result.copied++
    result.bytes += o.size
    onProgress?.(o.key, 'copied')
  }
  return result
}

/** The source object as a Blob that streams when written (a file, or an S3 object): not read into memory. */
async function blobOf(from: ObjectStorage, key: string): Promise<Blob> {
  if (from instanceof FileStorage) return Bun.file(`${from.dir}/${key}`)
  if (from instanceof S3Storage) return from.client.file(from.settings.prefix + key)
  const bytes = await from.read(key)
  if (!bytes) throw new OpsError(`einlass: storage migrate: ${key} vanished while copying; run the command again`)
  return new Blob([bytes as BlobPart])
}

export async function storageMigrate(config: Config, to: string | undefined, fromDir?: string): Promise<string> {
  if (to !== 's3' && to !== 'file') throw new OpsError('einlass: usage: einlass storage migrate --to s3|file', 2)
  const target = config.storageTarget
  if (target.kind !== 's3') throw new OpsError(`einlass: storage migrate needs the bucket in EINLASS_STORAGE_URL (s3://bucket/prefix); it is ${config.storage.url}`, 2)
  const bucket = openStorage(target, config)
  const folder = new FileStorage(fromDir ?? `${config.dataDir}/uploads`)
  const [from, into] = to === 's3' ? [folder, bucket] : [bucket, folder]
  try {
    await into.check()
    const r = await copyObjects(from, into)
    return `storage migrate: ${r.copied} objects copied (${r.bytes} bytes), ${r.skipped} already there and verified; from ${from.location} to ${into.location}`
  } catch (e) {
    if (e instanceof StorageUnavailable) throw new OpsError(`einlass: storage error: ${e.message}`)
    throw e
  }
}
