// The ticket order calls of guest-side.md §7. The {id} is the order's unguessable public id
// (docs/ticketing.md): knowing it is the guest's access, like the order secret of pretix.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { fromJson } from '../../db/types'
import { notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { findEvent } from '../events/repository'
import { listCategories } from './categories'
import { formatPrice } from './money'
import { currencyPrefixOf } from './seller-settings'
import { AdditionalInformationsStep, BackStep, InvoiceAddressStep, PaymentPayStep, PaymentSelectionStep } from './model'
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
        const prefix = await currencyPrefixOf(ctx.db, e.agency_id)
        const items = (await listCategories(ctx.db, e.id)).map((k) => {
          const left = k.quota == null ? free : Math.max(0, Math.min(k.quota - k.sold, free ?? Infinity))
          return {
            id: k.id,
            displayName: fromJson<Array<{ language: string; displayName: string }>>(k.translations, []).find((x) => x.language === lang)?.displayName ?? k.display_name,
            grossPrice: k.gross_price,
            grossPriceText: formatPrice(k.gross_price, e.currency, prefix),
            available: left,
            minPerOrder: k.min_per_order,
            maxPerOrder: k.max_per_order,
            onSale: !((k.sale_from && k.sale_from > now) || (k.sale_until && k.sale_until < now)),
          }
        })
        return { currency: e.currency, currencyPrefix: prefix, maxPerOrder: e.max_visitor_per_subscription, freePlaces: free, items }
      },
      { params: z.object({ id: idParam() }), query: z.object({ language: z.string().max(10).optional() }), detail: { tags, summary: 'Ticket categories of a public paid event with what is left' } },
    )
    .get(base, (c) => ticketInfo(ctx, c.params.id), { params, detail: { tags, summary: 'The ticket info of an order (pay page)' } })
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
}
