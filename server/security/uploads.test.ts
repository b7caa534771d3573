// Hostile: uploads claimed by strangers. An upload is bound to whoever stored it (the browser's
// identification, the logged-in user) from the moment it is stored; someone else's upload answers
// exactly like an id that does not exist; ids are random, not the next number.
import { expect, test } from 'bun:test'
import { forEachDialect, uniqueEmail } from '../testing/harness'
import { createEvent } from '../testing/organiser'
import { anonymousUpload, publicRegister, smallPng, uploadForm } from './fixtures'

forEachDialect('security: uploads', (h) => {
  async function eventWithFields() {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const photo = (await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'IMAGE', displayName: 'Foto' })).body
    const file = (await admin.post(`/proxy/api/events/${e.id}/fields`, { type: 'FILE', displayName: 'Ausweis' })).body
    return { admin, e, photo, file }
  }
  const claim = (eventId: number, fieldId: number, assetId: number, extra: Record<string, unknown> = {}) =>
    publicRegister(h(), eventId, { email: uniqueEmail('thief'), fields: { [fieldId]: { assetId, fileName: 'x.png' } }, ...extra })

  test('an anonymous registration without identification cannot claim another browser\'s upload, and it answers like a made-up id', async () => {
    const { e, photo, admin } = await eventWithFields()
    const up = await anonymousUpload(h(), e.id, 'victim-browser-0001')
    expect(up.status).toBe(201)
    const stolen = await claim(e.id, photo.id, up.body.id)
    const madeUp = await claim(e.id, photo.id, up.body.id + 1)
    expect(stolen.status).toBe(400)
    expect({ status: stolen.status, errorType: stolen.body.errorType, errorFields: stolen.body.errorFields }).toEqual({ status: madeUp.status, errorType: madeUp.body.errorType, errorFields: madeUp.body.errorFields })
    // with a different identification: the same
    const other = await claim(e.id, photo.id, up.body.id, { identification: 'thief-browser-0002' })
    expect([other.status, other.body.errorFields]).toEqual([400, madeUp.body.errorFields])
    // the victim's own registration still gets it; nothing was taken
    const asset = await h().ctx.db.selectFrom('asset').select('visitor_id').where('id', '=', up.body.id).executeTakeFirstOrThrow()
    expect(asset.visitor_id).toBeNull()
    const mine = await publicRegister(h(), e.id, { email: uniqueEmail('victim'), identification: 'victim-browser-0001', fields: { [photo.id]: { assetId: up.body.id, fileName: 'pass.png' } } })
    expect(mine.status === 201 ? 201 : mine.text).toBe(201)
    expect((await admin.get(`/proxy/api/asset/${up.body.id}/download`)).status).toBe(200)
  })

  test('an organiser\'s secure file cannot be claimed by a public registration (with or without identification)', async () => {
    const { admin, e, file } = await eventWithFields()
    const secret = await admin.request('POST', '/api/asset', { form: uploadForm(new TextEncoder().encode('Gehaltsliste 2026 vertraulich'), 'geheim.pdf', { secure: 'true' }) })
    expect(secret.status).toBe(201)
    for (const extra of [{}, { identification: 'thief-browser-0003' }]) {
      const r = await claim(e.id, file.id, secret.body.id, extra)
      expect([r.status, r.body.errorFields]).toEqual([400, [{ field: `fields.${file.id}`, errorType: 'INVALID' }]])
    }
    expect((await h().ctx.db.selectFrom('asset').select('visitor_id').where('id', '=', secret.body.id).executeTakeFirstOrThrow()).visitor_id).toBeNull()
  })

  test('an organiser in admin mode cannot attach an anonymous guest\'s upload or another organiser\'s', async () => {
    const { admin, e, photo } = await eventWithFields()
    const up = await anonymousUpload(h(), e.id, 'victim-browser-0004')
    const r = await admin.post(`/proxy/api/events/${e.id}/registrations`, { salutation: 'Frau', firstName: 'A', lastName: 'B', email: uniqueEmail('adm'), sendMail: false, fields: { [photo.id]: { assetId: up.body.id, fileName: 'x.png' } } })
    expect([r.status, r.body.errorType]).toEqual([400, 'FIELD_ERROR'])
    // the organiser's own upload works
    const own = await admin.request('POST', '/api/asset', { form: uploadForm(await smallPng(), 'mine.png', { type: 'EVENT_GUEST' }) })
    const ok = await admin.post(`/proxy/api/events/${e.id}/registrations`, { salutation: 'Frau', firstName: 'A', lastName: 'B', email: uniqueEmail('adm'), sendMail: false, fields: { [photo.id]: { assetId: own.body.id, fileName: 'mine.png' } } })
    expect(ok.status).toBe(201)
  })

  test('an upload of another event of the same agency cannot be claimed', async () => {
    const { admin, e, photo } = await eventWithFields()
    const e2 = await createEvent(admin)
    await admin.post(`/proxy/api/events/${e2.id}/fields`, { type: 'IMAGE', displayName: 'Foto' })
    const up = await anonymousUpload(h(), e2.id, 'same-browser-0005')
    const r = await claim(e.id, photo.id, up.body.id, { identification: 'same-browser-0005' })
    expect(r.status).toBe(400)
  })

  test('a secure upload is read only by its uploader, its agency\'s organisers and the guest it belongs to', async () => {
    const { admin, e } = await eventWithFields()
    const up = await anonymousUpload(h(), e.id, 'victim-browser-0006', 'DYNAMIC_FILE')
    expect(up.status).toBe(201)
    const unknown = await h().request('GET', `/proxy/api/asset/${up.body.id + 7}/download`)
    for (const headers of [{} as Record<string, string>, { 'x-guest-identification': 'thief-browser-0006' }]) {
      const r = await h().request('GET', `/proxy/api/asset/${up.body.id}/download`, { headers })
      expect([r.status, r.body.errorType]).toEqual([unknown.status, unknown.body.errorType])
    }
    const other = await h().admin()
    expect((await other.get(`/proxy/api/asset/${up.body.id}/download`)).status).toBe(404)
    expect((await h().request('GET', `/proxy/api/asset/${up.body.id}/download`, { headers: { 'x-guest-identification': 'victim-browser-0006' } })).status).toBe(200)
    expect((await admin.get(`/proxy/api/asset/${up.body.id}/download`)).status).toBe(200)
  })

  test('asset ids are random, not the next number', async () => {
    const { e } = await eventWithFields()
    const ids: number[] = []
    for (let i = 0; i < 4; i++) ids.push((await anonymousUpload(h(), e.id, `browser-ids-000${i}`)).body.id)
    const steps = ids.slice(1).map((id, i) => id - ids[i])
    expect(steps.every((d) => Math.abs(d) > 1000)).toBe(true)
  })
})
