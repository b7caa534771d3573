// Issuing invoices: a number per agency without gaps and without duplicates, once per sale.
// The sequence row of the agency is locked first in the issuing transaction (on Postgres the
// row lock is held until commit, so two processes issue one after the other; on SQLite the write
// transaction is the lock). A rolled-back transaction gives its number back with it, so numbers
// never skip. Issuing again with the same key answers the invoice already issued.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { fromJson, isoNow, toJson } from '../../db/types'
import { formatDate } from '../../i18n/format'
import { AppError, notFound } from '../../shared/errors'
import type { InvoiceRow } from './invoices.table'
import { type InvoiceDraft, type InvoiceLineInput, type InvoiceSnapshot, buildSnapshot } from './snapshot'

/** Invoice numbers: the agency's prefix and the sequence number, five digits at least (RE-00042). */
export const formatInvoiceNumber = (prefix: string | null | undefined, n: number) => `${prefix ?? ''}${String(n).padStart(5, '0')}`

/** Takes the agency's next number; the caller's transaction holds the sequence row until it ends. */
async function lockSequence(trx: Db, agencyId: number): Promise<number> {
  await trx.insertInto('invoice_sequence').values({ agency_id: agencyId }).onConflict((oc) => oc.column('agency_id').doNothing()).execute()
  // a write to the row locks it (Postgres) before anything is read: issuers of one agency queue here
  const row = await trx
    .updateTable('invoice_sequence')
    .set((eb) => ({ next_number: eb('next_number', '+', 0) }))
    .where('agency_id', '=', agencyId)
    .returning('next_number')
    .executeTakeFirstOrThrow()
  return Number(row.next_number)
}

export interface IssueInput {
  agencyId: number
  eventId: number | null
  orderRef: string
  /** the agency's invoice number prefix (seller settings) */
  prefix: string | null
  draft: InvoiceDraft
  /** defaults to order:<orderRef> for an invoice */
  issueKey?: string
  cancelsInvoiceId?: number | null
}

