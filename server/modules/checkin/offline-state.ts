// What a desk holds of a registration (docs/checkin-offline.md "Registration record"): compact
// arrays, read in pages with a handful of queries per page (never one per registration), the same
// record for the download, the sync's changes and the live stream. No e-mail addresses, no answers.
import type { AppContext } from '../../context'
import type { Db } from '../../db/database'
import { bool } from '../../db/types'
import { effectiveAgreements } from '../agreements/repository'
import type { EventRow } from '../events/events.table'
import { generationOf } from './signed-code'
import { BLOCK_ERROR, type OrderColumns, orderStateOf, ticketBlock, withLatestOrder } from './ticket-validity'

const CHECKIN_STATUSES = ['CONFIRMED', 'APPEARED']
const stateOf = (inFlag: unknown, outFlag: unknown) => (bool(outFlag as number) ? 2 : bool(inFlag as number) ? 1 : 0)

/** person: [number, firstName, lastName, state 0 open | 1 in | 2 out, checkinAt, checkoutAt] */
export type PersonRecord = [number, string | null, string | null, 0 | 1 | 2, string | null, string | null]
export interface RegistrationRecord {
  /** visitor (registration) id */
  v: number
  /** status */
  s: string
  /** generation of the current ticket code (the 5th part of its QR codes); null: no code issued yet */
  g: string | null
  /** why nobody of it may check in (an error code), null when they may */
  b: string | null
  /** ticket categories of its latest order */
  c: number[]
  /** REQUIRED agreements it has not confirmed (to be signed at the desk) */
  m: number[]
  p: PersonRecord[]
  /** check-in list entries: [listId, person, checkinAt, checkoutAt] */
  l: Array<[number, number, string, string | null]>
}
export interface RemovedRecord {
  v: number
  removed: true
}

/** The event's REQUIRED agreements as the desk shows them for signing. */
export async function deskAgreements(db: Db, event: EventRow) {
  return (await effectiveAgreements(db, event)).filter((a) => a.appearance === 'REQUIRED').map((a) => ({ id: a.id, displayName: a.display_name, description: a.description, version: a.version }))
}

/** The records of these registrations of the event (one page: at most a few thousand ids); ids of another event or deleted: removed. */
export async function recordsOf(ctx: AppContext, event: EventRow, ids: number[], required: number[]): Promise<Array<RegistrationRecord | RemovedRecord>> {
  if (!ids.length) return []
  const db = ctx.db
  const rows = (await withLatestOrder(
    db
      .selectFrom('event_visitor as v')
      .select(['v.id', 'v.status', 'v.ticket_code', 'v.first_name', 'v.last_name', 'v.main_guest_checked_in', 'v.main_guest_checked_out', 'v.main_guest_checkin_date', 'v.main_guest_checkout_date'])
      .where('v.event_id', '=', event.id)
      .where('v.id', 'in', ids),
  )
    .orderBy('v.id')
    .execute()) as Array<Record<string, any> & Partial<OrderColumns>>
  const found = rows.map((r) => r.id as number)
  const [escorts, lines, entries, confirmed] = found.length
    ? await Promise.all([
        db.selectFrom('escort_person').select(['visitor_id', 'number', 'first_name', 'last_name', 'checked_in', 'checked_out', 'checkin_date', 'checkout_date']).where('visitor_id', 'in', found).orderBy('visitor_id').orderBy('number').execute(),
        (() => {
          const orders = rows.map((r) => r.tko_id).filter((x): x is number => x != null).map(Number)
          return orders.length ? db.selectFrom('ticket_order_line').select(['order_id', 'category_id']).where('order_id', 'in', orders).where('category_id', 'is not', null).execute() : Promise.resolve([])
        })(),
        db.selectFrom('checkin_list_entry').select(['visitor_id', 'list_id', 'person', 'checkin_at', 'checkout_at']).where('visitor_id', 'in', found).execute(),
        required.length
          ? db.selectFrom('visitor_agreement').select(['visitor_id', 'agreement_id']).where('visitor_id', 'in', found).where('status', '=', 'CONFIRMED').where('agreement_id', 'in', required).execute()
          : Promise.resolve([]),
      ])
    : [[], [], [], []]
  const group = <T, K>(xs: T[], key: (x: T) => K) => {
    const m = new Map<K, T[]>()
    for (const x of xs) {
      const k = key(x)
      const a = m.get(k)
      if (a) a.push(x)
      else m.set(k, [x])
    }
    return m
  }
  const escortsBy = group(escorts, (e) => e.visitor_id)
  const linesBy = group(lines as Array<{ order_id: number; category_id: number | null }>, (l) => Number(l.order_id))
  const entriesBy = group(entries, (e) => e.visitor_id)
  const signedBy = group(confirmed as Array<{ visitor_id: number; agreement_id: number }>, (c) => c.visitor_id)
  const out: Array<RegistrationRecord | RemovedRecord> = []
  for (const r of rows) {
    const block = !CHECKIN_STATUSES.includes(r.status) ? 'CHECKIN_STATUS' : ticketBlock(orderStateOf(r), event.invoice_tickets)
    const signed = new Set((signedBy.get(r.id) ?? []).map((x) => x.agreement_id))
    out.push({
      v: r.id,
      s: r.status,
      g: r.ticket_code ? generationOf(r.ticket_code) : null,
      b: block === null ? null : block === 'CHECKIN_STATUS' ? block : BLOCK_ERROR[block],
      c: [...new Set((r.tko_id != null ? (linesBy.get(Number(r.tko_id)) ?? []) : []).map((l) => Number(l.category_id)))],
      m: required.filter((id) => !signed.has(id)),
      p: [
        [0, r.first_name, r.last_name, stateOf(r.main_guest_checked_in, r.main_guest_checked_out), r.main_guest_checkin_date, r.main_guest_checkout_date],
        ...(escortsBy.get(r.id) ?? []).map((e): PersonRecord => [e.number, e.first_name, e.last_name, stateOf(e.checked_in, e.checked_out), e.checkin_date, e.checkout_date]),
      ],
      l: (entriesBy.get(r.id) ?? []).map((e) => [e.list_id, e.person, e.checkin_at, e.checkout_at]),
    })
  }
  const have = new Set(found)
  for (const id of ids) if (!have.has(id)) out.push({ v: id, removed: true })
  return out
}
