// The desk's live counts are counters kept by triggers (migration 601): after every kind of write —
// registrations, check-ins and check-outs (also concurrent), status changes, escorts added and removed,
// a takeover, rows deleted — they equal a full count over the event's registrations.
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { type Db, openDatabase } from '../../db/database'
import { migrateToLatest, migrator } from '../../db/migrate'
import { type Harness, forEachDialect, uniqueEmail } from '../../testing/harness'
import { createSchema } from '../../testing/postgres'
import { checkinCounts } from './service'
import { addGuest, createEvent } from '../../testing/organiser'

/** What the desk counted before: every registration and escort of the event, aggregated. */
async function fullCount(db: Db, eventId: number) {
  const yes = true as never
  const main = await db
    .selectFrom('event_visitor')
    .select((eb) => [
      eb.fn.sum<number>('visitor_count').as('registered'),
      eb.fn.sum<number>(eb.case().when(eb.and([eb('main_guest_checked_in', '=', yes), eb('main_guest_checked_out', '=', false as never)])).then(1).else(0).end()).as('inNow'),
      eb.fn.sum<number>(eb.case().when('main_guest_checked_out', '=', yes).then(1).else(0).end()).as('out'),
    ])
    .where('event_id', '=', eventId)
    .where('status', 'in', ['CONFIRMED', 'APPEARED'])
    .executeTakeFirst()
  const esc = await db
    .selectFrom('escort_person as e')
    .innerJoin('event_visitor as v', 'v.id', 'e.visitor_id')
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when(eb.and([eb('e.checked_in', '=', yes), eb('e.checked_out', '=', false as never)])).then(1).else(0).end()).as('inNow'),
      eb.fn.sum<number>(eb.case().when('e.checked_out', '=', yes).then(1).else(0).end()).as('out'),
    ])
    .where('v.event_id', '=', eventId)
    .where('v.status', 'in', ['CONFIRMED', 'APPEARED'])
    .executeTakeFirst()
  const n = (x: unknown) => Number(x ?? 0)
  return { registered: n(main?.registered), checkedIn: n(main?.inNow) + n(esc?.inNow), checkedOut: n(main?.out) + n(esc?.out) }
}

