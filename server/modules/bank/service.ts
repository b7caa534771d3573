// Bank statements (docs/ticketing.md, "Bank statements"): a CAMT.053 file's booked credits are
// recorded once per agency (unique reference), matched to open orders by the order number in the
// remittance text and the amount; an exact match is marked paid with the booking date through the
// organiser's own mark-paid (orders/organiser.ts, called as its route calls it); the rest is listed
// for a person, who assigns an entry to an order or dismisses it.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { fromJson, isoNow, toJson } from '../../db/types'
import { zonedToUtc } from '../../i18n/format'
import { AppError, notFound } from '../../shared/errors'
import type { AccountActor } from '../identity/auth'
import { markPaid } from '../ticketing/orders/organiser'
import { type BankEntryRow, type BankEntryStatus, LISTED_STATUSES } from './bank.table'
import { type StatementEntry, parseCamt053 } from './camt'
import { XML_LIMITS } from './xml'

/** Order numbers are 8 characters of this alphabet (orders/create.ts). */
const ORDER_NUMBER = /^[A-HJ-NP-Z2-9]{8}$/
const SPEC_CURRENCY: Record<string, string> = { EURO: 'EUR', CHF: 'CHF' }

interface Candidate {
  id: number
  number: string
  status: string
  gross_price: number
  currency: string
  event_id: number
  paid_at: string | null
}

/** The agency's orders the remittance text names (any 8-character window of its letters and digits). */
async function candidates(db: Db, agencyId: number, remittance: string): Promise<Candidate[]> {
  const s = remittance.toUpperCase().replace(/[^A-Z0-9]/g, '')
  const windows = new Set<string>()
  for (let i = 0; i + 8 <= s.length; i++) {
    const w = s.slice(i, i + 8)
    if (ORDER_NUMBER.test(w)) windows.add(w)
  }
  if (!windows.size) return []
  return db
    .selectFrom('ticket_order')
    .select(['id', 'number', 'status', 'gross_price', 'currency', 'event_id', 'paid_at'])
    .where('agency_id', '=', agencyId)
    .where('number', 'in', [...windows])
    .execute() as Promise<Candidate[]>
}

const isOpen = (o: Candidate) => (o.status === 'OPEN' || o.status === 'CONFIRMED') && !o.paid_at

async function eventOf(db: Db, eventId: number) {
  return db.selectFrom('event').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow()
}

/** Marks an order paid with the entry's amount on its booking day (00:00 in the event's time zone). */
async function payOrder(ctx: AppContext, actor: AccountActor, orderId: number, eventId: number, amountCents: number, bookingDate: string) {
  const event = await eventOf(ctx.db, eventId)
  const paidAt = zonedToUtc(`${bookingDate}T00:00`, event.timezone || 'Europe/Berlin').toISOString()
  await markPaid(ctx, actor, event, orderId, { amount: amountCents, paidAt })
}

async function decide(ctx: AppContext, actor: AccountActor, id: number, e: StatementEntry): Promise<BankEntryStatus> {
  const agencyId = actor.account.agency_id
  const found = await candidates(ctx.db, agencyId, e.remittance)
  const open = found.filter(isOpen)
  let status: BankEntryStatus
  let orderId: number | null = null
  if (!found.length) status = 'UNKNOWN'
  else if (open.length > 1) status = 'AMBIGUOUS'
  else if (!open.length) status = 'NOT_OPEN'
  else {
    const o = open[0]!
    orderId = o.id
    if (SPEC_CURRENCY[o.currency] !== e.currency || e.amountCents < o.gross_price) status = 'PARTIAL'
    else if (e.amountCents > o.gross_price) status = 'OVERPAID'
    else {
      try {
        await payOrder(ctx, actor, o.id, o.event_id, e.amountCents, e.bookingDate)
        status = 'MATCHED'
      } catch (err) {
        if (!(err instanceof AppError)) throw err
        status = 'NOT_OPEN' // paid or cancelled meanwhile
      }
    }
  }
  await ctx.db
    .updateTable('bank_entry')
    .set({ status, order_id: orderId, candidates: toJson(found.map((o) => o.id)), decided_at: status === 'MATCHED' ? isoNow(ctx.clock.now()) : null })
    .where('id', '=', id)
    .execute()
  return status
}

export interface ImportSummary {
  credits: number
  matched: number
  listed: number
  alreadyImported: number
  debits: number
  notBooked: number
}

/**
 * Imports a statement. Each booked credit is first recorded with its unique reference (a second
 * import of the same entry finds it and does nothing), then matched. An entry the import could not
 * finish stays MATCHING and is listed, never paid twice.
 */
export async function importStatement(ctx: AppContext, actor: AccountActor, file: File): Promise<ImportSummary> {
  if (file.size > XML_LIMITS.bytes) throw new AppError(422, 'CAMT_TOO_LARGE')
  const text = new TextDecoder('utf-8').decode(await file.arrayBuffer())
  const statements = parseCamt053(text)
  const agencyId = actor.account.agency_id
  const sum: ImportSummary = { credits: 0, matched: 0, listed: 0, alreadyImported: 0, debits: 0, notBooked: 0 }
  for (const st of statements)
    for (const e of st.entries) {
      if (!e.credit) {
        sum.debits++
        continue
      }
      if (!e.booked) {
        sum.notBooked++
        continue
      }
      sum.credits++
      const row = await ctx.db
        .insertInto('bank_entry')
        .values({
          agency_id: agencyId,
          entry_ref: e.ref,
          statement_id: st.id || null,
          account_iban: st.iban,
          booking_date: e.bookingDate,
          amount_cents: e.amountCents,
          currency: e.currency,
          debtor_name: e.debtorName,
          debtor_iban: e.debtorIban,
          remittance: e.remittance,
          status: 'MATCHING',
          imported_at: isoNow(ctx.clock.now()),
          imported_by: actor.account.id,
        })
        .onConflict((oc) => oc.columns(['agency_id', 'entry_ref']).doNothing())
        .returning('id')
        .executeTakeFirst()
      if (!row) {
        sum.alreadyImported++
        continue
      }
      if ((await decide(ctx, actor, row.id, e)) === 'MATCHED') sum.matched++
      else sum.listed++
    }
  return sum
}

