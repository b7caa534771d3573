// The organiser's CSV export of the filtered orders (docs/ticketing.md, "CSV export"): one row per
// order, read like the screen — German labels for status and payment method, times in the event's
// time zone (DD.MM.YYYY HH:mm, the zone named in its own column), the order's lines in one column
// ("2 × Parkett (je 25,00 €), 1 × Loge (je 60,00 €)"), the invoice and cancellation numbers.
// Streamed in pages of 1,000 orders; formula cells neutralised (OWASP CSV injection).
import { stringify } from 'csv-stringify/sync'
import type { AppContext } from '../../../context'
import { isoNow } from '../../../db/types'
import { t } from '../../../i18n/catalogue'
import { formatDate, formatTime, safeTimeZone } from '../../../i18n/format'
import type { EventRow } from '../../events/events.table'
import { formatPrice } from '../money'
import type { OrderSearch } from '../model'
import { filtered } from './organiser'

/** OWASP CSV injection: a cell starting with = + - @ TAB or CR is prefixed with a quote. */
export const neutralise = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)

export const ORDER_CSV_COLUMNS = [
  'Bestellnummer', 'Status', 'Name', 'E-Mail', 'Positionen', 'Betrag', 'Währung', 'Zahlungsart', 'Bezahlt am', 'Bezahlter Betrag', 'Fällig am', 'Erstellt am', 'Zeitzone', 'Rechnungsnummer', 'Stornorechnung',
  // the buyer's acceptance of the organiser's terms (docs/ticketing.md, "Selling rules"): when, and which version
  'Bedingungen akzeptiert am', 'Bedingungen (Version)',
]
const LANG = 'de'
const cents = (n: number | null) => (n == null ? '' : (n / 100).toFixed(2).replace('.', ','))
/** ISO 4217, as spreadsheets and accounting read it (einlass stores EURO). */
const iso = (c: string) => (c === 'EURO' ? 'EUR' : c)
/** A stored timestamp (ISO text on SQLite, a Date on Postgres) as local time of the zone. */
const local = (v: unknown, tz: string) => {
  if (v == null || v === '') return ''
  const d = v instanceof Date ? v : new Date(String(v))
  return Number.isNaN(d.getTime()) ? '' : `${formatDate(d, tz)} ${formatTime(d, tz)}`
}

export function exportOrdersCsv(ctx: AppContext, event: EventRow, s: Partial<OrderSearch>): ReadableStream<Uint8Array> {
  const enc = new TextEncoder()
  const now = isoNow(ctx.clock.now())
  const tz = safeTimeZone(event.timezone)
  let lastId = 0
  let started = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true
        controller.enqueue(enc.encode(`\uFEFF${stringify([ORDER_CSV_COLUMNS], { delimiter: ';' })}`))
        return
      }
      const rows = await filtered(ctx.db, event.id, s, now).selectAll().where('id', '>', lastId).orderBy('id').limit(1000).execute()
      if (!rows.length) return controller.close()
      lastId = rows[rows.length - 1].id
      const ids = rows.map((o) => o.id)
      const [lines, invoices] = await Promise.all([
        ctx.db.selectFrom('ticket_order_line').select(['order_id', 'amount', 'display_name', 'unit_price']).where('order_id', 'in', ids).orderBy('order_id').orderBy('sort_order').orderBy('id').execute(),
        ctx.db.selectFrom('invoice').select(['order_ref', 'kind', 'number']).where('event_id', '=', event.id).where('order_ref', 'in', ids.map(String)).orderBy('id').execute(),
      ])
      const currencyOf = new Map(rows.map((o) => [o.id, o.currency]))
      const linesOf = new Map<number, string[]>()
      for (const l of lines) linesOf.set(l.order_id, [...(linesOf.get(l.order_id) ?? []), `${l.amount} × ${l.display_name} (je ${formatPrice(l.unit_price, currencyOf.get(l.order_id)!)})`])
      const numbers = (id: number, kind: string) => invoices.filter((i) => i.order_ref === String(id) && i.kind === kind).map((i) => i.number).join(', ')
      const out = rows.map((o) =>
        [
          o.number,
          t(LANG, `ticketing.status.${o.status}`),
          o.full_name ?? '',
          o.email ?? '',
          (linesOf.get(o.id) ?? []).join(', '),
          cents(o.gross_price),
          iso(o.currency),
          o.payment_method ? t(LANG, `ticketing.method.${o.payment_method}`) : '',
          local(o.paid_at, tz),
          cents(o.paid_amount),
          local(o.payment_due_at, tz),
          local(o.created_at, tz),
          tz,
          numbers(o.id, 'INVOICE'),
          numbers(o.id, 'CANCELLATION'),
          local(o.terms_accepted_at, tz),
          o.terms_accepted_at ? (o.terms_version ?? '') : '',
        ].map((v) => neutralise(String(v))),
      )
      controller.enqueue(enc.encode(stringify(out, { delimiter: ';' })))
    },
  })
}
