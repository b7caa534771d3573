// Organiser calls of ticketing setup (docs/ticketing.md, "Organiser side"): categories and coupons
// per event, payment methods and seller settings per agency, methods enabled per event.
import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { auditSettings } from '../audit/service'
import { idParam } from '../../shared/validation'
import { requireOrganiser } from '../identity/auth'
import { organiserEvent } from './route-access'
import { categoryDto, createCategory, deleteCategory, listCategories, updateCategory } from './categories'
import { couponsCsv, generateCoupons } from './coupon-bulk'
import { couponDto, createCoupon, deleteCoupon, listCoupons, updateCoupon } from './coupons'
import { CategoryInput, CouponBulkInput, CouponInput, EventPaymentMethodsInput, PaymentMethodInput, SellerSettingsInput, TicketSettingsInput, TicketTermsInput } from './model'
import { eventTerms } from './terms'
import { TAX_CODES } from './money'
import { createPaymentMethod, deletePaymentMethod, eventPaymentMethods, listPaymentMethods, paymentMethodDto, setEventPaymentMethods, updatePaymentMethod } from './payment-methods'
import { currencyPrefixOf, saveSellerSettings, sellerSettings } from './seller-settings'
import { bool } from '../../db/types'
import type { EventRow } from '../events/events.table'

/** The event's ticketing settings; `agencyTermsDays`: the deadline when the event sets none (orders/deadline.ts). */
const ticketSettingsDto = (e: Pick<EventRow, 'invoice_tickets' | 'payment_deadline_days'> & { cancel_overdue: number | boolean }, agencyTermsDays: number) => ({
  invoiceTickets: e.invoice_tickets,
  paymentDeadlineDays: e.payment_deadline_days,
  agencyPaymentTermsDays: agencyTermsDays,
  cancelOverdue: !!bool(e.cancel_overdue),
})

const tags = ['ticketing']
const ev = z.object({ id: idParam() })
const evSub = z.object({ id: idParam(), cid: idParam() })
const sub = z.object({ pid: idParam() })

