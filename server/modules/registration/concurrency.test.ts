// Capacity under concurrency: places are taken only by the conditional UPDATE, so a storm of
// registrations fills an event exactly, never beyond, and never registers one e-mail twice.
import { describe, expect, test } from 'bun:test'
import { eventBody, forEachDialect, postgresAvailable, uniqueEmail } from '../../testing/harness'
import { twoProcessesOnPostgres } from '../../testing/two-processes'

const guest = (email: string) => ({ salutation: 'Herr', firstName: 'Max', lastName: 'Ansturm', email })

forEachDialect('capacity under concurrency', (h) => {
  test('200 concurrent registrations for 50 places: exactly 50 succeed, the rest get EVENT_FULL', async () => {
    const admin = await h().admin()
    const event = (await admin.post('/proxy/api/events', eventBody({ maxVisitors: 50 }))).body
    const emails = Array.from({ length: 200 }, () => uniqueEmail('storm'))
    const results = await Promise.all(emails.map((e) => h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: guest(e) })))
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 201).length).toBe(50)
    expect(statuses.filter((s) => s === 409).length).toBe(150)
    expect(results.filter((r) => r.status === 409).every((r) => r.body.errorType === 'EVENT_FULL')).toBe(true)

    const db = h().ctx.db
    expect((await db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken).toBe(50)
    const rows = await db.selectFrom('event_visitor').select('email').where('event_id', '=', event.id).execute()
    expect(rows.length).toBe(50)
    expect(new Set(rows.map((r) => r.email)).size).toBe(50)
    // the ones that got 201 are exactly the ones stored
    const ok = emails.filter((_, i) => statuses[i] === 201).sort()
    expect(rows.map((r) => r.email!).sort()).toEqual(ok)
    // one confirmation each, none for the refused
    const mails = await db.selectFrom('mail_outbox').select('to_address').where('event_id', '=', event.id).execute()
    expect(mails.map((m) => m.to_address).sort()).toEqual(ok)
  })

  test('escorts count: concurrent groups never pass the capacity', async () => {
    const admin = await h().admin()
    const event = (await admin.post('/proxy/api/events', eventBody({ maxVisitors: 10 }))).body
    const body = (e: string) => ({ ...guest(e), escortPersons: [{ firstName: 'Eva', lastName: 'Eins' }, { firstName: 'Ede', lastName: 'Zwei' }] })
    const results = await Promise.all(Array.from({ length: 30 }, () => h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: body(uniqueEmail('group')) })))
    expect(results.filter((r) => r.status === 201).length).toBe(3)
    expect((await h().ctx.db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken).toBe(9)
  })

  test('the same e-mail 20 times at once: one registration, the others ALREADY_REGISTERED', async () => {
    const admin = await h().admin()
    const event = (await admin.post('/proxy/api/events', eventBody({ maxVisitors: 100 }))).body
    const email = uniqueEmail('twice')
    const results = await Promise.all(Array.from({ length: 20 }, () => h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: guest(email) })))
    expect(results.filter((r) => r.status === 201).length).toBe(1)
    const refused = results.filter((r) => r.status !== 201)
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 409))
    expect(refused.every((r) => r.body.errorType === 'ALREADY_REGISTERED')).toBe(true)
    expect((await h().ctx.db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken).toBe(1)
  })

  test('one new guest registering for two events at once gets one user and both registrations', async () => {
    const admin = await h().admin()
    const a = (await admin.post('/proxy/api/events', eventBody({ displayName: 'A' }))).body
    const b = (await admin.post('/proxy/api/events', eventBody({ displayName: 'B' }))).body
    const email = uniqueEmail('both')
    const results = await Promise.all([a, b, a, b].map((e) => h().request('POST', `/proxy/api/public/events/${e.id}/registrations`, { body: guest(email) })))
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 409, 409])
    const users = await h().ctx.db.selectFrom('app_user').select('id').where('email', '=', email).execute()
    expect(users.length).toBe(1)
  })
})

describe.if(postgresAvailable())('capacity with two server processes on one Postgres', () => {
  const procs = twoProcessesOnPostgres()

  test('200 registrations spread over both processes: exactly 50 of 50 places', async () => {
    const { send, either, query } = procs()
    const cookie = await procs().setupAgency('pp@example.org')
    const created = await send(procs().two, 'POST', '/proxy/api/events', eventBody({ maxVisitors: 50 }), { cookie })
    expect(created.status).toBe(201)
    const eventId = (await created.json()).id

    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => send(either(i), 'POST', `/proxy/api/public/events/${eventId}/registrations`, guest(`p${i}@example.org`)).then(async (r) => ({ status: r.status, body: await r.json() }))),
    )
    expect(results.filter((r) => r.status === 201).length).toBe(50)
    expect(results.filter((r) => r.status === 409 && r.body.errorType === 'EVENT_FULL').length).toBe(150)
    // Both processes served their half: every request each one got was answered with a place or
    // EVENT_FULL. Which process wins the contested places is up to scheduling (under load one can
    // win all of them), so the proof is the total above and the counts in the database below.
    for (const odd of [0, 1]) {
      const served = results.filter((_, i) => i % 2 === odd)
      expect(served.length).toBe(100)
      expect(served.every((r) => r.status === 201 || (r.status === 409 && r.body.errorType === 'EVENT_FULL'))).toBe(true)
    }

    expect((await query('select seats_taken from event where id = $1', [eventId]))[0].seats_taken).toBe(50)
    expect((await query('select count(*)::int as n, count(distinct email)::int as d from event_visitor where event_id = $1', [eventId]))[0]).toEqual({ n: 50, d: 50 })
  })
})
