// Order mails (docs/ticketing.md, "Mails"): received (with the payment instructions and, for
// transfers, the GiroCode as an attachment), approved (a waiting-list or approval order may now be
// paid), payment received, cancelled, expired, refunded. Written to the outbox in the transaction
// that causes them (mail/outbox.ts). The mails of a settled order (paid, or confirmed at once:
// INVOICE, LOCATION, COUPON) carry the ticket PDF and the invoice: they are queued as a template
// and their files are built when the worker sends them, from the registration and the invoice
// issued in the settling transaction. Building them again (a retried delivery, a second worker)
// renders the same stored invoice: it never issues a number.
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { t } from '../../../i18n/catalogue'
import { formatDateTime } from '../../../i18n/format'
import { ticketPdfOfVisitor } from '../../documents/service'
import type { InvoiceRow } from '../../invoices/invoices.table'
import { currentInvoiceOf, snapshotOf } from '../../invoices/service'
import type { MailAttachment } from '../../mail/mail.table'
import { mailGreeting } from '../../mail/greeting'
import { enqueueMail, enqueueTemplateMail } from '../../mail/outbox'
import { renderMail } from '../../mail/render'
import { MailSubjectGone, registerMailTemplate } from '../../mail/templates'
import { GUEST_ACCESS, issueAccessToken } from '../../identity/access-tokens'
import { giroCodePng } from '../girocode'
import { formatPrice } from '../money'
import { currencyPrefixOf, sellerSettings } from '../seller-settings'
import type { PaymentMethodRow, TicketOrderRow } from '../ticketing.table'
import { orderSeatLabels } from './seats'

// loaded on first use (issue 25): pdf-lib, fontkit and the e-invoice library are not evaluated at start
import type * as InvoicePdf from '../../invoices/pdf'
const renderInvoicePdf: typeof InvoicePdf.renderInvoicePdf = async (...a) => (await import('../../invoices/pdf')).renderInvoicePdf(...(a as Parameters<typeof InvoicePdf.renderInvoicePdf>))
// the e-invoice library, likewise on first use
import type * as InvoiceXml from '../../invoices/xml'
const renderFacturX: typeof InvoiceXml.renderFacturX = async (...a) => (await import('../../invoices/xml')).renderFacturX(...(a as Parameters<typeof InvoiceXml.renderFacturX>))
const renderXml: typeof InvoiceXml.renderXml = async (...a) => (await import('../../invoices/xml')).renderXml(...(a as Parameters<typeof InvoiceXml.renderXml>))

export type OrderMailKind = 'received' | 'approved' | 'paid' | 'canceled' | 'expired' | 'refunded' | 'corrected'

export const transferReference = (order: Pick<TicketOrderRow, 'number'>, method: Pick<PaymentMethodRow, 'transfer_reference_prefix'> | null) => `${method?.transfer_reference_prefix ?? ''}${order.number}`

const DOCUMENTS_TEMPLATE = 'TICKET_ORDER_DOCUMENTS'
interface DocumentsParams {
  orderId: number
  kind: OrderMailKind
  methodId: number | null
  /** the guest's access token for the portal link (issued in the mail's transaction) */
  portalToken?: string | null
  /** a cancellation or refund mail: the cancellation invoice (credit note) it issued, attached instead of tickets and invoice */
  creditNoteId?: number | null
  /** a corrected invoice address's mail: the new invoice, attached after the credit note of the old one */
  invoiceId?: number | null
  /** the amount the mail names as it was when queued (a provider refund's mail names what that refund gave back) */
  amount?: number | null
}

/** The mails that carry tickets and invoice: the order is paid, or confirmed at once (INVOICE, LOCATION, COUPON). */
const carriesDocuments = (order: Pick<TicketOrderRow, 'status'>, kind: OrderMailKind) => kind === 'paid' || (kind === 'received' && (order.status === 'PAID' || order.status === 'CONFIRMED'))

/**
 * Every order mail tells the buyer where the guest portal is (issue 20 item 19): a dashboard link
 * with an access token of the registration's guest account, like the registration's confirmation
 * mail (GUEST_ACCESS, 90 days), issued in the mail's transaction. No account (an order without a
 * registration): no link.
 */
export async function portalToken(ctx: AppContext, trx: Db, order: TicketOrderRow): Promise<string | null> {
  if (order.visitor_id == null) return null
  const v = await trx.selectFrom('event_visitor').select('user_id').where('id', '=', order.visitor_id).executeTakeFirst()
  return v?.user_id != null ? await issueAccessToken(ctx, trx, v.user_id, GUEST_ACCESS) : null
}

/**
 * Queues an order mail. `creditNote`: the cancellation invoice (Stornorechnung, credit note) that the
 * cancellation or refund this mail tells of issued (issue 21): the mail carries it (PDF and, with XML
 * invoicing, its XRechnung), rendered by the worker from the stored snapshot.
 */
