// Revenue per day for the statistics plot: one aggregate query, days in the event's time zone, gaps
// filled with 0, the paid part, cancelled orders left out; the same on both dialects.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { buy, buyer, paidEvent } from './testing'

forEachDialect('revenue per day', (h) => {
  test('orders summed per local day of ordering, empty days listed, paid part, cancelled left out', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: { timezone: 'Europe/Berlin' } })
    const db = h().ctx.db
    const at = async (r: { body: { ticketOrderId: string } }, iso: string, status?: 'PAID' | 'CANCELED') => {
      await db
        .updateTable('ticket_order')
        .set({ created_at: iso, ...(status ? { status } : {}) })
        .where('public_id', '=', r.body.ticketOrderId)
        .execute()
    }
    const one = () => buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    // 2026-11-01 10:00 UTC and 23:30 UTC: the second is 2 November in Berlin
    await at(await one(), '2026-11-01T10:00:00.000Z', 'PAID')
    await at(await one(), '2026-11-01T23:30:00.000Z')
    await at(await one(), '2026-11-04T08:00:00.000Z', 'PAID')
    await at(await one(), '2026-11-04T09:00:00.000Z', 'CANCELED')
    const r = await admin.get(`/proxy/api/events/${event.id}/orders/revenue`)
    expect(r.status).toBe(200)
    expect(r.body.days).toEqual([
      { day: '2026-11-01', gross: 2500, paid: 2500 },
      { day: '2026-11-02', gross: 2500, paid: 0 },
      { day: '2026-11-03', gross: 0, paid: 0 },
      { day: '2026-11-04', gross: 2500, paid: 2500 },
    ])
    expect((await (await h().admin()).get(`/proxy/api/events/${event.id}/orders/revenue`)).status).toBe(404)
  })
})
