// Order mails (docs/ticketing.md): received (with the payment instructions and, for transfers, the
// GiroCode as an attachment), payment received, cancelled, expired. Rendered inside the
// transaction that causes them and written to the outbox (mail/outbox.ts).
import type { AppContext } from '../../../context'
import type { Db } from '../../../db/database'
import { t } from '../../../i18n/catalogue'
import { enqueueMail } from '../../mail/outbox'
import { renderMail } from '../../mail/render'
import { giroCodePng } from '../girocode'
import { formatPrice } from '../money'
import type { PaymentMethodRow, TicketOrderRow } from '../ticketing.table'

export type OrderMailKind = 'received' | 'paid' | 'canceled' | 'expired' | 'refunded'

export const transferReference = (order: Pick<TicketOrderRow, 'number'>, method: Pick<PaymentMethodRow, 'transfer_reference_prefix'> | null) => `${method?.transfer_reference_prefix ?? ''}${order.number}`

export async function enqueueOrderMail(ctx: AppContext, trx: Db, order: TicketOrderRow, kind: OrderMailKind, method: PaymentMethodRow | null = null) {
  if (!order.email) return
  const event = await trx.selectFrom('event').select(['display_name', 'primary_color']).where('id', '=', order.event_id).executeTakeFirst()
  if (!event) return
  const lang = order.language
  const total = formatPrice(order.gross_price, order.currency)
  const params = { number: order.number, event: event.display_name, total }
  const paragraphs = [t(lang, `ticketing.mail.${kind}.body`, params)]
  const attachments = []
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
  const url = `${ctx.config.baseUrl}/pay/${order.public_id}`
  const m = renderMail({
    subject: t(lang, `ticketing.mail.${kind}.subject`, params),
    greeting: t(lang, 'ticketing.mail.greeting', { name: order.full_name ?? '' }),
    paragraphs,
    button: { label: t(lang, 'ticketing.mail.button'), url },
    after: [t(lang, 'mail.linkFallback', { url })],
    accentColor: event.primary_color,
  })
  await enqueueMail(trx, { kind: `TICKET_ORDER_${kind.toUpperCase()}`, to: order.email, toName: order.full_name, ...m, language: lang, attachments, agencyId: order.agency_id, eventId: order.event_id, visitorId: order.visitor_id })
}
