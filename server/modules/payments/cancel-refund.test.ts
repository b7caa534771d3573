// Cancelling a PAID online order refunds it through its provider (Stripe, PayPal, Mollie) with the
// credit note and the mails; provider down changes nothing and can be retried; a lost answer and
// its retry refund once (idempotency key). Partial refunds issue partial credit notes split over the
// tax rates, numbered from the same gapless sequence, valid XRechnung (CII and UBL); concurrent
// partial refunds never add up to more than was paid.
import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type Harness, forEachDialect } from '../../testing/harness'
import { renderInvoicePdf } from '../invoices/pdf'
import type { InvoiceSnapshot } from '../invoices/snapshot'
import { renderXml } from '../invoices/xml'
import { cancelOrder } from '../ticketing/orders/organiser'
import { TRANSFER, paidEvent } from '../ticketing/testing'
import { MOLLIE, PAYPAL, SELLER, STRIPE, attemptsOf, orderRow, orderUrl, soldOf, startFakes, toConfirmation } from './testing'

const fakes = startFakes()
afterAll(() => fakes.stop())

const VALIDATE = process.env.EINVOICE_VALIDATE ?? resolve(import.meta.dir, '../../../../shared/einvoice/validate')
const validatorReady = existsSync(VALIDATE) && existsSync('/usr/share/java/Saxon-HE.jar') && Bun.which('java') !== null && Bun.which('xmllint') !== null
if (!validatorReady && process.env.CI === 'true') throw new Error('e-invoice validator cannot run: CI must validate invoices')

async function validate(snap: InvoiceSnapshot, syntax: 'CII' | 'UBL') {
  const file = join(mkdtempSync(join(tmpdir(), 'einlass-credit-')), `${snap.number}-${syntax}.xml`)
  writeFileSync(file, await renderXml(snap, syntax))
  const p = Bun.spawn(['bash', VALIDATE, file], { stdout: 'pipe', stderr: 'pipe' })
  const out = (await new Response(p.stdout).text()) + (await new Response(p.stderr).text())
  return { code: await p.exited, out: out.slice(-2000) }
}


/** Pays the order at its provider the way a guest does; answers the order row. */
async function payOnline(h: Harness, id: string, method: string) {
  if (method === 'PAYPAL') {
    const orderID = (await h.request('POST', `${orderUrl(id)}/proceed/paypal/init`)).body.payPalPayment.orderID
    fakes.paypal.approve(orderID)
    expect((await h.request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })).body.status).toBe('PAID')
  } else {
    await h.request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
    const [a] = await attemptsOf(h, id)
    if (method === 'STRIPE') fakes.stripe.confirm(a!.external_id!, 'ok')
    else fakes.mollie.setStatus(a!.external_id!, 'paid')
    expect((await h.request('POST', `${orderUrl(id)}/${method === 'STRIPE' ? 'stripe' : 'mollie'}/success`)).body.status).toBe('PAID')
  }
  return orderRow(h, id)
}

const invoicesOf = (h: Harness, orderId: number) => h.ctx.db.selectFrom('invoice').selectAll().where('order_ref', '=', String(orderId)).orderBy('id').execute()

