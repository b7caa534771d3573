// The accountant's view of the invoices (docs/invoices.md, "For the accountant"): every invoice and
// credit note of a period with its tax groups and state, the bookkeeping CSV (one line per document
// and tax rate) and the DATEV Buchungsstapel (EXTF). Everything is read from the frozen snapshots,
// so the exports say exactly what the documents say.
import { stringify } from 'csv-stringify/sync'
import type { Db } from '../../db/database'
import { AppError } from '../../shared/errors'
import type { InvoiceRow } from './invoices.table'
import { snapshotOf } from './service'
import type { InvoiceSnapshot, TaxGroup, TaxRate } from './snapshot'
import { type AccountingSettings, sameRate } from './accounting-settings'

/** At most this many documents per query or export: a larger period is refused (narrow it). */
export const MAX_DOCUMENTS = 5000

export interface AccountingFilter {
  /** YYYY-MM-DD, the invoice date (as printed) from */
  from?: string
  /** YYYY-MM-DD, the invoice date up to and including */
  to?: string
  eventId?: number
}

export type DocumentState = 'OPEN' | 'PAID' | 'PARTLY_CREDITED' | 'CANCELLED' | 'CREDIT_NOTE'

export interface AccountingDocument {
  id: number
  number: string
  kind: 'INVOICE' | 'CANCELLATION'
  issueDate: string
  orderRef: string
  orderNumber: string
  eventId: number | null
  eventName: string
  buyer: string
  currency: string
  cancelsNumber: string | null
  state: DocumentState
  taxGroups: TaxGroup[]
  totals: InvoiceSnapshot['totals']
  row: InvoiceRow
}

