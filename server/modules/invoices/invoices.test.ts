// Invoices: totals that add up to the cent, numbers without gaps or duplicates under concurrency,
// issuing once, cancellations, the organiser's files, and every XML shape validated with the
// official EN 16931 and XRechnung rules (../shared/einvoice/validate).
import { describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { forEachDialect } from '../../testing/harness'
import { createAgency, createUser, loginAs } from '../identity/test-helpers'
import { renderInvoicePdf } from './pdf'
import { formatInvoiceNumber, issueCancellation, issueInvoice, snapshotOf } from './service'
import { type InvoiceDraft, buildSnapshot, netOfGross } from './snapshot'
import { SHAPES, draft } from './testing'
import { internalInvoice, renderFacturX, renderXml } from './xml'

const VALIDATE = resolve(import.meta.dir, '../../../../shared/einvoice/validate')
const validatorReady = existsSync(VALIDATE) && existsSync('/usr/share/java/Saxon-HE.jar') && Bun.which('java') !== null && Bun.which('xmllint') !== null
if (!validatorReady && process.env.CI === 'true') throw new Error(`e-invoice validator cannot run (${VALIDATE}, Java, Saxon-HE, xmllint): CI must validate invoices`)

async function validate(file: string): Promise<{ ok: boolean; out: string }> {
  const p = Bun.spawn(['bash', VALIDATE, file], { stdout: 'pipe', stderr: 'pipe' })
  const out = (await new Response(p.stdout).text()) + (await new Response(p.stderr).text())
  return { ok: (await p.exited) === 0, out }
}

function run(cmd: string[], input?: Uint8Array): string {
  const p = Bun.spawnSync(cmd, { stdin: input ?? 'ignore' })
  if (p.exitCode !== 0) throw new Error(`${cmd.join(' ')}: ${p.stderr.toString()}`)
  return p.stdout.toString()
}

describe('invoice amounts', () => {
  test('net of gross per rate, rounded half away from zero', () => {
    expect(netOfGross(2000, 19)).toBe(1681)
    expect(netOfGross(1190, 19)).toBe(1000)
    expect(netOfGross(-1190, 19)).toBe(-1000)
    expect(netOfGross(4590, 8.1)).toBe(4246)
    expect(netOfGross(107, 7)).toBe(100)
    expect(netOfGross(500, null)).toBe(500)
    expect(netOfGross(500, 0)).toBe(500)
  })

  test('lines, tax groups and totals add up to the cent for any mix of prices, rates and coupons', () => {
    let seed = 42
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n)
    const rates = [19, 7, 0, null, 16, 5, 8.1, 2.6, 3.8, 7.7]
    for (let i = 0; i < 2000; i++) {
      const lines = Array.from({ length: 1 + rnd(6) }, (_, j) => ({ name: `L${j}`, quantity: 1 + rnd(9), unitGrossCents: rnd(100_000), taxRate: rates[rnd(rates.length)]! }))
      const gross = lines.reduce((s, l) => s + l.quantity * l.unitGrossCents, 0)
      if (rnd(3) === 0 && gross > 0) lines.push({ name: 'Gutschein', quantity: -1, unitGrossCents: Math.min(gross, rnd(gross) + 1), taxRate: lines[0]!.taxRate })
      const kind = rnd(4) === 0 ? 'CANCELLATION' : 'INVOICE'
      const s = buildSnapshot(draft({ kind, lines }), 'X')
      for (const g of s.taxGroups) {
        const members = s.lines.filter((l) => l.taxRate === g.rate)
        expect(members.reduce((a, l) => a + l.grossCents, 0)).toBe(g.grossCents)
        expect(members.reduce((a, l) => a + l.netCents, 0)).toBe(g.netCents)
        expect(g.netCents + g.taxCents).toBe(g.grossCents)
        // EN 16931 BR-S-09: the tax is the rate's product of the net, within one currency unit
        if (g.rate) expect(Math.abs(g.taxCents - (g.netCents * g.rate) / 100)).toBeLessThan(100)
        else expect(g.taxCents).toBe(0)
      }
      const sign = kind === 'CANCELLATION' ? -1 : 1
      expect(s.totals.grossCents).toBe(sign * lines.reduce((a, l) => a + l.quantity * l.unitGrossCents, 0))
      expect(s.totals.netCents + s.totals.taxCents).toBe(s.totals.grossCents)
    }
  })

  test('7 % and 19 % are summed separately', () => {
    const s = buildSnapshot(SHAPES.twoRates!, 'RE-1')
    expect(s.taxGroups.map((g) => [g.rate, g.netCents, g.taxCents, g.grossCents])).toEqual([
      [19, 3361, 639, 4000],
      [7, 1206, 84, 1290],
    ])
    expect(s.totals).toEqual({ netCents: 4567, taxCents: 723, grossCents: 5290, paidCents: 0, payableCents: 5290 })
  })
})

