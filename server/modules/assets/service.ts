// Uploads: limits (20 MB, 10 B, 12000 px), images over 2000 px shrunk, files encrypted at rest with
// AES-256-GCM (key ctx.secrets.uploadKey) in ctx.storage (the data dir's uploads folder or an S3
// bucket, server/storage), sized variants made on demand,
// the license's storage limit enforced. Images go through Bun.Image (libjpeg-turbo/libspng/libwebp
// built into Bun, so it works inside the compiled binary) one at a time to bound memory.
import { type DecipherGCM, createCipheriv, createDecipheriv, randomBytes, randomInt } from 'node:crypto'
import type { AppContext } from '../../context'
import { type Db, isUniqueViolation } from '../../db/database'
import { bool, isoNow } from '../../db/types'
import { AppError, notFound } from '../../shared/errors'
import { imageSize } from 'image-size'
import { sql } from 'kysely'
import { clientKey } from '../identity/rate-limit'
import { randomString } from '../identity/tokens'
import { storageUsageBytes } from '../limits/service'
import { StorageUnavailable } from '../../storage/storage'
import type { AssetRow } from './assets.table'

export const UPLOAD_TYPES = ['USER', 'EVENT', 'LOGO', 'BG', 'DYNAMIC_FILE', 'EVENT_GUEST'] as const
export type UploadType = (typeof UPLOAD_TYPES)[number]

export const MIN_BYTES = 10
export const MAX_PIXELS_SIDE = 12000
/**
 * Pixels an upload may have in all (40 megapixels, 160 MB decoded): decoding is what costs memory,
 * and a small PNG declaring 12000 × 12000 px (allowed per side) decoded to 576 MB. Read from the
 * header (image-size) before anything decodes; docs/security.md (Limits and rate limits).
 */
export const MAX_DECODE_PIXELS = 40_000_000
export const SHRINK_ABOVE = 2000
export const JPEG_QUALITY = 75
export const DIMENSIONS = { Regular_400: 400, Regular_1000: 1000, Regular_2000: 2000 } as const
export type Dimension = keyof typeof DIMENSIONS

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp', 'gif']
export const FILE_EXTENSIONS = [...IMAGE_EXTENSIONS, 'pdf', 'txt', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'rtf', 'zip']
const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  rtf: 'application/rtf',
  zip: 'application/zip',
}
/** Upload types that only take images. */
const IMAGE_ONLY: readonly string[] = ['USER', 'EVENT', 'LOGO', 'BG', 'EVENT_GUEST']

export const extensionOf = (name: string) => (/\.([a-z0-9]+)$/i.exec(name)?.[1] ?? '').toLowerCase()
export const isImageName = (name: string) => IMAGE_EXTENSIONS.includes(extensionOf(name))

// ---------------------------------------------------------------------------------------------
// storage

const keyOf = (ctx: AppContext) => Buffer.from(ctx.secrets.uploadKey, 'base64')

/** iv (12) | tag (16) | ciphertext */
export function encrypt(key: Buffer, plain: Uint8Array): Uint8Array {
  const iv = randomBytes(12)
  const c = createCipheriv('aes-256-gcm', key, iv)
  const body = Buffer.concat([c.update(plain), c.final()])
  return Buffer.concat([iv, c.getAuthTag(), body])
}

export function decrypt(key: Buffer, stored: Uint8Array): Uint8Array {
  const buf = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength)
  const d = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12))
  d.setAuthTag(buf.subarray(12, 28))
  return Buffer.concat([d.update(buf.subarray(28)), d.final()])
}

/**
 * The stored form (iv | tag | ciphertext) decrypted as it streams: nothing beyond a chunk in memory.
 * The tag is checked at the end; a file altered at rest ends the stream with an error (the answer
 * breaks off) instead of completing.
 */