const dayShift = (isoDay: string, days: number) => {
  const d = new Date(`${isoDay}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString()
}

/**
 * The documents of a period, oldest first. The period is the invoice date as printed (the
 * snapshot's issue date in the event's time zone): the rows are narrowed by the issuing instant with
 * a day's margin on each side, then by the printed date.
 */
export async function accountingDocuments(db: Db, agencyId: number, f: AccountingFilter): Promise<AccountingDocument[]> {
  let q = db.selectFrom('invoice').selectAll().where('agency_id', '=', agencyId)
  if (f.eventId != null) q = q.where('event_id', '=', f.eventId)
  if (f.from) q = q.where('issued_at', '>=', dayShift(f.from, -1))
  if (f.to) q = q.where('issued_at', '<', dayShift(f.to, 2))
  const rows = await q.orderBy('id').limit(MAX_DOCUMENTS * 2 + 1).execute()
  const docs = rows.map((row) => ({ row, s: snapshotOf(row) })).filter(({ s }) => (!f.from || s.issueDate >= f.from) && (!f.to || s.issueDate <= f.to))
  if (docs.length > MAX_DOCUMENTS || rows.length > MAX_DOCUMENTS * 2) throw new AppError(422, 'ACCOUNTING_PERIOD_TOO_LARGE', { params: { max: MAX_DOCUMENTS } })
  const invoiceIds = docs.filter((d) => d.row.kind === 'INVOICE').map((d) => d.row.id)
  // credits of an invoice may lie outside the period: its state counts all of them
  const credited = new Map<number, number>()
  for (let i = 0; i < invoiceIds.length; i += 500) {
    const part = invoiceIds.slice(i, i + 500)
    const sums = await db
      .selectFrom('invoice')
      .select(['cancels_invoice_id', (eb) => eb.fn.sum<number>('gross_cents').as('sum')])
      .where('agency_id', '=', agencyId)
      .where('cancels_invoice_id', 'in', part)
      .groupBy('cancels_invoice_id')
      .execute()
    for (const r of sums) credited.set(Number(r.cancels_invoice_id), Number(r.sum))
  }
  const orderIds = [...new Set(docs.map((d) => Number(d.row.order_ref)).filter((n) => Number.isSafeInteger(n) && n > 0))]
  const paid = new Set<number>()
  for (let i = 0; i < orderIds.length; i += 500) {
    const part = orderIds.slice(i, i + 500)
    const orders = await db.selectFrom('ticket_order').select(['id', 'status', 'paid_at']).where('agency_id', '=', agencyId).where('id', 'in', part).execute()
    for (const o of orders) if (o.status === 'PAID' || o.paid_at) paid.add(Number(o.id))
  }
  const numbers = new Map(docs.map((d) => [d.row.id, d.row.number]))
  const missing = docs.filter((d) => d.row.cancels_invoice_id != null && !numbers.has(d.row.cancels_invoice_id)).map((d) => d.row.cancels_invoice_id!)
  if (missing.length) {
    for (let i = 0; i < missing.length; i += 500) {
      const found = await db.selectFrom('invoice').select(['id', 'number']).where('agency_id', '=', agencyId).where('id', 'in', missing.slice(i, i + 500)).execute()
      for (const r of found) numbers.set(r.id, r.number)
    }
  }
  return docs.map(({ row, s }) => {
    let state: DocumentState
    if (row.kind === 'CANCELLATION') state = 'CREDIT_NOTE'
    else {
      const c = credited.get(row.id) ?? 0
      if (c !== 0 && c <= -row.gross_cents) state = 'CANCELLED'
      else if (c !== 0) state = 'PARTLY_CREDITED'
      else if (s.totals.payableCents === 0 || paid.has(Number(row.order_ref))) state = 'PAID'
      else state = 'OPEN'
    }
    return {
      id: row.id,
      number: row.number,
      kind: row.kind,
      issueDate: s.issueDate,
      orderRef: row.order_ref,
      orderNumber: s.orderNumber,
      eventId: row.event_id,
      eventName: s.eventName,
      buyer: s.buyer.name,
      currency: row.currency,
      cancelsNumber: row.cancels_invoice_id != null ? (numbers.get(row.cancels_invoice_id) ?? null) : null,
      state,
      taxGroups: s.taxGroups,
      totals: s.totals,
      row,
    }
  })
}

/** The page's list: documents without the stored row, with the period's sums per rate. */
export function documentsDto(docs: AccountingDocument[], page: number, size: number) {
  const sums = new Map<string, { rate: TaxRate; netCents: number; taxCents: number; grossCents: number }>()
  for (const d of docs)
    for (const g of d.taxGroups) {
      const k = String(g.rate)
      const s = sums.get(k) ?? { rate: g.rate, netCents: 0, taxCents: 0, grossCents: 0 }
      s.netCents += g.netCents
      s.taxCents += g.taxCents
      s.grossCents += g.grossCents
      sums.set(k, s)
    }
  return {
    content: docs.slice(page * size, page * size + size).map(({ row: _row, ...d }) => d),
    totalElements: docs.length,
    page,
    size,
    sums: [...sums.values()].sort((a, b) => (b.rate ?? -1) - (a.rate ?? -1)),
  }
}

// ---- formatting -------------------------------------------------------------------------------

/** 1234,56 / -12,90: cents with a decimal comma, no thousands separator (what bookkeeping imports read). */
export const amount = (cents: number) => {
  const sign = cents < 0 ? '-' : ''
  const a = Math.abs(cents)
  return `${sign}${Math.trunc(a / 100)},${String(a % 100).padStart(2, '0')}`
}
const rateText = (r: TaxRate) => (r === null ? 'ohne USt' : `${String(r).replace('.', ',')} %`)
const germanDate = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`
/** Text a spreadsheet would run as a formula gets a leading quote (OWASP); our own numbers stay. */
const text = (v: string | null | undefined) => (v == null ? '' : /^[=+\-@\t\r]/.test(v) ? `'${v}` : v)

export const STATE_TEXT: Record<DocumentState, string> = {
  OPEN: 'offen',
  PAID: 'bezahlt',
  PARTLY_CREDITED: 'teilweise gutgeschrieben',
  CANCELLED: 'storniert',
  CREDIT_NOTE: 'Gutschrift/Storno',
}

export const CSV_COLUMNS = ['Belegnummer', 'Belegdatum', 'Belegart', 'Bezug', 'Bestellnummer', 'Veranstaltung', 'Käufer', 'Steuersatz', 'Netto', 'Steuer', 'Brutto', 'Währung', 'Status'] as const

/** The bookkeeping CSV: one line per document and tax rate, ';'-separated UTF-8 with a BOM. */
export function bookkeepingCsv(docs: AccountingDocument[]): string {
  const lines: string[][] = [[...CSV_COLUMNS]]
  for (const d of docs)
    for (const g of d.taxGroups)
      lines.push([
        text(d.number),
        germanDate(d.issueDate),
        d.kind === 'INVOICE' ? 'Rechnung' : 'Stornorechnung',
        text(d.cancelsNumber),
        text(d.orderNumber),
        text(d.eventName),
        text(d.buyer),
        rateText(g.rate),
        amount(g.netCents),
        amount(g.taxCents),
        amount(g.grossCents),
        d.currency === 'CHF' ? 'CHF' : 'EUR',
        STATE_TEXT[d.state],
      ])
  return `\uFEFF${stringify(lines, { delimiter: ';', record_delimiter: 'windows' })}`
}

// ---- DATEV ------------------------------------------------------------------------------------

/** The columns of a booking line (the first 14 of DATEV's Buchungsstapel; DATEV reads them by position). */
export const DATEV_COLUMNS = [
  'Umsatz (ohne Soll/Haben-Kz)',
  'Soll/Haben-Kennzeichen',
  'WKZ Umsatz',
  'Kurs',
  'Basis-Umsatz',
  'WKZ Basis-Umsatz',
  'Konto',
  'Gegenkonto (ohne BU-Schlüssel)',
  'BU-Schlüssel',
  'Belegdatum',
  'Belegfeld 1',
  'Belegfeld 2',
  'Skonto',
  'Buchungstext',
] as const

const q = (v: string) => `"${v.replace(/"/g, '""')}"`
const ymd = (iso: string) => iso.slice(0, 10).replace(/-/g, '')
/** Belegfeld 1 allows letters, digits and $ & % * + - / (36 characters). */
const belegfeld = (v: string) => v.replace(/[^A-Za-z0-9$&%*+\-/]/g, '').slice(0, 36)

/** The fiscal year (its first day, YYYY-MM-DD) a date falls in. */
export function fiscalYearStart(isoDay: string, startMonth: number): string {
  const y = Number(isoDay.slice(0, 4))
  const m = Number(isoDay.slice(5, 7))
  const year = m >= startMonth ? y : y - 1
  return `${year}-${String(startMonth).padStart(2, '0')}-01`
}

/**
 * The DATEV Buchungsstapel as DATEV's import reads it: the EXTF header line (format 700, category
 * 21, version 13), the column line, then one booking per document and tax rate. An invoice books
 * its gross on the debtor/clearing account (Soll) against the rate's revenue account; a credit note
 * the other way (Haben). Windows-1252, ';', CRLF. A batch lies in one fiscal year (Belegdatum has no year).
 */
export function datevBuchungsstapel(docs: AccountingDocument[], s: AccountingSettings, period: { from: string; to: string }, createdAt: Date): Uint8Array {
  if (s.consultantNumber == null || s.clientNumber == null || !s.debtorAccount) throw new AppError(409, 'DATEV_SETTINGS_MISSING')
  const fy = fiscalYearStart(period.from, s.fiscalYearStartMonth)
  if (fiscalYearStart(period.to, s.fiscalYearStartMonth) !== fy) throw new AppError(422, 'DATEV_PERIOD_SPANS_YEARS')
  const currencies = new Set(docs.map((d) => d.currency))
  if (currencies.size > 1) throw new AppError(422, 'DATEV_MIXED_CURRENCIES')
  const wkz = currencies.has('CHF') ? 'CHF' : 'EUR'
  const accountOf = (rate: TaxRate) => {
    const r = s.revenueAccounts.find((x) => sameRate(x.rate, rate))
    if (!r) throw new AppError(409, 'DATEV_ACCOUNT_MISSING', { params: { rate: rateText(rate) } })
    return r
  }
  const stamp = berlinStamp(createdAt)
  const header = [
    q('EXTF'), '700', '21', q('Buchungsstapel'), '13', stamp, '', q('RE'), q(''), q(''),
    String(s.consultantNumber), String(s.clientNumber), ymd(fy), String(s.accountLength), ymd(period.from), ymd(period.to),
    q(`Rechnungen ${period.from.slice(0, 7)}`.slice(0, 30)), q(''), '1', '0', '0', q(wkz), '', q(''), '', '', q(s.chart === 'SKR04' ? '04' : '03'), '', '', q(''), q(''),
  ].join(';')
  const lines = [header, DATEV_COLUMNS.map(q).join(';')]
  for (const d of docs)
    for (const g of d.taxGroups) {
      if (g.grossCents === 0) continue
      const acc = accountOf(g.rate)
      lines.push(
        [
          amount(Math.abs(g.grossCents)),
          q(g.grossCents > 0 ? 'S' : 'H'),
          q(wkz),
          '',
          '',
          q(''),
          s.debtorAccount,
          acc.account,
          q(acc.buKey ?? ''),
          `${d.issueDate.slice(8, 10)}${d.issueDate.slice(5, 7)}`,
          q(belegfeld(d.number)),
          q(''), // Belegfeld 2 is the due date in DATEV's open-item bookkeeping: left empty
          '',
          q(`${d.kind === 'INVOICE' ? 'Rechnung' : 'Storno'} ${d.number} ${d.buyer}`.slice(0, 60)),
        ].join(';'),
      )
    }
  return windows1252(`${lines.join('\r\n')}\r\n`)
}

/** YYYYMMDDHHMMSSFFF in German time (DATEV's "Erzeugt am"). */
function berlinStamp(at: Date): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  )
  return `${p.year}${p.month}${p.day}${p.hour}${p.minute}${p.second}${String(at.getUTCMilliseconds()).padStart(3, '0')}`
}

// Windows-1252 beyond Latin-1: the code points of 0x80–0x9F
const CP1252: Record<number, number> = {
  0x20ac: 0x80, 0x201a: 0x82, 0x0192: 0x83, 0x201e: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87, 0x02c6: 0x88, 0x2030: 0x89, 0x0160: 0x8a, 0x2039: 0x8b, 0x0152: 0x8c, 0x017d: 0x8e,
  0x2018: 0x91, 0x2019: 0x92, 0x201c: 0x93, 0x201d: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02dc: 0x98, 0x2122: 0x99, 0x0161: 0x9a, 0x203a: 0x9b, 0x0153: 0x9c, 0x017e: 0x9e, 0x0178: 0x9f,
}
/** DATEV reads ANSI (Windows-1252); a character it cannot hold becomes '?'. */
export function windows1252(s: string): Uint8Array {
  const out = new Uint8Array(s.length)
  let n = 0
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    out[n++] = c < 0x80 || (c >= 0xa0 && c <= 0xff) ? c : (CP1252[c] ?? 0x3f)
  }
  return out.subarray(0, n)
}