describe('invoice XML with the compiled schema kept', () => {
  test('every shape renders exactly as the library renders it alone, first call and repeats; bad data is still refused', async () => {
    const { InvoiceService } = await import('@e-invoice-eu/core')
    const plain = new InvoiceService({ log() {}, warn() {}, error() {} } as never)
    for (const [name, d] of Object.entries(SHAPES)) {
      const s = buildSnapshot(d, `RE-${name}`)
      for (const [syntax, format] of [['CII', 'XRECHNUNG-CII'], ['UBL', 'XRECHNUNG-UBL']] as const) {
        const expected = await plain.generate(internalInvoice(s) as never, { format, lang: 'de-de' } as never)
        expect([name, syntax, await renderXml(s, syntax)]).toEqual([name, syntax, expected as string])
        expect([name, syntax, await renderXml(s, syntax)]).toEqual([name, syntax, expected as string])
      }
    }
    // the kept validator still validates: an invoice without its number is refused, as by the library
    const broken = internalInvoice(buildSnapshot(SHAPES.twoRates!, 'RE-X')) as any
    delete broken['ubl:Invoice']['cbc:ID']
    const { renderInternal } = await import('./xml')
    await expect(renderInternal(broken, 'CII')).rejects.toThrow()
    await expect(plain.generate(structuredClone(broken), { format: 'XRECHNUNG-CII', lang: 'de-de' } as never)).rejects.toThrow()
  })
})