export function ticketingSetupRoutes(ctx: AppContext) {
  return new Elysia({ name: 'ticketing-setup' })
    .get(
      '/proxy/api/events/:id/ticketCategories',
      async (c) => {
        const { event: e } = await organiserEvent(ctx, c, 'EVENT.VIEW')
        return { currency: e.currency, taxCodes: TAX_CODES[e.currency as 'EURO'] ?? [], items: (await listCategories(ctx.db, e.id)).map(categoryDto) }
      },
      { params: ev, detail: { tags, summary: 'Ticket categories of an event, with the tax codes of its currency' } },
    )
    .post(
      '/proxy/api/events/:id/ticketCategories',
      async (c) => {
        const { event: e } = await organiserEvent(ctx, c, 'EVENT.EDIT')
        c.set.status = 201
        return categoryDto(await createCategory(ctx, e, c.body))
      },
      { params: ev, body: CategoryInput, detail: { tags, summary: 'Create a ticket category (the event becomes paid)' } },
    )
    .put(
      '/proxy/api/events/:id/ticketCategories/:cid',
      async (c) => {
        const { event: e } = await organiserEvent(ctx, c, 'EVENT.EDIT')
        return categoryDto(await updateCategory(ctx, e, c.params.cid, c.body))
      },
      { params: evSub, body: CategoryInput, detail: { tags, summary: 'Change a ticket category (quota never below sold)' } },
    )
    .delete(
      '/proxy/api/events/:id/ticketCategories/:cid',
      async (c) => {
        const { event: e } = await organiserEvent(ctx, c, 'EVENT.EDIT')
        await deleteCategory(ctx, e, c.params.cid)
        return { deleted: true }
      },
      { params: evSub, detail: { tags, summary: 'Delete a ticket category without orders' } },
    )
    .get(
      '/proxy/api/events/:id/coupons',
      async (c) => {
        const { event: e } = await organiserEvent(ctx, c, 'EVENT.VIEW')
        return (await listCoupons(ctx.db, e.id)).map(couponDto)
      },
      { params: ev, detail: { tags, summary: 'Coupons of an event' } },
    )
    .post(
      '/proxy/api/events/:id/coupons',
      async (c) => {
        const { event: e } = await organiserEvent(ctx, c, 'EVENT.EDIT')
        c.set.status = 201
        return couponDto(await createCoupon(ctx, e, c.body))
      },
      { params: ev, body: CouponInput, detail: { tags, summary: 'Create a coupon' } },
    )
    .post(
      '/proxy/api/events/:id/coupons/bulk',
      async (c) => {
        const { event: e } = await organiserEvent(ctx, c, 'EVENT.EDIT')
        const codes = await generateCoupons(ctx, e, c.body)
        return new Response(couponsCsv(codes, c.body), {
          status: 201,
          headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="gutscheine-${e.id}.csv"`, 'cache-control': 'no-store' },
        })
      },
      { params: ev, body: CouponBulkInput, detail: { tags, summary: 'Generate N one-use coupon codes, answered as CSV' } },
    )
    .put(
      '/proxy/api/events/:id/coupons/:cid',
      async (c) => {
        const { event: e } = await organiserEvent(ctx, c, 'EVENT.EDIT')
        return couponDto(await updateCoupon(ctx, e, c.params.cid, c.body))
      },
      { params: evSub, body: CouponInput, detail: { tags, summary: 'Change a coupon' } },
    )
    .delete(
      '/proxy/api/events/:id/coupons/:cid',
      async (c) => {
        const { event: e } = await organiserEvent(ctx, c, 'EVENT.EDIT')
        await deleteCoupon(ctx, e, c.params.cid)
        return { deleted: true }
      },
      { params: evSub, detail: { tags, summary: 'Delete a coupon' } },
    )
    .get(
      '/proxy/api/events/:id/paymentMethods',
      async (c) => {
        const { event: e } = await organiserEvent(ctx, c, 'EVENT.VIEW')
        return (await eventPaymentMethods(ctx.db, e)).map(paymentMethodDto)
      },
      { params: ev, detail: { tags, summary: 'Payment methods enabled for an event' } },
    )
    .put(
      '/proxy/api/events/:id/paymentMethods',
      async (c) => {
        const { actor, event: e } = await organiserEvent(ctx, c, 'EVENT.EDIT')
        const before = (await eventPaymentMethods(ctx.db, e)).map((m) => m.id)
        await setEventPaymentMethods(ctx, e, c.body.ids)
        const after = await eventPaymentMethods(ctx.db, e)
        await auditSettings(ctx, actor, 'eventPaymentMethods', { methods: before }, { methods: after.map((m) => m.id) }, e.id)
        return after.map(paymentMethodDto)
      },
      { params: ev, body: EventPaymentMethodsInput, detail: { tags, summary: 'Enable payment methods of the agency for an event' } },
    )
    .get(
      '/proxy/api/events/:id/ticketSettings',
      async (c) => {
        const { event: e } = await organiserEvent(ctx, c, 'EVENT.VIEW')
        return ticketSettingsDto(e, (await sellerSettings(ctx.db, e.agency_id)).paymentTermsDays)
      },
      { params: ev, detail: { tags, summary: "The event's ticketing settings: invoiceTickets (AT_ONCE or AFTER_PAYMENT: when an order paid by invoice gets its tickets)" } },
    )
    .put(
      '/proxy/api/events/:id/ticketSettings',
      async (c) => {
        const { actor, event: e } = await organiserEvent(ctx, c, 'EVENT.EDIT')
        // a field left out keeps its value
        const b = c.body
        const next = {
          invoice_tickets: b.invoiceTickets ?? e.invoice_tickets,
          payment_deadline_days: b.paymentDeadlineDays === undefined ? e.payment_deadline_days : b.paymentDeadlineDays,
          cancel_overdue: b.cancelOverdue ?? bool(e.cancel_overdue),
        }
        await ctx.db.updateTable('event').set(next).where('id', '=', e.id).execute()
        const terms = (await sellerSettings(ctx.db, e.agency_id)).paymentTermsDays
        const before = ticketSettingsDto(e, terms)
        const after = ticketSettingsDto({ ...e, ...next }, terms)
        await auditSettings(ctx, actor, 'ticketSettings', { invoiceTickets: before.invoiceTickets, paymentDeadlineDays: before.paymentDeadlineDays, cancelOverdue: before.cancelOverdue }, { invoiceTickets: after.invoiceTickets, paymentDeadlineDays: after.paymentDeadlineDays, cancelOverdue: after.cancelOverdue }, e.id)
        return after
      },
      { params: ev, body: TicketSettingsInput, detail: { tags, summary: "Change the event's ticketing settings" } },
    )
    .get(
      '/proxy/api/events/:id/ticketTerms',
      async (c) => {
        const { event: e } = await organiserEvent(ctx, c, 'EVENT.VIEW')
        return eventTerms(e)
      },
      { params: ev, detail: { tags, summary: "The event's terms and cancellation policy buyers accept before paying (termsText, termsUrl)" } },
    )
    .put(
      '/proxy/api/events/:id/ticketTerms',
      async (c) => {
        const { actor, event: e } = await organiserEvent(ctx, c, 'EVENT.EDIT')
        await ctx.db.updateTable('event').set({ terms_text: c.body.termsText, terms_url: c.body.termsUrl }).where('id', '=', e.id).execute()
        await auditSettings(ctx, actor, 'ticketTerms', eventTerms(e), c.body, e.id)
        return eventTerms({ terms_text: c.body.termsText, terms_url: c.body.termsUrl })
      },
      { params: ev, body: TicketTermsInput, detail: { tags, summary: "Change the event's terms and cancellation policy (empty = no checkbox at checkout)" } },
    )
    .get(
      '/proxy/api/agency/paymentMethods',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return (await listPaymentMethods(ctx.db, actor.account.agency_id)).map(paymentMethodDto)
      },
      { detail: { tags, summary: 'Payment methods of the agency' } },
    )
    .post(
      '/proxy/api/agency/paymentMethods',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        c.set.status = 201
        const created = paymentMethodDto(await createPaymentMethod(ctx, actor.account.agency_id, c.body))
        await auditSettings(ctx, actor, 'paymentMethod', null, created)
        return created
      },
      { body: PaymentMethodInput, detail: { tags, summary: 'Create a payment method (TRANSFER: IBAN and BIC checked)' } },
    )
    .put(
      '/proxy/api/agency/paymentMethods/:pid',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        const before = (await listPaymentMethods(ctx.db, actor.account.agency_id)).find((m) => m.id === c.params.pid)
        const updated = paymentMethodDto(await updatePaymentMethod(ctx, actor.account.agency_id, c.params.pid, c.body))
        await auditSettings(ctx, actor, 'paymentMethod', before ? paymentMethodDto(before) : null, updated)
        return updated
      },
      { params: sub, body: PaymentMethodInput, detail: { tags, summary: 'Change a payment method' } },
    )
    .delete(
      '/proxy/api/agency/paymentMethods/:pid',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        const before = (await listPaymentMethods(ctx.db, actor.account.agency_id)).find((m) => m.id === c.params.pid)
        await deletePaymentMethod(ctx, actor.account.agency_id, c.params.pid)
        await auditSettings(ctx, actor, 'paymentMethod', before ? paymentMethodDto(before) : { id: c.params.pid }, null)
        return { deleted: true }
      },
      { params: sub, detail: { tags, summary: 'Delete a payment method' } },
    )
    .get(
      '/proxy/api/agency/moneyFormat',
      async (c) => {
        // every organiser screen that writes money (tickets, orders, statistics, the desk) follows it
        const actor = await requireOrganiser(ctx, c)
        return { currencyPrefix: await currencyPrefixOf(ctx.db, actor.account.agency_id) }
      },
      { detail: { tags, summary: "The agency's money format: whether the currency sign stands before the amount" } },
    )
    .get(
      '/proxy/api/agency/sellerSettings',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        return sellerSettings(ctx.db, actor.account.agency_id)
      },
      { detail: { tags, summary: 'Seller and invoice settings of the agency' } },
    )
    .put(
      '/proxy/api/agency/sellerSettings',
      async (c) => {
        const actor = await requireOrganiser(ctx, c, 'AGENCY.MANAGE')
        const before = await sellerSettings(ctx.db, actor.account.agency_id)
        const saved = await saveSellerSettings(ctx, actor.account.agency_id, c.body)
        await auditSettings(ctx, actor, 'sellerSettings', before, saved)
        return saved
      },
      { body: SellerSettingsInput, detail: { tags, summary: 'Save the seller and invoice settings' } },
    )
}
