// Deleting or declining a guest whose order was paid online: the one cancel service refunds it
// through the provider (payments/cancel.ts), then the registration's action follows from the status
// it had (the refund's release had marked it DELETED): DECLINED with its mail, places back, once.
import { afterAll, expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { STRIPE, attemptsOf, onlineEvent, orderRow, orderUrl, soldOf, startFakes, toConfirmation } from '../payments/testing'

const fakes = startFakes()
afterAll(() => fakes.stop())

forEachDialect(
  'guest list and paid online orders',
  (h) => {
    test('declining a guest with a PAID Stripe order refunds it at Stripe; the registration ends DECLINED, not DELETED; a second decline changes nothing', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0]!.id)
      await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
      const [a] = await attemptsOf(h(), id)
      fakes.stripe.confirm(a!.external_id!, 'ok')
      expect((await h().request('POST', `${orderUrl(id)}/stripe/success`)).body.status).toBe('PAID')
      const o = await orderRow(h(), id)
      expect(await soldOf(h(), categories[0]!.id)).toBe(1)

      const r = await admin.post(`/proxy/api/events/${event.id}/visitors/${o.visitor_id}/decline`, { reason: 'Veranstaltung verlegt' })
      expect(r.status).toBe(200)
      expect(r.body.status).toBe('DECLINED')
      expect(await orderRow(h(), id)).toMatchObject({ status: 'REFUNDED', step: 902 })
      const attempt = (await attemptsOf(h(), id))[0]!
      expect(attempt.refunded_amount).toBe(2500)
      expect(await soldOf(h(), categories[0]!.id)).toBe(0)
      expect((await h().ctx.db.selectFrom('event').select('seats_taken').where('id', '=', event.id).executeTakeFirstOrThrow()).seats_taken).toBe(0)
      const again = await admin.post(`/proxy/api/events/${event.id}/visitors/${o.visitor_id}/decline`)
      expect(again.body.errorType).toBe('STATUS_TRANSITION_NOT_ALLOWED')
      expect((await attemptsOf(h(), id))[0]!.refunded_amount).toBe(2500)
      await h().deliverMail()
      const to = o.email!
      expect(h().smtp.to(to).map((m) => m.subject).some((s) => s.startsWith('Bestellung erstattet'))).toBe(true)
    })
  },
  { env: fakes.env },
)
