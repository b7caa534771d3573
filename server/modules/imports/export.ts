// CSV export of the filtered guest list in the list's sort (the ids in order first, then their rows
// in pages of 1000) through csv-stringify: ';'-separated UTF-8 with a BOM so spreadsheet programs
// open it directly. What a person reads: German status texts, times DD.MM.YYYY HH:mm in the event's
// time zone, a column per answer field (header = the field's label, values as the guest saw them),
// and the ticket code of every registration that can check in (made now when it has none yet).
import { stringify } from 'csv-stringify/sync'
import type { AppContext } from '../../context'
import { bool } from '../../db/types'
import type { EventRow } from '../events/events.table'
import { t } from '../../i18n/catalogue'
import { formatDate, formatTime } from '../../i18n/format'
import { CHECKIN_STATUSES } from '../checkin/service'
import { ensureTicketCode, formatTicketCode } from '../checkin/ticket'
import type { FieldDef } from '../forms/definitions'
import { labelOf } from '../forms/definitions'
import { formDefinitions } from '../forms/service'
import { answerFields, answerText, answersOf } from '../visitors/answers'
import { checkinLabel } from '../visitors/dto'
import type { GuestSearch } from '../visitors/model'
import { orderedVisitorIds } from '../visitors/repository'
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

const LANG = 'de'
const PAGE = 1000
/** DD.MM.YYYY HH:mm in the event's time zone */
const when = (iso: string | null, tz: string) => (iso ? `${formatDate(iso, tz)} ${formatTime(iso, tz)}` : '')
const canCheckin = (status: string) => (CHECKIN_STATUSES as readonly string[]).includes(status)

export function exportCsv(ctx: AppContext, event: EventRow, s: GuestSearch): ReadableStream<Uint8Array> {
  const enc = new TextEncoder()
  let ids: number[] | null = null
  let at = 0
  let fields: FieldDef[] = []
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!ids) {
        ;[ids, fields] = await Promise.all([orderedVisitorIds(ctx.db, event.id, s), formDefinitions(ctx.db, event).then(answerFields)])
        const header = [...EXPORT_COLUMNS, ...fields.map((f) => labelOf(f, LANG))]
        controller.enqueue(enc.encode(`\uFEFF${csvLines([header])}`))
        return
      }
      const pageIds = ids.slice(at, at + PAGE)
      at += PAGE
      if (!pageIds.length) {
        controller.close()
        return
      }
      const found = await ctx.db.selectFrom('event_visitor').selectAll().where('id', 'in', pageIds).where('event_id', '=', event.id).execute()
      const byId = new Map(found.map((r) => [r.id, r]))
      const rows = pageIds.map((id) => byId.get(id)).filter((r) => r !== undefined)
      // a registration that can check in has a ticket code, whether or not the guest opened the QR code
      for (const r of rows) if (!r.ticket_code && canCheckin(r.status)) r.ticket_code = await ensureTicketCode(ctx.db, r.id)
      const [escorts, tags, answers] = await Promise.all([
        ctx.db.selectFrom('escort_person').select(['visitor_id', 'number', 'first_name', 'last_name']).where('visitor_id', 'in', pageIds).orderBy('number').execute(),
        ctx.db.selectFrom('visitor_tag as vt').innerJoin('tag as t', 't.id', 'vt.tag_id').select(['vt.visitor_id', 't.display_name']).where('vt.visitor_id', 'in', pageIds).execute(),
        answersOf(ctx.db, pageIds),
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
          t(LANG, `status.visitor.${v.status}`),
          tags
            .filter((t) => t.visitor_id === v.id)
            .map((t) => t.display_name)
            .join('|'),
          v.note ?? '',
          ...escortCells,
          v.visitor_count,
          when(v.registered_at, event.timezone),
          t(LANG, checkinLabel(v).key, checkinLabel(v).params),
          v.ticket_code ? formatTicketCode(v.ticket_code) : '',
          ...fields.map((f) => answerText(f, answers.get(v.id)?.get(f.id), LANG)),
        ]
      })
      controller.enqueue(enc.encode(csvLines(out)))
    },
  })
}
