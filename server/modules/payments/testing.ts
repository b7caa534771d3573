// Test helpers of online payments: the three local provider fakes, an agency with STRIPE, MOLLIE
// and PAYPAL set up against them, and a buyer walked to the confirmation step.
import { expect } from 'bun:test'
import type { Agent, Harness } from '../../testing/harness'
import { startMollieFake } from '../../testing/fakes/mollie'
import { startPayPalFake } from '../../testing/fakes/paypal'
import { type StripeFake, startStripeFake } from '../../testing/fakes/stripe'
import { address, buy, buyer, paidEvent } from '../ticketing/testing'

export const STRIPE_WHSEC = 'whsec_test_einlass'
export const STRIPE = { method: 'STRIPE', publicKey: 'pk_test_einlass', secretKey: 'sk_test_einlass', webhookSecret: STRIPE_WHSEC, paymentTypes: ['CARD', 'SEPA'] }
export const MOLLIE = { method: 'MOLLIE', secretKey: 'test_einlassMollieKey0123456789abcd' }
export const PAYPAL = { method: 'PAYPAL', publicKey: 'einlass-client', secretKey: 'einlass-secret', testMode: true, disabledFundings: ['card'] }

export function startFakes() {
  const stripe = startStripeFake(STRIPE_WHSEC)
  const mollie = startMollieFake()
  const paypal = startPayPalFake(PAYPAL.publicKey, PAYPAL.secretKey)
  return {
    stripe,
    mollie,
    paypal,
    env: { EINLASS_STRIPE_API_URL: stripe.url, EINLASS_MOLLIE_API_URL: `${mollie.url}/v2/`, EINLASS_PAYPAL_SANDBOX_API_URL: paypal.url },
    stop() {
      stripe.stop()
      mollie.stop()
      paypal.stop()
    },
  }
}

/** Seller data complete enough for invoices (paid orders get one, refunds credit notes). */
export const SELLER = { name: 'Agentur GmbH', street: 'Hauptstraße', streetNumber: '1', postCode: '10115', city: 'Berlin', vatId: 'DE123456789', invoiceNumberPrefix: 'RE-', contactName: 'Ada Admin', phone: '+49 30 123456', email: 'kasse@agentur.example' }

/** Mollie calling einlass' webhook: only the payment's id, form-encoded. */
export const mollieHook = (h: Harness, id: string) =>
  h.app.handle(new Request('http://localhost/proxy/api/payments/mollie/webhook', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${id}` })).then(async (r) => ({ status: r.status, body: await r.json() }))

/** A signed Stripe webhook delivery (built by the fake) posted to the method's endpoint. */
export async function stripeHook(h: Harness, stripe: StripeFake, methodId: number, piId: string, opts: Parameters<StripeFake['webhook']>[1] = {}) {
  const w = await stripe.webhook(piId, opts)
  const r = await h.app.handle(new Request(`http://localhost/proxy/api/payments/stripe/webhook/${methodId}`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': w.signature }, body: w.body }))
  return { status: r.status, body: await r.json() }
}

/** An order's invoice and credit notes, oldest first, as [kind, gross cents]. */
export const invoicesOf = async (h: Harness, orderId: number) =>
  (await h.ctx.db.selectFrom('invoice').select(['kind', 'gross_cents']).where('order_ref', '=', String(orderId)).orderBy('id').execute()).map((i) => [i.kind, i.gross_cents])

export const orderUrl = (id: string) => `/proxy/api/guest/ticketOrder/${id}`

/** A paid event with one online method; quota as given. */
export async function onlineEvent(admin: Agent, method: Record<string, unknown>, quota = 10) {
  return paidEvent(admin, { methods: [method], categories: [{ displayName: 'Stehplatz', grossPrice: 2500, taxCode: 'TAX_19', quota }] })
}

/** Buys one ticket and walks to the confirmation (step 40); answers the order's public id. */
export async function toConfirmation(h: Harness, eventId: number, categoryId: number): Promise<string> {
  const r = await buy(h, eventId, buyer([{ categoryId, amount: 1 }]))
  expect(r.status).toBe(201)
  const id = r.body.ticketOrderId as string
  const a = await h.request('POST', `${orderUrl(id)}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })
  expect(a.body.step).toBe(40)
  return id
}

/** An order of one ticket paid through Mollie whose payment is left open until the task gives it up: expired (901), the open attempt kept. */
export async function expiredMollieOrder(h: Harness, eventId: number, categoryId: number) {
  const id = await toConfirmation(h, eventId, categoryId)
  await h.request('POST', `${orderUrl(id)}/proceed/paymentPay`, { body: {} })
  const [attempt] = await attemptsOf(h, id)
  h.clock.advance(31 * 60_000)
  await h.tasks.runOnce()
  expect(await orderRow(h, id)).toMatchObject({ status: 'CANCELED', step: 901 })
  return { id, attempt }
}

export const orderRow = (h: Harness, publicId: string) => h.ctx.db.selectFrom('ticket_order').selectAll().where('public_id', '=', publicId).executeTakeFirstOrThrow()
export const soldOf = async (h: Harness, categoryId: number) => (await h.ctx.db.selectFrom('ticket_category').select('sold').where('id', '=', categoryId).executeTakeFirstOrThrow()).sold
export const attemptsOf = async (h: Harness, publicId: string) => {
  const o = await orderRow(h, publicId)
  return h.ctx.db.selectFrom('payment_attempt').selectAll().where('order_id', '=', o.id).orderBy('id').execute()
}
