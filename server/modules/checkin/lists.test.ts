// Check-in lists (docs/ticketing.md "Check-in lists"): CRUD for the event's editors, read by the
// desk, ownership of every id, input checked.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { createEvent } from '../../testing/organiser'
import { paidEvent } from '../ticketing/testing'

forEachDialect('check-in lists', (h) => {
  const cats = [
    { displayName: 'Kategorie A', grossPrice: 2500, taxCode: 'TAX_19', quota: 10 },
    { displayName: 'Kategorie B', grossPrice: 1000, taxCode: 'TAX_19', quota: 10 },
  ]

  test('create, list, rename, change categories, delete', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { categories: cats })
    const base = `/proxy/api/events/${event.id}/checkin/lists`
    expect((await admin.get(base)).body).toEqual({ items: [] })
    const main = await admin.post(base, { name: ' Haupteingang ', categoryIds: [categories[0].id] })
    expect(main.status).toBe(201)
    expect(main.body).toMatchObject({ name: 'Haupteingang', eventId: event.id, categoryIds: [categories[0].id], categories: [{ id: categories[0].id, displayName: 'Kategorie A' }] })
    const all = await admin.post(base, { name: 'Alle' })
    expect(all.body.categoryIds).toEqual([])
    expect((await admin.get(base)).body.items.map((l: { name: string }) => l.name)).toEqual(['Haupteingang', 'Alle'])

    const put = await admin.put(`${base}/${main.body.id}`, { name: 'Einlass Haupteingang', categoryIds: [categories[0].id, categories[1].id, categories[0].id] })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ id: main.body.id, name: 'Einlass Haupteingang', categoryIds: [categories[0].id, categories[1].id] })

    expect((await admin.delete(`${base}/${all.body.id}`)).status).toBe(200)
    expect((await admin.get(base)).body.items.map((l: { id: number }) => l.id)).toEqual([main.body.id])
    expect((await admin.delete(`${base}/${all.body.id}`)).status).toBe(404)
  })

  test('bad input: name 1–100 characters, categories of this event only', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { categories: cats })
    const other = await paidEvent(admin, { categories: [cats[0]] })
    const base = `/proxy/api/events/${event.id}/checkin/lists`
    const empty = await admin.post(base, { name: '  ' })
    expect(empty.status).toBe(400)
    expect(empty.body.errorFields).toEqual([expect.objectContaining({ field: 'name', errorType: 'REQUIRED' })])
    expect((await admin.post(base, { name: 'x'.repeat(101) })).status).toBe(400)
    expect((await admin.post(base, { name: 'x'.repeat(100) })).status).toBe(201)
    const foreign = await admin.post(base, { name: 'Fremd', categoryIds: [other.categories[0].id] })
    expect(foreign.status).toBe(400)
    expect(foreign.body.errorFields).toEqual([expect.objectContaining({ field: 'categoryIds', errorType: 'INVALID' })])
    expect(typeof foreign.body.errorMessage).toBe('string')
    expect((await admin.post(base, { name: 'Ok', categoryIds: [categories[1].id] })).status).toBe(201)
  })

  test("ownership: another agency's event or list id is 404; another event's list id is 404; the checkin role reads, cannot edit", async () => {
    const a = await h().admin()
    const b = await h().admin()
    const e = await createEvent(a)
    const e2 = await createEvent(a)
    const list = (await a.post(`/proxy/api/events/${e.id}/checkin/lists`, { name: 'Workshop' })).body
    expect((await b.get(`/proxy/api/events/${e.id}/checkin/lists`)).status).toBe(404)
    expect((await b.post(`/proxy/api/events/${e.id}/checkin/lists`, { name: 'X' })).status).toBe(404)
    expect((await b.put(`/proxy/api/events/${e.id}/checkin/lists/${list.id}`, { name: 'X' })).status).toBe(404)
    expect((await b.delete(`/proxy/api/events/${e.id}/checkin/lists/${list.id}`)).status).toBe(404)
    const own = await createEvent(b)
    expect((await b.put(`/proxy/api/events/${own.id}/checkin/lists/${list.id}`, { name: 'X' })).status).toBe(404)
    expect((await b.delete(`/proxy/api/events/${own.id}/checkin/lists/${list.id}`)).status).toBe(404)
    expect((await a.put(`/proxy/api/events/${e2.id}/checkin/lists/${list.id}`, { name: 'X' })).status).toBe(404)
    expect((await a.get(`/proxy/api/events/${e.id}/checkin/lists`)).body.items[0].name).toBe('Workshop')

    await h().ctx.db.updateTable('account').set({ user_role: 'AGENCY_CHECKIN' }).where('id', '=', b.accountId).execute()
    const ownList = await b.post(`/proxy/api/events/${own.id}/checkin/lists`, { name: 'X' })
    expect(ownList.status).toBe(403)
    expect((await b.get(`/proxy/api/events/${own.id}/checkin/lists`)).status).toBe(200)
  })
})
