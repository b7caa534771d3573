// The organiser corrects the buyer's invoice address (issue 21; docs/invoices.md, "Corrected
// invoices"). An issued invoice is never edited: in one transaction the current invoice gets a
// credit note cancelling it in full (`cancel:<invoice>:correction`, BT-25 naming it) and the order a
// new invoice with the new address (`order:<id>:<n>`, the next gapless number); both are mailed to the
// buyer. From then on the new invoice is the order's invoice (currentInvoiceOf). Without an invoice
// the address is only stored; the same address again changes nothing. After partial refunds the
// credit note credits the old invoice's rest and the new invoice states what is still owed.
import type { AppContext } from '../../../context'
import { fromJson, isoNow, toJson } from '../../../db/types'
import { AppError, notFound } from '../../../shared/errors'
import { audit } from '../../audit/service'
import type { EventRow } from '../../events/events.table'
import type { AccountActor } from '../../identity/auth'
import { uncreditedByRate } from '../../invoices/credit-notes'
import type { InvoiceRow } from '../../invoices/invoices.table'
import { currentInvoiceOf, issueCancellation, issueInvoice } from '../../invoices/service'
import type { InvoiceAddressInput } from '../model'
import { sellerSettings } from '../seller-settings'
import type { InvoiceAddress } from '../ticketing.table'
import { addHistory } from './create'
import { refundedOfPaid } from './detail'
import { invoiceDraft, owedInvoiceLines } from './invoicing'
import { enqueueOrderMail } from './mails'

type AddressInput = ReturnType<typeof InvoiceAddressInput.parse>

const normalised = (a: Partial<InvoiceAddress> | null) =>
  a ? JSON.stringify([a.receiver, a.addition || null, a.street, a.streetNumber, a.postCode, a.city, a.country ?? 'DEU']) : null

export async function changeInvoiceAddress(ctx: AppContext, actor: AccountActor, event: EventRow, orderId: number, input: AddressInput) {
  const at = isoNow(ctx.clock.now())
  const address: InvoiceAddress = { receiver: input.receiver, addition: input.addition ?? null, street: input.street, streetNumber: input.streetNumber, postCode: input.postCode, city: input.city, country: input.country }
  const issued = await ctx.db.transaction().execute(async (trx) => {
    // the order row first: two corrections of one order queue here (Postgres row lock; SQLite's writer)
    const o = await trx.updateTable('ticket_order').set({ updated_at: at }).where('id', '=', orderId).where('event_id', '=', event.id).returningAll().executeTakeFirst()
    if (!o) throw notFound()
    const before = fromJson<InvoiceAddress | null>(o.invoice_address, null)
    if (normalised(before) === normalised(address)) return null
    const order = (await trx.updateTable('ticket_order').set({ invoice_address: toJson(address) as never }).where('id', '=', o.id).returningAll().executeTakeFirstOrThrow())
    const current = await currentInvoiceOf(trx, o.agency_id, o.id)
    let documents: { creditNote: { id: number; number: string }; invoice: { id: number; number: string } } | null = null
    if (current) {
      const credited = await trx.selectFrom('invoice').select('number').where('cancels_invoice_id', '=', current.id).orderBy('id').execute()
      const d = await invoiceDraft(ctx, trx, order)
      if (!d) throw new AppError(409, 'INVOICE_NOT_ISSUABLE')
      const seller = await sellerSettings(trx, o.agency_id)
      let creditNote: InvoiceRow
      if (!credited.length) {
        creditNote = await issueCancellation(ctx, trx, { invoiceId: current.id, agencyId: o.agency_id, what: 'correction', timezone: event.timezone, prefix: seller.invoiceNumberPrefix })
      } else {
        // after partial refunds: the new invoice states what is still owed (docs/invoices.md) — the
        // old one's uncredited rest per rate, read before that rest is credited
        const left = await uncreditedByRate(trx, current)
        // nothing left (cancelled, refunded in full): there is nothing to invoice again
        if (left.every((x) => x.cents <= 0)) throw new AppError(409, 'INVOICE_ALREADY_CREDITED')
        const rest = left.reduce((sum, x) => sum + x.cents, 0)
        d.draft.lines = await owedInvoiceLines(trx, order, d.draft.eventName, left, credited.map((c) => c.number))
        const refunded = (await refundedOfPaid(trx, [o.id])).get(o.id) ?? 0
        d.draft.paidCents = Math.min(rest, Math.max(0, Number(o.paid_amount ?? 0) - refunded))
        // the credit note cancels exactly that rest, one line per rate
        const percent = (r: number | null) => (r === null ? 'steuerfrei' : `${String(r).replace('.', ',')} %`)
        const lines = left.filter((x) => x.cents > 0).map((x) => ({ name: `Rechnungskorrektur: Rest der Rechnung ${current.number} – ${d.draft.eventName} (${percent(x.rate)})`, quantity: 1, unitGrossCents: x.cents, taxRate: x.rate }))
        creditNote = await issueCancellation(ctx, trx, { invoiceId: current.id, agencyId: o.agency_id, what: 'correction', lines, timezone: event.timezone, prefix: seller.invoiceNumberPrefix })
      }
      const count = await trx
        .selectFrom('invoice')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('agency_id', '=', o.agency_id)
        .where('kind', '=', 'INVOICE')
        .where((eb) => eb.or([eb('issue_key', '=', `order:${o.id}`), eb('issue_key', 'like', `order:${o.id}:%`)]))
        .executeTakeFirstOrThrow()
      const invoice = await issueInvoice(ctx, trx, { agencyId: o.agency_id, eventId: o.event_id, orderRef: String(o.id), prefix: d.prefix, draft: d.draft, issueKey: `order:${o.id}:${Number(count.n) + 1}` })
      documents = { creditNote: { id: creditNote.id, number: creditNote.number }, invoice: { id: invoice.id, number: invoice.number } }
      await enqueueOrderMail(ctx, trx, order, 'corrected', null, creditNote, invoice)
    }
    const detail = documents ? { creditNote: documents.creditNote.number, invoice: documents.invoice.number } : {}
    await addHistory(trx, o.id, at, 'INVOICE_ADDRESS_CHANGED', actor.account.id, detail)
    await audit(ctx, trx, { agencyId: event.agency_id, actor, action: 'order.invoiceAddress', entityType: 'order', entityId: o.number, eventId: event.id, changes: { invoiceAddress: [before, address] }, detail })
    return documents
  })
  if (issued) ctx.notifyMail()
}
