// The organiser's order calls (docs/ticketing.md, "Orders").
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { idParam } from '../../shared/validation'
import { organiserEvent } from './route-access'
import { takeDeskPayment } from './orders/desk'
import { RefundPaymentInput } from '../payments/model'
import { CancellationReasonInput, ExtendDeadlineInput, InvoiceAddressInput, MarkPaidInput, OrderExportQuery, OrderSearch, RefundLinesInput } from './model'
import { extendDeadline } from './orders/deadline'
import { changeInvoiceAddress } from './orders/invoice-address'
import { declineCancellation, grantCancellation } from './orders/cancel-requests'
import { exportOrdersCsv } from './orders/csv'
import { refundLines } from './orders/line-refund'
import { cancelOrder, markPaid, undoPaid, openLocationPayments, orderDetail, refundOrder, resendOrderMail, revenueByCategory, searchOrders, takeLocationPayment } from './orders/organiser'

const tags = ['ticket orders (organiser)']
const ev = z.object({ id: idParam() })
const one = z.object({ id: idParam(), oid: idParam() })

export function organiserOrderRoutes(ctx: AppContext) {
  return new Elysia({ name: 'organiser-orders' })
    .post(
      '/proxy/api/events/:id/orders/search',
      async (c) => {
        const { event } = await organiserEvent(ctx, c, 'EVENT.GUEST.VIEW')
        return searchOrders(ctx, event, c.body)
      },
      { params: ev, body: OrderSearch, detail: { tags, summary: 'Orders of an event: filters status, method, paid/open/overdue; search; paging' } },
    )
    .get(
      '/proxy/api/events/:id/orders/export',
      async (c) => {
        const { event } = await organiserEvent(ctx, c, 'EVENT.GUEST.EXPORT')
        return new Response(exportOrdersCsv(ctx, event, c.query), {
          headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="bestellungen-${event.id}.csv"`, 'cache-control': 'no-store' },
        })
      },
      { params: ev, query: OrderExportQuery, detail: { tags, summary: 'CSV export of the filtered orders (formula cells neutralised)' } },
    )
    .get(
      '/proxy/api/events/:id/orders/revenue',
      async (c) => {
        const { event } = await organiserEvent(ctx, c, 'EVENT.STATISTICS')
        return revenueByCategory(ctx, event)
      },
      { params: ev, detail: { tags, summary: 'Revenue per ticket category and per day of ordering (statistics)' } },
    )
    .get(
      '/proxy/api/events/:id/orders/openLocation',
      async (c) => {
        const { event } = await organiserEvent(ctx, c, 'EVENT.CHECKIN')
        return openLocationPayments(ctx, event, c.query.visitorId ?? null)
      },
      { params: ev, query: z.object({ visitorId: z.coerce.number().int().positive().optional() }), detail: { tags, summary: 'The desk: LOCATION payments still open (of one registration)' } },
    )
    .post(
      '/proxy/api/events/:id/orders/:oid/takeLocationPayment',
      async (c) => {
        const { actor, event } = await organiserEvent(ctx, c, 'EVENT.CHECKIN')
        return takeLocationPayment(ctx, actor, event, c.params.oid)
      },
      { params: one, detail: { tags, summary: 'The desk takes a LOCATION payment at check-in (full amount, now)' } },
    )
    .post(
      '/proxy/api/events/:id/orders/:oid/deskPayment',
      async (c) => {
        const { actor, event } = await organiserEvent(ctx, c, 'EVENT.CHECKIN')
        return takeDeskPayment(ctx, actor, event, c.params.oid)
      },
      { params: one, detail: { tags, summary: 'The desk records the payment of a bought, unpaid order (transfer, invoice, at the location; full amount, now): its tickets become valid' } },
    )
    .get(
      '/proxy/api/events/:id/orders/:oid',
      async (c) => {
        const { event } = await organiserEvent(ctx, c, 'EVENT.GUEST.VIEW')
        return orderDetail(ctx, event, c.params.oid)
      },
      { params: one, detail: { tags, summary: 'An order with lines and history' } },
    )
    .post(
      '/proxy/api/events/:id/orders/:oid/markPaid',
      async (c) => {
        const { actor, event } = await organiserEvent(ctx, c, 'EVENT.GUEST.MANAGE')
        return markPaid(ctx, actor, event, c.params.oid, c.body)
      },
      { params: one, body: MarkPaidInput, detail: { tags, summary: 'Record the payment (amount, date)' } },
    )
    .post(
      '/proxy/api/events/:id/orders/:oid/undoPaid',
      async (c) => {
        const { actor, event } = await organiserEvent(ctx, c, 'EVENT.GUEST.MANAGE')
        return undoPaid(ctx, actor, event, c.params.oid)
      },
      { params: one, detail: { tags, summary: "Undo today's recorded payment by a counter-entry: the order is open again" } },
    )
    .post(
      '/proxy/api/events/:id/orders/:oid/extendDeadline',
      async (c) => {
        const { actor, event } = await organiserEvent(ctx, c, 'EVENT.GUEST.MANAGE')
        await extendDeadline(ctx, actor, event, c.params.oid, c.body)
        return orderDetail(ctx, event, c.params.oid)
      },
      { params: one, body: ExtendDeadlineInput, detail: { tags, summary: "Extend an unpaid transfer's or invoice's payment deadline (history and audit log)" } },
    )
    .post(
      '/proxy/api/events/:id/orders/:oid/cancellationRequest/grant',
      async (c) => {
        const { actor, event } = await organiserEvent(ctx, c, 'EVENT.GUEST.MANAGE')
        await grantCancellation(ctx, actor, event, c.params.oid)
        return orderDetail(ctx, event, c.params.oid)
      },
      { params: one, detail: { tags, summary: "Grant the guest's open cancellation request: refunded (through the provider when paid online), credit note, mail" } },
    )
    .post(
      '/proxy/api/events/:id/orders/:oid/cancellationRequest/decline',
      async (c) => {
        const { actor, event } = await organiserEvent(ctx, c, 'EVENT.GUEST.MANAGE')
        await declineCancellation(ctx, actor, event, c.params.oid, c.body)
        return orderDetail(ctx, event, c.params.oid)
      },
      { params: one, body: CancellationReasonInput, detail: { tags, summary: "Decline the guest's open cancellation request with a reason (mailed to the guest)" } },
    )
    .post(
      '/proxy/api/events/:id/orders/:oid/cancel',
      async (c) => {
        const { actor, event } = await organiserEvent(ctx, c, 'EVENT.GUEST.MANAGE')
        return cancelOrder(ctx, actor, event, c.params.oid)
      },
      { params: one, detail: { tags, summary: 'Cancel the order (tickets, places and coupon use go back)' } },
    )
    .post(
      '/proxy/api/events/:id/orders/:oid/refund',
      async (c) => {
        const { actor, event } = await organiserEvent(ctx, c, 'EVENT.GUEST.MANAGE')
        return refundOrder(ctx, actor, event, c.params.oid, c.body?.amount ?? null)
      },
      {
        params: one,
        body: RefundPaymentInput.optional(),
        detail: { tags, summary: 'Record an offline refund of a paid order: {amount} cents (a credit note for it, the order stays paid) or, without, all that is left (tickets back, credit note for the rest)' },
      },
    )
    .post(
      '/proxy/api/events/:id/orders/:oid/refundLines',
      async (c) => {
        const { actor, event } = await organiserEvent(ctx, c, 'EVENT.GUEST.MANAGE')
        await refundLines(ctx, actor, event, c.params.oid, c.body)
        return orderDetail(ctx, event, c.params.oid)
      },
      {
        params: one,
        body: RefundLinesInput,
        detail: { tags, summary: 'Refund chosen tickets of a paid order (a quantity per line, the escort persons whose tickets go): tickets, seats and places back, money back (provider or offline), one credit note for those lines, mailed' },
      },
    )
    .put(
      '/proxy/api/events/:id/orders/:oid/invoiceAddress',
      async (c) => {
        const { actor, event } = await organiserEvent(ctx, c, 'EVENT.GUEST.MANAGE')
        await changeInvoiceAddress(ctx, actor, event, c.params.oid, c.body)
        return orderDetail(ctx, event, c.params.oid)
      },
      {
        params: one,
        body: InvoiceAddressInput,
        detail: { tags, summary: "Change the buyer's invoice address: with an invoice, a credit note cancelling it and a new invoice (both mailed); the same address again changes nothing" },
      },
    )
    .post(
      '/proxy/api/events/:id/orders/:oid/resendMail',
      async (c) => {
        const { actor, event } = await organiserEvent(ctx, c, 'EVENT.GUEST.MANAGE')
        return resendOrderMail(ctx, actor, event, c.params.oid)
      },
      { params: one, detail: { tags, summary: 'Send the order mail again' } },
    )
}
