// The offline desk's server half (issue 26, docs/checkin-offline.md): desks and keys, the download,
// the sync (idempotent, ordered, conflicts, never a double count, revoked codes, hostile input) and
// the conflicts list, on both dialects.
import { expect, test } from 'bun:test'
import { type Agent, TEST_PASSWORD, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent, licenseWith } from '../../testing/organiser'
import { FEED_KEEP_DAYS, sweepOfflineFeed } from './changes'
import { generationOf, ticketKeyOfEvent } from './signed-code'

forEachDialect('offline desk', (h) => {
  let admin: Agent & { agencyId: number; accountId: number; email: string }
  let seq = 0
  const key = () => `k-${Date.now()}-${seq++}`
  const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString()
  test('setup', async () => {
    admin = await h().admin()
  })
  async function setup() {
    const e = await createEvent(admin)
    const g = await addGuest(admin, e.id, { status: 'CONFIRMED', escortPersons: [{ firstName: 'Eva', lastName: 'Eins' }] })
    const a = await admin.post(`/proxy/api/events/${e.id}/checkin/desks`, { name: 'Eingang Nord' })
    const b = await admin.post(`/proxy/api/events/${e.id}/checkin/desks`, { name: 'Eingang Süd' })
    expect(a.status).toBe(201)
    return { e, g, deskA: a.body.deskId as number, deskB: b.body.deskId as number }
  }
  const syncOf = (eventId: number, body: Record<string, unknown>, who: Agent = admin) => who.post(`/proxy/api/events/${eventId}/checkin/sync`, body)
  const counts = async (eventId: number) => (await admin.get(`/proxy/api/events/${eventId}/checkin/counts`)).body

  test('a desk gets a key for its local copy, again only in its own login session; gone after logout', async () => {
    const e = await createEvent(admin)
    const r = await admin.post(`/proxy/api/events/${e.id}/checkin/desks`, { name: 'Tablet 1' })
    expect(r.status).toBe(201)
    expect(Buffer.from(r.body.key, 'base64').length).toBe(32)
    const again = await admin.get(`/proxy/api/events/${e.id}/checkin/desks/${r.body.deskId}/key`)
    expect(again.body).toEqual({ deskId: r.body.deskId, key: r.body.key })
    // the same user in another login session: not this desk's key
    const other = h().agent()
    expect((await other.post('/auth/login', { email: admin.email, password: TEST_PASSWORD })).status).toBe(200)
    other.headers['x-account-id'] = String(admin.accountId)
    expect((await other.get(`/proxy/api/events/${e.id}/checkin/desks/${r.body.deskId}/key`)).status).toBe(401)
    // after logout the key is deleted with the session: unrecoverable, also after logging in again
    await other.get('/logout')
    const second = await other.post(`/proxy/api/events/${e.id}/checkin/desks`, { name: 'Tablet 2' })
    expect(second.status).toBe(401)
    const desk = await admin.post(`/proxy/api/events/${e.id}/checkin/desks`, { name: 'Tablet 3' })
    const me = h().agent()
    await me.post('/auth/login', { email: admin.email, password: TEST_PASSWORD })
    me.headers['x-account-id'] = String(admin.accountId)
    const d2 = await me.post(`/proxy/api/events/${e.id}/checkin/desks`, { name: 'Tablet 4' })
    await me.get('/logout')
    const rows = await h().ctx.db.selectFrom('checkin_desk_key').select('desk_id').where('desk_id', 'in', [desk.body.deskId, d2.body.deskId]).execute()
    expect(rows.map((x) => x.desk_id)).toEqual([desk.body.deskId])
    await me.post('/auth/login', { email: admin.email, password: TEST_PASSWORD })
    expect((await me.get(`/proxy/api/events/${e.id}/checkin/desks/${d2.body.deskId}/key`)).status).toBe(401)
    // another event's desk id: 404
    const e2 = await createEvent(admin)
    expect((await admin.get(`/proxy/api/events/${e2.id}/checkin/desks/${r.body.deskId}/key`)).status).toBe(404)
  })

  test('the download holds what the desk needs and no e-mail addresses', async () => {
    const { e, g, deskA } = await setup()
    const r = await admin.get(`/proxy/api/events/${e.id}/checkin/offline?deskId=${deskA}`)
    expect(r.status).toBe(200)
    expect(r.text).not.toContain('@')
    const d = r.body
    expect(d).toMatchObject({ format: 1, eventId: e.id, deskId: deskA })
    expect(d.verificationKey).toBe(ticketKeyOfEvent(h().ctx.secrets.signingKey, e.id).toString('base64'))
    expect(d.cursor).toMatch(/^\d+$/)
    const row = await h().ctx.db.selectFrom('event_visitor').select('ticket_code').where('id', '=', g.id).executeTakeFirstOrThrow()
    expect(d.registrations).toEqual([
      { v: g.id, s: 'CONFIRMED', g: row.ticket_code ? generationOf(row.ticket_code) : null, b: null, c: [], m: [], p: [[0, 'Grete', 'Gast', 0, null, null], [1, 'Eva', 'Eins', 0, null, null]], l: [] },
    ])
    expect((await admin.get(`/proxy/api/events/${e.id}/checkin/offline?deskId=999999`)).status).toBe(404)
  })

  test('sync: applied once per key, in order, counts never twice; changes since the cursor', async () => {
    const { e, g, deskA } = await setup()
    const cursor = (await admin.get(`/proxy/api/events/${e.id}/checkin/offline?deskId=${deskA}`)).body.cursor
    const k1 = key()
    const items = [
      { key: k1, visitorId: g.id, person: 0, action: 'IN', at: ago(300) },
      { key: key(), visitorId: g.id, person: 0, action: 'OUT', at: ago(200) },
      { key: key(), visitorId: g.id, person: 0, action: 'IN', at: ago(100) },
      { key: k1, visitorId: g.id, person: 0, action: 'IN', at: ago(300) },
    ]
    const r = await syncOf(e.id, { deskId: deskA, cursor, items })
    expect(r.status).toBe(200)
    expect(r.body.results.map((x: any) => x.result)).toEqual(['APPLIED', 'APPLIED', 'APPLIED', 'DUPLICATE'])
    expect(r.body.counts).toEqual({ registered: 2, checkedIn: 1, checkedOut: 0 })
    expect(r.body.changes.map((c: any) => c.v)).toEqual([g.id])
    expect(r.body.changes[0].p[0][3]).toBe(1)
    // the whole batch again: nothing changes
    const twice = await syncOf(e.id, { deskId: deskA, cursor: r.body.cursor, items })
    expect(twice.body.results.map((x: any) => x.result)).toEqual(['DUPLICATE', 'DUPLICATE', 'DUPLICATE', 'DUPLICATE'])
    // nothing new; a registration may come again (Postgres: the cursor is a snapshot's xmin), in the same state
    for (const c of twice.body.changes) expect(c).toEqual(r.body.changes[0])
    expect(await counts(e.id)).toEqual({ registered: 2, checkedIn: 1, checkedOut: 0 })
    // a check-in at the online desk comes back as a change with the next sync
    expect((await admin.post(`/proxy/api/events/${e.id}/checkin`, { visitorId: g.id, checkinGuests: [1] })).status).toBe(200)
    const later = await syncOf(e.id, { deskId: deskA, cursor: twice.body.cursor, items: [] })
    expect(later.body.changes.map((c: any) => [c.v, c.p[1][3]])).toEqual([[g.id, 1]])
    // no cursor: no changes, the desk is told to download again
    expect((await syncOf(e.id, { deskId: deskA, items: [] })).body.resync).toBe(true)
  })

  test('two desks admitted one person: the first by time is kept, the other is a conflict; seen', async () => {
    const { e, g, deskA, deskB } = await setup()
    const a = await syncOf(e.id, { deskId: deskA, items: [{ key: key(), visitorId: g.id, person: 0, action: 'IN', at: ago(60) }] })
    expect(a.body.results[0].result).toBe('APPLIED')
    // desk B was offline and admitted the same person earlier: B's time is kept, A's is the conflict
    const b = await syncOf(e.id, { deskId: deskB, items: [{ key: key(), visitorId: g.id, person: 0, action: 'IN', at: ago(120) }] })
    expect(b.body.results[0]).toMatchObject({ result: 'CONFLICT' })
    expect(await counts(e.id)).toEqual({ registered: 2, checkedIn: 1, checkedOut: 0 })
    const v = await h().ctx.db.selectFrom('event_visitor').select('main_guest_checkin_date').where('id', '=', g.id).executeTakeFirstOrThrow()
    expect(Math.abs(Date.parse(v.main_guest_checkin_date!) - (Date.now() - 120_000))).toBeLessThan(5000)
    // a third desk later still: conflict, the kept time does not move
    const c = await syncOf(e.id, { deskId: deskA, items: [{ key: key(), visitorId: g.id, person: 0, action: 'IN', at: ago(10) }] })
    expect(c.body.results[0].result).toBe('CONFLICT')
    expect(await counts(e.id)).toEqual({ registered: 2, checkedIn: 1, checkedOut: 0 })
    const list = await admin.get(`/proxy/api/events/${e.id}/checkin/conflicts`)
    expect(list.body.items).toHaveLength(2)
    const first = list.body.items[1]
    expect(first).toMatchObject({ visitorId: g.id, person: 0, firstName: 'Grete', first: { deskId: deskB, deskName: 'Eingang Süd' }, second: { deskId: deskA, deskName: 'Eingang Nord' }, seenAt: null })
    expect(Date.parse(first.first.at)).toBeLessThan(Date.parse(first.second.at))
    expect((await admin.post(`/proxy/api/events/${e.id}/checkin/conflicts/${first.id}/seen`)).status).toBe(200)
    expect((await admin.get(`/proxy/api/events/${e.id}/checkin/conflicts`)).body.items[1].seenAt).toBeTruthy()
    const other = await createEvent(admin)
    expect((await admin.post(`/proxy/api/events/${other.id}/checkin/conflicts/${first.id}/seen`)).status).toBe(404)
    // the same desk twice (its own double): refused, not a conflict
    const own = await syncOf(e.id, { deskId: deskB, items: [{ key: key(), visitorId: g.id, person: 0, action: 'IN', at: ago(5) }] })
    expect(own.body.results[0]).toMatchObject({ result: 'REFUSED', reason: 'ALREADY_CHECKED_IN' })
  })

  test('refused: revoked code, withdrawn guest, out without in; hostile input', async () => {
    const { e, g, deskA } = await setup()
    const before = await h().ctx.db.selectFrom('event_visitor').select('ticket_code').where('id', '=', g.id).executeTakeFirstOrThrow()
    const oldGen = generationOf(before.ticket_code ?? 'NONE')
    // the place is passed on: a new ticket code retires the printed codes
    await h().ctx.db.updateTable('event_visitor').set({ ticket_code: 'NEWCODE123' }).where('id', '=', g.id).execute()
    const stranger = await addGuest(admin, (await createEvent(admin)).id, { status: 'CONFIRMED' })
    const r = await syncOf(e.id, {
      deskId: deskA,
      items: [
        { key: key(), visitorId: g.id, person: 0, action: 'IN', at: ago(30), generation: oldGen },
        { key: key(), visitorId: g.id, person: 0, action: 'OUT', at: ago(20) },
        { key: key(), visitorId: stranger.id, person: 0, action: 'IN', at: ago(20) },
        { key: key(), visitorId: g.id, person: 7, action: 'IN', at: ago(20) },
        { key: key(), visitorId: g.id, person: 0, action: 'IN', at: new Date(Date.now() + 3600_000).toISOString() },
        { key: key(), visitorId: g.id, person: 0, action: 'IN', at: ago(20), listId: 999999 },
        { key: key(), visitorId: g.id, person: 1, action: 'IN', at: ago(20), generation: generationOf('NEWCODE123') },
      ],
    })
    expect(r.status).toBe(200)
    expect(r.body.results.map((x: any) => x.reason ?? x.result)).toEqual(['CODE_REVOKED', 'NOT_CHECKED_IN', 'NOT_FOUND', 'NOT_FOUND', 'TIME_INVALID', 'NOT_FOUND', 'APPLIED'])
    // a withdrawn registration is refused
    await h().ctx.db.updateTable('event_visitor').set({ status: 'CANCELED' as never }).where('id', '=', g.id).execute()
    const w = await syncOf(e.id, { deskId: deskA, items: [{ key: key(), visitorId: g.id, person: 0, action: 'IN', at: ago(5) }] })
    expect(w.body.results[0]).toMatchObject({ result: 'REFUSED', reason: 'CHECKIN_STATUS' })
    // another event's desk, too many items, malformed times and keys: refused as a whole
    const other = await createEvent(admin)
    expect((await syncOf(other.id, { deskId: deskA, items: [] })).status).toBe(404)
    const many = Array.from({ length: 5001 }, (_, i) => ({ key: `m${i}`, visitorId: g.id, person: 0, action: 'IN', at: ago(1) }))
    expect((await syncOf(e.id, { deskId: deskA, items: many })).status).toBe(400)
    expect((await syncOf(e.id, { deskId: deskA, items: [{ key: key(), visitorId: g.id, person: 0, action: 'IN', at: 'gestern' }] })).status).toBe(400)
    expect((await syncOf(e.id, { deskId: deskA, items: [{ key: '', visitorId: g.id, person: 0, action: 'IN', at: ago(1) }] })).status).toBe(400)
    expect((await syncOf(e.id, { deskId: deskA, items: [{ key: key(), visitorId: g.id, person: 0, action: 'DROP', at: ago(1) }] })).status).toBe(400)
    expect((await syncOf(e.id, { deskId: deskA, cursor: "1; drop table event", items: [] })).body.resync).toBe(true)
    // another agency cannot reach the event, its desks or its conflicts
    const stranger2 = await h().admin()
    expect((await syncOf(e.id, { deskId: deskA, items: [] }, stranger2)).status).toBe(404)
    expect((await stranger2.get(`/proxy/api/events/${e.id}/checkin/conflicts`)).status).toBe(404)
  })

  test('the same key sent at once by many requests counts once', async () => {
    const { e, g, deskA, deskB } = await setup()
    const k = key()
    const at = ago(40)
    const rs = await Promise.all(Array.from({ length: 12 }, (_, i) => syncOf(e.id, { deskId: i % 2 ? deskA : deskA, items: [{ key: k, visitorId: g.id, person: 1, action: 'IN', at }] })))
    expect(rs.map((r) => r.status)).toEqual(Array(12).fill(200))
    expect(rs.filter((r) => r.body.results[0].result === 'APPLIED')).toHaveLength(1)
    expect(rs.filter((r) => r.body.results[0].result === 'DUPLICATE')).toHaveLength(11)
    // two desks at once on one person: one applied, one conflict, counted once
    const two = await Promise.all([deskA, deskB].map((d, i) => syncOf(e.id, { deskId: d, items: [{ key: key(), visitorId: g.id, person: 0, action: 'IN', at: ago(30 + i) }] })))
    expect(two.map((r) => r.body.results[0].result).sort()).toEqual(['APPLIED', 'CONFLICT'])
    expect(await counts(e.id)).toEqual({ registered: 2, checkedIn: 2, checkedOut: 0 })
    const presence = await h().ctx.db.selectFrom('presence').select('person').where('visitor_id', '=', g.id).execute()
    expect(presence).toHaveLength(2)
  })

  test('a check-in list: on the list once, a second desk a conflict of the list', async () => {
    const { e, g, deskA, deskB } = await setup()
    const l = await admin.post(`/proxy/api/events/${e.id}/checkin/lists`, { name: 'Workshop', categoryIds: [] })
    expect(l.status).toBe(201)
    const a = await syncOf(e.id, { deskId: deskA, items: [{ key: key(), visitorId: g.id, person: 0, action: 'IN', at: ago(50), listId: l.body.id }] })
    expect(a.body.results[0].result).toBe('APPLIED')
    const b = await syncOf(e.id, { deskId: deskB, items: [{ key: key(), visitorId: g.id, person: 0, action: 'IN', at: ago(40), listId: l.body.id }] })
    expect(b.body.results[0].result).toBe('CONFLICT')
    expect((await admin.get(`/proxy/api/events/${e.id}/checkin/counts?listId=${l.body.id}`)).body).toMatchObject({ checkedIn: 1 })
    expect(await counts(e.id)).toMatchObject({ checkedIn: 1 })
    const c = await admin.get(`/proxy/api/events/${e.id}/checkin/conflicts`)
    expect(c.body.items[0]).toMatchObject({ listId: l.body.id, listName: 'Workshop' })
  })

  test('retention: the feed and sync items of an event ended two weeks ago go, a running event keeps its own', async () => {
    const old = await setup()
    const now = await setup()
    for (const x of [old, now]) expect((await syncOf(x.e.id, { deskId: x.deskA, cursor: '0', items: [{ key: key(), visitorId: x.g.id, person: 0, action: 'IN', at: ago(60) }] })).status).toBe(200)
    const count = async (table: 'checkin_change' | 'checkin_sync_item', eventId: number) => Number((await h().ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('event_id', '=', eventId).executeTakeFirstOrThrow()).n)
    for (const x of [old, now]) {
      expect(await count('checkin_change', x.e.id)).toBeGreaterThan(0)
      expect(await count('checkin_sync_item', x.e.id)).toBe(1)
    }
    const ended = new Date(Date.now() - (FEED_KEEP_DAYS + 1) * 86400_000)
    await h().ctx.db.updateTable('event').set({ start_date: new Date(ended.getTime() - 3600_000).toISOString(), end_date: ended.toISOString() }).where('id', '=', old.e.id).execute()
    const first = await sweepOfflineFeed(h().ctx.db, new Date())
    expect(first.items).toBeGreaterThanOrEqual(1)
    expect([await count('checkin_change', old.e.id), await count('checkin_sync_item', old.e.id)]).toEqual([0, 0])
    expect(await count('checkin_change', now.e.id)).toBeGreaterThan(0)
    expect(await count('checkin_sync_item', now.e.id)).toBe(1)
    // twice is harmless; the check-in itself and the counts stay
    expect(await sweepOfflineFeed(h().ctx.db, new Date())).toEqual({ changes: 0, items: 0 })
    expect(await counts(old.e.id)).toMatchObject({ checkedIn: 1 })
  })
}, { license: licenseWith([], { events: -1 }) })