forEachDialect(
  'cancelling and refunding online payments',
  (h, dialect) => {
    test('cancelling a PAID Stripe order refunds it: provider down → nothing changed; a lost answer and the retry refund once; then REFUNDED (902), credit note, mails', async () => {
      const admin = await h().admin()
      await admin.put('/proxy/api/agency/sellerSettings', SELLER)
      const { event, categories } = await paidEvent(admin, { methods: [STRIPE], categories: [{ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 10 }] })
      const id = await toConfirmation(h(), event.id, categories[0]!.id)
      const o = await payOnline(h(), id, 'STRIPE')
      const [a] = await attemptsOf(h(), id)
      const inv = await invoicesOf(h(), o.id)
      expect(inv.map((i) => [i.kind, i.gross_cents])).toEqual([['INVOICE', 2500]])
      expect(JSON.parse(inv[0]!.snapshot).payment).toEqual({ kind: 'ONLINE', provider: 'STRIPE', reference: o.number })
      const url = `/proxy/api/events/${event.id}/orders/${o.id}`
      const refundsAtStripe = () => fakes.stripe.refunds.filter((r) => r.payment_intent === a!.external_id)

      // Stripe down: a German error, the order untouched, no refund anywhere
      fakes.stripe.fail = '500'
      const down = await admin.post(`${url}/cancel`)
      fakes.stripe.fail = null
      expect(down.status).toBe(502)
      expect(down.body.errorType).toBe('PAYMENT_PROVIDER_UNAVAILABLE')
      expect(down.body.errorMessage).toContain('nicht erreichbar')
      expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID', step: 100 })
      expect((await attemptsOf(h(), id))[0]!.refunded_amount).toBe(0)
      expect(await h().ctx.db.selectFrom('payment_refund').select('id').where('order_id', '=', o.id).execute()).toEqual([])
      expect((await invoicesOf(h(), o.id)).length).toBe(1)
      expect(await soldOf(h(), categories[0]!.id)).toBe(1)

      // Stripe refunds but its answer is lost: einlass cannot know, so nothing is recorded yet ...
      fakes.stripe.fail = 'lost'
      expect((await admin.post(`${url}/cancel`)).status).toBe(502)
      fakes.stripe.fail = null
      expect(refundsAtStripe().length).toBe(1)
      expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID' })
      // ... and the retry sends the same idempotency key: Stripe answers the first refund, no second one
      const done = await admin.post(`${url}/cancel`)
      expect(done.status).toBe(200)
      expect(done.body).toMatchObject({ status: 'REFUNDED', step: 902 })
      expect(refundsAtStripe().map((r) => r.amount)).toEqual([2500])
      const rows = await h().ctx.db.selectFrom('payment_refund').selectAll().where('order_id', '=', o.id).execute()
      expect(rows.map((r) => [r.provider_refund_id, r.amount, r.reason])).toEqual([[refundsAtStripe()[0]!.id, 2500, 'CANCEL']])
      expect((await attemptsOf(h(), id))[0]!.refunded_amount).toBe(2500)
      expect(await soldOf(h(), categories[0]!.id)).toBe(0)
      const after = await invoicesOf(h(), o.id)
      expect(after.map((i) => [i.kind, i.number, i.gross_cents])).toEqual([
        ['INVOICE', 'RE-00001', 2500],
        ['CANCELLATION', 'RE-00002', -2500],
      ])
      expect(done.body.history.map((x: any) => x.kind)).toEqual(expect.arrayContaining(['PROVIDER_REFUND', 'REFUNDED', 'CANCELED']))
      expect((await h().request('GET', orderUrl(id))).body.ticketOrder).toMatchObject({ status: 'REFUNDED', step: 902 })
      // twice: nothing more
      expect((await admin.post(`${url}/cancel`)).body.errorType).toBe('ORDER_NOT_OPEN')
      expect(refundsAtStripe().length).toBe(1)
      await h().deliverMail()
      expect(h().smtp.mails.filter((m) => m.subject === `Bestellung erstattet: ${o.number}` && m.to.includes(o.email!)).length).toBe(1)
      expect(h().smtp.mails.filter((m) => m.subject === `Bestellung storniert und erstattet: ${o.number}` && m.to.includes('kasse@agentur.example')).length).toBe(1)
    })

    test('PayPal and Mollie orders are refunded through their provider on cancel; the system (no actor) cancels the same way; offline orders are cancelled as before', async () => {
      const admin = await h().admin()
      for (const m of [PAYPAL, MOLLIE]) {
        const { event, categories } = await paidEvent(admin, { methods: [m], categories: [{ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota: 10 }] })
        const id = await toConfirmation(h(), event.id, categories[0]!.id)
        const o = await payOnline(h(), id, m.method)
        const [a] = await attemptsOf(h(), id)
        const eventRow = await h().ctx.db.selectFrom('event').selectAll().where('id', '=', event.id).executeTakeFirstOrThrow()
        // as deleting or declining a guest does it: ticketing's cancelOrder, no organiser behind it
        const r = await cancelOrder(h().ctx, null, eventRow, o.id)
        expect(r).toMatchObject({ status: 'REFUNDED', step: 902 })
        if (m.method === 'PAYPAL') {
          const capture = fakes.paypal.orders.get(a!.external_id!)!.purchase_units[0]!.payments!.captures[0]!.id
          expect(fakes.paypal.refunds.filter((x) => x.captureId === capture).map((x) => x.value)).toEqual(['25.00'])
        } else expect(fakes.mollie.refunds.filter((x) => x.paymentId === a!.external_id).map((x) => x.value)).toEqual(['25.00'])
        expect((await h().ctx.db.selectFrom('payment_refund').select('reason').where('order_id', '=', o.id).execute()).map((x) => x.reason)).toEqual(['CANCEL'])
        expect(await soldOf(h(), categories[0]!.id)).toBe(0)
      }
      // an order waiting for its transfer: cancelled (CANCELED), no provider involved
      const { event, categories } = await paidEvent(admin, { methods: [TRANSFER] })
      const id = await toConfirmation(h(), event.id, categories[0]!.id)
      expect((await h().request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: { paymentMethod: 'TRANSFER' } })).body.step).toBe(100)
      const o = await orderRow(h(), id)
      expect((await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/cancel`)).body).toMatchObject({ status: 'CANCELED' })
    })

    test('partial refunds: a credit note each, split over the tax rates, gapless numbers; concurrent refunds never exceed the payment; cancelling credits exactly the rest', async () => {
      const admin = await h().admin()
      await admin.put('/proxy/api/agency/sellerSettings', SELLER)
      const { event, categories } = await paidEvent(admin, {
        methods: [STRIPE],
        categories: [
          { displayName: 'Sitzplatz', grossPrice: 4000, taxCode: 'TAX_19', quota: 10 },
          { displayName: 'Buffet', grossPrice: 1500, taxCode: 'TAX_7', quota: 10 },
        ],
      })
      const { buy, buyer, address } = await import('../ticketing/testing')
      const b = await buy(h(), event.id, buyer([
        { categoryId: categories[0]!.id, amount: 1 },
        { categoryId: categories[1]!.id, amount: 1 },
      ], { escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] }))
      const id = b.body.ticketOrderId as string
      expect((await h().request('POST', `${orderUrl(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step).toBe(40)
      const o = await payOnline(h(), id, 'STRIPE')
      expect(o.paid_amount).toBe(5500)
      const url = `/proxy/api/events/${event.id}/orders/${o.id}`

      const first = await admin.post(`${url}/refundPayment`, { amount: 1000 })
      expect(first.status).toBe(200)
      expect(first.body.status).toBe('PAID')
      let inv = await invoicesOf(h(), o.id)
      expect(inv.map((i) => [i.kind, i.number, i.gross_cents])).toEqual([
        ['INVOICE', 'RE-00001', 5500],
        ['CANCELLATION', 'RE-00002', -1000],
      ])
      const credit: InvoiceSnapshot = JSON.parse(inv[1]!.snapshot)
      // 1000 split over 4000 at 19 % and 1500 at 7 %: 727 and 273
      expect(credit.taxGroups.map((g) => [g.rate, g.grossCents])).toEqual([
        [19, -727],
        [7, -273],
      ])
      expect(credit.totals).toMatchObject({ grossCents: -1000, paidCents: -1000, payableCents: 0 })
      expect(credit.cancels).toEqual({ number: 'RE-00001', issueDate: JSON.parse(inv[0]!.snapshot).issueDate })

      // five refunds of 10 € at once on the 45 € left: four fit, one is refused
      const many = await Promise.all(Array.from({ length: 5 }, () => admin.post(`${url}/refundPayment`, { amount: 1000 })))
      expect(many.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 409])
      expect(many.find((r) => r.status === 409)!.body.errorType).toBe('REFUND_TOO_LARGE')
      const [a] = await attemptsOf(h(), id)
      expect(a!.refunded_amount).toBe(5000)
      expect(fakes.stripe.refunds.filter((r) => r.payment_intent === a!.external_id).reduce((s, r) => s + r.amount, 0)).toBe(5000)
      expect(await orderRow(h(), id)).toMatchObject({ status: 'PAID' })
      expect((await admin.post(`${url}/refundPayment`, { amount: 501 })).body.errorType).toBe('REFUND_TOO_LARGE')

      // cancelling refunds and credits the rest: 5 € exactly, the order ends
      const cancel = await admin.post(`${url}/cancel`)
      expect(cancel.body).toMatchObject({ status: 'REFUNDED', step: 902 })
      expect(fakes.stripe.refunds.filter((r) => r.payment_intent === a!.external_id).reduce((s, r) => s + r.amount, 0)).toBe(5500)
      inv = await invoicesOf(h(), o.id)
      expect(inv.map((i) => i.number)).toEqual(['RE-00001', 'RE-00002', 'RE-00003', 'RE-00004', 'RE-00005', 'RE-00006', 'RE-00007'])
      expect(inv.slice(1).map((i) => i.gross_cents)).toEqual([-1000, -1000, -1000, -1000, -1000, -500])
      // all credit notes together give back each tax rate's amount exactly
      const byRate = new Map<number, number>()
      for (const i of inv.slice(1)) for (const g of (JSON.parse(i.snapshot) as InvoiceSnapshot).taxGroups) byRate.set(g.rate as number, (byRate.get(g.rate as number) ?? 0) + g.grossCents)
      expect(Object.fromEntries(byRate)).toEqual({ 19: -4000, 7: -1500 })
      expect(await soldOf(h(), categories[0]!.id)).toBe(0)
      expect(await soldOf(h(), categories[1]!.id)).toBe(0)
      await h().deliverMail()
      const mails = h().smtp.mails.filter((m) => m.to.includes(o.email!))
      expect(mails.filter((m) => m.subject === `Teilerstattung: ${o.number}`).length).toBe(5)
      // the last mail names what the last refund gave back, not the order's total
      expect(mails.find((m) => m.subject === `Bestellung erstattet: ${o.number}`)!.text).toContain('den Betrag von 5,00 €')

      // the partial and the final credit note: PDF and valid XRechnung in both syntaxes
      const last: InvoiceSnapshot = JSON.parse(inv.at(-1)!.snapshot)
      const pdf = Bun.spawnSync(['pdftotext', '-layout', '-', '-'], { stdin: await renderInvoicePdf(credit) }).stdout.toString()
      expect(pdf).toContain('Stornorechnung RE-00002')
      expect(pdf).toContain('RE-00001')
      expect(pdf).toMatch(/Gesamtbetrag\s+-10,00 €/)
      if (validatorReady && dialect === 'sqlite') {
        for (const s of [credit, last]) for (const syntax of ['CII', 'UBL'] as const) expect({ n: s.number, syntax, ...(await validate(s, syntax)) }).toMatchObject({ code: 0 })
      }
    }, 180_000)
  },
  { env: fakes.env },
)