async function entryOfAgency(db: Db, agencyId: number, id: number): Promise<BankEntryRow> {
  const row = await db.selectFrom('bank_entry').selectAll().where('id', '=', id).where('agency_id', '=', agencyId).executeTakeFirst()
  if (!row) throw notFound()
  return row
}

/** A person's decision: the entry pays this order (marked paid with the entry's amount and booking date). */
export async function assignEntry(ctx: AppContext, actor: AccountActor, id: number, orderNumber: string) {
  const agencyId = actor.account.agency_id
  const entry = await entryOfAgency(ctx.db, agencyId, id)
  const order = await ctx.db.selectFrom('ticket_order').select(['id', 'event_id']).where('agency_id', '=', agencyId).where('number', '=', orderNumber.trim().toUpperCase()).executeTakeFirst()
  if (!order) throw new AppError(404, 'BANK_ORDER_NOT_FOUND', { fields: [{ field: 'orderNumber', errorType: 'BANK_ORDER_NOT_FOUND' }] })
  // claim the entry first: two people deciding at once cannot both pay with it
  const claimed = await ctx.db
    .updateTable('bank_entry')
    .set({ status: 'ASSIGNED', order_id: order.id, decided_at: isoNow(ctx.clock.now()), decided_by: actor.account.id })
    .where('id', '=', id)
    .where('status', 'in', LISTED_STATUSES)
    .executeTakeFirst()
  if (Number(claimed.numUpdatedRows) !== 1) throw new AppError(409, 'BANK_ENTRY_DECIDED')
  try {
    await payOrder(ctx, actor, order.id, order.event_id, Number(entry.amount_cents), entry.booking_date)
  } catch (err) {
    await ctx.db
      .updateTable('bank_entry')
      .set({ status: entry.status, order_id: entry.order_id, decided_at: null, decided_by: null })
      .where('id', '=', id)
      .where('status', '=', 'ASSIGNED')
      .execute()
    throw err
  }
  return entryDto(await entryOfAgency(ctx.db, agencyId, id), await numbersOf(ctx.db, agencyId, [order.id]))
}

/** A person's decision: nothing to book here (e.g. paid back by hand). */
export async function dismissEntry(ctx: AppContext, actor: AccountActor, id: number) {
  const agencyId = actor.account.agency_id
  await entryOfAgency(ctx.db, agencyId, id)
  const r = await ctx.db
    .updateTable('bank_entry')
    .set({ status: 'DISMISSED', decided_at: isoNow(ctx.clock.now()), decided_by: actor.account.id })
    .where('id', '=', id)
    .where('status', 'in', LISTED_STATUSES)
    .executeTakeFirst()
  if (Number(r.numUpdatedRows) !== 1) throw new AppError(409, 'BANK_ENTRY_DECIDED')
  return { dismissed: true }
}

async function numbersOf(db: Db, agencyId: number, ids: number[]) {
  const m = new Map<number, { number: string; grossPrice: number; status: string; eventId: number }>()
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('ticket_order').select(['id', 'number', 'gross_price', 'status', 'event_id']).where('agency_id', '=', agencyId).where('id', 'in', ids.slice(i, i + 500)).execute()
    for (const r of rows) m.set(r.id, { number: r.number, grossPrice: r.gross_price, status: r.status, eventId: r.event_id })
  }
  return m
}

function entryDto(r: BankEntryRow, orders: Awaited<ReturnType<typeof numbersOf>>) {
  const ids = fromJson<number[]>(r.candidates, [])
  return {
    id: r.id,
    bookingDate: r.booking_date,
    amountCents: Number(r.amount_cents),
    currency: r.currency,
    debtorName: r.debtor_name,
    debtorIban: r.debtor_iban,
    remittance: r.remittance,
    status: r.status,
    order: r.order_id != null && orders.has(r.order_id) ? { id: r.order_id, ...orders.get(r.order_id)! } : null,
    candidates: ids.filter((id) => orders.has(id)).map((id) => ({ id, ...orders.get(id)! })),
    importedAt: r.imported_at,
  }
}

/** The entries to decide (view OPEN, oldest first) or every entry (ALL, newest first). */
export async function listEntries(db: Db, agencyId: number, q: { view: 'OPEN' | 'ALL'; page: number; size: number }) {
  let base = db.selectFrom('bank_entry').where('agency_id', '=', agencyId)
  if (q.view === 'OPEN') base = base.where('status', 'in', LISTED_STATUSES)
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy('id', q.view === 'OPEN' ? 'asc' : 'desc')
      .limit(q.size)
      .offset(q.page * q.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  const ids = [...new Set(rows.flatMap((r) => [...(r.order_id != null ? [r.order_id] : []), ...fromJson<number[]>(r.candidates, [])]))]
  const orders = await numbersOf(db, agencyId, ids)
  return { content: rows.map((r) => entryDto(r, orders)), totalElements: Number(total.n), page: q.page, size: q.size }
}
