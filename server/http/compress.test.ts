// Large JSON answers go out compressed when the client accepts it: brotli before gzip, never for
// small answers, other types, already encoded bodies or clients that do not ask; the bytes come back
// exactly. Through the app: a seating area of 5,000 chairs (the answer that asked for it, issue 14).
import { describe, expect, test } from 'bun:test'
import { gunzipSync } from 'node:zlib'
import { brotliDecompressSync } from 'node:zlib'
import { forEachDialect } from '../testing/harness'
import { createEvent } from '../testing/organiser'
import { COMPRESS_MIN_BYTES, compressResponse, pickEncoding } from './compress'

const json = (size: number) => JSON.stringify({ items: Array.from({ length: Math.ceil(size / 40) }, (_, i) => ({ id: i, label: `Platz ${i}` })) })
const req = (enc?: string, method = 'GET') => new Request('http://localhost/x', { method, headers: enc ? { 'accept-encoding': enc } : {} })
const res = (body: string, type = 'application/json;charset=utf-8', status = 200, extra: Record<string, string> = {}) => new Response(body, { status, headers: { 'content-type': type, ...extra } })

describe('compressResponse', () => {
  test('picks brotli, then gzip; honours q=0 and *', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(pickEncoding('gzip, deflate')).toBe('gzip')
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip')
    expect(pickEncoding('identity')).toBeNull()
    expect(pickEncoding('*')).toBe('br')
    expect(pickEncoding(null)).toBeNull()
  })

  test('a large JSON answer is compressed and comes back byte for byte; small, other types and unasked ones pass', async () => {
    const big = json(200_000)
    const br = await compressResponse(req('gzip, br'), res(big))
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toContain('accept-encoding')
    const packed = new Uint8Array(await br.arrayBuffer())
    expect(packed.byteLength).toBeLessThan(big.length / 5)
    expect(brotliDecompressSync(packed).toString()).toBe(big)
    const gz = await compressResponse(req('gzip'), res(big))
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(new Uint8Array(await gz.arrayBuffer())).toString()).toBe(big)

    const small = json(COMPRESS_MIN_BYTES / 2)
    const s = await compressResponse(req('br'), res(small))
    expect(s.headers.get('content-encoding')).toBeNull()
    expect(await s.text()).toBe(small)
    expect((await compressResponse(req(), res(big))).headers.get('content-encoding')).toBeNull()
    expect((await compressResponse(req('br'), res(big, 'application/pdf'))).headers.get('content-encoding')).toBeNull()
    expect((await compressResponse(req('br'), res(big, 'application/json', 409))).headers.get('content-encoding')).toBeNull()
    expect((await compressResponse(req('br'), res(big, 'application/json', 200, { 'content-encoding': 'gzip' }))).headers.get('content-encoding')).toBe('gzip')
  })
})

forEachDialect('compressed answers through the app', (h) => {
  test('the area of 5,000 chairs: about 2 MB of JSON goes out as a small fraction, the same chairs', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const chairs = []
    for (let r = 0; r < 50; r++) for (let i = 0; i < 100; i++) chairs.push({ label: `${r + 1} ${i + 1}`, priceCategory: 'p', percentX: 0.5 + i * 0.99, percentY: 1 + r * 1.96, percentWidth: 0.8, percentHeight: 1.5 })
    const saved = await admin.put(`/proxy/api/events/${e.id}/seatingplan`, { priceCategories: [{ key: 'p', displayName: 'Parkett', color: '#c2410c' }], areas: [{ displayName: 'Arena', chairs }] })
    expect(saved.status).toBe(200)
    const ask = (enc?: string) =>
      h().app.handle(new Request(`http://localhost/api/public/events/${e.id}/seatingplanArea`, { method: 'POST', headers: { 'content-type': 'application/json', ...(enc ? { 'accept-encoding': enc } : {}) }, body: JSON.stringify({ areaId: saved.body.areas[0].id }) }))
    const plain = await ask()
    const raw = await plain.text()
    expect(raw.length).toBeGreaterThan(1_500_000)
    const packed = await ask('gzip, deflate, br')
    expect(packed.headers.get('content-encoding')).toBe('br')
    const bytes = new Uint8Array(await packed.arrayBuffer())
    expect(bytes.byteLength).toBeLessThan(raw.length / 10)
    expect(JSON.parse(brotliDecompressSync(bytes).toString()).chairs).toHaveLength(5000)
  })
})