describe('invoice files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'einlass-invoices-'))
  const shapes: Array<[string, InvoiceDraft]> = [
    ...Object.entries(SHAPES),
    // the cancellation stays last (the PDF test reads it as shapes.at(-1))
    ['partial-credit-note', { ...SHAPES.twoRates!, kind: 'CANCELLATION', paidCents: 1000, lines: [{ name: 'Erstattung zur Rechnung RE-00001 (19 %)', quantity: 1, unitGrossCents: 1000, taxRate: 19 }], cancels: { number: 'RE-00001', issueDate: '2026-11-23' } }],
    ['cancellation', { ...SHAPES.twoRates!, kind: 'CANCELLATION', paidCents: 5290, cancels: { number: 'RE-00001', issueDate: '2026-11-23' } }],
  ]

  test.skipIf(!validatorReady)('XRechnung in CII and UBL passes the EN 16931 and XRechnung rules for every shape', async () => {
    const files: string[] = []
    for (const [name, d] of shapes) {
      const s = buildSnapshot(d, `RE-${name}`)
      for (const syntax of ['CII', 'UBL'] as const) {
        const f = join(dir, `${name}-${syntax}.xml`)
        writeFileSync(f, await renderXml(s, syntax))
        files.push(f)
      }
    }
    // two at a time (two cores; each run starts a JVM)
    const failures: string[] = []
    for (let i = 0; i < files.length; i += 2) {
      const rs = await Promise.all(files.slice(i, i + 2).map(async (f) => ({ f, ...(await validate(f)) })))
      for (const r of rs) if (!r.ok) failures.push(`${r.f}\n${r.out}`)
    }
    expect(failures).toEqual([])
  }, 300_000)

  test.skipIf(!validatorReady)('a broken invoice fails the validation (the check can fail)', async () => {
    const s = buildSnapshot(SHAPES.twoRates!, 'RE-broken')
    s.taxGroups[0]!.taxCents += 150 // a tax amount that does not match its net
    const f = join(dir, 'broken.xml')
    writeFileSync(f, await renderXml(s, 'CII'))
    const r = await validate(f)
    expect(r.ok).toBe(false)
    expect(r.out).toContain('BR-CO-14')
  }, 60_000)

  test('the XML carries the snapshot\'s numbers', async () => {
    const s = buildSnapshot(SHAPES.leitwegPaid!, 'RE-00007')
    const cii = await renderXml(s, 'CII')
    expect(cii).toContain('<ram:BuyerReference>04011000-1234512345-06</ram:BuyerReference>')
    expect(cii).toMatch(/<ram:GrandTotalAmount>52\.90<\/ram:GrandTotalAmount>/)
    expect(cii).toMatch(/<ram:TotalPrepaidAmount>52\.90<\/ram:TotalPrepaidAmount>/)
    expect(cii).toMatch(/<ram:DuePayableAmount>0\.00<\/ram:DuePayableAmount>/)
    const ubl = await renderXml(s, 'UBL')
    expect(ubl).toContain('<cbc:ID>RE-00007</cbc:ID>')
    expect(ubl).toMatch(/<cbc:TaxAmount currencyID="EUR">7\.23<\/cbc:TaxAmount>/)
  })

  test('a cancellation names the invoice it cancels (BT-25, BT-26) in CII, UBL and the Factur-X XML', async () => {
    const s = buildSnapshot({ ...SHAPES.twoRates!, kind: 'CANCELLATION', paidCents: 5290, cancels: { number: 'RE-00001', issueDate: '2026-11-23' } }, 'RE-00002')
    const cii = await renderXml(s, 'CII')
    const ref = /<ram:SpecifiedTradeSettlementHeaderMonetarySummation>[^]*?<\/ram:SpecifiedTradeSettlementHeaderMonetarySummation>\s*<ram:InvoiceReferencedDocument>\s*<ram:IssuerAssignedID>RE-00001<\/ram:IssuerAssignedID>\s*<ram:FormattedIssueDateTime>\s*<qdt:DateTimeString format="102">20261123<\/qdt:DateTimeString>\s*<\/ram:FormattedIssueDateTime>\s*<\/ram:InvoiceReferencedDocument>/
    expect(cii).toMatch(ref)
    expect(cii.match(/<ram:InvoiceReferencedDocument>/g)?.length).toBe(1)
    const ubl = await renderXml(s, 'UBL')
    expect(ubl).toMatch(/<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*<cbc:ID>RE-00001<\/cbc:ID>\s*<cbc:IssueDate>2026-11-23<\/cbc:IssueDate>/)
    // an invoice names none
    expect(await renderXml(buildSnapshot(SHAPES.twoRates!, 'RE-00003'), 'CII')).not.toContain('InvoiceReferencedDocument')
    const pdf = await renderFacturX(s, await renderInvoicePdf(s))
    const f = join(dir, 'cancellation-fx.pdf')
    writeFileSync(f, pdf)
    const out = join(dir, 'cancellation-fx.xml')
    run(['pdfdetach', '-save', '1', '-o', out, f])
    expect(readFileSync(out, 'utf8')).toMatch(ref)
  }, 60_000)

  test('the PDF reads back with its number, lines, taxes, totals and payment details', async () => {
    const s = buildSnapshot(SHAPES.twoRates!, 'RE-00042')
    const pdf = await renderInvoicePdf(s)
    const text = run(['pdftotext', '-layout', '-', '-'], pdf)
    // the money format of the screens (formatPrice): two decimals with a comma, then the currency
    for (const part of ['Rechnung RE-00042', 'Agentur Sonnenschein GmbH', 'Greta Gast', 'Sommerfest – Stehplatz', '20,00 €', '40,00 €', 'Nettobetrag 19 %', '33,61 €', 'Umsatzsteuer 19 %', '6,39 €', 'Umsatzsteuer 7 %', '0,84 €', 'Gesamtbetrag', '52,90 €', 'DE89 3704 0044 0532 0130 00', 'Leistungsdatum', '24.12.2026', 'USt-IdNr. DE123456789']) {
      expect(text).toContain(part)
    }
    expect(text).not.toMatch(/€ -?\d/)
    const chf = run(['pdftotext', '-layout', '-', '-'], await renderInvoicePdf(buildSnapshot(SHAPES.chf!, 'RE-CH-1')))
    expect(chf).toContain('Umsatzsteuer 8,1 %')
    expect(chf).toContain('91,80 CHF')
    expect(chf).toContain('vor Ort')
    // what was paid is taken off the total: its sign before the number, the currency after it
    const paid = run(['pdftotext', '-layout', '-', '-'], await renderInvoicePdf(buildSnapshot(SHAPES.leitwegPaid!, 'RE-00044')))
    expect(paid).toMatch(/Bereits bezahlt\s+-52,90 €/)
    expect(paid).toMatch(/Offener Betrag\s+0,00 €/)
    const storno = run(['pdftotext', '-layout', '-', '-'], await renderInvoicePdf(buildSnapshot(shapes.at(-1)![1], 'RE-00043')))
    expect(storno).toContain('Stornorechnung RE-00043')
    expect(storno).toMatch(/Gesamtbetrag\s+-52,90 €/)
    // a cancellation invoice names the invoice it cancels as a "Stornorechnung zur Rechnung"
    expect(storno).toMatch(/Stornorechnung zur Rechnung\s+RE-00001 vom/)
    expect(storno).not.toContain('Storniert Rechnung')
  })

  test.skipIf(!validatorReady)('ZUGFeRD / Factur-X: the PDF carries its XRechnung, and that XML is valid', async () => {
    const s = buildSnapshot(SHAPES.coupon!, 'RE-00050')
    const pdf = await renderFacturX(s, await renderInvoicePdf(s))
    const f = join(dir, 'zugferd.pdf')
    writeFileSync(f, pdf)
    // ZUGFeRD names the attachment of its XRECHNUNG profile xrechnung.xml (factur-x.xml for the others)
    expect(run(['pdfdetach', '-list', f])).toContain('xrechnung.xml')
    const out = join(dir, 'xrechnung.xml')
    run(['pdfdetach', '-save', '1', '-o', out, f])
    expect(readFileSync(out, 'utf8')).toContain('RE-00050')
    const r = await validate(out)
    expect(r.out).toContain('valid')
    expect(r.ok).toBe(true)
    expect(run(['pdftotext', f, '-'])).toContain('Rechnung RE-00050')
  }, 60_000)
})

