// Mollie and PayPal on the step machine against the local fakes: the checkout redirect (70), the
// wait step (90) until webhook or re-fetch, webhooks twice, a payment after expiry (tickets taken
// again, or refunded automatically when gone), PayPal create/approve/capture, and refunds (partial
// and whole) through the provider from the organiser's order screen.
import { afterAll, expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { address, buy, buyer } from '../ticketing/testing'
import { MOLLIE, PAYPAL, STRIPE, attemptsOf, expiredMollieOrder, mollieHook, onlineEvent, orderRow, orderUrl, soldOf, startFakes, toConfirmation } from './testing'

const fakes = startFakes()
afterAll(() => fakes.stop())


forEachDialect(
  'mollie and paypal payments',
  (h) => {
    test('Mollie: checkout redirect (70), back while open → wait (90), webhook paid → 100; the webhook twice changes nothing; mollie/init answers the same checkout', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, MOLLIE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      const pay = await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'MOLLIE' } })
      expect(pay.body).toMatchObject({ step: 70, status: 'OPEN' })
      const [a] = await attemptsOf(h(), id)
      expect(pay.body.redirectUrl).toBe(`${fakes.mollie.url}/checkout/${a.external_id}`)
      const p = fakes.mollie.payments.get(a.external_id!)!
      expect(p).toMatchObject({ amount: { currency: 'EUR', value: '25.00' }, redirectUrl: `http://localhost/pay/${id}#mollie`, webhookUrl: 'http://localhost/proxy/api/payments/mollie/webhook', metadata: { orderRef: id } })
      expect((await h().request('POST', `${orderUrl(id)}/proceed/mollie/init`)).body.molliePayment.redirectUrl).toBe(pay.body.redirectUrl)
      // the guest comes back before paying (checkout still open): SYSTEM_PAYMENT_WAIT
      expect((await h().request('POST', `${orderUrl(id)}/mollie/success`)).body).toMatchObject({ step: 90, status: 'OPEN' })
      // the webhook while still open changes nothing; paid → 100
      expect((await mollieHook(h(), a.external_id!)).body.outcome).toBe('PENDING')
      fakes.mollie.setStatus(a.external_id!, 'paid')
      expect((await mollieHook(h(), a.external_id!)).body).toMatchObject({ received: true, outcome: 'PAID' })
      expect((await mollieHook(h(), a.external_id!)).body).toEqual({ received: true, duplicate: true })
      expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID', step: 100, paid_amount: 2500, payment_method: 'MOLLIE' })
      // unknown or malformed ids answer the same and change nothing
      expect((await mollieHook(h(), 'tr_unknown123')).body).toEqual({ received: true })
      expect((await mollieHook(h(), '../etc')).status).toBe(200)
    })

    test('Mollie: the fake checkout page pays and redirects back; the return without webhook re-fetches → 100; a cancelled checkout is PAYMENT_CANCELED (900) and the guest may continue (issue 20 item 15)', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, MOLLIE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      const init = await h().request('POST', `${orderUrl(id)}/proceed/mollie/init`)
      expect(init.body).toMatchObject({ step: 70 })
      const res = await fetch(`${init.body.molliePayment.redirectUrl}?act=pay`, { redirect: 'manual' })
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe(`http://localhost/pay/${id}#mollie`)
      expect((await h().request('POST', `${orderUrl(id)}/mollie/success`)).body).toMatchObject({ step: 100, status: 'PAID' })

      const id2 = await toConfirmation(h(), event.id, categories[0].id)
      const init2 = await h().request('POST', `${orderUrl(id2)}/proceed/mollie/init`)
      await fetch(`${init2.body.molliePayment.redirectUrl}?act=cancel`, { redirect: 'manual' })
      expect((await h().request('POST', `${orderUrl(id2)}/mollie/success`)).body).toMatchObject({ step: 900, status: 'CANCELED' })
      expect(await soldOf(h(), categories[0].id)).toBe(1)
      // continue-and-reset (§4): the page offers it and the reset takes the tickets again
      expect((await h().request('GET', orderUrl(id2))).body.ticketOrder.canContinue).toBe(true)
      expect((await h().request('GET', `${orderUrl(id2)}/reset`)).body).toMatchObject({ status: 'OPEN', step: 40 })
      expect(await soldOf(h(), categories[0].id)).toBe(2)
    })

    test('the confirmed reset on the wait step (90): back to 40; an expired Mollie payment is replaced by a new one, an open one reused', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, MOLLIE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      const first = await h().request('POST', `${orderUrl(id)}/proceed/mollie/init`)
      expect((await h().request('POST', `${orderUrl(id)}/mollie/success`)).body.step).toBe(90)
      expect((await h().request('GET', `${orderUrl(id)}/reset`)).body.step).toBe(40)
      // still open at Mollie: the same checkout
      expect((await h().request('POST', `${orderUrl(id)}/proceed/mollie/init`)).body.molliePayment.redirectUrl).toBe(first.body.molliePayment.redirectUrl)
      expect((await h().request('POST', `${orderUrl(id)}/mollie/success`)).body.step).toBe(90)
      expect((await h().request('GET', `${orderUrl(id)}/reset`)).body.step).toBe(40)
      const [a] = await attemptsOf(h(), id)
      fakes.mollie.setStatus(a.external_id!, 'expired')
      const again = await h().request('POST', `${orderUrl(id)}/proceed/mollie/init`)
      expect(again.body.step).toBe(70)
      expect(again.body.molliePayment.redirectUrl).not.toBe(first.body.molliePayment.redirectUrl)
      expect((await attemptsOf(h(), id)).map((x) => x.status)).toEqual(['CANCELED', 'OPEN'])
      expect(await soldOf(h(), categories[0].id)).toBe(1)
    })

    test('late payment after expiry: the task gives the open payment up (901, tickets back); paid later → tickets taken again and PAID', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, MOLLIE)
      const { id, attempt: a } = await expiredMollieOrder(h(), event.id, categories[0].id)
      expect(await soldOf(h(), categories[0].id)).toBe(0)
      fakes.mollie.setStatus(a.external_id!, 'paid')
      expect((await mollieHook(h(), a.external_id!)).body.outcome).toBe('LATE_REHELD')
      expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID', step: 100 })
      expect(await soldOf(h(), categories[0].id)).toBe(1)
    })

    test('late payment when the tickets are gone: refunded automatically through Mollie, REFUNDED (902), guest and organiser told', async () => {
      const admin = await h().admin()
      await admin.put('/proxy/api/agency/sellerSettings', { name: 'Agentur GmbH', email: 'kasse@agentur.example' })
      const { event, categories } = await onlineEvent(admin, MOLLIE, 1)
      const { id, attempt: a } = await expiredMollieOrder(h(), event.id, categories[0].id)
      // someone else buys the last ticket meanwhile
      expect((await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))).status).toBe(201)
      fakes.mollie.setStatus(a.external_id!, 'paid')
      expect((await mollieHook(h(), a.external_id!)).body.outcome).toBe('LATE_REFUNDED')
      expect(fakes.mollie.refunds.filter((r) => r.paymentId === a.external_id)).toMatchObject([{ value: '25.00' }])
      const o = await orderRow(h(), id)
      expect(o).toMatchObject({ status: 'REFUNDED', step: 902 })
      expect(await soldOf(h(), categories[0].id)).toBe(1)
      // delivered again: no second refund
      expect((await mollieHook(h(), a.external_id!)).body).toEqual({ received: true, duplicate: true })
      expect(fakes.mollie.refunds.filter((r) => r.paymentId === a.external_id).length).toBe(1)
      await h().deliverMail()
      expect(h().smtp.mails.some((m) => m.subject === `Zahlung erstattet: ${o.number}`)).toBe(true)
      expect(h().smtp.mails.some((m) => m.subject === `Verspätete Zahlung erstattet: Bestellung ${o.number}` && JSON.stringify(m).includes('kasse@agentur.example'))).toBe(true)
      expect((await h().request('GET', orderUrl(id))).body.ticketOrder).toMatchObject({ step: 902, status: 'REFUNDED' })
    })

    test('late payment when the chosen seat is gone: refunded automatically, nothing taken twice', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, MOLLIE)
      const plan = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, {
        priceCategories: [{ key: 'p', displayName: 'Parkett', color: '#2b8a3e', ticketCategoryId: categories[0].id }],
        areas: [{ displayName: 'Saal', chairs: [{ label: 'A 1', priceCategory: 'p', percentX: 10, percentY: 10, percentWidth: 2, percentHeight: 3 }] }],
      })
      expect(plan.status).toBe(200)
      const chairId = plan.body.areas[0].chairs[0].id as number
      const hold = async (identification: string) => (await h().request('POST', `/api/public/events/${event.id}/seatingplan/reservation/chair`, { body: { chairId, identification, amount: 1 } })).body.reservationToken as string
      const r = await buy(h(), event.id, { ...buyer([]), identification: 'late-seat-visit-1', chairReservations: [await hold('late-seat-visit-1')] })
      expect(r.status).toBe(201)
      const id = r.body.ticketOrderId as string
      expect((await h().request('POST', `${orderUrl(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step).toBe(40)
      await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
      const [a] = await attemptsOf(h(), id)
      h().clock.advance(31 * 60_000)
      await h().tasks.runOnce()
      expect((await orderRow(h(), id)).step).toBe(901)
      // someone else takes the seat meanwhile
      const other = await buy(h(), event.id, { ...buyer([]), identification: 'late-seat-visit-2', chairReservations: [await hold('late-seat-visit-2')] })
      expect(other.status).toBe(201)
      fakes.mollie.setStatus(a.external_id!, 'paid')
      expect((await mollieHook(h(), a.external_id!)).body.outcome).toBe('LATE_REFUNDED')
      expect(await orderRow(h(), id)).toMatchObject({ status: 'REFUNDED', step: 902 })
      expect(await soldOf(h(), categories[0].id)).toBe(1)
      const chair = await h().ctx.db.selectFrom('seating_chair').select('taken').where('id', '=', chairId).executeTakeFirstOrThrow()
      expect(chair.taken).toBe(1)
    })

    test('PayPal: init gives the orderID; paymentPay before approval is refused; after approval the capture pays (100); a declined instrument answers PAYMENT_DECLINED', async () => {
      const admin = await h().admin()
      const m = await admin.post('/proxy/api/agency/paymentMethods', PAYPAL)
      expect(m.body).toMatchObject({ payPalClientId: 'einlass-client', payPalTestMode: true, disabledFundings: ['card'], hasSecretKey: true })
      const { event, categories } = await onlineEvent(admin, PAYPAL)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      const init = await h().request('POST', `${orderUrl(id)}/proceed/paypal/init`)
      const orderID = init.body.payPalPayment.orderID as string
      expect(fakes.paypal.orders.get(orderID)!.purchase_units[0]).toMatchObject({ custom_id: id, amount: { currency_code: 'EUR', value: '25.00' } })
      // a second init (another tab) gives the same PayPal order
      expect((await h().request('POST', `${orderUrl(id)}/proceed/paypal/init`)).body.payPalPayment.orderID).toBe(orderID)
      const early = await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'PAYPAL' } })
      expect(early.status).toBe(409)
      expect(early.body.errorType).toBe('PAYMENT_NOT_STARTED')
      fakes.paypal.approve(orderID)
      const pay = await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'PAYPAL' } })
      expect(pay.body).toMatchObject({ step: 100, status: 'PAID' })
      expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID', paid_amount: 2500, payment_method: 'PAYPAL' })

      const id2 = await toConfirmation(h(), event.id, categories[0].id)
      const o2 = (await h().request('POST', `${orderUrl(id2)}/proceed/paypal/init`)).body.payPalPayment.orderID
      fakes.paypal.decline(o2)
      const declined = await h().request('POST', `${orderUrl(id2)}/proceed/paymentPay`, { body: {} })
      expect(declined.status).toBe(402)
      expect(declined.body.errorType).toBe('PAYMENT_DECLINED')
      expect(declined.body.errorMessage).toContain('abgelehnt')
      expect(await orderRow(h(), id2)).toMatchObject({ status: 'OPEN', step: 40 })
      // the buyer chooses another funding source in the PayPal window and approves again
      fakes.paypal.orders.get(o2)!.declined = false
      expect((await h().request('POST', `${orderUrl(id2)}/proceed/paymentPay`, { body: {} })).body).toMatchObject({ step: 100, status: 'PAID' })
      // a double click after the capture: PayPal captures once, the order stays paid once
      expect((await h().request('POST', `${orderUrl(id2)}/proceed/paymentPay`, { body: {} })).status).toBe(409)
      expect(fakes.paypal.orders.get(o2)!.purchase_units[0].payments!.captures.length).toBe(1)
    })

    test('refunds through the provider: partial (order stays PAID, mail), then the rest (REFUNDED 902, tickets back); too much refused; another agency gets 404', async () => {
      const admin = await h().admin()
      const { event, categories } = await onlineEvent(admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
      const [a] = await attemptsOf(h(), id)
      fakes.stripe.confirm(a.external_id!, 'ok')
      await h().request('POST', `${orderUrl(id)}/stripe/success`)
      const o = await orderRow(h(), id)
      const url = `/proxy/api/events/${event.id}/orders/${o.id}`
      const stranger = await h().admin()
      expect((await stranger.post(`${url}/refundPayment`, { amount: 500 })).status).toBe(404)
      expect((await admin.post(`${url}/refundPayment`, { amount: 99_999 })).body.errorType).toBe('REFUND_TOO_LARGE')
      const part = await admin.post(`${url}/refundPayment`, { amount: 1000 })
      expect(part.status).toBe(200)
      expect(part.body.refunds).toMatchObject([{ amount: 1000, reason: 'ORGANISER' }])
      expect(part.body.refunds[0].providerRefundId).toMatch(/^re_/)
      expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID' })
      const rest = await admin.post(`${url}/refundPayment`, {})
      expect(rest.status).toBe(200)
      expect(rest.body.refunds.map((r: any) => r.amount)).toEqual([1000, 1500])
      expect(fakes.stripe.refunds.filter((r) => r.payment_intent === a.external_id).map((r) => r.amount)).toEqual([1000, 1500])
      expect(await orderRow(h(), id)).toMatchObject({ status: 'REFUNDED', step: 902 })
      expect(await soldOf(h(), categories[0].id)).toBe(0)
      expect((await h().request('GET', orderUrl(id))).body.ticketOrder.step).toBe(902)
      expect((await admin.post(`${url}/refundPayment`, {})).body.errorType).toBe('ORDER_NOT_PAID')
      await h().deliverMail()
      expect(h().smtp.mails.some((m) => m.subject === `Teilerstattung: ${o.number}`)).toBe(true)
      expect(h().smtp.mails.some((m) => m.subject === `Bestellung erstattet: ${o.number}`)).toBe(true)
    })
  },
  { env: fakes.env },
)