export function decryptStream(key: Buffer, stored: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let head: Buffer = Buffer.alloc(0)
  let d: DecipherGCM | null = null
  return stored.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        let rest = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        if (!d) {
          head = Buffer.concat([head, rest])
          if (head.byteLength < 28) return
          d = createDecipheriv('aes-256-gcm', key, head.subarray(0, 12))
          d.setAuthTag(head.subarray(12, 28))
          rest = head.subarray(28)
        }
        if (rest.byteLength) out.enqueue(new Uint8Array(d.update(rest)))
      },
      flush(out) {
        if (!d) throw new Error('stored file too short')
        const last = d.final()
        if (last.byteLength) out.enqueue(new Uint8Array(last))
      },
    }),
  )
}

/** The storage could not be reached: 503 for this request (docs/operations.md "Storage"). */
async function guarded<T>(ctx: AppContext, job: () => Promise<T>): Promise<T> {
  try {
    return await job()
  } catch (e) {
    if (!(e instanceof StorageUnavailable)) throw e
    ctx.log.error('storage unavailable', { error: e.message })
    throw new AppError(503, 'STORAGE_UNAVAILABLE', { detail: e.message })
  }
}

async function writeStored(ctx: AppContext, name: string, bytes: Uint8Array, encrypted: boolean): Promise<number> {
  const data = encrypted ? encrypt(keyOf(ctx), bytes) : bytes
  await guarded(ctx, () => ctx.storage.write(name, data))
  return data.byteLength
}

async function readStored(ctx: AppContext, name: string, encrypted: boolean): Promise<Uint8Array | null> {
  const raw = await guarded(ctx, () => ctx.storage.read(name))
  if (!raw) return null
  return encrypted ? decrypt(keyOf(ctx), raw) : raw
}

/** Every object of an asset: the original and the sized variants made of it. */
export const objectKeysOf = (storageKey: string) => [storageKey, ...Object.values(DIMENSIONS).map((side) => `${storageKey}.${side}`)]

/** Removes an asset's objects (a missing one is no error); safe to repeat. */
export async function deleteObjects(ctx: AppContext, storageKey: string): Promise<void> {
  await guarded(ctx, async () => {
    for (const k of objectKeysOf(storageKey)) await ctx.storage.delete(k)
  })
}

// ---------------------------------------------------------------------------------------------
// images: one pipeline at a time keeps the decoded pixels of at most one picture in memory

let imageQueue: Promise<unknown> = Promise.resolve()
function serial<T>(job: () => Promise<T>): Promise<T> {
  const run = imageQueue.then(job, job)
  imageQueue = run.catch(() => undefined)
  return run
}

interface Prepared {
  bytes: Uint8Array
  mime: string
  ext: string
  width: number | null
  height: number | null
}

/**
 * The dimensions the file's header declares, refused above 12000 px per side or MAX_DECODE_PIXELS in
 * all, before any decoder allocates the canvas (an image bomb is a few bytes declaring a huge one).
 */
export function checkImageHeader(bytes: Uint8Array): { width: number; height: number } {
  let size: { width?: number; height?: number; images?: Array<{ width: number; height: number }> }
  try {
    size = imageSize(bytes)
  } catch {
    throw new AppError(400, 'UPLOAD_INVALID_IMAGE')
  }
  // an animated or multi-image file: its largest frame counts
  const frames = [{ width: size.width ?? 0, height: size.height ?? 0 }, ...(size.images ?? [])]
  const width = Math.max(...frames.map((f) => f.width))
  const height = Math.max(...frames.map((f) => f.height))
  if (!width || !height) throw new AppError(400, 'UPLOAD_INVALID_IMAGE')
  if (width > MAX_PIXELS_SIDE || height > MAX_PIXELS_SIDE || width * height > MAX_DECODE_PIXELS) throw new AppError(400, 'IMAGE_TOO_LARGE')
  return { width, height }
}

