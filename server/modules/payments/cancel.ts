// Cancelling a PAID order paid online (docs/payments.md, "Cancelling a paid online order"): the
// organiser's "Stornieren", or deleting or declining the guest, goes through ticketing's one
// cancelOrder; for such an order it lands here and the money goes back first. What is left of the
// payment is refunded through its provider (idempotency key per refunded state, so a retry never
// refunds twice), recorded with the provider's refund id, the credit note issued, and the order
// ends REFUNDED (902) with its tickets released; the guest gets "Bestellung erstattet", the
// seller address a note. Provider down: PAYMENT_PROVIDER_UNAVAILABLE (502), nothing changed, the
// organiser can try again.
import type { AppContext } from '../../context'
import { t } from '../../i18n/catalogue'
import { AppError } from '../../shared/errors'
import { enqueueMail } from '../mail/outbox'
import { renderMail } from '../mail/render'
import { formatPrice } from '../ticketing/money'
import { currencyPrefixOf } from '../ticketing/seller-settings'
import { addHistory } from '../ticketing/orders/create'
import { setPaidOnlineCancel } from '../ticketing/orders/organiser'
import { isoNow } from '../../db/types'
import { paidAttemptOf, refundThroughProvider } from './refunds'

setPaidOnlineCancel(async (ctx, actor, event, order) => {
  if (order.status !== 'PAID') return false
  const paid = await paidAttemptOf(ctx.db, order.id)
  if (!paid) return false
  if (paid.attempt.amount - paid.attempt.refunded_amount <= 0) throw new AppError(409, 'ORDER_NOT_OPEN')
  const accountId = actor?.account.id ?? null
  const r = await refundThroughProvider(ctx, order, paid, null, { accountId, reason: 'CANCEL' })
  await ctx.db.transaction().execute(async (trx) => {
    await addHistory(trx, order.id, isoNow(ctx.clock.now()), 'CANCELED', accountId, { refunded: r.amount, refundId: r.refundId })
    await tellOrganiser(ctx, trx, order, event.display_name, r.amount)
  })
  ctx.notifyMail()
  return true
})

async function tellOrganiser(_ctx: AppContext, trx: Parameters<typeof addHistory>[0], order: { agency_id: number; event_id: number; number: string; currency: string }, event: string, amount: number) {
  const seller = await trx.selectFrom('seller_settings').select(['email']).where('agency_id', '=', order.agency_id).executeTakeFirst()
  if (!seller?.email) return
  const params = { number: order.number, event, amount: formatPrice(amount, order.currency, await currencyPrefixOf(trx, order.agency_id)) }
  const m = renderMail({ subject: t('de', 'payments.mail.cancelRefunded.subject', params), paragraphs: [t('de', 'payments.mail.cancelRefunded.body', params)] })
  await enqueueMail(trx, { kind: 'PAYMENT_CANCEL_REFUNDED_ORGANISER', to: seller.email, ...m, language: 'de', agencyId: order.agency_id, eventId: order.event_id })
}
