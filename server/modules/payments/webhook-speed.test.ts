// Many webhook events at once (issue 13): 1,000 signed Stripe events (distinct ids) for paid orders,
// 20 at a time, each verified, stored once and re-fetched from the fake; each order is paid once and
// every other delivery answers ALREADY. The rate is printed for a look; how fast it must be is
// bench/webhooks.ts's question (an absolute floor here failed CI on a loaded machine).
import { afterAll, expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { STRIPE, attemptsOf, onlineEvent, orderUrl, startFakes, toConfirmation } from './testing'

const fakes = startFakes()
afterAll(() => fakes.stop())

forEachDialect(
  'stripe webhook speed',
  (h, dialect) => {
    test('1,000 webhook events with re-fetch: each order paid once, the rest ALREADY', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, STRIPE, 100)
      const pis: Array<{ pi: string; method: number }> = []
      for (let i = 0; i < 5; i++) {
        const id = await toConfirmation(h(), event.id, categories[0].id)
        await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
        const [a] = await attemptsOf(h(), id)
        fakes.stripe.confirm(a.external_id!, 'ok')
        pis.push({ pi: a.external_id!, method: a.payment_method_id! })
      }
      const N = 1000
      const bodies = await Promise.all(Array.from({ length: N }, (_, i) => fakes.stripe.webhook(pis[i % pis.length].pi, { eventId: `evt_speed_${dialect}_${i}` }).then((w) => ({ ...w, method: pis[i % pis.length].method }))))
      const t0 = performance.now()
      let next = 0
      const outcomes: Record<string, number> = {}
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (next < N) {
            const w = bodies[next++]
            const r = await h().app.handle(new Request(`http://localhost/proxy/api/payments/stripe/webhook/${w.method}`, { method: 'POST', headers: { 'stripe-signature': w.signature, 'content-type': 'application/json' }, body: w.body }))
            const b = (await r.json()) as { outcome?: string }
            outcomes[b.outcome ?? 'none'] = (outcomes[b.outcome ?? 'none'] ?? 0) + 1
          }
        }),
      )
      const rate = N / ((performance.now() - t0) / 1000)
      console.log(`stripe webhooks [${dialect}]: ${Math.round(rate)} events/s`, outcomes)
      expect(outcomes.PAID).toBe(5)
      expect(outcomes.ALREADY).toBe(N - 5)
      // every event stored exactly once
      const stored = await h().ctx.db.selectFrom('payment_event').select('external_id').where('external_id', 'like', `evt_speed_${dialect}_%`).execute()
      expect(stored.length).toBe(N)
      expect(new Set(stored.map((e) => e.external_id)).size).toBe(N)
    }, 60_000)
  },
  { env: fakes.env },
)