async function prepareImage(bytes: Uint8Array, ext: string): Promise<Prepared> {
  checkImageHeader(bytes)
  return serial(async () => {
    let meta: { width: number; height: number; format: string }
    try {
      meta = await new Bun.Image(bytes, { maxPixels: MAX_DECODE_PIXELS }).metadata()
    } catch (e) {
      if ((e as { code?: string })?.code === 'ERR_IMAGE_TOO_MANY_PIXELS') throw new AppError(400, 'IMAGE_TOO_LARGE')
      throw new AppError(400, 'UPLOAD_INVALID_IMAGE')
    }
    if (meta.width > MAX_PIXELS_SIDE || meta.height > MAX_PIXELS_SIDE || meta.width * meta.height > MAX_DECODE_PIXELS) throw new AppError(400, 'IMAGE_TOO_LARGE')
    if (Math.max(meta.width, meta.height) <= SHRINK_ABOVE && meta.format !== 'gif') return { bytes, mime: MIME[ext], ext, width: meta.width, height: meta.height }
    // Larger images are shrunk to 2000 px on their longer side; JPEG at quality 0.75, PNG/WebP keep
    // their format (transparency), GIF (decode-only) becomes PNG.
    const img = new Bun.Image(bytes, { maxPixels: MAX_DECODE_PIXELS }).resize(SHRINK_ABOVE, SHRINK_ABOVE, { fit: 'inside', withoutEnlargement: true })
    const out =
      meta.format === 'jpeg'
        ? { data: await img.jpeg({ quality: JPEG_QUALITY }).bytes(), ext: 'jpg' }
        : meta.format === 'webp'
          ? { data: await img.webp({ quality: 80 }).bytes(), ext: 'webp' }
          : { data: await img.png().bytes(), ext: 'png' }
    const m = await new Bun.Image(out.data).metadata()
    return { bytes: out.data, mime: MIME[out.ext], ext: out.ext, width: m.width, height: m.height }
  })
}

async function resizeVariant(bytes: Uint8Array, side: number): Promise<{ data: Uint8Array; mime: string }> {
  return serial(async () => {
    const img = new Bun.Image(bytes, { maxPixels: MAX_DECODE_PIXELS }).resize(side, side, { fit: 'inside', withoutEnlargement: true })
    const meta = await new Bun.Image(bytes).metadata()
    if (meta.format === 'png' || meta.format === 'gif') return { data: await img.png().bytes(), mime: 'image/png' }
    if (meta.format === 'webp') return { data: await img.webp({ quality: 80 }).bytes(), mime: 'image/webp' }
    return { data: await img.jpeg({ quality: JPEG_QUALITY }).bytes(), mime: 'image/jpeg' }
  })
}

// ---------------------------------------------------------------------------------------------
// limits

/** Bytes stored for an agency's uploads (registered with the license limits). */
export async function agencyStoredBytes(db: Db, agencyId: number): Promise<number> {
  // anonymous uploads count only once a registration claimed them (unclaimed ones expire: expiry.ts)
  const r = await db
    .selectFrom('asset')
    .select((eb) => eb.fn.sum<number>('stored_bytes').as('n'))
    .where('agency_id', '=', agencyId)
    .where((eb) => eb.or([eb('owner_identification', 'is', null), eb('visitor_id', 'is not', null)]))
    .executeTakeFirst()
  return Number(r?.n ?? 0)
}
storageUsageBytes.push(agencyStoredBytes)

/** How long an anonymous upload waits for the registration that claims it (docs/security.md). */
export const UNCLAIMED_UPLOAD_HOURS = 1
/** Uploads made before this are expired when no registration claimed them. */
export const unclaimedCutoff = (now: Date) => isoNow(new Date(now.getTime() - UNCLAIMED_UPLOAD_HOURS * 3600_000))

/**
 * The pool of a client address: its anonymous uploads that no registration claimed and that have not
 * expired. Full (EINLASS_UPLOAD_UNCLAIMED_POOL_MB) → 429 UPLOAD_POOL_FULL with the seconds until its
 * oldest upload expires. They never count against an agency's storage until claimed.
 */
async function assertPoolLeft(ctx: AppContext, db: Db, client: string, adding: number) {
  const now = ctx.clock.now()
  const r = await db
    .selectFrom('asset')
    .select((eb) => [eb.fn.sum<number>('stored_bytes').as('n'), eb.fn.min<string>('created_at').as('oldest')])
    .where('client_key', '=', client)
    .where('visitor_id', 'is', null)
    .where('owner_identification', 'is not', null)
    .where('created_at', '>=', unclaimedCutoff(now))
    .executeTakeFirst()
  const used = Number(r?.n ?? 0)
  if (used + adding <= ctx.config.uploads.unclaimed_pool_mb * 1024 * 1024) return
  const frees = r?.oldest ? new Date(r.oldest).getTime() + UNCLAIMED_UPLOAD_HOURS * 3600_000 : now.getTime()
  throw new AppError(429, 'UPLOAD_POOL_FULL', { extra: { retryAfter: Math.max(1, Math.ceil((frees - now.getTime()) / 1000)) } })
}

