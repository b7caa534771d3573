// Tickets are never oversold: 200 buyers for 10 tickets get exactly 10, on SQLite, on Postgres and
// with two server processes on one Postgres; expiry racing a cancellation gives back once.
import { describe, expect, test } from 'bun:test'
import { eventBody, forEachDialect, postgresAvailable } from '../../testing/harness'
import type { ServerProcess } from '../../testing/process'
import { twoProcessesOnPostgres } from '../../testing/two-processes'
import { buyer, paidEvent } from './testing'

forEachDialect('ticket quota under concurrency', (h) => {
  test('200 concurrent buyers for 10 tickets: exactly 10 sold, the rest TICKETS_SOLD_OUT, nothing half-written', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: { maxVisitors: 1000 } })
    const results = await Promise.all(Array.from({ length: 200 }, () => h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: buyer([{ categoryId: categories[0].id, amount: 1 }]) })))
    expect(results.filter((r) => r.status === 201).length).toBe(10)
    expect(results.filter((r) => r.status === 409 && r.body.errorType === 'TICKETS_SOLD_OUT').length).toBe(190)
    const db = h().ctx.db
    expect((await db.selectFrom('ticket_category').select('sold').where('id', '=', categories[0].id).executeTakeFirstOrThrow()).sold).toBe(10)
    expect((await db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken).toBe(10)
    expect((await db.selectFrom('ticket_order').select('id').where('event_id', '=', event.id).execute()).length).toBe(10)
    expect((await db.selectFrom('event_visitor').select('id').where('event_id', '=', event.id).execute()).length).toBe(10)
  })

  test('the event capacity holds across categories: 60 buyers of two tickets in two categories for 20 places', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, {
      event: { maxVisitors: 20 },
      categories: [
        { displayName: 'A', grossPrice: 1000, taxCode: 'TAX_19' },
        { displayName: 'B', grossPrice: 2000, taxCode: 'TAX_7' },
      ],
    })
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: buyer([{ categoryId: categories[i % 2].id, amount: 2 }]) })))
    expect(results.filter((r) => r.status === 201).length).toBe(10)
    expect(results.filter((r) => r.status === 409 && r.body.errorType === 'EVENT_FULL').length).toBe(50)
    const sold = await h().ctx.db.selectFrom('ticket_category').select('sold').where('event_id', '=', event.id).execute()
    expect(sold.reduce((s, c) => s + c.sold, 0)).toBe(20)
  })

  test('a coupon limited to 3 uses is used exactly 3 times by 40 concurrent buyers', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { categories: [{ displayName: 'A', grossPrice: 1000, taxCode: 'TAX_19' }] })
    await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'DREI', valueType: 'FIXED', reduction: 500, maxUses: 3 })
    const results = await Promise.all(Array.from({ length: 40 }, () => h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: buyer([{ categoryId: categories[0].id, amount: 1 }], { couponCode: 'DREI' }) })))
    expect(results.filter((r) => r.status === 201).length).toBe(3)
    expect((await h().ctx.db.selectFrom('coupon').select('used').where('event_id', '=', event.id).executeTakeFirstOrThrow()).used).toBe(3)
  })

  test('expiring one order ten times at once gives its tickets back once', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const r = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: buyer([{ categoryId: categories[0].id, amount: 3 }]) })
    await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: buyer([{ categoryId: categories[0].id, amount: 2 }]) })
    const db = h().ctx.db
    const o = await db.selectFrom('ticket_order').select('id').where('public_id', '=', r.body.ticketOrderId).executeTakeFirstOrThrow()
    h().clock.advance(31 * 60_000)
    const { expireOrder } = await import('./orders/expiry')
    const done = await Promise.all(Array.from({ length: 10 }, () => expireOrder(h().ctx, o.id)))
    expect(done.filter(Boolean).length).toBe(1)
    // the other order expired by the clock too, but was not asked: it still holds its 2
    expect((await db.selectFrom('ticket_category').select('sold').where('id', '=', categories[0].id).executeTakeFirstOrThrow()).sold).toBe(2)
    expect((await db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken).toBe(2)
  })
})

describe.if(postgresAvailable())('ticket quota with two server processes on one Postgres', () => {
  const procs = twoProcessesOnPostgres()

  test('200 buyers spread over both processes: exactly 10 of 10 tickets', async () => {
    const { one, two } = procs()
    const call = async (s: ServerProcess, method: string, path: string, body: unknown, cookie?: string) => {
      const r = await procs().send(s, method, path, body, { cookie })
      return { status: r.status, body: await r.json() }
    }
    const cookie = await procs().setupAgency('tp@example.org')
    const event = await call(two, 'POST', '/proxy/api/events', eventBody({ maxVisitors: 500 }), cookie)
    const cat = await call(one, 'POST', `/proxy/api/events/${event.body.id}/ticketCategories`, { displayName: 'A', grossPrice: 1000, taxCode: 'TAX_19', quota: 10 }, cookie)
    const pm = await call(two, 'POST', '/proxy/api/agency/paymentMethods', { method: 'LOCATION' }, cookie)
    expect((await call(one, 'PUT', `/proxy/api/events/${event.body.id}/paymentMethods`, { ids: [pm.body.id] }, cookie)).status).toBe(200)
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => call(procs().either(i), 'POST', `/proxy/api/public/events/${event.body.id}/registrations`, buyer([{ categoryId: cat.body.id, amount: 1 }], { email: `tp${i}@example.org` }))),
    )
    expect(results.filter((r) => r.status === 201).length).toBe(10)
    expect(results.filter((r) => r.status === 409 && r.body.errorType === 'TICKETS_SOLD_OUT').length).toBe(190)
    const cats = await call(two, 'GET', `/proxy/api/events/${event.body.id}/ticketCategories`, undefined, cookie)
    expect(cats.body.items[0]).toMatchObject({ sold: 10, available: 0 })
  })
})
