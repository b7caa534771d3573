// The ticket order calls of guest-side.md §7. The {id} is the order's unguessable public id
// (docs/ticketing.md): knowing it is the guest's access, like the order secret of pretix.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { fromJson } from '../../db/types'
import { fieldError, notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { findEvent } from '../events/repository'
import { forgive, throttle } from '../identity/rate-limit'
import { clientIp } from '../../http/client-address'
import { listCategories } from './categories'
import { formatPriceIn } from '../../i18n/price'
import { requestLanguage } from '../../http/request'
import { resolveLanguage } from '../../i18n/languages'
import { eventPaymentMethods } from './payment-methods'
import { currencyPrefixOf } from './seller-settings'
import { requireGuest } from '../identity/auth'
import { requestCancellation } from './orders/cancel-requests'
import { CancellationReasonInput, AdditionalInformationsStep, BackStep, InvoiceAddressStep, PaymentPayStep, PaymentSelectionStep, TicketCodeInput, TicketsInput } from './model'
import type { TicketCategoryRow } from './ticketing.table'
import { planOrder } from './orders/create'
import { orderState, proceedAdditionalInformations, proceedBack, proceedInvoiceAddress, proceedPaymentPay, proceedPaymentSelection, resetOrder, ticketInfo } from './orders/guest'

const tags = ['ticket orders']
const params = z.object({ id: z.string().max(64) })
const base = '/proxy/api/guest/ticketOrder/:id'

export function ticketOrderRoutes(ctx: AppContext) {
  return new Elysia({ name: 'ticket-orders' })
    .get(
      '/proxy/api/public/events/:id/ticketCategories',
      async (c) => {
        const e = await findEvent(ctx.db, c.params.id)
        if (!e || e.status !== 'OK' || e.visibility === 'OFFLINE') throw notFound()
        const lang = c.query.language ?? 'de'
        const now = ctx.clock.now().toISOString()
        const free = e.max_visitors == null ? null : Math.max(0, e.max_visitors - e.seats_taken)
        // without a payment method nothing with a price can be paid: said before the form, not after it (issue 20)
        const payable = (await eventPaymentMethods(ctx.db, e)).length > 0
        const prefix = await currencyPrefixOf(ctx.db, e.agency_id)
        const all = await listCategories(ctx.db, e.id)
        // hidden categories only with their code (docs/ticketing.md, "Selling rules"): a code to try is
        // limited per client address like coupon codes, a right one given back
        const code = c.query.code?.trim().toUpperCase() || null
        const address = code ? (clientIp(c.request, c.server, ctx.config.server.trusted_proxies) ?? 'unknown') : null
        if (address) await throttle(ctx, [['COUPON_CHECK_ADDRESS', address]])
        const shown = all.filter((k) => k.access_code == null || k.access_code === code)
        if (code && !shown.some((k) => k.access_code === code)) throw fieldError([{ field: 'code', errorType: 'TICKET_CODE_INVALID' }])
        if (address) await forgive(ctx, [['COUPON_CHECK_ADDRESS', address]])
        const nameOf = (k: TicketCategoryRow) => fromJson<Array<{ language: string; displayName: string }>>(k.translations, []).find((x) => x.language === lang)?.displayName ?? k.display_name
        const items = shown.map((k) => {
          const left = k.quota == null ? free : Math.max(0, Math.min(k.quota - k.sold, free ?? Infinity))
          const saleState = k.sale_from && k.sale_from > now ? 'NOT_YET' : k.sale_until && k.sale_until < now ? 'ENDED' : 'ON_SALE'
          const required = k.requires_category_id == null ? undefined : all.find((x) => x.id === k.requires_category_id)
          return {
            id: k.id,
            displayName: nameOf(k),
            description: k.description,
            grossPrice: k.gross_price,
            // the amount as the guest's language writes it (German: the agency's format)
            grossPriceText: formatPriceIn(resolveLanguage(lang, ctx.license.features), k.gross_price, e.currency, prefix),
            available: left,
            minPerOrder: k.min_per_order,
            maxPerOrder: k.max_per_order,
            onSale: (payable || k.gross_price === 0) && saleState === 'ON_SALE',
            /** "ab …" / "beendet" on the page */
            saleState,
            saleFrom: k.sale_from,
            saleUntil: k.sale_until,
            hidden: k.access_code != null,
            requiresCategoryId: required?.id ?? null,
            requiresName: required ? nameOf(required) : null,
          }
        })
        return { eventId: e.id, currency: e.currency, currencyPrefix: prefix, maxPerOrder: e.max_visitor_per_subscription, freePlaces: free, items, hasHidden: all.some((k) => k.access_code != null), ticketCode: code, timezone: e.timezone }
      },
      {
        params: z.object({ id: idParam() }),
        query: z.object({ language: z.string().max(10).optional(), code: z.string().max(40).optional() }),
        detail: { tags, summary: 'Ticket categories of a public paid event with what is left; `code` adds the hidden ones it opens' },
      },
    )
    .post(
      '/proxy/api/public/events/:id/ticketPrice',
      async (c) => {
        // the public page's total with the coupon the guest typed (issue 20 item 23): priced as the
        // order will be (planOrder: the same checks and the same coupon rules), nothing taken
        const e = await findEvent(ctx.db, c.params.id)
        if (!e || e.status !== 'OK' || e.visibility === 'OFFLINE') throw notFound()
        // a code to try: limited per client address, a right one given back (codes are not guessed here)
        const address = c.body.couponCode || c.body.ticketCode ? clientIp(c.request, c.server, ctx.config.server.trusted_proxies) ?? 'unknown' : null
        if (address) await throttle(ctx, [['COUPON_CHECK_ADDRESS', address]])
        const plan = await planOrder(ctx.db, e, c.body.tickets, c.body.couponCode, ctx.clock.now(), { ticketCode: c.body.ticketCode })
        if (address) await forgive(ctx, [['COUPON_CHECK_ADDRESS', address]])
        const prefix = await currencyPrefixOf(ctx.db, e.agency_id)
        return {
          grossPrice: plan.priced.grossPrice,
          discount: plan.priced.discount,
          grossPriceText: formatPriceIn(requestLanguage(c.request, ctx.license.features), plan.priced.grossPrice, e.currency, prefix),
          discountText: formatPriceIn(requestLanguage(c.request, ctx.license.features), plan.priced.discount, e.currency, prefix),
        }
      },
      {
        params: z.object({ id: idParam() }),
        body: z.object({ tickets: TicketsInput, couponCode: z.string().trim().max(40).nullish(), ticketCode: TicketCodeInput }),
        detail: { tags, summary: 'The price of a ticket choice with a coupon (the public page shows it before registering)' },
      },
    )
    .get(base, (c) => ticketInfo(ctx, c.params.id, requestLanguage(c.request, ctx.license.features)), { params, detail: { tags, summary: 'The ticket info of an order (pay page)' } })
    .get(`${base}/orderState`, (c) => orderState(ctx, c.params.id), { params, detail: { tags, summary: 'Step and status (polled every 5000 ms while processing)' } })
    .get(`${base}/reset`, (c) => resetOrder(ctx, c.params.id), { params, detail: { tags, summary: 'Continue after a cancelled, expired or failed payment: tickets taken again, first step' } })
    .post(`${base}/proceed/reset`, (c) => proceedBack(ctx, c.params.id, c.body.step), { params, body: BackStep, detail: { tags, summary: 'Back to an earlier user step (back rules of §4)' } })
    .post(`${base}/proceed/invoiceAddress`, (c) => proceedInvoiceAddress(ctx, c.params.id, c.body), { params, body: InvoiceAddressStep, detail: { tags, summary: 'Step 1: the invoice address' } })
    .post(`${base}/proceed/additionalInformations`, (c) => proceedAdditionalInformations(ctx, c.params.id, c.body), {
      params,
      body: AdditionalInformationsStep,
      detail: { tags, summary: 'Step 5: escort persons and missing fields' },
    })
    .post(`${base}/proceed/paymentSelection`, (c) => proceedPaymentSelection(ctx, c.params.id, c.body), { params, body: PaymentSelectionStep, detail: { tags, summary: 'Step 8: the payment method' } })
    .post(`${base}/proceed/paymentPay`, (c) => proceedPaymentPay(ctx, c.params.id, c.body), { params, body: PaymentPayStep, detail: { tags, summary: 'Step 40: confirm and pay; TRANSFER answers the GiroCode as qrCode' } })
    .post('/proxy/api/guest/events/visitors/:vid/cancellationRequest', async (c) => requestCancellation(ctx, await requireGuest(ctx, c), c.params.vid, c.body), {
      params: z.object({ vid: idParam() }),
      body: CancellationReasonInput,
      detail: { tags, summary: "The guest asks to cancel the paid order of their own registration {vid}, with a reason (one open request per order; 5 an hour)" },
    })
}
