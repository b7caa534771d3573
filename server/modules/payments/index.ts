// Online payments (issue 13, docs/payments.md): the guest's provider calls of guest-side.md §7,
// provider webhooks, the organiser's refunds through the provider.
import { trackWebhook } from './webhook-health'
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { AppError, notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { eventOfAgency } from '../events/service'
import { requireOrganiser } from '../identity/auth'
import { answer as orderAnswer, checkTerms, orderByPublicId, proceedPaymentPay, setStripePaymentInfo } from '../ticketing/orders/guest'
import { STEP } from '../ticketing/orders/steps'
import { eventPaymentMethods } from '../ticketing/payment-methods'
import type { TicketOrderRow } from '../ticketing/ticketing.table'
import { applyRemote, openAttemptOf } from './attempts'
import { fetchRemote, startPayPal } from './providers'
import './cancel'
import './key-check'
import './reconcile'
import './refund-outcomes'
import { RefundPaymentInput } from './model'
import { refundPayment, refundsOf } from './refunds'
import { mollieWebhook, payPalWebhook, stripeWebhook } from './webhooks'

const tags = ['payments']
const params = z.object({ id: z.string().max(64) })
const base = '/proxy/api/guest/ticketOrder/:id'
const MAX_WEBHOOK = 256 * 1024


async function chosenMethod(ctx: AppContext, order: TicketOrderRow, method: string) {
  if (order.payment_method !== method) throw new AppError(409, 'ORDER_STEP_CHANGED', { extra: { step: order.step, orderStatus: order.status } })
  const row = (await eventPaymentMethods(ctx.db, { id: order.event_id, agency_id: order.agency_id, currency: order.currency })).find((m) => m.method === method)
  if (!row) throw new AppError(409, 'PAYMENT_METHOD_NOT_AVAILABLE')
  return row
}

/** stripe/success and mollie/success: the guest is back; re-fetch and apply (the webhook may not have come). */
async function returned(ctx: AppContext, publicId: string, provider: string) {
  const order = await orderByPublicId(ctx.db, publicId)
  const a =
    (await openAttemptOf(ctx.db, order.id)) ??
    (await ctx.db.selectFrom('payment_attempt').selectAll().where('order_id', '=', order.id).where('provider', '=', provider).orderBy('id', 'desc').executeTakeFirst())
  if (!a || a.provider !== provider || a.payment_method_id == null) throw new AppError(409, 'PAYMENT_NOT_STARTED')
  const method = await ctx.db.selectFrom('payment_method').selectAll().where('id', '=', a.payment_method_id).executeTakeFirst()
  if (!method) throw new AppError(409, 'PAYMENT_METHOD_NOT_AVAILABLE')
  const remote = await fetchRemote(ctx, a, method)
  await applyRemote(ctx, a, remote, 'return')
  const now = await orderByPublicId(ctx.db, publicId)
  return orderAnswer(ctx, now, { errorCode: remote.errorCode ?? null, errorMessage: remote.errorMessage ?? null })
}

setStripePaymentInfo(async (ctx, order, method) => {
  if (!method || method.method !== 'STRIPE' || order.payment_method !== 'STRIPE') return null
  const a = order.status === 'OPEN' ? await openAttemptOf(ctx.db, order.id) : undefined
  const url = `${ctx.config.baseUrl}/pay/${order.public_id}`
  return { publicKey: method.public_key, accountId: method.account_id, clientSecret: a?.provider === 'STRIPE' ? a.client_secret : null, successUrl: `${url}#success`, redirectUrl: url }
})

/** the buyer accepts the event's terms with the start of the payment (docs/ticketing.md, "Selling rules") */
const TermsBody = z.object({ acceptTerms: z.boolean().nullish() }).nullish()

export function paymentRoutes(ctx: AppContext) {
  return new Elysia({ name: 'payments' })
    .post(
      `${base}/proceed/paypal/init`,
      async (c) => {
        const order = await orderByPublicId(ctx.db, c.params.id)
        if (order.status !== 'OPEN' || order.step !== STEP.CONFIRMATION) throw new AppError(409, 'ORDER_STEP_CHANGED', { extra: { step: order.step, orderStatus: order.status } })
        await checkTerms(ctx, order, c.body?.acceptTerms === true)
        const a = await startPayPal(ctx, order, await chosenMethod(ctx, order, 'PAYPAL'))
        return { payPalPayment: { orderID: a.external_id } }
      },
      { params, body: TermsBody, detail: { tags, summary: 'Creates the PayPal order for the JS SDK buttons (payPalPayment.orderID)' } },
    )
    .post(
      `${base}/proceed/mollie/init`,
      async (c) => {
        const order = await orderByPublicId(ctx.db, c.params.id)
        if (order.status === 'OPEN' && (order.step === STEP.EXTERNAL_SITE || order.step === STEP.WAIT)) {
          const a = await openAttemptOf(ctx.db, order.id)
          if (a?.provider === 'MOLLIE' && a.checkout_url) return { ...(await orderAnswer(ctx, order)), molliePayment: { redirectUrl: a.checkout_url } }
        }
        await chosenMethod(ctx, order, 'MOLLIE')
        const r = await proceedPaymentPay(ctx, c.params.id, { paymentMethod: 'MOLLIE', acceptTerms: c.body?.acceptTerms })
        return { ...r, molliePayment: { redirectUrl: (r as { redirectUrl?: string | null }).redirectUrl ?? null } }
      },
      { params, body: TermsBody, detail: { tags, summary: 'Creates the Mollie payment; molliePayment.redirectUrl is its checkout (step 70)' } },
    )
    .post(`${base}/stripe/success`, (c) => returned(ctx, c.params.id, 'STRIPE'), { params, detail: { tags, summary: 'Back from Stripe (3-D Secure, redirects): re-fetches the PaymentIntent' } })
    .post(`${base}/mollie/success`, (c) => returned(ctx, c.params.id, 'MOLLIE'), { params, detail: { tags, summary: 'Back from the Mollie checkout: paid → 100, else SYSTEM_PAYMENT_WAIT (90)' } })
    .post(
      '/proxy/api/payments/stripe/webhook/:methodId',
      async (c) => {
        const body = typeof c.body === 'string' ? c.body : ''
        if (body.length > MAX_WEBHOOK) throw new AppError(413, 'INVALID_PARAMETERS')
        return trackWebhook(ctx, c.params.methodId, () => stripeWebhook(ctx, c.params.methodId, body, c.request.headers.get('stripe-signature')))
      },
      { parse: 'text', params: z.object({ methodId: idParam() }), detail: { tags, summary: "Stripe webhook of one payment method (signed with its endpoint's secret)" } },
    )
    .post(
      '/proxy/api/payments/paypal/webhook/:methodId',
      async (c) => {
        const body = typeof c.body === 'string' ? c.body : ''
        if (body.length > MAX_WEBHOOK) throw new AppError(413, 'INVALID_PARAMETERS')
        return trackWebhook(ctx, c.params.methodId, () => payPalWebhook(ctx, c.params.methodId, body, c.request.headers))
      },
      { parse: 'text', params: z.object({ methodId: idParam() }), detail: { tags, summary: "PayPal webhook of one payment method (verified with PayPal for the method's webhook id)" } },
    )
    .post(
      '/proxy/api/payments/mollie/webhook',
      async (c) => {
        const body = typeof c.body === 'string' ? c.body : ''
        if (body.length > 1024) throw new AppError(413, 'INVALID_PARAMETERS')
        return mollieWebhook(ctx, body)
      },
      { parse: 'text', detail: { tags, summary: 'Mollie webhook (id=tr_…): re-fetches the payment' } },
    )
    .post(
      '/proxy/api/events/:id/orders/:oid/refundPayment',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.MANAGE')
        return refundPayment(ctx, actor, await eventOfAgency(ctx, actor, c.params.id), c.params.oid, c.body ?? {})
      },
      { params: z.object({ id: idParam(), oid: idParam() }), body: RefundPaymentInput.optional(), detail: { tags, summary: 'Refund (whole or partial) of an online payment through its provider' } },
    )
    .get(
      '/proxy/api/events/:id/orders/:oid/refunds',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'EVENT.GUEST.VIEW')
        const event = await eventOfAgency(ctx, actor, c.params.id)
        const o = await ctx.db.selectFrom('ticket_order').select('id').where('id', '=', c.params.oid).where('event_id', '=', event.id).executeTakeFirst()
        if (!o) throw notFound()
        return refundsOf(ctx, o.id)
      },
      { params: z.object({ id: idParam(), oid: idParam() }), detail: { tags, summary: 'Refunds of an order with their provider ids' } },
    )
}