forEachDialect('check-in desk counts', (h) => {
  const escorts = (k: number) => Array.from({ length: k }, (_, i) => ({ firstName: `Begleitung${i + 1}`, lastName: 'Person' }))

  async function expectCounts(x: Harness, admin: Awaited<ReturnType<Harness['admin']>>, eventId: number, expected?: { registered: number; checkedIn: number; checkedOut: number }) {
    const counted = (await admin.get(`/proxy/api/events/${eventId}/checkin/counts`)).body
    expect(counted).toEqual(await fullCount(x.ctx.db, eventId))
    if (expected) expect(counted).toEqual(expected)
  }

  test('counters equal a full count after a mix of every write', async () => {
    const x = h()
    const admin = await x.admin()
    const e = await createEvent(admin, { maxVisitors: 200, maxVisitorPerSubscription: 4 })
    const other = await createEvent(admin, { maxVisitors: 200 })
    const checkin = (body: Record<string, unknown>) => admin.post(`/proxy/api/events/${e.id}/checkin`, body)
    await expectCounts(x, admin, e.id, { registered: 0, checkedIn: 0, checkedOut: 0 })

    // registrations: public with escorts, organiser-added (confirmed and not), another event
    const pub = await x.request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Pia', lastName: 'Public', email: uniqueEmail('pub'), escortPersons: escorts(2) } })
    expect(pub.status).toBe(201)
    const a = await addGuest(admin, e.id, { status: 'CONFIRMED', escortPersons: escorts(1) })
    const b = await addGuest(admin, e.id, { status: 'CONFIRMED' })
    const c = await addGuest(admin, e.id)
    await addGuest(admin, other.id, { status: 'CONFIRMED', escortPersons: escorts(3) })
    await expectCounts(x, admin, e.id, { registered: 6, checkedIn: 0, checkedOut: 0 })

    // check in all of the public registration, the main guest of a; one escort out again; re-entry
    expect((await checkin({ visitorId: pub.body.visitorId, checkinGuests: 'ALL' })).status).toBe(200)
    expect((await checkin({ visitorId: a.id, checkinGuests: [0] })).status).toBe(200)
    await expectCounts(x, admin, e.id, { registered: 6, checkedIn: 4, checkedOut: 0 })
    expect((await checkin({ visitorId: pub.body.visitorId, checkoutGuests: [1] })).status).toBe(200)
    await expectCounts(x, admin, e.id, { registered: 6, checkedIn: 3, checkedOut: 1 })
    expect((await checkin({ visitorId: pub.body.visitorId, checkinGuests: [1] })).status).toBe(200)
    expect((await checkin({ visitorId: a.id, checkoutGuests: [0] })).status).toBe(200)
    await expectCounts(x, admin, e.id)

    // status changes: decline and approve b, invite and take over c (public registration), delete an APPEARED one with escorts in
    await admin.post(`/proxy/api/events/${e.id}/visitors/${b.id}/decline`, { notify: false })
    await expectCounts(x, admin, e.id, { registered: 5, checkedIn: 3, checkedOut: 1 })
    await admin.post(`/proxy/api/events/${e.id}/visitors/${b.id}/approve`, { notify: false })
    await admin.post(`/proxy/api/events/${e.id}/visitors/${c.id}/invite`, {})
    // through the guest's own invitation (its event token): a stranger with the e-mail is refused (ALREADY_INVITED)
    const cToken = (await x.ctx.db.selectFrom('event_visitor').select('event_token').where('id', '=', c.id).executeTakeFirstOrThrow()).event_token
    const over = await x.request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: { salutation: 'Frau', firstName: 'Cleo', lastName: 'Club', email: c.email, escortPersons: escorts(1) }, headers: { 'x-guest-token': cToken } })
    expect(over.body.visitorId).toBe(c.id)
    await expectCounts(x, admin, e.id, { registered: 8, checkedIn: 3, checkedOut: 1 })
    await admin.post(`/proxy/api/events/${e.id}/visitors/${pub.body.visitorId}/delete`)
    await expectCounts(x, admin, e.id, { registered: 5, checkedIn: 0, checkedOut: 1 })
    await admin.post(`/proxy/api/events/${e.id}/visitors/${pub.body.visitorId}/restore`)
    await admin.post(`/proxy/api/events/${e.id}/visitors/${pub.body.visitorId}/approve`, { notify: false })
    await expectCounts(x, admin, e.id)

    // editing: a's checked-in escort removed, two new ones added (persons 2 → 3)
    expect((await checkin({ visitorId: a.id, checkinGuests: 'ALL' })).status).toBe(200)
    const detail = (await admin.get(`/proxy/api/events/${e.id}/visitors/${a.id}`)).body
    const edit = await admin.put(`/proxy/api/events/${e.id}/visitors/${a.id}`, { salutation: 'Frau', firstName: detail.firstName, lastName: detail.lastName, email: detail.email, escortPersons: escorts(2) })
    expect(edit.status).toBe(200)
    await expectCounts(x, admin, e.id)

    // a row removed outright (as an undone import does): its escorts go with it by cascade
    const doomed = await addGuest(admin, e.id, { status: 'CONFIRMED', escortPersons: escorts(2) })
    expect((await checkin({ visitorId: doomed.id, checkinGuests: 'ALL' })).status).toBe(200)
    expect((await checkin({ visitorId: doomed.id, checkoutGuests: [2] })).status).toBe(200)
    const before = await fullCount(x.ctx.db, e.id)
    await x.ctx.db.deleteFrom('event_visitor').where('id', '=', doomed.id).execute()
    await expectCounts(x, admin, e.id, { registered: before.registered - 3, checkedIn: before.checkedIn - 2, checkedOut: before.checkedOut - 1 })

    // concurrent check-ins at several desks: new guests, each scanned three times at once
    const crowd = await Promise.all(Array.from({ length: 12 }, (_, i) => addGuest(admin, e.id, { status: 'CONFIRMED', escortPersons: escorts(i % 3) })))
    const scans = crowd.flatMap((g, i) => [0, 1, 2].map((k) => checkin({ visitorId: g.id, checkinGuests: 'ALL', nonce: `desk-${k}-guest-${i}-${e.id}` })))
    const answers = await Promise.all(scans)
    expect(answers.filter((r) => r.status === 200).length).toBe(12)
    const afterScans = await fullCount(x.ctx.db, e.id)
    await expectCounts(x, admin, e.id)
    // concurrent check-outs and re-entries of the same people
    await Promise.all(crowd.map((g, i) => checkin({ visitorId: g.id, checkoutGuests: 'ALL', nonce: `checkout-${i}-${e.id}` })))
    await Promise.all(crowd.slice(0, 6).map((g, i) => checkin({ visitorId: g.id, checkinGuests: [0], nonce: `reentry-${i}-${e.id}` })))
    await expectCounts(x, admin, e.id, { registered: afterScans.registered, checkedIn: afterScans.checkedIn - crowd.reduce((n, _, i) => n + 1 + (i % 3), 0) + 6, checkedOut: afterScans.checkedOut + crowd.reduce((n, _, i) => n + 1 + (i % 3), 0) - 6 })

    // the other event was never touched by any of this
    const o = (await admin.get(`/proxy/api/events/${other.id}/checkin/counts`)).body
    expect(o).toEqual({ registered: 4, checkedIn: 0, checkedOut: 0 })
  })

  test('an event made by copying starts with its own counters at zero', async () => {
    const x = h()
    const admin = await x.admin()
    const e = await createEvent(admin)
    const g = await addGuest(admin, e.id, { status: 'CONFIRMED' })
    await admin.post(`/proxy/api/events/${e.id}/checkin`, { visitorId: g.id, checkinGuests: 'ALL' })
    const copy = await admin.post(`/proxy/api/events/${e.id}/copy`, {})
    expect((await admin.get(`/proxy/api/events/${copy.body.id}/checkin/counts`)).body).toEqual({ registered: 0, checkedIn: 0, checkedOut: 0 })
    expect((await admin.get(`/proxy/api/events/${e.id}/checkin/counts`)).body).toEqual({ registered: 1, checkedIn: 1, checkedOut: 0 })
  })

  test('removing an event outright removes its counts with it (the cascade does not trip over them)', async () => {
    const x = h()
    const admin = await x.admin()
    const e = await createEvent(admin)
    const g = await addGuest(admin, e.id, { status: 'CONFIRMED', escortPersons: escorts(1) })
    await admin.post(`/proxy/api/events/${e.id}/checkin`, { visitorId: g.id, checkinGuests: 'ALL' })
    await x.ctx.db.deleteFrom('event').where('id', '=', e.id).execute()
    expect(await x.ctx.db.selectFrom('event_checkin_count').select('shard').where('event_id', '=', e.id).execute()).toEqual([])
    expect(await x.ctx.db.selectFrom('event_visitor').select('id').where('event_id', '=', e.id).execute()).toEqual([])
  })

  test('the migration counts what a database already holds', async () => {
    const dialect = h().dialect
    const dir = mkdtempSync(join(tmpdir(), 'einlass-counts-'))
    const pg = dialect === 'postgres' ? await createSchema() : null
    const handle = await openDatabase(pg ? { dialect: 'postgres', url: pg.url, schema: pg.schema } : { dialect: 'sqlite', path: join(dir, 'old.sqlite') })
    try {
      const db = handle.db
      const { error } = await migrator(db).migrateTo('2026-11-22-402_guest_list_indexes')
      expect(error).toBeUndefined()
      const agency = await db.insertInto('agency').values({ display_name: 'Alt' }).returning('id').executeTakeFirstOrThrow()
      const at = new Date().toISOString()
      const event = await db.insertInto('event').values({ agency_id: agency.id, display_name: 'Vorher', start_date: at, end_date: at } as any).returning('id').executeTakeFirstOrThrow()
      const empty = await db.insertInto('event').values({ agency_id: agency.id, display_name: 'Leer', start_date: at, end_date: at } as any).returning('id').executeTakeFirstOrThrow()
      const rows: Array<[string, number, boolean, boolean, Array<[boolean, boolean]>]> = [
        ['APPEARED', 3, true, false, [[true, false], [true, true]]],
        ['APPEARED', 1, true, true, []],
        ['CONFIRMED', 2, false, false, [[false, false]]],
        ['DECLINED', 2, true, false, [[true, false]]],
        ['ADDED', 1, false, false, []],
      ]
      for (const [i, [status, count, inNow, out, escorts]] of rows.entries()) {
        const v = await db
          .insertInto('event_visitor')
          .values({ event_id: event.id, status, visitor_count: count, main_guest_checked_in: inNow, main_guest_checked_out: out, event_token: `old-e-${i}`, download_token: `old-d-${i}` } as any)
          .returning('id')
          .executeTakeFirstOrThrow()
        for (const [n, [eIn, eOut]] of escorts.entries()) await db.insertInto('escort_person').values({ visitor_id: v.id, number: n + 1, checked_in: eIn, checked_out: eOut } as any).execute()
      }
      await migrateToLatest(db)
      expect(await checkinCounts(db, event.id)).toEqual(await fullCount(db, event.id))
      expect(await checkinCounts(db, event.id)).toEqual({ registered: 6, checkedIn: 2, checkedOut: 2 })
      expect(await checkinCounts(db, empty.id)).toEqual({ registered: 0, checkedIn: 0, checkedOut: 0 })
      // one row per shard that has something to count; none for the empty event
      expect(Number((await sql<{ n: number }>`select count(*) as n from event_checkin_count where event_id = ${empty.id}`.execute(db)).rows[0].n)).toBe(0)
    } finally {
      await handle.close()
      await pg?.drop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
