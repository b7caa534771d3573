import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'

forEachDialect('tags and campaigns', (h) => {
  test('group---name splits; a name in another case selects the existing tag; new ones are DEFAULT', async () => {
    const admin = await h().admin()
    const a = await admin.post('/proxy/api/tags', { displayName: 'Region---Nord' })
    expect(a.status).toBe(201)
    expect(a.body).toMatchObject({ displayName: 'Region---Nord', group: 'Region', name: 'Nord', type: 'DEFAULT' })
    const again = await admin.post('/proxy/api/tags', { displayName: 'region---NORD' })
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(a.body.id)
    const loc = await admin.post('/proxy/api/tags', { displayName: 'Halle 1', type: 'LOCATION' })
    expect(loc.status).toBe(201)
    expect(loc.body.type).toBe('LOCATION')
    const all = await admin.post('/proxy/api/tags/search', { paging: { perPage: 9999 } })
    expect(all.body.total).toBe(2)
    const onlyLoc = await admin.post('/proxy/api/tags/search', { type: 'LOCATION', paging: { page: 0, perPage: 9999 } })
    expect(onlyLoc.body.items.map((x: any) => x.displayName)).toEqual(['Halle 1'])
    const found = await admin.post('/proxy/api/tags/search', { search: 'nor' })
    expect(found.body.items.map((x: any) => x.id)).toEqual([a.body.id])
  })

  test('rename, rename clash, delete; other agencies see 404', async () => {
    const admin = await h().admin()
    const other = await h().admin()
    const a = (await admin.post('/proxy/api/tags', { displayName: 'Alt' })).body
    await admin.post('/proxy/api/tags', { displayName: 'Besetzt' })
    const r = await admin.patch(`/proxy/api/tags/${a.id}`, { displayName: 'Gruppe---Neu' })
    expect(r.body).toMatchObject({ displayName: 'Gruppe---Neu', group: 'Gruppe', name: 'Neu' })
    const clash = await admin.patch(`/proxy/api/tags/${a.id}`, { displayName: 'besetzt' })
    expect(clash.status).toBe(400)
    expect(clash.body.errorFields).toEqual([{ field: 'displayName', errorType: 'NAME_TAKEN' }])
    expect((await other.patch(`/proxy/api/tags/${a.id}`, { displayName: 'X' })).status).toBe(404)
    expect((await other.delete(`/proxy/api/tags/${a.id}`)).status).toBe(404)
    expect((await admin.delete(`/proxy/api/tags/${a.id}`)).status).toBe(200)
    expect((await admin.post('/proxy/api/tags/search', {})).body.items.map((x: any) => x.displayName)).toEqual(['Besetzt'])
  })

  test('campaigns: list, create with case-insensitive duplicates, search, update, delete', async () => {
    const admin = await h().admin()
    const c = await admin.post('/proxy/api/campaigns', { displayName: 'Newsletter---Mai' })
    expect(c.status).toBe(201)
    expect((await admin.post('/proxy/api/campaigns', { displayName: 'NEWSLETTER---mai' })).status).toBe(200)
    await admin.post('/proxy/api/campaigns', { displayName: 'Plakat' })
    expect((await admin.get('/proxy/api/campaigns')).body.map((x: any) => x.displayName)).toEqual(['Newsletter---Mai', 'Plakat'])
    expect((await admin.post('/proxy/api/campaigns/search', { search: 'plak' })).body.items.map((x: any) => x.displayName)).toEqual(['Plakat'])
    expect((await admin.patch(`/proxy/api/campaigns/${c.body.id}`, { displayName: 'Newsletter---Juni' })).body.name).toBe('Juni')
    expect((await admin.delete(`/proxy/api/campaigns/${c.body.id}`, { reason: 'x' })).status).toBe(200)
    expect((await admin.get('/proxy/api/campaigns')).body).toHaveLength(1)
  })

  test('writing needs TAG.MANAGE; empty names are refused', async () => {
    const admin = await h().admin()
    await h().ctx.db.updateTable('account').set({ user_role: 'AGENCY_CHECKIN' }).where('id', '=', admin.accountId).execute()
    expect((await admin.post('/proxy/api/tags', { displayName: 'X' })).status).toBe(403)
    expect((await admin.post('/proxy/api/tags/search', {})).status).toBe(200)
    const other = await h().admin()
    const r = await other.post('/proxy/api/tags', { displayName: '  ' })
    expect(r.status).toBe(400)
    expect(r.body.errorFields).toEqual([{ field: 'displayName', errorType: 'REQUIRED' }])
  })
})