/** Issues an invoice inside the caller's transaction, or answers the one issued before with the same key. */
export async function issueInvoice(ctx: AppContext, trx: Db, input: IssueInput): Promise<InvoiceRow> {
  const issueKey = input.issueKey ?? `order:${input.orderRef}`
  const next = await lockSequence(trx, input.agencyId)
  // after the lock: an issuer that got here first has committed, its invoice is visible
  const existing = await trx.selectFrom('invoice').selectAll().where('agency_id', '=', input.agencyId).where('issue_key', '=', issueKey).executeTakeFirst()
  if (existing) return existing
  const number = formatInvoiceNumber(input.prefix, next)
  const snapshot = buildSnapshot(input.draft, number)
  await trx.updateTable('invoice_sequence').set({ next_number: next + 1 }).where('agency_id', '=', input.agencyId).execute()
  return trx
    .insertInto('invoice')
    .values({
      agency_id: input.agencyId,
      event_id: input.eventId,
      order_ref: input.orderRef,
      issue_key: issueKey,
      kind: input.draft.kind,
      number,
      cancels_invoice_id: input.cancelsInvoiceId ?? null,
      currency: input.draft.currency,
      gross_cents: snapshot.totals.grossCents,
      snapshot: toJson(snapshot),
      issued_at: isoNow(ctx.clock.now()),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * The order's current invoice: the latest INVOICE issued for it (`order:<id>`, or `order:<id>:<n>`
 * after corrections of the invoice address). Credit notes, mails and downloads refer to this one.
 */
export async function currentInvoiceOf(db: Db, agencyId: number, orderId: number): Promise<InvoiceRow | undefined> {
  return db
    .selectFrom('invoice')
    .selectAll()
    .where('agency_id', '=', agencyId)
    .where('kind', '=', 'INVOICE')
    .where((eb) => eb.or([eb('issue_key', '=', `order:${orderId}`), eb('issue_key', 'like', `order:${orderId}:%`)]))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

export const snapshotOf = (row: InvoiceRow) => fromJson<InvoiceSnapshot>(row.snapshot, null as never)

/**
 * A cancellation invoice (Stornorechnung) for an issued invoice: the same lines negated, or only the
 * lines given (a partial refund). `what` names the cancellation so issuing it twice is a no-op
 * (`all`, or a refund's id).
 */
export async function issueCancellation(
  ctx: AppContext,
  trx: Db,
  input: { invoiceId: number; agencyId: number; what: string; lines?: InvoiceLineInput[]; timezone?: string; prefix: string | null },
): Promise<InvoiceRow> {
  const original = await trx.selectFrom('invoice').selectAll().where('id', '=', input.invoiceId).where('agency_id', '=', input.agencyId).executeTakeFirst()
  if (!original) throw notFound()
  if (original.kind !== 'INVOICE') throw new AppError(409, 'INVOICE_NOT_CANCELLABLE')
  const s = snapshotOf(original)
  const issueDate = isoDate(ctx.clock.now(), input.timezone)
  const lines = input.lines ?? s.lines.map(({ name, quantity, unitGrossCents, taxRate }) => ({ name, quantity, unitGrossCents, taxRate }))
  const gross = lines.reduce((sum, l) => sum + l.quantity * l.unitGrossCents, 0)
  const draft: InvoiceDraft = {
    kind: 'CANCELLATION',
    currency: s.currency,
    currencyPrefix: s.currencyPrefix ?? false,
    issueDate,
    dueDate: null,
    deliveryDate: s.deliveryDate,
    seller: s.seller,
    buyer: s.buyer,
    buyerReference: s.buyerReference,
    orderNumber: s.orderNumber,
    eventName: s.eventName,
    lines,
    payment: s.payment,
    // what was paid is what is given back; an unpaid invoice's cancellation settles nothing
    paidCents: s.totals.paidCents > 0 ? Math.min(gross, s.totals.paidCents) : 0,
    paymentTerms: null,
    additionalText: null,
    cancels: { number: s.number, issueDate: s.issueDate },
  }
  return issueInvoice(ctx, trx, {
    agencyId: input.agencyId,
    eventId: original.event_id,
    orderRef: original.order_ref,
    prefix: input.prefix,
    draft,
    issueKey: `cancel:${original.id}:${input.what}`,
    cancelsInvoiceId: original.id,
  })
}

/** YYYY-MM-DD of an instant in a time zone (the invoice date as the seller sees the day). */
export function isoDate(at: Date, tz = 'Europe/Berlin'): string {
  const [d, m, y] = formatDate(at, tz).split('.')
  return `${y}-${m}-${d}`
}

export async function invoiceOfAgency(db: Db, agencyId: number, id: number): Promise<InvoiceRow> {
  const row = await db.selectFrom('invoice').selectAll().where('id', '=', id).where('agency_id', '=', agencyId).executeTakeFirst()
  if (!row) throw notFound()
  return row
}

export async function listInvoices(db: Db, agencyId: number, q: { eventId?: number; page: number; size: number }) {
  let base = db.selectFrom('invoice').where('agency_id', '=', agencyId)
  if (q.eventId != null) base = base.where('event_id', '=', q.eventId)
  const [rows, total] = await Promise.all([
    base.select(['id', 'number', 'kind', 'order_ref', 'event_id', 'currency', 'gross_cents', 'issued_at', 'cancels_invoice_id']).orderBy('id', 'desc').limit(q.size).offset(q.page * q.size).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return {
    content: rows.map((r) => ({
      id: r.id,
      number: r.number,
      kind: r.kind,
      orderRef: r.order_ref,
      eventId: r.event_id,
      currency: r.currency,
      grossCents: r.gross_cents,
      issuedAt: r.issued_at,
      cancelsInvoiceId: r.cancels_invoice_id,
    })),
    totalElements: Number(total.n),
    page: q.page,
    size: q.size,
  }
}