forEachDialect('invoices: numbers, issuing once, cancellations, organiser files', (h) => {
  const issue = (agencyId: number, orderRef: string, d: InvoiceDraft = draft()) =>
    h().ctx.db.transaction().execute((trx) => issueInvoice(h().ctx, trx, { agencyId, eventId: null, orderRef, prefix: 'RE-', draft: d }))

  test('numbers run without gaps or duplicates when many issue at once, also when some transactions roll back', async () => {
    const a = await createAgency(h())
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        h().ctx.db.transaction().execute(async (trx) => {
          const inv = await issueInvoice(h().ctx, trx, { agencyId: a.id, eventId: null, orderRef: `o${i}`, prefix: 'RE-', draft: draft() })
          if (i % 5 === 0) throw new Error('rolled back after issuing')
          return inv
        }),
      ),
    )
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(8)
    const rows = await h().ctx.db.selectFrom('invoice').select(['number', 'order_ref']).where('agency_id', '=', a.id).orderBy('number').execute()
    expect(rows.map((r) => r.number)).toEqual(Array.from({ length: 32 }, (_, i) => formatInvoiceNumber('RE-', i + 1)))
    // the rolled-back orders got no invoice
    expect(rows.some((r) => ['o0', 'o5', 'o10'].includes(r.order_ref))).toBe(false)
    // another agency counts on its own
    const b = await createAgency(h())
    expect((await issue(b.id, 'x')).number).toBe('RE-00001')
  })

  test('an order gets one invoice: issuing again, also concurrently, answers the same one', async () => {
    const a = await createAgency(h())
    const [x, y, z] = await Promise.all([issue(a.id, 'order-1'), issue(a.id, 'order-1'), issue(a.id, 'order-1')])
    expect(new Set([x.id, y.id, z.id]).size).toBe(1)
    expect((await issue(a.id, 'order-2')).number).toBe('RE-00002')
    const s = snapshotOf(x)
    expect(s.number).toBe(x.number)
    expect(x.gross_cents).toBe(5290)
  })

  test('a cancellation invoice negates the invoice, gets its own number, once; it cannot itself be cancelled', async () => {
    const a = await createAgency(h())
    const inv = await issue(a.id, 'order-9', draft({ paidCents: 5290, payment: { kind: 'LOCATION' } }))
    const cancel = () => h().ctx.db.transaction().execute((trx) => issueCancellation(h().ctx, trx, { invoiceId: inv.id, agencyId: a.id, what: 'all', prefix: 'RE-' }))
    const c = await cancel()
    expect(c.kind).toBe('CANCELLATION')
    expect(c.number).toBe('RE-00002')
    expect(c.cancels_invoice_id).toBe(inv.id)
    expect(c.gross_cents).toBe(-5290)
    const s = snapshotOf(c)
    expect(s.cancels).toEqual({ number: inv.number, issueDate: snapshotOf(inv).issueDate })
    expect(s.totals).toMatchObject({ grossCents: -5290, paidCents: -5290, payableCents: 0 })
    expect((await cancel()).id).toBe(c.id)
    // a partial refund: its own cancellation with only the refunded line
    const part = await h().ctx.db.transaction().execute((trx) =>
      issueCancellation(h().ctx, trx, { invoiceId: inv.id, agencyId: a.id, what: 'refund-1', prefix: 'RE-', lines: [{ name: 'Sommerfest – Buffet', quantity: 1, unitGrossCents: 1290, taxRate: 7 }] }),
    )
    expect(part.gross_cents).toBe(-1290)
    const again = h().ctx.db.transaction().execute((trx) => issueCancellation(h().ctx, trx, { invoiceId: c.id, agencyId: a.id, what: 'all', prefix: 'RE-' }))
    await expect(again).rejects.toMatchObject({ errorType: 'INVOICE_NOT_CANCELLABLE' })
    // another agency's invoice is not found
    const b = await createAgency(h())
    const foreign = h().ctx.db.transaction().execute((trx) => issueCancellation(h().ctx, trx, { invoiceId: inv.id, agencyId: b.id, what: 'all', prefix: 'RE-' }))
    await expect(foreign).rejects.toMatchObject({ errorType: 'NOT_FOUND' })
  })

  test('organisers list and download their agency\'s invoices; others get 404, the desk role 403', async () => {
    const a = await createAgency(h())
    const inv = await issue(a.id, 'order-dl')
    const admin = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_ADMIN' }] })
    const agent = await loginAs(h(), admin, { accountId: admin.accounts[0]!.id })
    const list = await agent.get('/proxy/api/invoices')
    expect(list.status).toBe(200)
    expect(list.body.content).toEqual([expect.objectContaining({ id: inv.id, number: 'RE-00001', grossCents: 5290, kind: 'INVOICE' })])
    const pdf = await agent.request('GET', `/proxy/api/invoices/${inv.id}/pdf`)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.headers.get('content-disposition')).toContain('Rechnung-RE-00001.pdf')
    const xml = await agent.request('GET', `/proxy/api/invoices/${inv.id}/xrechnung?syntax=UBL`)
    expect(xml.text).toContain('<cbc:ID>RE-00001</cbc:ID>')
    expect((await agent.request('GET', `/proxy/api/invoices/${inv.id}/xrechnung?syntax=XML`)).status).toBe(400)

    const b = await createAgency(h())
    const other = await createUser(h(), { accounts: [{ agencyId: b.id, role: 'AGENCY_ADMIN' }] })
    const outsider = await loginAs(h(), other, { accountId: other.accounts[0]!.id })
    expect((await outsider.request('GET', `/proxy/api/invoices/${inv.id}/pdf`)).status).toBe(404)
    expect((await outsider.get('/proxy/api/invoices')).body.content).toEqual([])
    const desk = await createUser(h(), { accounts: [{ agencyId: a.id, role: 'AGENCY_CHECKIN' }] })
    const deskAgent = await loginAs(h(), desk, { accountId: desk.accounts[0]!.id })
    expect((await deskAgent.request('GET', `/proxy/api/invoices/${inv.id}/pdf`)).status).toBe(403)
    expect((await h().request('GET', `/proxy/api/invoices/${inv.id}/pdf`)).status).toBe(401)
  })
})