/** One anonymous upload of a client address at a time (Postgres; SQLite's write transaction is the single writer). */
async function lockClient(ctx: AppContext, trx: Db, client: string) {
  if (ctx.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`asset-pool:${client}`}))`.execute(trx)
}

async function assertStorageLeft(ctx: AppContext, agencyId: number, adding: number) {
  const allowedMb = ctx.license.limits.storageMb
  if (allowedMb < 0) return
  const used = (await Promise.all(storageUsageBytes.map((f) => f(ctx.db, agencyId)))).reduce((a, b) => a + b, 0)
  if (used + adding > allowedMb * 1024 * 1024) throw new AppError(403, 'UPLOAD_LIMIT_REACHED', { extra: { allowed: allowedMb, used: Math.ceil(used / 1024 / 1024) } })
}

// ---------------------------------------------------------------------------------------------
// use cases

export interface UploadInput {
  file: File
  fileName: string
  type: UploadType
  secure: boolean
  storeOwnMedia: boolean
  agencyId: number
  eventId: number | null
  ownerUserId: number | null
  ownerIdentification: string | null
  /** the client address of an anonymous upload: its pool (null for logged-in users) */
  clientAddress?: string | null
}

export async function storeUpload(ctx: AppContext, input: UploadInput): Promise<AssetRow> {
  const maxBytes = ctx.config.uploads.max_file_mb * 1024 * 1024
  if (input.file.size > maxBytes) throw new AppError(413, 'UPLOAD_TOO_LARGE', { params: { mb: ctx.config.uploads.max_file_mb } })
  if (input.file.size < MIN_BYTES) throw new AppError(400, 'UPLOAD_TOO_SMALL')
  const ext = extensionOf(input.fileName)
  const allowed = IMAGE_ONLY.includes(input.type) ? IMAGE_EXTENSIONS : FILE_EXTENSIONS
  if (!allowed.includes(ext)) throw new AppError(400, 'UPLOAD_WRONG_EXTENSION', { params: { extensions: allowed.join(', ') } })
  const raw = new Uint8Array(await input.file.arrayBuffer())
  const prepared: Prepared = isImageName(input.fileName) ? await prepareImage(raw, ext) : { bytes: raw, mime: MIME[ext] ?? 'application/octet-stream', ext, width: null, height: null }
  const encrypted = ctx.config.uploads.encrypt || input.secure
  // an anonymous upload counts in its address's pool, not against the agency, until it is claimed
  const client = input.ownerIdentification && input.clientAddress ? clientKey(input.clientAddress) : null
  if (client) await assertPoolLeft(ctx, ctx.db, client, prepared.bytes.byteLength)
  await assertStorageLeft(ctx, input.agencyId, prepared.bytes.byteLength)
  const key = `${randomString(18)}.${prepared.ext}${encrypted ? '.enc' : ''}`
  const stored = await writeStored(ctx, key, prepared.bytes, encrypted)
  const baseName = input.fileName.replace(/\.[a-z0-9]+$/i, '')
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        if (!client) return await insertAsset(ctx, ctx.db, input, prepared, { key, stored, encrypted, baseName, client })
        // checked again in the transaction that inserts, one upload of the address at a time
        return await ctx.db.transaction().execute(async (trx) => {
          await lockClient(ctx, trx, client)
          await assertPoolLeft(ctx, trx, client, stored)
          return insertAsset(ctx, trx, input, prepared, { key, stored, encrypted, baseName, client })
        })
      } catch (e) {
        // a random id already taken (about one in two thousand after a million uploads): draw again
        if (attempt < 4 && isUniqueViolation(e, 'asset')) continue
        throw e
      }
    }
  } catch (e) {
    // the row was not written: its object goes too (a failure here leaves an unreferenced object, never a row without one)
    await ctx.storage.delete(key).catch((err) => ctx.log.warn('upload object left behind', { key, error: String(err) }))
    throw e
  }
}

/**
 * Asset ids are drawn at random (not the next number), so an id a public caller sees tells nothing
 * about other uploads and cannot be counted up. An id alone still grants nothing: reading a secure
 * file and claiming an upload are checked against its owner (docs/security.md, "Uploads").
 */
export const newAssetId = () => randomInt(1_000_000, 2_147_483_647)

function insertAsset(ctx: AppContext, db: Db, input: UploadInput, prepared: Prepared, f: { key: string; stored: number; encrypted: boolean; baseName: string; client: string | null }): Promise<AssetRow> {
  const { key, stored, encrypted, baseName } = f
  return db
      .insertInto('asset')
      .values({
        id: newAssetId(),
        agency_id: input.agencyId,
        event_id: input.eventId,
        type: input.type,
        original_file_name: `${baseName}.${prepared.ext}`.slice(0, 255),
        mime_type: prepared.mime,
        size_bytes: prepared.bytes.byteLength,
        stored_bytes: stored,
        width: prepared.width,
        height: prepared.height,
        encrypted,
        secure: input.secure,
        store_own_media: input.storeOwnMedia,
        owner_user_id: input.ownerUserId,
        owner_identification: input.ownerIdentification,
        client_key: f.client,
        storage_key: key,
        created_at: isoNow(ctx.clock.now()),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
}

export function assetDto(a: AssetRow) {
  const image = a.mime_type.startsWith('image/')
  return {
    id: a.id,
    type: a.type,
    originalFileName: a.original_file_name,
    mimeType: a.mime_type,
    size: a.size_bytes,
    width: a.width,
    height: a.height,
    secure: bool(a.secure),
    encrypted: bool(a.encrypted),
    defaultImagePath: image ? `/proxy/api/asset/${a.id}?dimension=Regular_1000` : null,
    downloadPath: `/proxy/api/asset/${a.id}/download`,
  }
}

export async function findAsset(db: Db, id: number): Promise<AssetRow> {
  const a = await db.selectFrom('asset').selectAll().where('id', '=', id).executeTakeFirst()
  if (!a) throw notFound()
  return a
}

export async function originalBytes(ctx: AppContext, a: AssetRow): Promise<Uint8Array> {
  const b = await readStored(ctx, a.storage_key, bool(a.encrypted))
  if (!b) throw notFound()
  return b
}

/** The original file as a stream for a download (decrypted as it goes): never whole in memory. */
export async function originalStream(ctx: AppContext, a: AssetRow): Promise<ReadableStream<Uint8Array>> {
  const s = await guarded(ctx, () => ctx.storage.stream(a.storage_key))
  if (!s) throw notFound()
  return bool(a.encrypted) ? decryptStream(keyOf(ctx), s) : s
}

/** A sized variant of an image, made once and kept (encrypted like the original). */
export async function variantBytes(ctx: AppContext, a: AssetRow, dimension: Dimension): Promise<{ data: Uint8Array; mime: string }> {
  if (!a.mime_type.startsWith('image/')) throw notFound()
  const side = DIMENSIONS[dimension]
  if (a.width != null && a.height != null && Math.max(a.width, a.height) <= side) return { data: await originalBytes(ctx, a), mime: a.mime_type }
  const name = `${a.storage_key}.${side}`
  const cached = await readStored(ctx, name, bool(a.encrypted))
  const mime = a.mime_type === 'image/gif' ? 'image/png' : a.mime_type
  if (cached) return { data: cached, mime }
  const made = await resizeVariant(await originalBytes(ctx, a), side)
  const stored = await writeStored(ctx, name, made.data, bool(a.encrypted))
  await ctx.db
    .updateTable('asset')
    .set((eb) => ({ stored_bytes: eb('stored_bytes', '+', stored) }))
    .where('id', '=', a.id)
    .execute()
  return made
}
