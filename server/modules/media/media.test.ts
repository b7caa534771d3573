// The media gallery on both dialects (docs/media.md): categories with entry counts, entries of the
// agency's own images, the validity window (not offered, not pickable), page sizes, ownership of
// every id, the MEDIA_GALLERY feature gate and the roles.
import { expect, test } from 'bun:test'
import { smallPng, uploadForm } from '../../security/fixtures'
import { type Agent, forEachDialect } from '../../testing/harness'
import { createEvent, licenseWith } from '../../testing/organiser'
import type { LicenseState } from '../license/license'

const G = '/proxy/api/mediaGallery'
const upload = async (a: Agent, name = 'bild.png', extra: Record<string, string> = { type: 'EVENT', secure: 'false' }) => {
  const r = await a.request('POST', '/proxy/api/asset', { form: uploadForm(await smallPng(), name, extra) })
  expect(r.status).toBe(201)
  return r.body as { id: number }
}
const day = 86_400_000

forEachDialect(
  'media gallery',
  (h) => {
    async function category(a: Agent, name = 'Bühne') {
      const r = await a.post(`${G}/categories`, { displayName: name })
      expect(r.status).toBe(201)
      return r.body as { id: number; displayName: string; entryCount: number }
    }

    test('categories with entry counts; entries created, searched, changed, moved, removed', async () => {
      const a = await h().admin()
      expect((await a.get(`${G}/categories`)).body).toEqual({ items: [] })
      const stage = await category(a, ' Bühne ')
      expect(stage).toMatchObject({ displayName: 'Bühne', entryCount: 0 })
      const people = await category(a, 'Personen')
      const img = await upload(a)
      const made = await a.post(`${G}/entries`, { categoryId: stage.id, assetId: img.id, displayName: 'Hauptbühne', copyright: '© Foto Müller', note: ' nur innen ' })
      expect(made.status).toBe(201)
      expect(made.body).toMatchObject({
        categoryId: stage.id,
        assetId: img.id,
        asset: { id: img.id, defaultImagePath: `/proxy/api/asset/${img.id}?dimension=Regular_1000`, originalFileName: 'bild.png' },
        displayName: 'Hauptbühne',
        copyright: '© Foto Müller',
        note: 'nur innen',
        validFrom: null,
        validUntil: null,
        valid: true,
      })
      expect(typeof made.body.lastModified).toBe('string')
      await a.post(`${G}/entries`, { categoryId: stage.id, assetId: (await upload(a, 'b.png')).id, displayName: 'Seitenbühne' })
      expect((await a.get(`${G}/categories`)).body.items).toEqual([
        { id: stage.id, displayName: 'Bühne', entryCount: 2 },
        { id: people.id, displayName: 'Personen', entryCount: 0 },
      ])
      const page = await a.post(`${G}/entries/search`, { categoryId: stage.id, paging: { page: 0, perPage: 2 } })
      expect(page.body.total).toBe(2)
      expect(page.body.items.map((e: { displayName: string }) => e.displayName).sort()).toEqual(['Hauptbühne', 'Seitenbühne'])
      const moved = await a.put(`${G}/entries/${made.body.id}`, { categoryId: people.id, displayName: 'Bühne, neu', copyright: null, note: '' })
      expect(moved.status).toBe(200)
      expect(moved.body).toMatchObject({ categoryId: people.id, displayName: 'Bühne, neu', copyright: null, note: null })
      expect((await a.get(`${G}/categories`)).body.items.map((c: { entryCount: number }) => c.entryCount)).toEqual([1, 1])
      expect((await a.delete(`${G}/entries/${made.body.id}`)).status).toBe(200)
      expect((await a.delete(`${G}/entries/${made.body.id}`)).status).toBe(404)
      expect((await a.put(`${G}/categories/${people.id}`, { displayName: 'Leute' })).body).toEqual({ id: people.id, displayName: 'Leute', entryCount: 0 })
      // deleting a category takes its entries, never the image (an event may show it)
      expect((await a.delete(`${G}/categories/${stage.id}`)).status).toBe(200)
      expect((await a.get(`${G}/categories`)).body.items.map((c: { id: number }) => c.id)).toEqual([people.id])
      expect(await h().ctx.db.selectFrom('media_entry').select('id').where('category_id', '=', stage.id).execute()).toEqual([])
      expect((await h().request('GET', `/proxy/api/asset/${img.id}?dimension=Regular_400`)).status).toBe(200)
    })

    test('page sizes 2, 10, 20, 50 only; pages are stable', async () => {
      const a = await h().admin()
      const c = await category(a)
      const img = await upload(a)
      for (let i = 0; i < 5; i++) expect((await a.post(`${G}/entries`, { categoryId: c.id, assetId: img.id, displayName: `Bild ${i}` })).status).toBe(201)
      for (const bad of [1, 3, 100, 0]) expect((await a.post(`${G}/entries/search`, { categoryId: c.id, paging: { page: 0, perPage: bad } })).status).toBe(400)
      const seen: string[] = []
      for (let p = 0; p < 3; p++) {
        const r = await a.post(`${G}/entries/search`, { categoryId: c.id, paging: { page: p, perPage: 2 } })
        expect(r.status).toBe(200)
        expect(r.body).toMatchObject({ total: 5, page: p, perPage: 2 })
        seen.push(...r.body.items.map((e: { displayName: string }) => e.displayName))
      }
      expect(seen.sort()).toEqual(['Bild 0', 'Bild 1', 'Bild 2', 'Bild 3', 'Bild 4'])
      expect((await a.post(`${G}/entries/search`, { categoryId: c.id, paging: { page: 0, perPage: 50 } })).body.items).toHaveLength(5)
    })

    test('the validity window: entries outside it are not offered and cannot be picked; until before from is refused', async () => {
      const a = await h().admin()
      const c = await category(a)
      const img = await upload(a)
      const now = h().clock.now().getTime()
      const iso = (ms: number) => new Date(ms).toISOString()
      const current = (await a.post(`${G}/entries`, { categoryId: c.id, assetId: img.id, displayName: 'Jetzt', validFrom: iso(now - day), validUntil: iso(now + day) })).body
      const future = (await a.post(`${G}/entries`, { categoryId: c.id, assetId: img.id, displayName: 'Später', validFrom: iso(now + 2 * day) })).body
      const past = (await a.post(`${G}/entries`, { categoryId: c.id, assetId: img.id, displayName: 'Vorbei', validUntil: iso(now - day) })).body
      expect([current.valid, future.valid, past.valid]).toEqual([true, false, false])
      const offered = async () => (await a.post(`${G}/entries/search`, { categoryId: c.id, validOnly: true, paging: { perPage: 10 } })).body.items.map((e: { displayName: string }) => e.displayName).sort()
      expect(await offered()).toEqual(['Jetzt'])
      expect((await a.post(`${G}/entries/search`, { categoryId: c.id })).body.total).toBe(3)
      const pick = await a.post(`${G}/entries/${current.id}/pick`)
      expect(pick.status).toBe(200)
      expect(pick.body).toMatchObject({ assetId: img.id, asset: { defaultImagePath: `/proxy/api/asset/${img.id}?dimension=Regular_1000` } })
      for (const e of [future, past]) {
        const r = await a.post(`${G}/entries/${e.id}/pick`)
        expect(r.status).toBe(409)
        expect(r.body).toMatchObject({ errorType: 'MEDIA_ENTRY_NOT_VALID', errorMessage: 'Dieses Bild ist derzeit nicht gültig und kann nicht verwendet werden.' })
      }
      // three days on: the future one is offered, the current one has run out
      h().clock.advance(3 * day)
      try {
        expect(await offered()).toEqual(['Später'])
        expect((await a.post(`${G}/entries/${current.id}/pick`)).status).toBe(409)
      } finally {
        h().clock.advance(-3 * day)
      }
      const bad = await a.post(`${G}/entries`, { categoryId: c.id, assetId: img.id, displayName: 'X', validFrom: iso(now + day), validUntil: iso(now) })
      expect(bad.status).toBe(400)
      expect(bad.body.errorFields).toEqual([expect.objectContaining({ field: 'validUntil', errorType: 'END_BEFORE_START' })])
      const badDate = await a.post(`${G}/entries`, { categoryId: c.id, assetId: img.id, displayName: 'X', validFrom: 'morgen' })
      expect(badDate.status).toBe(400)
      expect(badDate.body.errorFields).toEqual([expect.objectContaining({ field: 'validFrom', errorType: 'INVALID_DATE' })])
    })

    test('input limits: names required and bounded, only the agency\'s own images', async () => {
      const a = await h().admin()
      const c = await category(a)
      const img = await upload(a)
      expect((await a.post(`${G}/categories`, { displayName: '  ' })).body.errorFields).toEqual([expect.objectContaining({ field: 'displayName', errorType: 'REQUIRED' })])
      expect((await a.post(`${G}/categories`, { displayName: 'x'.repeat(121) })).status).toBe(400)
      expect((await a.post(`${G}/entries`, { categoryId: c.id, assetId: img.id, displayName: 'x'.repeat(201) })).status).toBe(400)
      expect((await a.post(`${G}/entries`, { categoryId: c.id, assetId: img.id, displayName: 'ok', note: 'x'.repeat(1001) })).status).toBe(400)
      const pdf = await a.request('POST', '/proxy/api/asset', { form: uploadForm(new TextEncoder().encode('%PDF-1.4 eine Datei'), 'plan.pdf') })
      expect(pdf.status).toBe(201)
      const notImage = await a.post(`${G}/entries`, { categoryId: c.id, assetId: pdf.body.id, displayName: 'Plan' })
      expect(notImage.status).toBe(400)
      expect(notImage.body.errorFields).toEqual([{ field: 'assetId', errorType: 'INVALID' }])
      expect((await a.post(`${G}/entries`, { categoryId: c.id, assetId: 999_999_999, displayName: 'Fehlt' })).status).toBe(400)
    })

    test("ownership: another agency's category, entry and image are not there", async () => {
      const a = await h().admin()
      const b = await h().admin()
      const ca = await category(a, 'Geheim A')
      const imgA = await upload(a)
      const ea = (await a.post(`${G}/entries`, { categoryId: ca.id, assetId: imgA.id, displayName: 'Geheim' })).body
      const cb = await category(b, 'B')
      const imgB = await upload(b)
      expect((await b.get(`${G}/categories`)).body.items.map((c: { id: number }) => c.id)).toEqual([cb.id])
      expect((await b.post(`${G}/entries/search`, { categoryId: ca.id })).status).toBe(404)
      expect((await b.put(`${G}/categories/${ca.id}`, { displayName: 'X' })).status).toBe(404)
      expect((await b.delete(`${G}/categories/${ca.id}`)).status).toBe(404)
      expect((await b.put(`${G}/entries/${ea.id}`, { displayName: 'X' })).status).toBe(404)
      expect((await b.delete(`${G}/entries/${ea.id}`)).status).toBe(404)
      expect((await b.post(`${G}/entries/${ea.id}/pick`)).status).toBe(404)
      // b's entry naming a's category or a's image; moving b's entry into a's category
      const intoA = await b.post(`${G}/entries`, { categoryId: ca.id, assetId: imgB.id, displayName: 'X' })
      expect(intoA.body.errorFields).toEqual([{ field: 'categoryId', errorType: 'INVALID' }])
      const foreignImg = await b.post(`${G}/entries`, { categoryId: cb.id, assetId: imgA.id, displayName: 'X' })
      expect(foreignImg.body.errorFields).toEqual([{ field: 'assetId', errorType: 'INVALID' }])
      const eb = (await b.post(`${G}/entries`, { categoryId: cb.id, assetId: imgB.id, displayName: 'B' })).body
      expect((await b.put(`${G}/entries/${eb.id}`, { categoryId: ca.id, displayName: 'B' })).body.errorFields).toEqual([{ field: 'categoryId', errorType: 'INVALID' }])
      // a's category and entry unchanged
      expect((await a.get(`${G}/categories`)).body.items).toEqual([{ id: ca.id, displayName: 'Geheim A', entryCount: 1 }])
    })

    test('roles: the check-in staff reads, cannot change; a guest gets nothing; no session is 401', async () => {
      const a = await h().admin()
      const c = await category(a)
      await h().ctx.db.updateTable('account').set({ user_role: 'AGENCY_CHECKIN' }).where('id', '=', a.accountId).execute()
      expect((await a.get(`${G}/categories`)).status).toBe(200)
      expect((await a.post(`${G}/entries/search`, { categoryId: c.id })).status).toBe(200)
      expect((await a.post(`${G}/categories`, { displayName: 'X' })).status).toBe(403)
      expect((await a.delete(`${G}/categories/${c.id}`)).status).toBe(403)
      expect((await h().request('GET', `${G}/categories`)).status).toBe(401)
    })

    test('the event image picked from the gallery shows on the public event page', async () => {
      const a = await h().admin()
      const c = await category(a)
      const img = await upload(a)
      const entry = (await a.post(`${G}/entries`, { categoryId: c.id, assetId: img.id, displayName: 'Titelbild' })).body
      const picked = (await a.post(`${G}/entries/${entry.id}/pick`)).body
      const event = await createEvent(a, { imageAssetId: picked.assetId })
      const pub = await h().request('GET', `/proxy/api/public/events/${event.id}`)
      expect(pub.body.image).toEqual({ id: img.id, path: `/proxy/api/asset/${img.id}?dimension=Regular_1000` })
    })

    test('without the MEDIA_GALLERY feature every call is 403 WRONG_ABO', async () => {
      const ctx = h().ctx as { license: LicenseState }
      const a = await h().admin()
      const c = await category(a)
      const before = ctx.license
      ctx.license = licenseWith([])
      try {
        for (const [m, p, body] of [
          ['GET', `${G}/categories`],
          ['POST', `${G}/categories`, { displayName: 'X' }],
          ['POST', `${G}/entries/search`, { categoryId: c.id }],
          ['DELETE', `${G}/categories/${c.id}`],
        ] as const) {
          const r = await a.request(m, p, { body })
          expect([p, r.status, r.body.errorType]).toEqual([p, 403, 'WRONG_ABO'])
        }
      } finally {
        ctx.license = before
      }
    })
  },
  { license: licenseWith(['MEDIA_GALLERY']) },
)
