// The accountant's exports (issue 21): the invoices page's list with states and sums, the DATEV
// Buchungsstapel parsed back (EXTF header, one booking per document and rate, sums equal to the
// invoices'), the bookkeeping CSV, and the ZIP unpacked with `unzip` (a PDF and an XML per document).
import { expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { type Agent, forEachDialect } from '../../testing/harness'
import { issueCancellation, issueInvoice, snapshotOf } from './service'
import type { InvoiceDraft } from './snapshot'
import { draft } from './testing'
import type { InvoiceRow } from './invoices.table'

const SETTINGS = {
  consultantNumber: 29098,
  clientNumber: 55003,
  fiscalYearStartMonth: 1,
  accountLength: 4,
  chart: 'SKR03',
  debtorAccount: '1410',
  revenueAccounts: [
    { rate: 19, account: '8400', buKey: '' },
    { rate: 7, account: '8300', buKey: '' },
    { rate: null, account: '8200', buKey: '' },
  ],
}

const cents = (s: string) => {
  const m = /^(-?)(\d+),(\d\d)$/.exec(s)
  if (!m) throw new Error(`not an amount: ${s}`)
  return (m[1] ? -1 : 1) * (Number(m[2]) * 100 + Number(m[3]))
}
const unq = (s: string) => (s.startsWith('"') ? s.slice(1, -1).replace(/""/g, '"') : s)

forEachDialect('invoices for the accountant: list, CSV, DATEV, ZIP', (h) => {
  async function raw(agent: Agent, path: string) {
    const headers: Record<string, string> = { ...agent.headers, cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
    return h().app.handle(new Request(`http://localhost${path}`, { headers }))
  }
  async function issueAt(agencyId: number, day: string, orderRef: string, d: InvoiceDraft) {
    h().clock.set(new Date(`${day}T10:00:00Z`))
    return h().ctx.db.transaction().execute((trx) => issueInvoice(h().ctx, trx, { agencyId, eventId: null, orderRef, prefix: 'RE-', draft: { ...d, issueDate: day } }))
  }
  async function setup() {
    const admin = await h().admin()
    const a = admin.agencyId
    const docs: InvoiceRow[] = []
    // October: two rates, one rate with a coupon, no VAT; a partial refund of the first; November: outside
    docs.push(await issueAt(a, '2026-10-02', 'x1', draft({ buyer: { ...draft().buyer, name: '=Greta Gast' } })))
    docs.push(await issueAt(a, '2026-10-15', 'x2', draft({ lines: [{ name: 'Stehplatz', quantity: 3, unitGrossCents: 3333, taxRate: 19 }, { name: 'Gutschein', quantity: -1, unitGrossCents: 1000, taxRate: 19 }], paidCents: 8999 })))
    docs.push(await issueAt(a, '2026-10-31', 'x3', draft({ lines: [{ name: 'Workshop', quantity: 1, unitGrossCents: 4900, taxRate: null }] })))
    h().clock.set(new Date('2026-10-20T10:00:00Z'))
    docs.push(
      await h().ctx.db.transaction().execute((trx) =>
        issueCancellation(h().ctx, trx, { invoiceId: docs[0]!.id, agencyId: a, what: 'refund-1', prefix: 'RE-', lines: [{ name: 'Buffet', quantity: 1, unitGrossCents: 1290, taxRate: 7 }] }),
      ),
    )
    const november = await issueAt(a, '2026-11-01', 'x4', draft())
    return { admin, docs, november }
  }

  test('the list shows the period\'s invoices and credit notes with tax groups, states and sums; other agencies see none; managers may not', async () => {
    const { admin, docs } = await setup()
    const r = await admin.get('/proxy/api/invoices/accounting?from=2026-10-01&to=2026-10-31')
    expect(r.status).toBe(200)
    expect(r.body.totalElements).toBe(4)
    expect(r.body.content.map((d: any) => [d.number, d.kind, d.state])).toEqual([
      ['RE-00001', 'INVOICE', 'PARTLY_CREDITED'],
      ['RE-00002', 'INVOICE', 'PAID'],
      ['RE-00003', 'INVOICE', 'OPEN'],
      ['RE-00004', 'CANCELLATION', 'CREDIT_NOTE'],
    ])
    expect(r.body.content[3].cancelsNumber).toBe('RE-00001')
    expect(r.body.content[0].buyer).toBe('=Greta Gast')
    expect(r.body.content[0].taxGroups.map((g: any) => [g.rate, g.netCents, g.taxCents, g.grossCents])).toEqual([
      [19, 3361, 639, 4000],
      [7, 1206, 84, 1290],
    ])
    const gross = docs.reduce((s, d) => s + d.gross_cents, 0)
    expect(r.body.sums.reduce((s: number, g: any) => s + g.grossCents, 0)).toBe(gross)
    // the whole agency, November included; by event (none of these has one)
    expect((await admin.get('/proxy/api/invoices/accounting')).body.totalElements).toBe(5)
    expect((await admin.get('/proxy/api/invoices/accounting?eventId=999999')).body.totalElements).toBe(0)
    expect((await admin.get('/proxy/api/invoices/accounting?from=2026-10-31&to=2026-10-01')).status).toBe(400)
    expect((await admin.get('/proxy/api/invoices/accounting?from=2026-02-30')).status).toBe(400)
    const other = await h().admin()
    expect((await other.get('/proxy/api/invoices/accounting')).body.totalElements).toBe(0)
  })

  test('the DATEV Buchungsstapel parses back: EXTF header, column line, one booking per document and rate, sums equal the invoices\'', async () => {
    const { admin, docs } = await setup()
    const url = '/proxy/api/invoices/accounting/datev?from=2026-10-01&to=2026-10-31'
    // without the accountant's settings: a clear German error
    const missing = await admin.get(url)
    expect(missing.status).toBe(409)
    expect(missing.body.errorMessage).toContain('Beraternummer')
    expect((await admin.put('/proxy/api/agency/accountingSettings', { ...SETTINGS, revenueAccounts: SETTINGS.revenueAccounts.slice(0, 2) })).status).toBe(200)
    const noAccount = await admin.get(url)
    expect(noAccount.status).toBe(409)
    expect(noAccount.body.errorMessage).toContain('ohne USt')
    const saved = await admin.put('/proxy/api/agency/accountingSettings', SETTINGS)
    expect(saved.body).toMatchObject({ consultantNumber: 29098, debtorAccount: '1410', revenueAccounts: [{ rate: 19, account: '8400', buKey: null }, { rate: 7 }, { rate: null }] })
    expect((await admin.put('/proxy/api/agency/accountingSettings', { ...SETTINGS, consultantNumber: 12 })).status).toBe(400)

    const res = await raw(admin, url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('EXTF_Buchungsstapel_2026-10-01_2026-10-31.csv')
    const text = new TextDecoder('windows-1252').decode(await res.arrayBuffer())
    expect(text).toContain('Schlüssel') // ü is one byte in Windows-1252 and decodes back
    const lines = text.split('\r\n').filter(Boolean)
    const header = lines[0]!.split(';').map(unq)
    expect(header.slice(0, 5)).toEqual(['EXTF', '700', '21', 'Buchungsstapel', '13'])
    expect(header[5]).toMatch(/^\d{17}$/)
    expect(header.slice(10, 16)).toEqual(['29098', '55003', '20260101', '4', '20261001', '20261031'])
    expect(header[21]).toBe('EUR')
    expect(header[26]).toBe('03')
    expect(header).toHaveLength(31)
    const cols = lines[1]!.split(';').map(unq)
    expect(cols.slice(0, 11)).toEqual(['Umsatz (ohne Soll/Haben-Kz)', 'Soll/Haben-Kennzeichen', 'WKZ Umsatz', 'Kurs', 'Basis-Umsatz', 'WKZ Basis-Umsatz', 'Konto', 'Gegenkonto (ohne BU-Schlüssel)', 'BU-Schlüssel', 'Belegdatum', 'Belegfeld 1'])
    expect(cols[13]).toBe('Buchungstext')
    const rows = lines.slice(2).map((l) => l.split(';').map(unq))
    const groups = docs.flatMap((d) => snapshotOf(d).taxGroups.map((g) => ({ number: d.number, date: snapshotOf(d).issueDate, ...g })))
    expect(rows).toHaveLength(groups.length) // one per document and rate
    const account = { '19': '8400', '7': '8300', null: '8200' } as Record<string, string>
    for (const g of groups) {
      const row = rows.find((r) => r[10] === g.number && r[7] === account[String(g.rate)])
      expect(row).toBeDefined()
      expect(row![0]).toBe(`${Math.trunc(Math.abs(g.grossCents) / 100)},${String(Math.abs(g.grossCents) % 100).padStart(2, '0')}`)
      expect(row![1]).toBe(g.grossCents > 0 ? 'S' : 'H')
      expect(row![2]).toBe('EUR')
      expect(row![6]).toBe('1410')
      expect(row![9]).toBe(`${g.date.slice(8, 10)}${g.date.slice(5, 7)}`)
    }
    const signed = (r: string[]) => (r[1] === 'S' ? 1 : -1) * cents(r[0]!)
    expect(rows.reduce((s, r) => s + signed(r), 0)).toBe(docs.reduce((s, d) => s + d.gross_cents, 0))
    for (const rate of [19, 7, null]) {
      const booked = rows.filter((r) => r[7] === account[String(rate)]).reduce((s, r) => s + signed(r), 0)
      expect(booked).toBe(groups.filter((g) => g.rate === rate).reduce((s, g) => s + g.grossCents, 0))
    }
    expect(rows.find((r) => r[10] === 'RE-00004')![13]).toBe('Storno RE-00004 =Greta Gast')

    // one fiscal year per batch; a period is required
    expect((await admin.get('/proxy/api/invoices/accounting/datev?from=2026-10-01&to=2027-01-31')).body.errorType).toBe('DATEV_PERIOD_SPANS_YEARS')
    expect((await admin.get('/proxy/api/invoices/accounting/datev?from=2026-10-01')).body.errorType).toBe('DATEV_PERIOD_REQUIRED')
    // a fiscal year from July: October 2026 lies in the one from 1 July 2026
    await admin.put('/proxy/api/agency/accountingSettings', { ...SETTINGS, fiscalYearStartMonth: 7 })
    const july = new TextDecoder('windows-1252').decode(await (await raw(admin, url)).arrayBuffer())
    expect(july.split('\r\n')[0]!.split(';')[12]).toBe('20260701')
  })

  test('the bookkeeping CSV has one line per document and rate; its net, tax and gross add up to the invoices\'', async () => {
    const { admin, docs } = await setup()
    const res = await admin.get('/proxy/api/invoices/accounting/csv?from=2026-10-01&to=2026-10-31')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/csv')
    const rows: string[][] = parse(res.text.replace(/^\uFEFF/, ''), { delimiter: ';' })
    expect(rows[0]).toEqual(['Belegnummer', 'Belegdatum', 'Belegart', 'Bezug', 'Bestellnummer', 'Veranstaltung', 'Käufer', 'Steuersatz', 'Netto', 'Steuer', 'Brutto', 'Währung', 'Status'])
    const body = rows.slice(1)
    expect(body).toHaveLength(docs.reduce((s, d) => s + snapshotOf(d).taxGroups.length, 0))
    const sum = (i: number) => body.reduce((s, r) => s + cents(r[i]!), 0)
    expect(sum(8)).toBe(docs.reduce((s, d) => s + snapshotOf(d).totals.netCents, 0))
    expect(sum(9)).toBe(docs.reduce((s, d) => s + snapshotOf(d).totals.taxCents, 0))
    expect(sum(10)).toBe(docs.reduce((s, d) => s + d.gross_cents, 0))
    expect(body[0]!.slice(0, 3)).toEqual(['RE-00001', '02.10.2026', 'Rechnung'])
    expect(body[0]![6]).toBe("'=Greta Gast") // a formula is neutralised
    expect(body[0]![7]).toBe('19 %')
    const storno = body.find((r) => r[0] === 'RE-00004')!
    expect(storno.slice(2, 4)).toEqual(['Stornorechnung', 'RE-00001'])
    expect(storno.slice(7, 11)).toEqual(['7 %', '-12,06', '-0,84', '-12,90'])
  })

  test('the ZIP holds a PDF and an XRechnung per document of the period, and nothing else', async () => {
    const { admin, docs, november } = await setup()
    const res = await raw(admin, '/proxy/api/invoices/accounting/zip?from=2026-10-01&to=2026-10-31')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/zip')
    const dir = mkdtempSync(join(tmpdir(), 'einlass-zip-'))
    const file = join(dir, 'r.zip')
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()))
    const list = Bun.spawnSync(['unzip', '-l', file])
    expect(list.exitCode).toBe(0)
    const names = [...list.stdout.toString().matchAll(/\s(\S+\.(?:pdf|xml))\s*$/gm)].map((m) => m[1]).sort()
    expect(names).toEqual(docs.flatMap((d) => [`Rechnung-${d.number}.pdf`, `XRechnung-${d.number}.xml`]).sort())
    expect(names.some((n) => n!.includes(november.number))).toBe(false)
    const test = Bun.spawnSync(['unzip', '-t', file])
    expect(test.exitCode).toBe(0)
    const pdf = Bun.spawnSync(['unzip', '-p', file, 'Rechnung-RE-00002.pdf']).stdout
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-')
    const xml = Bun.spawnSync(['unzip', '-p', file, 'XRechnung-RE-00004.xml']).stdout.toString()
    expect(xml).toContain('RE-00004')
    expect(xml).toContain('381')
    // an empty period is an empty, valid ZIP
    const empty = await raw(admin, '/proxy/api/invoices/accounting/zip?from=2020-01-01&to=2020-01-31')
    const bytes = new Uint8Array(await empty.arrayBuffer())
    expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x05, 0x06]) // only the end of central directory
    writeFileSync(join(dir, 'e.zip'), bytes)
    expect(Bun.spawnSync(['unzip', '-l', join(dir, 'e.zip')]).stderr.toString()).toContain('empty')
  })

  test('only administrators reach the accountant\'s calls', async () => {
    const admin = await h().admin()
    const { createUser, loginAs } = await import('../identity/test-helpers')
    const m = await createUser(h(), { accounts: [{ agencyId: admin.agencyId, role: 'AGENCY_MANAGER' }] })
    const manager = await loginAs(h(), m, { accountId: m.accounts[0]!.id })
    for (const path of ['/proxy/api/invoices/accounting', '/proxy/api/invoices/accounting/csv', '/proxy/api/invoices/accounting/zip', '/proxy/api/agency/accountingSettings'])
      expect((await manager.get(path)).status).toBe(403)
    expect((await h().request('GET', '/proxy/api/invoices/accounting')).status).toBe(401)
  })
})