export async function enqueueOrderMail(
  ctx: AppContext,
  trx: Db,
  order: TicketOrderRow,
  kind: OrderMailKind,
  method: PaymentMethodRow | null = null,
  creditNote: Pick<InvoiceRow, 'id'> | null = null,
  newInvoice: Pick<InvoiceRow, 'id'> | null = null,
) {
  if (!order.email) return
  const to = { kind: `TICKET_ORDER_${kind.toUpperCase()}`, to: order.email, toName: order.full_name, language: order.language, agencyId: order.agency_id, eventId: order.event_id, visitorId: order.visitor_id }
  const token = await portalToken(ctx, trx, order)
  const credit = creditNote && (kind === 'canceled' || kind === 'refunded' || kind === 'corrected') ? creditNote.id : null
  if (credit != null || carriesDocuments(order, kind)) {
    const invoiceId = kind === 'corrected' ? (newInvoice?.id ?? null) : null
    await enqueueTemplateMail(trx, { ...to, template: DOCUMENTS_TEMPLATE, params: { orderId: order.id, kind, methodId: method?.id ?? null, portalToken: token, creditNoteId: credit, invoiceId, amount: order.gross_price } satisfies DocumentsParams })
    return
  }
  const m = await renderOrderMail(ctx, trx, order, kind, method, [], token)
  if (m) await enqueueMail(trx, { ...to, ...m })
}

async function renderOrderMail(ctx: AppContext, db: Db, order: TicketOrderRow, kind: OrderMailKind, method: PaymentMethodRow | null, documents: string[], portal: string | null) {
  const event = await db.selectFrom('event').select(['display_name', 'primary_color', 'timezone']).where('id', '=', order.event_id).executeTakeFirst()
  if (!event) return null
  const lang = order.language
  const total = formatPrice(order.gross_price, order.currency, await currencyPrefixOf(db, order.agency_id))
  const params = { number: order.number, event: event.display_name, total, until: order.hold_until ? formatDateTime(order.hold_until, event.timezone) : '' }
  const paragraphs = [t(lang, `ticketing.mail.${kind}.body`, params)]
  const attachments: MailAttachment[] = []
  if (kind === 'received') {
    if (order.payment_method === 'TRANSFER' && method?.iban) {
      const reference = transferReference(order, method)
      paragraphs.push(t(lang, 'ticketing.mail.transfer', { total, holder: method.account_holder, iban: method.iban, bic: method.bic, reference }))
      if (order.currency === 'EURO') {
        const png = await giroCodePng({ bic: method.bic, name: method.account_holder ?? '', iban: method.iban, amount: order.gross_price, reference })
        attachments.push({ filename: `girocode-${order.number}.png`, contentType: 'image/png', content: png.slice(png.indexOf(',') + 1) })
      }
    } else if (order.payment_method === 'INVOICE') paragraphs.push(t(lang, 'ticketing.mail.invoice', params))
    else if (order.payment_method === 'LOCATION') paragraphs.push(t(lang, 'ticketing.mail.location', params))
    if (method?.confirmation_text) paragraphs.push(method.confirmation_text)
  }
  // the seats the tickets are for (area · row and number)
  const seats = kind === 'expired' || kind === 'canceled' || kind === 'refunded' || kind === 'corrected' ? [] : await orderSeatLabels(db, order)
  if (seats.length) paragraphs.push(t(lang, 'ticketing.mail.seats', { seats: seats.join(', ') }))
  paragraphs.push(...documents)
  if (portal) paragraphs.push(t(lang, 'ticketing.mail.portal', { url: `${ctx.config.baseUrl}/guest/dashboard?token=${encodeURIComponent(portal)}` }))
  const url = `${ctx.config.baseUrl}/pay/${order.public_id}`
  const m = renderMail({
    subject: t(lang, `ticketing.mail.${kind}.subject`, params),
    greeting: await orderGreeting(db, order),
    paragraphs,
    button: { label: t(lang, 'ticketing.mail.button'), url },
    after: [t(lang, 'mail.linkFallback', { url })],
    accentColor: event.primary_color,
  })
  return { ...m, attachments }
}

/** The buyer greeted as the registration names them (salutation, title, names), else by the order's name. */
export async function orderGreeting(db: Db, order: Pick<TicketOrderRow, 'visitor_id' | 'language' | 'full_name'>): Promise<string> {
  const v = order.visitor_id == null ? undefined : await db.selectFrom('event_visitor').select(['salutation', 'title', 'first_name', 'last_name']).where('id', '=', order.visitor_id).executeTakeFirst()
  return mailGreeting(order.language, v ? { salutation: v.salutation, title: v.title, firstName: v.first_name, lastName: v.last_name } : { firstName: order.full_name })
}

const base64 = (b: Uint8Array | string) => Buffer.from(b).toString('base64')

