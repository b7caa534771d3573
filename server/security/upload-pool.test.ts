// Filling an agency's storage from its public form: a stranger's anonymous uploads that never become
// a registration count against no agency. They count in a small pool per client address
// (EINLASS_UPLOAD_UNCLAIMED_POOL_MB, 10 MB here), expire after UNCLAIMED_UPLOAD_HOURS, and only a
// registration's claim moves an upload into the agency's storage (and out of the pool).
import { expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { UNCLAIMED_UPLOAD_HOURS, deleteExpiredUploads } from '../modules/assets/expiry'
import { agencyStoredBytes } from '../modules/assets/service'
import { usage } from '../modules/limits/service'
import { eventBody, forEachDialect, uniqueEmail } from '../testing/harness'
import { uploadForm } from './fixtures'

const MB = 1024 * 1024

forEachDialect(
  'security: anonymous uploads fill no agency storage',
  (h) => {
    async function fileEvent() {
      const admin = await h().admin()
      const eventId = (await admin.post('/proxy/api/events', eventBody())).body.id as number
      const field = (await admin.post(`/proxy/api/events/${eventId}/fields`, { type: 'FILE', displayName: 'Nachweis' })).body
      return { admin, eventId, fieldId: field.id as number }
    }
    const upload = (eventId: number, ident: string, from: string, bytes = 3 * MB) =>
      h().request('POST', '/api/asset', { form: uploadForm(new Uint8Array(randomBytes(bytes)), 'nachweis.pdf', { type: 'DYNAMIC_FILE', event: String(eventId) }), headers: { 'x-guest-identification': ident, 'x-forwarded-for': from } })

    test('four 3 MB uploads from a stranger: no MB of the agency used; the pool of the address (10 MB) takes three, the fourth is refused', async () => {
      const { admin, eventId } = await fileEvent()
      const before = (await usage(h().ctx.db, admin.agencyId)).storageMb
      const results = []
      for (let i = 0; i < 4; i++) results.push(await upload(eventId, `stranger-${i}-abcdef`, '198.51.100.40'))
      expect(results.slice(0, 3).map((r) => r.status)).toEqual([201, 201, 201])
      expect(results[3].status).toBe(429)
      expect(results[3].body).toMatchObject({ errorType: 'UPLOAD_POOL_FULL' })
      expect(results[3].body.errorMessage).toContain('Stunde')
      expect(results[3].body.retryAfter).toBeGreaterThan(0)
      expect((await usage(h().ctx.db, admin.agencyId)).storageMb).toBe(before)
      // the refused file was not kept
      expect(await h().ctx.db.selectFrom('asset').select('id').where('event_id', '=', eventId).execute()).toHaveLength(3)
      // another address has its own pool
      expect((await upload(eventId, 'neighbour-abcdef', '198.51.100.41')).status).toBe(201)
    })

    test('at once: concurrent uploads from one address never pass its pool', async () => {
      const { eventId } = await fileEvent()
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(eventId, `burst-${i}-abcdef`, '198.51.100.42', 2 * MB)))
      expect(results.filter((r) => r.status === 201).length).toBe(4)
      expect(results.filter((r) => r.status !== 201).every((r) => r.status === 429 && r.body.errorType === 'UPLOAD_POOL_FULL')).toBe(true)
    })

    test('a claim moves an upload from the pool into the agency storage; an expired one frees the pool at once and cannot be claimed', async () => {
      const { admin, eventId, fieldId } = await fileEvent()
      const from = '198.51.100.43'
      const kept = await upload(eventId, 'claimer-abcdef', from)
      const left = [await upload(eventId, 'leaver-1-abcdef', from), await upload(eventId, 'leaver-2-abcdef', from)]
      expect([kept, ...left].map((r) => r.status)).toEqual([201, 201, 201])
      expect((await upload(eventId, 'more-abcdef', from)).status).toBe(429)
      const bytesBefore = await agencyStoredBytes(h().ctx.db, admin.agencyId)
      const reg = await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, {
        body: { salutation: 'Frau', firstName: 'F', lastName: 'G', email: uniqueEmail('pool'), identification: 'claimer-abcdef', fields: { [fieldId]: { assetId: kept.body.id, fileName: 'nachweis.pdf' } } },
        headers: { 'x-forwarded-for': from },
      })
      expect(reg.status).toBe(201)
      // claimed: the agency stores it now, the address's pool has room again
      expect(await agencyStoredBytes(h().ctx.db, admin.agencyId)).toBeGreaterThanOrEqual(bytesBefore + 3 * MB)
      expect((await upload(eventId, 'next-abcdef', from)).status).toBe(201)
      // an hour later the unclaimed ones are gone for everyone before the sweep ran: the pool is free, the claim refused
      h().clock.advance(UNCLAIMED_UPLOAD_HOURS * 3600_000 + 60_000)
      expect(UNCLAIMED_UPLOAD_HOURS).toBeLessThanOrEqual(1)
      expect((await upload(eventId, 'later-1-abcdef', from)).status).toBe(201)
      const late = await h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, {
        body: { salutation: 'Frau', firstName: 'L', lastName: 'G', email: uniqueEmail('late'), identification: 'leaver-1-abcdef', fields: { [fieldId]: { assetId: left[0].body.id, fileName: 'nachweis.pdf' } } },
      })
      expect(late.status).toBe(400)
      // the sweep deletes them, twice at once is safe
      const swept = await Promise.all([deleteExpiredUploads(h().ctx), deleteExpiredUploads(h().ctx)])
      expect(swept[0] + swept[1]).toBeGreaterThanOrEqual(3)
      expect(await deleteExpiredUploads(h().ctx)).toBe(0)
      const ids = [kept, ...left].map((r) => r.body.id as number)
      expect((await h().ctx.db.selectFrom('asset').select('id').where('id', 'in', ids).execute()).map((r) => r.id)).toEqual([ids[0]])
    })
  },
  { env: { EINLASS_UPLOAD_UNCLAIMED_POOL_MB: '10' } },
)
