// CSV export of the filtered guest list, streamed in pages of 1000 (keyset on id) through
// csv-stringify: ';'-separated UTF-8 with a BOM so spreadsheet programs open it directly.
import { stringify } from 'csv-stringify/sync'
import type { AppContext } from '../../context'
import { bool } from '../../db/types'
import type { EventRow } from '../events/events.table'
import { formatTicketCode } from '../checkin/ticket'
import { checkState } from '../visitors/dto'
import type { GuestSearch } from '../visitors/model'
import { visitorQuery } from '../visitors/repository'
import { ESCORT_SLOTS } from './model'

export const EXPORT_COLUMNS = [
  'Anrede',
  'Titel',
  'Vorname',
  'Nachname',
  'E-Mail',
  'Firma',
  'Position',
  'Telefon',
  'VIP',
  'Status',
  'Tags',
  'Notiz',
  ...Array.from({ length: ESCORT_SLOTS }, (_, i) => [`Begleitung ${i + 1} Vorname`, `Begleitung ${i + 1} Nachname`]).flat(),
  'Personen',
  'Angemeldet am',
  'Check-in',
  'Ticket-Code',
]

/** What a spreadsheet would run as a formula or a command when a cell starts with it (OWASP "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * One cell of an export: text that a spreadsheet would read as a formula is neutralised the way
 * OWASP recommends, with a leading single quote ("=HYPERLINK(…)" → "'=HYPERLINK(…)", "+49 …" →
 * "'+49 …", "-5" → "'-5"); numbers the server itself writes are passed as numbers and kept.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value == null) return ''
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : ''
  return FORMULA_START.test(value) ? `'${value}` : value
}

/** Every CSV the server writes goes through here: cells neutralised, ';'-separated. */
export function csvLines(rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  return stringify(
    rows.map((r) => r.map(csvCell)),
    { delimiter: ';' },
  )
}

export function exportCsv(ctx: AppContext, event: EventRow, s: GuestSearch): ReadableStream<Uint8Array> {
  const enc = new TextEncoder()
  let lastId = 0
  let started = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true
        controller.enqueue(enc.encode(`\uFEFF${csvLines([EXPORT_COLUMNS])}`))
        return
      }
      const rows = await visitorQuery(ctx.db, event.id, s.filter, s.search).selectAll('v').where('v.id', '>', lastId).orderBy('v.id').limit(1000).execute()
      if (!rows.length) {
        controller.close()
        return
      }
      lastId = rows[rows.length - 1].id
      const ids = rows.map((r) => r.id)
      const [escorts, tags] = await Promise.all([
        ctx.db.selectFrom('escort_person').select(['visitor_id', 'number', 'first_name', 'last_name']).where('visitor_id', 'in', ids).orderBy('number').execute(),
        ctx.db.selectFrom('visitor_tag as vt').innerJoin('tag as t', 't.id', 'vt.tag_id').select(['vt.visitor_id', 't.display_name']).where('vt.visitor_id', 'in', ids).execute(),
      ])
      const out = rows.map((v) => {
        const es = escorts.filter((e) => e.visitor_id === v.id)
        const escortCells = Array.from({ length: ESCORT_SLOTS }, (_, i) => [es[i]?.first_name ?? '', es[i]?.last_name ?? '']).flat()
        return [
          v.salutation ?? '',
          v.title ?? '',
          v.first_name ?? '',
          v.last_name ?? '',
          v.email ?? '',
          v.company ?? '',
          v.position ?? '',
          v.phone_number ?? '',
          bool(v.vip) ? 'ja' : '',
          v.status,
          tags
            .filter((t) => t.visitor_id === v.id)
            .map((t) => t.display_name)
            .join('|'),
          v.note ?? '',
          ...escortCells,
          v.visitor_count,
          v.registered_at ?? '',
          checkState(v.main_guest_checked_in, v.main_guest_checked_out),
          v.ticket_code ? formatTicketCode(v.ticket_code) : '',
        ]
      })
      controller.enqueue(enc.encode(csvLines(out)))
    },
  })
}