/** The settled order's files: the registration's ticket PDF, the invoice (ZUGFeRD with XML invoicing) and its XRechnung. */
export async function orderDocuments(ctx: AppContext, order: TicketOrderRow): Promise<{ files: MailAttachment[]; texts: string[] }> {
  const files: MailAttachment[] = []
  const texts: string[] = []
  const lang = order.language
  const ticket = order.visitor_id != null ? await ticketPdfOfVisitor(ctx, order.visitor_id) : null
  if (ticket) {
    files.push({ filename: ticket.fileName, contentType: ticket.contentType, content: base64(ticket.body) })
    texts.push(t(lang, 'ticketing.mail.attached.tickets'))
  }
  // the order's current invoice (after a corrected invoice address, the new one)
  const invoice = await currentInvoiceOf(ctx.db, order.agency_id, order.id)
  if (invoice) files.push(...(await invoiceFiles(ctx, invoice, lang, texts)))
  return { files, texts }
}

/** One invoice's files (the PDF, ZUGFeRD with XML invoicing, and its XRechnung) and the mail's sentences naming them. */
async function invoiceFiles(ctx: AppContext, invoice: InvoiceRow, lang: string, texts: string[]): Promise<MailAttachment[]> {
  const files: MailAttachment[] = []
  const snapshot = snapshotOf(invoice)
  const xml = (await sellerSettings(ctx.db, invoice.agency_id)).useInvoiceXML
  const pdf = await renderInvoicePdf(snapshot)
  files.push({ filename: `Rechnung-${invoice.number}.pdf`, contentType: 'application/pdf', content: base64(xml ? await renderFacturX(snapshot, pdf) : pdf) })
  texts.push(t(lang, 'ticketing.mail.attached.invoice', { invoice: invoice.number }))
  if (xml) {
    files.push({ filename: `XRechnung-${invoice.number}.xml`, contentType: 'application/xml', content: base64(await renderXml(snapshot, 'CII')) })
    texts.push(t(lang, 'ticketing.mail.attached.xml'))
  }
  return files
}

/**
 * A cancellation invoice's files for the guest's mail: the PDF (ZUGFeRD with XML invoicing) and its
 * XRechnung, from the stored snapshot (never a new number). Gone (another agency's, or deleted): none.
 */
export async function creditNoteDocuments(ctx: AppContext, agencyId: number, invoiceId: number, lang: string): Promise<{ files: MailAttachment[]; texts: string[] }> {
  const files: MailAttachment[] = []
  const texts: string[] = []
  const note = await ctx.db.selectFrom('invoice').selectAll().where('agency_id', '=', agencyId).where('id', '=', invoiceId).where('kind', '=', 'CANCELLATION').executeTakeFirst()
  if (!note) return { files, texts }
  const snapshot = snapshotOf(note)
  const xml = (await sellerSettings(ctx.db, agencyId)).useInvoiceXML
  const pdf = await renderInvoicePdf(snapshot)
  files.push({ filename: `Stornorechnung-${note.number}.pdf`, contentType: 'application/pdf', content: base64(xml ? await renderFacturX(snapshot, pdf) : pdf) })
  texts.push(t(lang, 'ticketing.mail.attached.creditNote', { invoice: note.number }))
  if (xml) {
    files.push({ filename: `XRechnung-${note.number}.xml`, contentType: 'application/xml', content: base64(await renderXml(snapshot, 'CII')) })
    texts.push(t(lang, 'ticketing.mail.attached.creditNoteXml'))
  }
  return { files, texts }
}

registerMailTemplate<DocumentsParams>(DOCUMENTS_TEMPLATE, async (ctx, _m, p) => {
  const order = await ctx.db.selectFrom('ticket_order').selectAll().where('id', '=', p.orderId).executeTakeFirst()
  if (!order) throw new MailSubjectGone('the order is gone')
  const method = p.methodId != null ? ((await ctx.db.selectFrom('payment_method').selectAll().where('id', '=', p.methodId).executeTakeFirst()) ?? null) : null
  const docs = p.creditNoteId != null ? await creditNoteDocuments(ctx, order.agency_id, p.creditNoteId, order.language) : await orderDocuments(ctx, order)
  if (p.kind === 'corrected' && p.invoiceId != null) {
    // the corrected invoice address: the credit note of the old invoice and the new invoice
    const invoice = await ctx.db.selectFrom('invoice').selectAll().where('agency_id', '=', order.agency_id).where('id', '=', p.invoiceId).where('kind', '=', 'INVOICE').executeTakeFirst()
    if (invoice) docs.files.push(...(await invoiceFiles(ctx, invoice, order.language, docs.texts)))
  }
  const m = await renderOrderMail(ctx, ctx.db, p.amount != null ? { ...order, gross_price: p.amount } : order, p.kind, method, docs.texts, p.portalToken ?? null)
  if (!m) throw new MailSubjectGone('the event is gone')
  return { subject: m.subject, html: m.html, text: m.text, attachments: [...m.attachments, ...docs.files] }
})
