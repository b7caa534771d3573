// Refunds that fail later (docs/payments.md): a Mollie refund (or a pending Stripe one, SEPA) is
// recorded PENDING when the provider accepts it; the check task (every 6 h) or the provider's webhook
// finds it made (DONE) or failed (FAILED).
// A failed one is told once (history, the seller address), its amount is refundable again — also when
// the order had ended with it — and the refund that makes it good issues no second credit note.
import { afterAll, expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { MOLLIE, PAYPAL, SELLER, STRIPE, attemptsOf, invoicesOf, mollieHook, onlineEvent, orderRow, orderUrl, startFakes, stripeHook, toConfirmation } from './testing'

const fakes = startFakes()
afterAll(() => fakes.stop())

const SIX_HOURS = 6 * 3600_000
const PAYPAL_WEBHOOK = 'WH-EINLASS-REFUNDS'
fakes.paypal.webhookIds.add(PAYPAL_WEBHOOK)



forEachDialect(
  'refunds that fail later',
  (h) => {
    /** An order of 25,00 € paid through Mollie, the agency with seller data (so it has an invoice). */
    async function paidByMollie() {
      const admin = await h().admin()
      await admin.put('/proxy/api/agency/sellerSettings', SELLER)
      const { event, categories } = await onlineEvent(admin, MOLLIE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      expect((await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'MOLLIE' } })).body.step).toBe(70)
      const [a] = await attemptsOf(h(), id)
      fakes.mollie.setStatus(a.external_id!, 'paid')
      expect((await mollieHook(h(), a.external_id!)).body.outcome).toBe('PAID')
      const o = await orderRow(h(), id)
      const url = `/proxy/api/events/${event.id}/orders/${o.id}`
      const invoices = () => invoicesOf(h(), o.id)
      const attempt = () => h().ctx.db.selectFrom('payment_attempt').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow()
      const owed = async () => (await admin.post(`/proxy/api/events/${event.id}/orders/search`, {})).body.items.find((x: any) => x.id === o.id).refundOwed
      const failedMails = async () => (await h().deliverMail(), h().smtp.mails.filter((m) => m.subject === `Erstattung fehlgeschlagen: Bestellung ${o.number}`))
      const history = async () => (await h().ctx.db.selectFrom('ticket_order_history').select('kind').where('order_id', '=', o.id).orderBy('id').execute()).map((x) => x.kind)
      return { admin, id, o, url, paymentId: a.external_id!, invoices, attempt, owed, failedMails, history }
    }

    test('a partial refund Mollie fails later: found by the check task, told once, refundable again without a second credit note; a made one is DONE by the webhook', async () => {
      const p = await paidByMollie()
      expect(await p.invoices()).toEqual([['INVOICE', 2500]])
      const first = await p.admin.post(`${p.url}/refundPayment`, { amount: 1000 })
      expect(first.status).toBe(200)
      expect(first.body.refunds).toMatchObject([{ amount: 1000, reason: 'ORGANISER', status: 'PENDING' }])
      expect(await p.invoices()).toEqual([['INVOICE', 2500], ['CANCELLATION', -1000]])
      const re1 = first.body.refunds[0].providerRefundId as string
      // still on its way at the first look: looked at again later, nothing changes
      h().clock.advance(SIX_HOURS + 1000)
      await h().tasks.runOnce()
      expect((await p.attempt()).refunded_amount).toBe(1000)
      // Mollie fails it; the next look finds it
      fakes.mollie.setRefundStatus(re1, 'failed')
      h().clock.advance(SIX_HOURS + 1000)
      await h().tasks.runOnce()
      expect(await p.attempt()).toMatchObject({ refunded_amount: 0, failed_refund_credit: 1000 })
      expect((await h().ctx.db.selectFrom('payment_refund').select('status').where('provider_refund_id', '=', re1).executeTakeFirstOrThrow()).status).toBe('FAILED')
      expect(await p.history()).toContain('REFUND_FAILED')
      const told = await p.failedMails()
      expect(told).toHaveLength(1)
      expect(told[0].to).toEqual(['kasse@agentur.example'])
      expect(told[0].text).toContain('Mollie hat die Erstattung von 10,00 € für die Bestellung')
      expect(told[0].text).toContain('Status: failed')
      expect(await p.owed()).toBe(1000)
      expect(await orderRow(h(), p.id)).toMatchObject({ status: 'PAID' })
      // the check again and Mollie's webhook: told once, counted once
      h().clock.advance(SIX_HOURS + 1000)
      await h().tasks.runOnce()
      await mollieHook(h(), p.paymentId)
      expect(await p.failedMails()).toHaveLength(1)
      expect((await p.attempt()).refunded_amount).toBe(0)
      // refunded again: a new refund at Mollie, no second credit note (the first one's stands)
      const again = await p.admin.post(`${p.url}/refundPayment`, { amount: 1000 })
      expect(again.status).toBe(200)
      expect(again.body.refunds.map((r: any) => [r.amount, r.status])).toEqual([[1000, 'FAILED'], [1000, 'PENDING']])
      const re2 = again.body.refunds[1].providerRefundId as string
      expect(re2).not.toBe(re1)
      expect(await p.invoices()).toEqual([['INVOICE', 2500], ['CANCELLATION', -1000]])
      expect(await p.attempt()).toMatchObject({ refunded_amount: 1000, failed_refund_credit: 0 })
      expect(await p.owed()).toBe(0)
      // Mollie makes it and calls the payment's webhook: DONE at once
      fakes.mollie.setRefundStatus(re2, 'refunded')
      await mollieHook(h(), p.paymentId)
      expect((await h().ctx.db.selectFrom('payment_refund').select('status').where('provider_refund_id', '=', re2).executeTakeFirstOrThrow()).status).toBe('DONE')
      // the rest: the order ends, its credit note covers exactly what is left of the invoice
      expect((await p.admin.post(`${p.url}/refundPayment`, {})).status).toBe(200)
      expect(await orderRow(h(), p.id)).toMatchObject({ status: 'REFUNDED', step: 902 })
      expect(await p.invoices()).toEqual([['INVOICE', 2500], ['CANCELLATION', -1000], ['CANCELLATION', -1500]])
      expect((await p.admin.post(`${p.url}/refundPayment`, {})).body.errorType).toBe('ORDER_NOT_PAID')
    })

    test('a whole refund that ended the order fails (cancelled at Mollie): the order stays ended, its amount is refundable again, once; another agency gets 404', async () => {
      const p = await paidByMollie()
      const whole = await p.admin.post(`${p.url}/refundPayment`, {})
      expect(whole.body.refunds).toMatchObject([{ amount: 2500, status: 'PENDING' }])
      expect(await orderRow(h(), p.id)).toMatchObject({ status: 'REFUNDED', step: 902 })
      expect(await p.invoices()).toEqual([['INVOICE', 2500], ['CANCELLATION', -2500]])
      // nothing failed yet: an ended order takes no refund
      expect((await p.admin.post(`${p.url}/refundPayment`, {})).body.errorType).toBe('ORDER_NOT_PAID')
      fakes.mollie.setRefundStatus(whole.body.refunds[0].providerRefundId, 'canceled')
      // Mollie's webhook finds it before the task does, delivered three times at once: told and counted once
      await Promise.all([mollieHook(h(), p.paymentId), mollieHook(h(), p.paymentId), mollieHook(h(), p.paymentId)])
      expect(await p.attempt()).toMatchObject({ refunded_amount: 0, failed_refund_credit: 2500 })
      expect(await orderRow(h(), p.id)).toMatchObject({ status: 'REFUNDED', step: 902 })
      const told = await p.failedMails()
      expect(told).toHaveLength(1)
      expect(told[0].text).toContain('Status: canceled')
      expect(await p.owed()).toBe(2500)
      // the task's look afterwards tells nothing more
      h().clock.advance(SIX_HOURS + 1000)
      await h().tasks.runOnce()
      expect(await p.failedMails()).toHaveLength(1)
      const stranger = await h().admin()
      expect((await stranger.post(`${p.url}/refundPayment`, {})).status).toBe(404)
      // refunded again although the order had ended: no second credit note, nothing owed, and then nothing left
      const again = await p.admin.post(`${p.url}/refundPayment`, {})
      expect(again.status).toBe(200)
      expect(again.body.refunds.map((r: any) => [r.amount, r.status])).toEqual([[2500, 'FAILED'], [2500, 'PENDING']])
      expect(await p.invoices()).toEqual([['INVOICE', 2500], ['CANCELLATION', -2500]])
      expect(await p.owed()).toBe(0)
      expect(await orderRow(h(), p.id)).toMatchObject({ status: 'REFUNDED', step: 902 })
      expect((await p.admin.post(`${p.url}/refundPayment`, {})).body.errorType).toBe('ORDER_NOT_PAID')
    })

    test('a pending Stripe refund (SEPA) that fails: found through Stripe\'s refund event, not taken for a dashboard refund; refunded again at once without a second credit note', async () => {
      const admin = await h().admin()
      await admin.put('/proxy/api/agency/sellerSettings', SELLER)
      const { event, categories } = await onlineEvent(admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      const methodId = (await h().request('GET', orderUrl(id))).body.paymentMethods[0].id as number
      await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'STRIPE', stripePaymentType: 'SEPA', fullName: 'Berta Käuferin' } })
      const [a] = await attemptsOf(h(), id)
      fakes.stripe.confirm(a.external_id!, 'ok')
      expect((await stripeHook(h(), fakes.stripe, methodId, a.external_id!)).body.outcome).toBe('PAID')
      const o = await orderRow(h(), id)
      const url = `/proxy/api/events/${event.id}/orders/${o.id}`
      const invoices = () => invoicesOf(h(), o.id)
      fakes.stripe.refundStatusOnCreate = 'pending'
      try {
        const first = await admin.post(`${url}/refundPayment`, { amount: 1000 })
        expect(first.body.refunds).toMatchObject([{ amount: 1000, status: 'PENDING' }])
        const re1 = first.body.refunds[0].providerRefundId as string
        // Stripe's refund.created about it, still pending: nothing changes, nothing recorded twice
        expect((await stripeHook(h(), fakes.stripe, methodId, a.external_id!, { about: { refund: re1 } })).body.outcome).toBe('REFUND_KNOWN')
        fakes.stripe.setRefundStatus(re1, 'failed')
        expect((await stripeHook(h(), fakes.stripe, methodId, a.external_id!, { type: 'refund.failed', about: { refund: re1 } })).body.outcome).toBe('REFUND_KNOWN')
        const attempt = await h().ctx.db.selectFrom('payment_attempt').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow()
        expect(attempt).toMatchObject({ refunded_amount: 0, failed_refund_credit: 1000 })
        await h().deliverMail()
        const told = h().smtp.mails.filter((m) => m.subject === `Erstattung fehlgeschlagen: Bestellung ${o.number}`)
        expect(told).toHaveLength(1)
        expect(told[0].text).toContain('Stripe hat die Erstattung von 10,00 €')
        expect((await admin.post(`/proxy/api/events/${event.id}/orders/search`, {})).body.items.find((x: any) => x.id === o.id).refundOwed).toBe(1000)
        // refunded again, made at once this time: DONE, no second credit note
        fakes.stripe.refundStatusOnCreate = 'succeeded'
        const again = await admin.post(`${url}/refundPayment`, { amount: 1000 })
        expect(again.body.refunds.map((r: any) => [r.amount, r.status])).toEqual([[1000, 'FAILED'], [1000, 'DONE']])
        expect(await invoices()).toEqual([['INVOICE', 2500], ['CANCELLATION', -1000]])
        expect(fakes.stripe.refunds.filter((r) => r.payment_intent === a.external_id).map((r) => [r.amount, r.status])).toEqual([[1000, 'failed'], [1000, 'succeeded']])
        // the charge.refunded that follows: both known, nothing recorded, the sum counts only the made one
        expect((await stripeHook(h(), fakes.stripe, methodId, a.external_id!, { about: 'charge' })).body.outcome).toBe('REFUND_KNOWN')
        expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID' })
      } finally {
        fakes.stripe.refundStatusOnCreate = 'succeeded'
      }
    })

    test('a Stripe card refund made at once that fails later (refund.failed): owed again, told once although Stripe tells twice', async () => {
      const admin = await h().admin()
      await admin.put('/proxy/api/agency/sellerSettings', SELLER)
      const { event, categories } = await onlineEvent(admin, STRIPE)
      const id = await toConfirmation(h(), event.id, categories[0].id)
      const methodId = (await h().request('GET', orderUrl(id))).body.paymentMethods[0].id as number
      await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'STRIPE' } })
      const [a] = await attemptsOf(h(), id)
      fakes.stripe.confirm(a.external_id!, 'ok')
      expect((await stripeHook(h(), fakes.stripe, methodId, a.external_id!)).body.outcome).toBe('PAID')
      const o = await orderRow(h(), id)
      const url = `/proxy/api/events/${event.id}/orders/${o.id}`
      const made = await admin.post(`${url}/refundPayment`, {})
      expect(made.body.refunds).toMatchObject([{ amount: 2500, status: 'DONE' }])
      expect(await orderRow(h(), id)).toMatchObject({ status: 'REFUNDED' })
      const re = made.body.refunds[0].providerRefundId as string
      // the charge.refunded that follows changes nothing
      expect((await stripeHook(h(), fakes.stripe, methodId, a.external_id!, { about: 'charge' })).body.outcome).toBe('REFUND_KNOWN')
      fakes.stripe.setRefundStatus(re, 'failed')
      for (const type of ['refund.failed', 'refund.updated']) expect((await stripeHook(h(), fakes.stripe, methodId, a.external_id!, { type, about: { refund: re } })).body.outcome).toBe('REFUND_KNOWN')
      expect(await h().ctx.db.selectFrom('payment_attempt').select(['refunded_amount', 'failed_refund_credit']).where('id', '=', a.id).executeTakeFirstOrThrow()).toEqual({ refunded_amount: 0, failed_refund_credit: 2500 })
      await h().deliverMail()
      expect(h().smtp.mails.filter((m) => m.subject === `Erstattung fehlgeschlagen: Bestellung ${o.number}`)).toHaveLength(1)
      expect((await admin.post(`/proxy/api/events/${event.id}/orders/search`, {})).body.items.find((x: any) => x.id === o.id).refundOwed).toBe(2500)
      const kinds = (await h().ctx.db.selectFrom('ticket_order_history').select('kind').where('order_id', '=', o.id).execute()).map((x) => x.kind)
      expect(kinds.filter((k) => k === 'REFUND_FAILED')).toHaveLength(1)
      // refunded again: made, no second credit note
      expect((await admin.post(`${url}/refundPayment`, {})).body.refunds.map((r: any) => [r.amount, r.status])).toEqual([[2500, 'FAILED'], [2500, 'DONE']])
      expect(await invoicesOf(h(), o.id)).toEqual([['INVOICE', 2500], ['CANCELLATION', -2500]])
    })

    test('a PayPal refund left PENDING (the seller\'s balance short): one that fails is found by the task and owed again; the next one completes and PayPal\'s refund event makes it DONE', async () => {
      const admin = await h().admin()
      await admin.put('/proxy/api/agency/sellerSettings', SELLER)
      const { event, categories } = await onlineEvent(admin, { ...PAYPAL, webhookId: PAYPAL_WEBHOOK })
      const methodId = (await admin.get('/proxy/api/agency/paymentMethods')).body.find((m: any) => m.method === 'PAYPAL').id as number
      const id = await toConfirmation(h(), event.id, categories[0].id)
      const orderID = (await h().request('POST', `${orderUrl(id)}/proceed/paypal/init`)).body.payPalPayment.orderID as string
      fakes.paypal.approve(orderID)
      expect((await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })).body.status).toBe('PAID')
      const o = await orderRow(h(), id)
      const url = `/proxy/api/events/${event.id}/orders/${o.id}`
      const statuses = async () => (await h().ctx.db.selectFrom('payment_refund').select(['amount', 'status']).where('order_id', '=', o.id).orderBy('id').execute()).map((r) => [r.amount, r.status])
      fakes.paypal.refundStatusOnCreate = 'PENDING'
      try {
        const first = await admin.post(`${url}/refundPayment`, { amount: 1000 })
        expect(first.body.refunds).toMatchObject([{ amount: 1000, status: 'PENDING' }])
        fakes.paypal.setRefundStatus(first.body.refunds[0].providerRefundId, 'FAILED')
        h().clock.advance(SIX_HOURS + 1000)
        await h().tasks.runOnce()
        expect(await statuses()).toEqual([[1000, 'FAILED']])
        expect((await admin.post(`/proxy/api/events/${event.id}/orders/search`, {})).body.items.find((x: any) => x.id === o.id).refundOwed).toBe(1000)
        await h().deliverMail()
        expect(h().smtp.mails.filter((m) => m.subject === `Erstattung fehlgeschlagen: Bestellung ${o.number}`)).toHaveLength(1)
        // refunded again, PENDING again; PayPal completes it and tells
        const again = await admin.post(`${url}/refundPayment`, { amount: 1000 })
        const re2 = again.body.refunds[1].providerRefundId as string
        expect(await statuses()).toEqual([[1000, 'FAILED'], [1000, 'PENDING']])
        fakes.paypal.setRefundStatus(re2, 'COMPLETED')
        const hook = fakes.paypal.webhook('PAYMENT.CAPTURE.REFUNDED', fakes.paypal.resourceOf('refund', re2), { webhookId: PAYPAL_WEBHOOK })
        const told = await h().app.handle(new Request(`http://localhost/proxy/api/payments/paypal/webhook/${methodId}`, { method: 'POST', headers: { 'content-type': 'application/json', ...hook.headers }, body: hook.body }))
        expect(((await told.json()) as { outcome: string }).outcome).toBe('REFUND_KNOWN')
        expect(await statuses()).toEqual([[1000, 'FAILED'], [1000, 'DONE']])
        expect(await invoicesOf(h(), o.id)).toEqual([['INVOICE', 2500], ['CANCELLATION', -1000]])
        expect((await admin.post(`/proxy/api/events/${event.id}/orders/search`, {})).body.items.find((x: any) => x.id === o.id).refundOwed).toBe(0)
      } finally {
        fakes.paypal.refundStatusOnCreate = 'COMPLETED'
      }
    })
  },
  { env: fakes.env },
)
