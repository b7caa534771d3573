// Uploads on both dialects: limits, shrinking, encryption at rest, sized images, access, storage limit.
import { expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { COMMUNITY, COMMUNITY_LIMITS } from '../license/license'

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const image = (w: number, h: number, format: 'jpeg' | 'png' = 'jpeg') => {
  const img = new Bun.Image(PIXEL).resize(w, h)
  return (format === 'jpeg' ? img.jpeg({ quality: 90 }) : img.png()).bytes()
}
function form(bytes: Uint8Array, name: string, extra: Record<string, string> = {}) {
  const f = new FormData()
  f.append('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  f.append('fileName', name)
  for (const [k, v] of Object.entries(extra)) f.append(k, v)
  return f
}

forEachDialect('uploads', (h) => {
  test('an image over 2000 px is shrunk, stored encrypted, downloaded decrypted and served in sizes', async () => {
    const admin = await h().admin()
    const r = await admin.request('POST', '/api/asset', { form: form(await image(3000, 1500), 'Bühne.jpg', { type: 'EVENT', secure: 'true' }) })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ originalFileName: 'Bühne.jpg', mimeType: 'image/jpeg', width: 2000, height: 1000, encrypted: true, defaultImagePath: `/proxy/api/asset/${r.body.id}?dimension=Regular_1000` })
    const row = await h().ctx.db.selectFrom('asset').select('storage_key').where('id', '=', r.body.id).executeTakeFirstOrThrow()
    const onDisk = readFileSync(join(h().dataDir, 'uploads', row.storage_key))
    expect(onDisk[0] === 0xff && onDisk[1] === 0xd8).toBe(false) // not a readable JPEG at rest
    const dl = await admin.request('GET', `/proxy/api/asset/${r.body.id}/download`)
    expect(dl.status).toBe(200)
    expect(dl.headers.get('content-disposition')).toContain("filename*=UTF-8''B%C3%BChne.jpg")
    const bytes = new Uint8Array(await (await h().app.handle(new Request(`http://localhost/proxy/api/asset/${r.body.id}/download`, { headers: { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-account-id': admin.headers['x-account-id'] } }))).arrayBuffer())
    expect(await new Bun.Image(bytes).metadata()).toMatchObject({ width: 2000, height: 1000, format: 'jpeg' })
    for (const [dim, w] of [['Regular_400', 400], ['Regular_1000', 1000], ['Regular_2000', 2000]] as const) {
      const res = await h().app.handle(new Request(`http://localhost/proxy/api/asset/${r.body.id}?dimension=${dim}`, { headers: { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-account-id': admin.headers['x-account-id'] } }))
      expect(res.status).toBe(200)
      expect((await new Bun.Image(new Uint8Array(await res.arrayBuffer())).metadata()).width).toBe(w)
    }
    // strangers see nothing
    expect((await h().request('GET', `/proxy/api/asset/${r.body.id}/download`)).status).toBe(404)
    expect((await (await h().admin()).get(`/proxy/api/asset/${r.body.id}/download`)).status).toBe(404)
  })

  test('a small PNG keeps its size and format; an unsecured image is public', async () => {
    const admin = await h().admin()
    const r = await admin.request('POST', '/api/asset', { form: form(await image(800, 600, 'png'), 'logo.png', { type: 'LOGO', secure: 'false' }) })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ width: 800, height: 600, mimeType: 'image/png', secure: false })
    expect((await h().request('GET', `/proxy/api/asset/${r.body.id}?dimension=Regular_400`)).status).toBe(200)
  })

  test('limits: 10 B minimum, 20 MB maximum, 12000 px, allowed extensions, readable images', async () => {
    const admin = await h().admin()
    const tiny = await admin.request('POST', '/api/asset', { form: form(new Uint8Array(5), 'a.pdf') })
    expect(tiny.status).toBe(400)
    expect(tiny.body.errorType).toBe('UPLOAD_TOO_SMALL')
    const huge = await admin.request('POST', '/api/asset', { form: form(new Uint8Array(20 * 1024 * 1024 + 1), 'big.pdf') })
    expect(huge.status).toBe(413)
    expect(huge.body).toMatchObject({ errorType: 'UPLOAD_TOO_LARGE', errorMessage: 'Die Datei ist zu groß (höchstens 20 MB).' })
    const wide = await admin.request('POST', '/api/asset', { form: form(await image(12001, 10, 'png'), 'wide.png', { type: 'EVENT' }) })
    expect(wide.status).toBe(400)
    expect(wide.body.errorType).toBe('IMAGE_TOO_LARGE')
    const exe = await admin.request('POST', '/api/asset', { form: form(new Uint8Array(100), 'tool.exe') })
    expect(exe.body.errorType).toBe('UPLOAD_WRONG_EXTENSION')
    const pdfAsImage = await admin.request('POST', '/api/asset', { form: form(new Uint8Array(100), 'doc.pdf', { type: 'EVENT' }) })
    expect(pdfAsImage.body.errorType).toBe('UPLOAD_WRONG_EXTENSION')
    const broken = await admin.request('POST', '/api/asset', { form: form(new Uint8Array(100).fill(7), 'broken.jpg', { type: 'EVENT' }) })
    expect(broken.body.errorType).toBe('UPLOAD_INVALID_IMAGE')
    const pdf = await admin.request('POST', '/api/asset', { form: form(new TextEncoder().encode('%PDF-1.4 hello world'), 'Programm.pdf') })
    expect(pdf.status).toBe(201)
    expect(pdf.body).toMatchObject({ mimeType: 'application/pdf', defaultImagePath: null })
    expect((await admin.get(`/proxy/api/asset/${pdf.body.id}?dimension=Regular_400`)).status).toBe(404)
    expect((await admin.get(`/proxy/api/asset/${pdf.body.id}/download`)).text).toBe('%PDF-1.4 hello world')
  })

  test('a guest uploads into the public form, sees it by identification, the registration claims it', async () => {
    const admin = await h().admin()
    const ev = await admin.post('/proxy/api/events', eventBody())
    const eventId = ev.body.id
    const anonymous = await h().request('POST', '/api/asset', { form: form(await image(50, 50), 'me.jpg', { type: 'EVENT_GUEST', event: String(eventId) }), headers: { 'x-guest-identification': 'visitor-abc-123' } })
    expect(anonymous.status).toBe(403) // the form has no image field yet
    const photo = await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'IMAGE', displayName: 'Foto', appearance: 'REQUIRED' })
    expect((await h().request('POST', '/api/asset', { form: form(await image(50, 50), 'me.jpg', { type: 'EVENT_GUEST', event: String(eventId) }) })).status).toBe(400)
    const up = await h().request('POST', '/api/asset', { form: form(await image(50, 50), 'me.jpg', { type: 'EVENT_GUEST', event: String(eventId) }), headers: { 'x-guest-identification': 'visitor-abc-123' } })
    expect(up.status).toBe(201)
    expect(up.body.secure).toBe(true)
    expect((await h().request('GET', `/proxy/api/asset/${up.body.id}?dimension=Regular_400&guestId=visitor-abc-123`)).status).toBe(200)
    expect((await h().request('GET', `/proxy/api/asset/${up.body.id}?guestId=someone-else-1`)).status).toBe(404)
    // somebody else cannot attach it to their registration
    const email = uniqueEmail('photo')
    const body = { salutation: 'Frau', firstName: 'F', lastName: 'G', email, fields: { [photo.body.id]: { assetId: up.body.id, fileName: 'me.jpg' } } }
    const stolen = await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: { ...body, identification: 'intruder-xyz-9' } })
    expect(stolen.status).toBe(400)
    expect(stolen.body.errorFields).toEqual([{ field: `fields.${photo.body.id}`, errorType: 'INVALID' }])
    const ok = await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body: { ...body, identification: 'visitor-abc-123' } })
    expect(ok.status).toBe(201)
    // now it belongs to the registration: the organiser reads it, the browser id no longer does
    expect((await admin.get(`/proxy/api/asset/${up.body.id}/download`)).status).toBe(200)
    expect((await h().request('GET', `/proxy/api/asset/${up.body.id}?guestId=visitor-abc-123`)).status).toBe(404)
    const fields = await admin.get(`/proxy/api/events/${eventId}/visitors/${ok.body.visitorId}/fields`)
    expect(fields.body[0].assetData).toMatchObject({ id: up.body.id, fileName: 'me.jpg' })
  })

  test('uploads count towards the storage usage', async () => {
    const admin = await h().admin()
    await admin.request('POST', '/api/asset', { form: form(new Uint8Array(300_000).fill(1), 'a.pdf') })
    const init = await admin.get('/proxy/api/app/init')
    expect(init.body.limits.usedStorage).toBe(1)
  })
})

forEachDialect(
  'uploads at the storage limit',
  (h) => {
    test('UPLOAD_LIMIT_REACHED once the license storage is used up', async () => {
      const admin = await h().admin()
      expect((await admin.request('POST', '/api/asset', { form: form(new Uint8Array(700_000).fill(1), 'a.pdf') })).status).toBe(201)
      const r = await admin.request('POST', '/api/asset', { form: form(new Uint8Array(700_000).fill(2), 'b.pdf') })
      expect(r.status).toBe(403)
      expect(r.body).toMatchObject({ errorType: 'UPLOAD_LIMIT_REACHED', errorMessage: 'Speicher-Limit erreicht. Upload nicht möglich.' })
      // nothing was left behind
      const rows = await h().ctx.db.selectFrom('asset').select('id').execute()
      expect(rows).toHaveLength(1)
      expect(readdirSync(join(h().dataDir, 'uploads'))).toHaveLength(1)
    })
  },
  { license: { ...COMMUNITY, limits: { ...COMMUNITY_LIMITS, storageMb: 1 } } },
)
