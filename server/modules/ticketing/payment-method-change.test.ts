// Changing the payment method of an unpaid order (issue 21, docs/ticketing.md "Changing the payment
// method"): POST .../proceed/reset {step: 8} on a confirmed, unpaid transfer or invoice order goes
// back to the method choice; the deadline stays; not after PAID or CANCELED, not with an invoice
// issued, not with an online payment under way; a switched order left open is cancelled at its
// deadline, never by the 30-minute hold; transfer → Stripe → paid.
import { afterAll, expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { SELLER, STRIPE, attemptsOf, startFakes, stripeHook } from '../payments/testing'
import { TRANSFER, buy, buyer, guestOf, paidEvent, pay } from './testing'

const fakes = startFakes()
afterAll(() => fakes.stop())
const DAY = 86400_000
const url = (id: string) => `/proxy/api/guest/ticketOrder/${id}`

forEachDialect(
  'changing the payment method',
  (h) => {
    const orderRow = (publicId: string) => h().ctx.db.selectFrom('ticket_order').selectAll().where('public_id', '=', publicId).executeTakeFirstOrThrow()
    const later = () => {
      const start = h().ctx.clock.now().getTime() + 30 * DAY
      return { startDate: new Date(start).toISOString(), endDate: new Date(start + 4 * 3600_000).toISOString() }
    }
    const runTasks = async () => {
      while ((await h().tasks.runOnce()) > 0) {}
    }
    const back = (id: string) => h().request('POST', `${url(id)}/proceed/reset`, { body: { step: 8 } })
    const select = (id: string, paymentMethod: string) => h().request('POST', `${url(id)}/proceed/paymentSelection`, { body: { paymentMethod } })
    const payNow = (id: string, paymentMethod: string) => h().request('POST', `${url(id)}/proceed/paymentPay`, { body: { paymentMethod } })
    const setup = async (methods?: Array<Record<string, unknown>>) => {
      const admin = await h().admin()
      const { event, categories } = await paidEvent(admin, { event: later(), methods: methods ?? [TRANSFER, { method: 'INVOICE' }, STRIPE] })
      expect((await admin.put(`/proxy/api/events/${event.id}/ticketSettings`, { paymentDeadlineDays: 7 })).status).toBe(200)
      const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
      expect(r.status).toBe(201)
      return { admin, event, cat: categories[0].id, id: r.body.ticketOrderId as string }
    }

    test('transfer → invoice → transfer: back to the method choice, the deadline never extended, the bank details follow the method', async () => {
      const { id } = await setup()
      expect(await pay(h(), id, 'TRANSFER')).toMatchObject({ step: 100, status: 'OPEN' })
      const due = (await orderRow(id)).payment_due_at!
      expect(due).toBeTruthy()
      expect((await h().request('GET', url(id))).body.ticketOrder).toMatchObject({ canChangePaymentMethod: true, paymentDueAt: due })
      // the guest portal's order card offers it too
      const guest = await guestOf(h(), (await orderRow(id)).visitor_id!)
      const cards = (await guest.get('/proxy/api/guest/events')).body
      const all = [...(cards.confirmedEvents ?? []), ...(cards.pendingEvents ?? []), ...(cards.openEvents ?? [])]
      expect(all.map((e: { ticketOrder?: { id: string; paymentMethodChangeable?: boolean } }) => e.ticketOrder).find((o) => o?.id === id)).toMatchObject({ paymentMethodChangeable: true })
      h().clock.advance(2 * DAY)
      const b = await back(id)
      expect(b.status).toBe(200)
      expect(b.body).toMatchObject({ step: 8, status: 'OPEN' })
      let o = await orderRow(id)
      expect(o).toMatchObject({ payment_method: null, payment_due_at: due, hold_until: null })
      expect((await select(id, 'INVOICE')).body.step).toBe(40)
      const inv = await payNow(id, 'INVOICE')
      expect(inv.body).toMatchObject({ step: 100, status: 'CONFIRMED' })
      expect(inv.body.qrCode).toBeNull()
      o = await orderRow(id)
      expect(o).toMatchObject({ payment_method: 'INVOICE', payment_due_at: due })
      // no seller address, so no invoice: the invoice order may switch back
      h().clock.advance(DAY)
      expect((await back(id)).body).toMatchObject({ step: 8, status: 'OPEN' })
      expect((await select(id, 'TRANSFER')).body.step).toBe(40)
      const tr = await payNow(id, 'TRANSFER')
      expect(tr.body).toMatchObject({ step: 100, status: 'OPEN' })
      expect(tr.body.qrCode).toMatch(/^data:image\/png;base64,/)
      expect((await orderRow(id)).payment_due_at).toBe(due)
      const kinds = (await h().ctx.db.selectFrom('ticket_order_history').select('kind').where('order_id', '=', o.id).orderBy('id').execute()).map((x) => x.kind)
      expect(kinds.filter((k) => k === 'PAYMENT_METHOD_CHANGED').length).toBe(2)
    })

    test('not after PAID or CANCELED, not with one method, not an unknown order, not once the invoice exists', async () => {
      const { admin, event, id } = await setup()
      expect(await pay(h(), id, 'TRANSFER')).toMatchObject({ step: 100 })
      const o = await orderRow(id)
      expect((await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/markPaid`, { amount: 2500, paidAt: h().ctx.clock.now().toISOString() })).status).toBe(200)
      const paid = await back(id)
      expect(paid.status).toBe(409)
      expect((await orderRow(id)).status).toBe('PAID')

      const c = await setup()
      expect(await pay(h(), c.id, 'TRANSFER')).toMatchObject({ step: 100 })
      const co = await orderRow(c.id)
      expect((await c.admin.post(`/proxy/api/events/${c.event.id}/orders/${co.id}/cancel`, {})).status).toBe(200)
      expect((await back(c.id)).status).toBe(409)
      expect((await orderRow(c.id)).status).toBe('CANCELED')

      expect((await back('x'.repeat(24))).status).toBe(404)

      const one = await setup([TRANSFER])
      expect(await pay(h(), one.id, 'TRANSFER')).toMatchObject({ step: 100 })
      const r1 = await back(one.id)
      expect(r1.status).toBe(409)
      expect(r1.body.errorType).toBe('ORDER_BACK_NOT_ALLOWED')

      const i = await setup()
      expect((await i.admin.put('/proxy/api/agency/sellerSettings', SELLER)).status).toBe(200)
      expect(await pay(h(), i.id, 'INVOICE')).toMatchObject({ step: 100, status: 'CONFIRMED' })
      const ri = await back(i.id)
      expect(ri.status).toBe(400)
      expect(ri.body.errorType).toBe('INVOICE_ALREADY_ISSUED')
      expect(ri.body.errorMessage).toContain('bereits eine Rechnung')
      expect(ri.body.errorFields).toEqual([{ field: 'paymentMethod', errorType: 'INVOICE_ALREADY_ISSUED' }])
      expect(await orderRow(i.id)).toMatchObject({ status: 'CONFIRMED', payment_method: 'INVOICE', step: 100 })
    })

    test('a switched order left open: held past the 30 minutes, cancelled at its original deadline with its tickets given back', async () => {
      const { cat, id } = await setup()
      expect(await pay(h(), id, 'TRANSFER')).toMatchObject({ step: 100 })
      const due = (await orderRow(id)).payment_due_at!
      expect((await back(id)).status).toBe(200)
      expect((await select(id, 'STRIPE')).body.step).toBe(40)
      h().clock.advance(3600_000)
      await runTasks()
      expect(await orderRow(id)).toMatchObject({ status: 'OPEN', step: 40, payment_due_at: due })
      h().clock.advance(7 * DAY)
      await runTasks()
      expect(await orderRow(id)).toMatchObject({ status: 'CANCELED', step: 900 })
      const sold = (await h().ctx.db.selectFrom('ticket_category').select('sold').where('id', '=', cat).executeTakeFirstOrThrow()).sold
      expect(sold).toBe(0)
    })

    test('transfer → Stripe: no switch while the payment is under way at the provider; paid → PAID', async () => {
      const { id } = await setup()
      expect(await pay(h(), id, 'TRANSFER')).toMatchObject({ step: 100 })
      const due = (await orderRow(id)).payment_due_at!
      expect((await back(id)).status).toBe(200)
      expect((await select(id, 'STRIPE')).body.step).toBe(40)
      const p = await h().request('POST', `${url(id)}/proceed/paymentPay`, { body: { paymentMethod: 'STRIPE', stripePaymentType: 'CARD', fullName: 'Berta Käuferin' } })
      expect(p.body).toMatchObject({ step: 80, status: 'OPEN' })
      expect((await orderRow(id)).payment_due_at).toBe(due)
      const r = await back(id)
      expect(r.status).toBe(409)
      expect(r.body.errorType).toBe('PAYMENT_ATTEMPT_OPEN')
      expect(r.body.errorMessage).toContain('Online-Zahlung')
      expect((await h().request('GET', url(id))).body.ticketOrder.canChangePaymentMethod).toBe(false)
      expect(await orderRow(id)).toMatchObject({ step: 80, payment_method: 'STRIPE' })
      const [a] = await attemptsOf(h(), id)
      fakes.stripe.confirm(a.external_id!, 'ok')
      const info = (await h().request('GET', url(id))).body
      const methodId = info.paymentMethods.find((m: { method: string }) => m.method === 'STRIPE').id
      expect((await stripeHook(h(), fakes.stripe, methodId, a.external_id!, { eventId: `evt_paid_${id}` })).body).toMatchObject({ outcome: 'PAID' })
      expect(await orderRow(id)).toMatchObject({ status: 'PAID', step: 100, payment_method: 'STRIPE', paid_amount: 2500 })
      expect((await back(id)).status).toBe(409)
      expect((await h().request('GET', url(id))).body.ticketOrder.canChangePaymentMethod).toBe(false)
    })
  },
  { env: { ...fakes.env, EINLASS_STRIPE_JS_URL: `${fakes.stripe.url}/stripe.js` } },
)
