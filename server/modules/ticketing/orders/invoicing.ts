// Ticketing issues the invoice where an order settles (PAID or CONFIRMED, orders/settle.ts) and a
// cancellation invoice where a settled order is cancelled (docs/invoices.md). Issued only when the
// agency's seller data has an address (seller settings) and the order an invoice address (step 1);
// free orders get none. Runs in the settling transaction: no order is paid without its invoice.
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { fromJson } from '../../../db/types'
import { issueCreditNote } from '../../invoices/credit-notes'
import { issueInvoice, isoDate } from '../../invoices/service'
import type { InvoiceDraft, InvoiceLineInput, PaymentMeans, SpecCurrency } from '../../invoices/snapshot'
import { sellerSettings } from '../seller-settings'
import type { InvoiceAddress, TicketOrderLineRow, TicketOrderRow } from '../ticketing.table'
import { transferReference } from './mails'
import { orderSettledHooks } from './settle'

const rateOf = (taxCode: string, bp: number) => (taxCode === 'TAX_NONE' ? null : bp / 100)

/** What `count` tickets of a line are worth: its gross (after its coupon share) split by quantity, rounded so the parts of the whole line add up to it (refunds per line, line-refund.ts). */
export const lineValue = (l: Pick<TicketOrderLineRow, 'gross_price' | 'amount'>, count: number) => Math.round((l.gross_price * count) / l.amount)

/**
 * The lines of a corrected invoice after refunds (docs/invoices.md, "Corrected invoices"): what the
 * order still holds — each line with the tickets not refunded, the coupon's share of those — and,
 * per tax rate, what refunds by amount gave back as a line "Bereits erstattet (Gutschrift …)"
 * (quantity −1), so at each rate the new invoice states exactly what the old one has left uncredited
 * (`left`, read before the old one's rest is credited).
 */
export async function owedInvoiceLines(trx: Db, order: TicketOrderRow, eventName: string, left: Array<{ rate: number | null; cents: number }>, credited: string[]): Promise<InvoiceLineInput[]> {
  const lines = await trx.selectFrom('ticket_order_line').selectAll().where('order_id', '=', order.id).orderBy('sort_order').orderBy('id').execute()
  const coupon = order.coupon_id ? await trx.selectFrom('coupon').select('code').where('id', '=', order.coupon_id).executeTakeFirst() : undefined
  const items: InvoiceLineInput[] = []
  const off = new Map<string, { rate: number | null; cents: number }>()
  for (const l of lines) {
    const done = Number(l.refunded_quantity)
    const q = l.amount - done
    if (q <= 0) continue
    const r = rateOf(l.tax_code, l.tax_rate)
    items.push({ name: `${eventName} – ${l.display_name}`, quantity: q, unitGrossCents: l.unit_price, taxRate: r })
    const share = q * l.unit_price - (l.gross_price - lineValue(l, done))
    if (share > 0) off.set(String(r), { rate: r, cents: (off.get(String(r))?.cents ?? 0) + share })
  }
  for (const { rate, cents } of off.values()) items.push({ name: `Gutschein ${coupon?.code ?? ''}`.trim(), quantity: -1, unitGrossCents: cents, taxRate: rate })
  const sum = new Map<string, number>()
  for (const i of items) sum.set(String(i.taxRate), (sum.get(String(i.taxRate)) ?? 0) + i.quantity * i.unitGrossCents)
  for (const x of left) {
    const diff = (sum.get(String(x.rate)) ?? 0) - x.cents
    if (diff > 0) items.push({ name: `Bereits erstattet (${credited.length > 1 ? 'Gutschriften' : 'Gutschrift'} ${credited.join(', ')})`, quantity: -1, unitGrossCents: diff, taxRate: x.rate })
    else if (diff < 0) items.push({ name: `${eventName} – noch offen`, quantity: 1, unitGrossCents: -diff, taxRate: x.rate })
  }
  return items.filter((i) => i.unitGrossCents !== 0)
}

