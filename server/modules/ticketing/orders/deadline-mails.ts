// The payment deadline's mails (orders/deadline.ts): the reminder before it (the amount, the
// deadline and, for a transfer, the account, reference and GiroCode again) and the notice that the
// order was cancelled at it. Rendered in the transaction that decided them, like the order mails.
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { bool } from '../../../db/types'
import { t } from '../../../i18n/catalogue'
import { formatDateTime } from '../../../i18n/format'
import type { MailAttachment } from '../../mail/mail.table'
import { enqueueMail } from '../../mail/outbox'
import { renderMail } from '../../mail/render'
import { eventPaymentMethods } from '../payment-methods'
import { giroCodePng } from '../girocode'
import { formatPrice } from '../money'
import { currencyPrefixOf } from '../seller-settings'
import type { TicketOrderRow } from '../ticketing.table'
import { orderGreeting, portalToken, transferReference } from './mails'

export type DeadlineMailKind = 'reminder' | 'overdue'

export async function enqueueDeadlineMail(ctx: AppContext, trx: Db, order: TicketOrderRow, kind: DeadlineMailKind) {
  if (!order.email) return
  const event = await trx.selectFrom('event').select(['display_name', 'primary_color', 'timezone', 'cancel_overdue']).where('id', '=', order.event_id).executeTakeFirst()
  if (!event) return
  const lang = order.language
  const total = formatPrice(order.gross_price, order.currency, await currencyPrefixOf(trx, order.agency_id))
  const params = { number: order.number, event: event.display_name, total, due: order.payment_due_at ? formatDateTime(order.payment_due_at, event.timezone) : '' }
  const paragraphs = [t(lang, `orderDeadline.mail.${kind}.body`, params)]
  const attachments: MailAttachment[] = []
  if (kind === 'reminder' && order.payment_method === 'TRANSFER') {
    const method = (await eventPaymentMethods(trx, { id: order.event_id, agency_id: order.agency_id, currency: order.currency })).find((m) => m.method === 'TRANSFER')
    if (method?.iban) {
      const reference = transferReference(order, method)
      paragraphs.push(t(lang, 'ticketing.mail.transfer', { total, holder: method.account_holder, iban: method.iban, bic: method.bic, reference }))
      if (order.currency === 'EURO') {
        const png = await giroCodePng({ bic: method.bic, name: method.account_holder ?? '', iban: method.iban, amount: order.gross_price, reference })
        attachments.push({ filename: `girocode-${order.number}.png`, contentType: 'image/png', content: png.slice(png.indexOf(',') + 1) })
      }
    }
  }
  if (kind === 'reminder') {
    if (order.payment_method === 'TRANSFER' && bool(event.cancel_overdue)) paragraphs.push(t(lang, 'orderDeadline.mail.reminder.cancels'))
    paragraphs.push(t(lang, 'orderDeadline.mail.reminder.alreadyPaid'))
  }
  const token = await portalToken(ctx, trx, order)
  if (token) paragraphs.push(t(lang, 'ticketing.mail.portal', { url: `${ctx.config.baseUrl}/guest/dashboard?token=${encodeURIComponent(token)}` }))
  const url = `${ctx.config.baseUrl}/pay/${order.public_id}`
  const m = renderMail({
    subject: t(lang, `orderDeadline.mail.${kind}.subject`, params),
    greeting: await orderGreeting(trx, order),
    paragraphs,
    button: { label: t(lang, 'ticketing.mail.button'), url },
    after: [t(lang, 'mail.linkFallback', { url })],
    accentColor: event.primary_color,
  })
  await enqueueMail(trx, {
    kind: kind === 'reminder' ? 'TICKET_ORDER_PAYMENT_REMINDER' : 'TICKET_ORDER_PAYMENT_OVERDUE',
    to: order.email,
    toName: order.full_name,
    language: order.language,
    agencyId: order.agency_id,
    eventId: order.event_id,
    visitorId: order.visitor_id,
    ...m,
    attachments,
  })
}
