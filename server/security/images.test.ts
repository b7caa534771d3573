// Image bombs: a few bytes of PNG declaring 12000 × 12000 px decoded to a 576 MB canvas (670 MB and
// seconds per anonymous upload). The header's dimensions are read first (image-size) and refused
// above 12000 px per side or 40 megapixels in all, before any decoder runs; anonymous uploads are
// rate limited per client address.
import { expect, test } from 'bun:test'
import { crc32, deflateSync } from 'node:zlib'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { UNCLAIMED_UPLOAD_HOURS, deleteExpiredUploads } from '../modules/assets/expiry'
import { MAX_DECODE_PIXELS, MAX_PIXELS_SIDE, agencyStoredBytes, checkImageHeader } from '../modules/assets/service'
import { RATE_LIMITS } from '../modules/identity/rate-limit'
import { eventBody, forEachDialect, uniqueEmail } from '../testing/harness'

function chunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(td) >>> 0)
  return Buffer.concat([len, td, crc])
}
/** a valid-looking PNG of a few hundred bytes that declares w × h pixels (one zero-filled row of data) */
function bombPng(w: number, h: number): Uint8Array {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(w, 0)
  ihdr.writeUInt32BE(h, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  const rows = deflateSync(Buffer.alloc(Math.min(h, 8) * (w * 3 + 1)))
  return new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]))
}
function form(bytes: Uint8Array, name: string, extra: Record<string, string> = {}) {
  const f = new FormData()
  f.append('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  f.append('fileName', name)
  for (const [k, v] of Object.entries(extra)) f.append(k, v)
  return f
}

test('the header decides: 12000 × 12000 declared is refused before decoding; sides over 12000 px too', () => {
  expect(() => checkImageHeader(bombPng(12000, 12000))).toThrow(expect.objectContaining({ errorType: 'IMAGE_TOO_LARGE' }))
  expect(() => checkImageHeader(bombPng(MAX_PIXELS_SIDE + 1, 10))).toThrow(expect.objectContaining({ errorType: 'IMAGE_TOO_LARGE' }))
  expect(() => checkImageHeader(new Uint8Array(64))).toThrow(expect.objectContaining({ errorType: 'UPLOAD_INVALID_IMAGE' }))
  expect(checkImageHeader(bombPng(8000, 5000))).toEqual({ width: 8000, height: 5000 }) // exactly 40 MP
  expect(8000 * 5000).toBe(MAX_DECODE_PIXELS)
})

forEachDialect('image bombs and anonymous uploads', (h) => {
  test('a tiny PNG declaring 12000 × 12000 px: 400 IMAGE_TOO_LARGE from the header, without a decoded canvas', async () => {
    const admin = await h().admin()
    const bomb = bombPng(12000, 12000)
    expect(bomb.byteLength).toBeLessThan(2000)
    Bun.gc(true)
    const before = process.memoryUsage().rss
    const r = await admin.request('POST', '/api/asset', { form: form(bomb, 'bombe.png', { type: 'EVENT' }) })
    const grew = process.memoryUsage().rss - before
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ status: 400, errorType: 'IMAGE_TOO_LARGE', errorMessage: 'Das Bild ist zu groß (höchstens 12000 px Breite und Höhe, 40 Megapixel).' })
    expect(grew).toBeLessThan(100 * 1024 * 1024) // a decode would need 576 MB
    // nothing was stored
    expect(await h().ctx.db.selectFrom('asset').select('id').where('agency_id', '=', admin.agencyId).execute()).toEqual([])
  })

  test(`anonymous uploads are limited per client address (${RATE_LIMITS.UPLOAD_ADDRESS.max} per ${RATE_LIMITS.UPLOAD_ADDRESS.windowMs / 60_000} minutes)`, async () => {
    const admin = await h().admin()
    const eventId = (await admin.post('/proxy/api/events', eventBody())).body.id
    expect((await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'IMAGE', displayName: 'Foto' })).status).toBe(201)
    const png = await new Bun.Image(bombPng(1, 1)).png().bytes()
    const statuses: number[] = []
    for (let i = 0; i <= RATE_LIMITS.UPLOAD_ADDRESS.max; i++) {
      const r = await h().request('POST', '/api/asset', { form: form(png, 'ich.png', { type: 'EVENT_GUEST', event: String(eventId) }), headers: { 'x-guest-identification': `visitor-${i}-abcdef`, 'x-forwarded-for': '198.51.100.77' } })
      statuses.push(r.status)
    }
    expect(statuses.slice(0, RATE_LIMITS.UPLOAD_ADDRESS.max).every((s) => s === 201)).toBe(true)
    expect(statuses[RATE_LIMITS.UPLOAD_ADDRESS.max]).toBe(429)
    // another address is not affected
    const other = await h().request('POST', '/api/asset', { form: form(png, 'ich.png', { type: 'EVENT_GUEST', event: String(eventId) }), headers: { 'x-guest-identification': 'visitor-x-abcdef', 'x-forwarded-for': '198.51.100.78' } })
    expect(other.status).toBe(201)
  })

  test(`anonymous uploads count against nothing until claimed, and expire after ${UNCLAIMED_UPLOAD_HOURS} h: the runner deletes them itself`, async () => {
    const admin = await h().admin()
    const eventId = (await admin.post('/proxy/api/events', eventBody())).body.id
    const photo = (await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'IMAGE', displayName: 'Foto' })).body
    const png = await new Bun.Image(bombPng(1, 1)).png().bytes()
    const upload = async (ident: string) => {
      const r = await h().request('POST', '/api/asset', { form: form(png, 'ich.png', { type: 'EVENT_GUEST', event: String(eventId) }), headers: { 'x-guest-identification': ident, 'x-forwarded-for': `198.51.100.${ident.length}` } })
      expect(r.status).toBe(201)
      return r.body.id as number
    }
    const before = await agencyStoredBytes(h().ctx.db, admin.agencyId)
    const kept = await upload('visitor-keep-1234')
    const left = [await upload('visitor-left-1'), await upload('visitor-left-22')]
    // unclaimed: no storage used
    expect(await agencyStoredBytes(h().ctx.db, admin.agencyId)).toBe(before)
    const reg = await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, {
      body: { salutation: 'Frau', firstName: 'F', lastName: 'G', email: uniqueEmail('photo'), identification: 'visitor-keep-1234', fields: { [photo.id]: { assetId: kept, fileName: 'ich.png' } } },
    })
    expect(reg.status).toBe(201)
    const claimedBytes = await agencyStoredBytes(h().ctx.db, admin.agencyId)
    expect(claimedBytes).toBeGreaterThan(before)
    const keys = await h().ctx.db.selectFrom('asset').select(['id', 'storage_key']).where('id', 'in', [kept, ...left]).execute()
    const file = (id: number) => join(h().dataDir, 'uploads', keys.find((k) => k.id === id)!.storage_key)
    for (const id of [kept, ...left]) expect(existsSync(file(id))).toBe(true)

    // the expiry minus a minute: nothing expires yet
    h().clock.advance(UNCLAIMED_UPLOAD_HOURS * 3600_000 - 60_000)
    expect(await deleteExpiredUploads(h().ctx)).toBe(0)
    // past the expiry: the runner's periodic job removes the unclaimed rows and their files
    h().clock.advance(2 * 60_000)
    await h().tasks.runOnce()
    const rows = await h().ctx.db.selectFrom('asset').select('id').where('id', 'in', [kept, ...left]).execute()
    expect(rows.map((r) => r.id)).toEqual([kept])
    for (const id of left) expect(existsSync(file(id))).toBe(false)
    expect(existsSync(file(kept))).toBe(true)
    expect(await agencyStoredBytes(h().ctx.db, admin.agencyId)).toBe(claimedBytes)
    // safe to run again, also twice at once
    const again = await Promise.all([deleteExpiredUploads(h().ctx), deleteExpiredUploads(h().ctx)])
    expect(again).toEqual([0, 0])
  })

  test('an upload past its expiry cannot be claimed, also before the sweep deleted it', async () => {
    const admin = await h().admin()
    const eventId = (await admin.post('/proxy/api/events', eventBody())).body.id
    const photo = (await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'IMAGE', displayName: 'Foto' })).body
    const png = await new Bun.Image(bombPng(1, 1)).png().bytes()
    const ident = 'visitor-late-98765'
    const up = await h().request('POST', '/api/asset', { form: form(png, 'ich.png', { type: 'EVENT_GUEST', event: String(eventId) }), headers: { 'x-guest-identification': ident, 'x-forwarded-for': '198.51.100.201' } })
    expect(up.status).toBe(201)
    const register = () =>
      h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, {
        body: { salutation: 'Frau', firstName: 'Spät', lastName: 'Dran', email: uniqueEmail('late'), identification: ident, fields: { [photo.id]: { assetId: up.body.id, fileName: 'ich.png' } } },
      })
    // past the expiry; the sweep has not run (the row and its file are still there)
    h().clock.advance(UNCLAIMED_UPLOAD_HOURS * 3600_000 + 60_000)
    expect(await h().ctx.db.selectFrom('asset').select('id').where('id', '=', up.body.id).execute()).toHaveLength(1)
    const late = await register()
    expect(late.status).toBe(400)
    expect(late.body).toMatchObject({ errorType: 'FIELD_ERROR', errorFields: [{ field: `fields.${photo.id}`, errorType: 'INVALID' }] })
    // nothing was written: no registration, the upload still unclaimed (and swept next)
    expect(await h().ctx.db.selectFrom('event_visitor').select('id').where('event_id', '=', eventId).execute()).toEqual([])
    expect(await deleteExpiredUploads(h().ctx)).toBeGreaterThanOrEqual(1)
  })
})
