// Uploads in an S3 bucket (s3rver started here on a free port), on both dialects: the round trip
// through the API, encryption at rest in the bucket, sized variants, deletion with the asset, and a
// bucket that goes away mid-run (503 for that request, no row without its object).
import { afterAll, expect, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { forEachDialect } from '../../testing/harness'
import { startLocalS3 } from '../../testing/s3rver'
import { deleteExpiredUploads } from './expiry'

const s3 = await startLocalS3()
afterAll(() => s3.close())
const bucket = s3.client()

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const jpeg = (w: number, h: number) => new Bun.Image(PIXEL).resize(w, h).jpeg({ quality: 90 }).bytes()
function form(bytes: Uint8Array, name: string, extra: Record<string, string> = {}) {
  const f = new FormData()
  f.append('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  f.append('fileName', name)
  for (const [k, v] of Object.entries(extra)) f.append(k, v)
  return f
}

forEachDialect(
  'uploads in S3 storage',
  (h) => {
    const get = async (admin: Awaited<ReturnType<ReturnType<typeof h>['admin']>>, path: string) =>
      h().app.handle(new Request(`http://localhost${path}`, { headers: { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-account-id': admin.headers['x-account-id'] } }))
    const keyOf = async (id: number) => (await h().ctx.db.selectFrom('asset').select('storage_key').where('id', '=', id).executeTakeFirstOrThrow()).storage_key
    const assets = async () => Number((await h().ctx.db.selectFrom('asset').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)

    test('an upload goes into the bucket encrypted, downloads decrypted (streamed) and its sizes are made there', async () => {
      expect(h().ctx.storage.location).toBe(`s3://${s3.bucket}/uploads/`)
      const admin = await h().admin()
      // 3 MB of noise: a download of many chunks, decrypted as it streams
      const doc = new Uint8Array(3 * 1024 * 1024)
      for (let i = 0; i < doc.length; i += 65536) doc.set(crypto.getRandomValues(new Uint8Array(Math.min(65536, doc.length - i))), i)
      const up = await admin.request('POST', '/api/asset', { form: form(doc, 'Programm.pdf', { type: 'DYNAMIC_FILE', secure: 'true' }) })
      expect(up.status).toBe(201)
      const key = await keyOf(up.body.id)
      const stored = new Uint8Array(await bucket.file(`uploads/${key}`).arrayBuffer())
      expect(stored.byteLength).toBe(doc.byteLength + 28) // iv + tag + ciphertext
      expect(Buffer.from(stored.subarray(28, 1028)).equals(Buffer.from(doc.subarray(0, 1000)))).toBe(false)
      const dl = await get(admin, `/proxy/api/asset/${up.body.id}/download`)
      expect(dl.status).toBe(200)
      expect(Buffer.from(await dl.arrayBuffer()).equals(Buffer.from(doc))).toBe(true)
      // nothing lands in the data dir
      expect(existsSync(join(h().dataDir, 'uploads')) ? readdirSync(join(h().dataDir, 'uploads')) : []).toEqual([])

      const img = await admin.request('POST', '/api/asset', { form: form(await jpeg(1200, 800), 'Bühne.jpg', { type: 'EVENT', secure: 'true' }) })
      expect(img.status).toBe(201)
      const small = await get(admin, `/proxy/api/asset/${img.body.id}?dimension=Regular_400`)
      expect(small.status).toBe(200)
      expect((await new Bun.Image(new Uint8Array(await small.arrayBuffer())).metadata()).width).toBe(400)
      expect(await bucket.exists(`uploads/${await keyOf(img.body.id)}.400`)).toBe(true)
    })

    test('an asset deleted (an unclaimed upload expiring) takes its objects, variants included, out of the bucket', async () => {
      const admin = await h().admin()
      const img = await admin.request('POST', '/api/asset', { form: form(await jpeg(1200, 800), 'weg.jpg', { type: 'EVENT', secure: 'true' }) })
      expect((await get(admin, `/proxy/api/asset/${img.body.id}?dimension=Regular_1000`)).status).toBe(200)
      const key = await keyOf(img.body.id)
      expect(await bucket.exists(`uploads/${key}`)).toBe(true)
      expect(await bucket.exists(`uploads/${key}.1000`)).toBe(true)
      // make it an anonymous upload nobody claimed, two hours old
      await h().ctx.db.updateTable('asset').set({ owner_identification: 'abandoned-upload-1', created_at: new Date(h().clock.now().getTime() - 2 * 3600_000).toISOString() }).where('id', '=', img.body.id).execute()
      expect(await deleteExpiredUploads(h().ctx)).toBeGreaterThanOrEqual(1)
      expect(await h().ctx.db.selectFrom('asset').select('id').where('id', '=', img.body.id).executeTakeFirst()).toBeUndefined()
      expect(await bucket.exists(`uploads/${key}`)).toBe(false)
      expect(await bucket.exists(`uploads/${key}.1000`)).toBe(false)
    })

    test('the bucket unreachable mid-run: 503 STORAGE_UNAVAILABLE for that request, no row written, and back when it is', async () => {
      const admin = await h().admin()
      const before = await admin.request('POST', '/api/asset', { form: form(new TextEncoder().encode('Hallo Welt, eine Datei.'), 'notiz.txt', { secure: 'true' }) })
      expect(before.status).toBe(201)
      const rows = await assets()
      await s3.stop()
      try {
        const up = await admin.request('POST', '/api/asset', { form: form(new TextEncoder().encode('Noch eine Datei, diesmal ohne Speicher.'), 'notiz2.txt', { secure: 'true' }) })
        expect(up.status).toBe(503)
        expect(up.body).toMatchObject({ status: 503, errorType: 'STORAGE_UNAVAILABLE', errorMessage: 'Der Dateispeicher ist gerade nicht erreichbar. Bitte versuchen Sie es in einem Moment erneut.' })
        expect(await assets()).toBe(rows)
        const dl = await admin.request('GET', `/proxy/api/asset/${before.body.id}/download`)
        expect(dl.status).toBe(503)
        expect(dl.body.errorType).toBe('STORAGE_UNAVAILABLE')
      } finally {
        await s3.start()
      }
      const dl = await get(admin, `/proxy/api/asset/${before.body.id}/download`)
      expect(dl.status).toBe(200)
      expect(await dl.text()).toBe('Hallo Welt, eine Datei.')
    })
  },
  { env: s3.env('uploads') },
)