export async function invoiceDraft(ctx: AppContext, trx: Db, order: TicketOrderRow): Promise<{ draft: InvoiceDraft; prefix: string | null } | null> {
  const address = fromJson<InvoiceAddress | null>(order.invoice_address, null)
  if (order.gross_price === 0 || !address) return null
  const seller = await sellerSettings(trx, order.agency_id)
  if (!seller.name || !seller.street || !seller.postCode || !seller.city) return null
  const event = await trx.selectFrom('event').select(['display_name', 'start_date', 'timezone']).where('id', '=', order.event_id).executeTakeFirstOrThrow()
  const agency = await trx.selectFrom('agency').select(['display_name', 'contact_guest', 'contact_guest_phone', 'contact_guest_mail']).where('id', '=', order.agency_id).executeTakeFirstOrThrow()
  const lines = await trx.selectFrom('ticket_order_line').selectAll().where('order_id', '=', order.id).orderBy('sort_order').execute()
  const coupon = order.coupon_id ? await trx.selectFrom('coupon').select('code').where('id', '=', order.coupon_id).executeTakeFirst() : undefined
  const items: InvoiceLineInput[] = lines.map((l) => ({ name: `${event.display_name} – ${l.display_name}`, quantity: l.amount, unitGrossCents: l.unit_price, taxRate: rateOf(l.tax_code, l.tax_rate) }))
  // a coupon is one line per tax rate it reduced (quantity −1), in the tax group of what it reduces
  const byRate = new Map<string, { rate: number | null; cents: number }>()
  for (const l of lines) {
    if (!l.discount) continue
    const r = rateOf(l.tax_code, l.tax_rate)
    const k = String(r)
    byRate.set(k, { rate: r, cents: (byRate.get(k)?.cents ?? 0) + l.discount })
  }
  for (const { rate, cents } of byRate.values()) items.push({ name: `Gutschein ${coupon?.code ?? ''}`.trim(), quantity: -1, unitGrossCents: cents, taxRate: rate })
  const methods = await trx.selectFrom('payment_method').selectAll().where('agency_id', '=', order.agency_id).where('currency', '=', order.currency).execute()
  const account = methods.find((m) => m.method === 'TRANSFER' && m.iban)
  const reference = transferReference(order, account ?? null)
  const payment: PaymentMeans =
    (order.payment_method === 'TRANSFER' || order.payment_method === 'INVOICE') && account?.iban
      ? { kind: order.payment_method, iban: account.iban, bic: account.bic, accountHolder: account.account_holder ?? seller.name, reference }
      : order.payment_method === 'LOCATION'
        ? { kind: 'LOCATION' }
        : order.payment_method === 'STRIPE' || order.payment_method === 'PAYPAL' || order.payment_method === 'MOLLIE'
          ? { kind: 'ONLINE', provider: order.payment_method, reference: order.number }
          : { kind: 'COUPON' }
  const paid = order.paid_amount ?? 0
  const now = ctx.clock.now()
  return {
    prefix: seller.invoiceNumberPrefix,
    draft: {
      kind: 'INVOICE',
      currency: order.currency as SpecCurrency,
      currencyPrefix: seller.currencyPrefix,
      issueDate: isoDate(now, event.timezone),
      dueDate: paid >= order.gross_price || order.payment_method === 'LOCATION' ? null : order.payment_due_at ? isoDate(new Date(order.payment_due_at), event.timezone) : null,
      deliveryDate: isoDate(new Date(event.start_date), event.timezone),
      seller: {
        name: seller.name,
        street: seller.street,
        number: seller.streetNumber,
        postCode: seller.postCode,
        city: seller.city,
        country: seller.country,
        vatId: seller.vatId,
        taxNumber: seller.taxNumber,
        contactName: seller.contactName ?? agency.contact_guest ?? agency.display_name,
        phone: seller.phone ?? agency.contact_guest_phone ?? '',
        email: seller.email ?? agency.contact_guest_mail ?? '',
      },
      buyer: {
        name: address.receiver,
        street: address.street,
        number: address.streetNumber,
        postCode: address.postCode,
        city: address.city,
        country: address.country,
        email: order.email ?? '',
        taxId: order.tax_identification_number,
        receiver: order.invoice_receiver,
      },
      buyerReference: order.reference_number ?? order.number,
      orderNumber: order.number,
      eventName: event.display_name,
      lines: items,
      payment,
      paidCents: Math.min(paid, order.gross_price),
      paymentTerms: paid >= order.gross_price || order.payment_method === 'LOCATION' ? null : `Zahlbar innerhalb von ${seller.paymentTermsDays} Tagen ohne Abzug.`,
      additionalText: order.additional_invoice_text,
    },
  }
}

orderSettledHooks.push(async (ctx, trx, order) => {
  // paying at the door: the invoice is issued when the desk takes the money (issueLocationInvoice),
  // so it never asks for what was paid already (issue 20 item 22)
  if (order.payment_method === 'LOCATION' && order.status !== 'PAID') return
  await issueOrderInvoice(ctx, trx, order)
})

/** The desk took a LOCATION payment (markPaid of a CONFIRMED order): its invoice, marked paid at the location. */
export async function issueLocationInvoice(ctx: AppContext, trx: Db, order: TicketOrderRow) {
  if (order.payment_method === 'LOCATION' && order.status === 'PAID') await issueOrderInvoice(ctx, trx, order)
}

async function issueOrderInvoice(ctx: AppContext, trx: Db, order: TicketOrderRow) {
  const d = await invoiceDraft(ctx, trx, order)
  if (d) await issueInvoice(ctx, trx, { agencyId: order.agency_id, eventId: order.event_id, orderRef: String(order.id), prefix: d.prefix, draft: d.draft })
}

/** A cancelled order's invoice (if one was issued) gets its cancellation invoice: for what partial refunds have not credited yet. */
export async function cancelOrderInvoice(ctx: AppContext, trx: Db, order: TicketOrderRow) {
  const seller = await sellerSettings(trx, order.agency_id)
  return issueCreditNote(ctx, trx, { agencyId: order.agency_id, orderId: order.id, amount: 'rest', what: 'all', prefix: seller.invoiceNumberPrefix })
}
