// The invoice as PDF (A4, pdf-lib with DejaVu Sans embedded so umlauts, € and CHF print in the
// compiled binary too). It renders the snapshot only: the same numbers as the XML.
import { type PDFFont, type PDFPage, rgb } from 'pdf-lib'
import { formatPrice } from '../../i18n/price'
import { needsCjk, newPdf, wrap } from '../../shared/pdf-kit'
import { countryName } from '../forms/countries'
import type { InvoiceSnapshot, TaxRate } from './snapshot'

const A4: [number, number] = [595.28, 841.89]
const M = 56
const INK = rgb(0.1, 0.1, 0.12)
const MUTED = rgb(0.4, 0.42, 0.46)

const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`
const rateText = (r: TaxRate) => (r === null ? '–' : `${String(r).replace('.', ',')} %`)

export async function renderInvoicePdf(s: InvoiceSnapshot): Promise<Uint8Array> {
  // a Japanese or Chinese name, address or line item prints in the CJK font (the labels are German)
  const { doc, regular, bold, fontFor } = await newPdf({ cjk: needsCjk(JSON.stringify(s)) })
  const title = s.kind === 'CANCELLATION' ? 'Stornorechnung' : 'Rechnung'
  doc.setTitle(`${title} ${s.number}`)
  doc.setAuthor(s.seller.name)
  doc.setLanguage('de-DE')
  doc.setCreator('einlass')
  let page: PDFPage = doc.addPage(A4)
  let y = A4[1] - M
  // the amount as the agency writes it everywhere else: "35,00 €", or "€ 35,00" with its currency prefix
  const money = (c: number) => formatPrice(c, s.currency, s.currencyPrefix ?? false)
  const text = (t: string, x: number, at: number, o: { size?: number; font?: PDFFont; color?: ReturnType<typeof rgb>; right?: boolean } = {}) => {
    const size = o.size ?? 9.5
    const font = fontFor(t, o.font ?? regular)
    const w = o.right ? font.widthOfTextAtSize(t, size) : 0
    page.drawText(t, { x: x - w, y: at, size, font, color: o.color ?? INK })
  }
  const ensure = (h: number) => {
    if (y - h < M + 40) {
      page = doc.addPage(A4)
      y = A4[1] - M
    }
  }
  const right = A4[0] - M

  // seller, top right
  const sellerLines = [s.seller.name, [s.seller.street, s.seller.number].filter(Boolean).join(' '), `${s.seller.postCode} ${s.seller.city}`, countryName(s.seller.country), s.seller.phone, s.seller.email]
  sellerLines.forEach((l, i) => text(l, right, y - i * 12, { right: true, font: i === 0 ? bold : regular, color: i === 0 ? INK : MUTED }))
  // buyer, address window
  let by = y - 90
  text(`${s.seller.name} · ${[s.seller.street, s.seller.number].filter(Boolean).join(' ')} · ${s.seller.postCode} ${s.seller.city}`, M, by + 16, { size: 7, color: MUTED })
  for (const l of [s.buyer.name, s.buyer.receiver ? `z. Hd. ${s.buyer.receiver}` : null, [s.buyer.street, s.buyer.number].filter(Boolean).join(' '), `${s.buyer.postCode} ${s.buyer.city}`, s.buyer.country !== s.seller.country ? countryName(s.buyer.country) : null].filter(Boolean) as string[]) {
    text(l, M, by, { size: 10.5 })
    by -= 14
  }
  y -= 200
  text(`${title} ${s.number}`, M, y, { size: 16, font: bold })
  y -= 22
  const facts: Array<[string, string]> = [
    ['Rechnungsdatum', ddmmyyyy(s.issueDate)],
    ['Leistungsdatum', ddmmyyyy(s.deliveryDate)],
    ['Bestellnummer', s.orderNumber],
    ...(s.buyerReference !== s.orderNumber ? ([['Leitweg-ID / Referenz', s.buyerReference]] as Array<[string, string]>) : []),
    ...(s.buyer.taxId ? ([['USt-IdNr. des Kunden', s.buyer.taxId]] as Array<[string, string]>) : []),
    ...(s.cancels ? ([['Stornorechnung zur Rechnung', `${s.cancels.number} vom ${ddmmyyyy(s.cancels.issueDate)}`]] as Array<[string, string]>) : []),
  ]
  for (const [k, v] of facts) {
    text(k, M, y, { color: MUTED })
    text(v, M + 150, y)
    y -= 13
  }
  y -= 14

  // lines
  const cols = { pos: M, name: M + 26, qty: M + 300, unit: M + 370, rate: M + 420, total: right }
  const header = () => {
    text('Pos.', cols.pos, y, { font: bold, size: 8.5 })
    text('Bezeichnung', cols.name, y, { font: bold, size: 8.5 })
    text('Menge', cols.qty, y, { font: bold, size: 8.5, right: true })
    text('Einzelpreis', cols.unit, y, { font: bold, size: 8.5, right: true })
    text('USt.', cols.rate, y, { font: bold, size: 8.5, right: true })
    text('Betrag', cols.total, y, { font: bold, size: 8.5, right: true })
    y -= 6
    page.drawLine({ start: { x: M, y }, end: { x: right, y }, thickness: 0.6, color: MUTED })
    y -= 13
  }
  header()
  s.lines.forEach((l, i) => {
    const nameFont = fontFor(l.name, regular)
    const names = wrap(l.name, nameFont, 9.5, cols.qty - 40 - cols.name)
    ensure(names.length * 12 + 4)
    text(String(i + 1), cols.pos, y)
    names.forEach((n, j) => text(n, cols.name, y - j * 12, { font: nameFont }))
    text(String(l.quantity), cols.qty, y, { right: true })
    text(money(l.unitGrossCents), cols.unit, y, { right: true })
    text(rateText(l.taxRate), cols.rate, y, { right: true })
    text(money(l.grossCents), cols.total, y, { right: true })
    y -= names.length * 12 + 4
  })
  page.drawLine({ start: { x: M, y: y + 6 }, end: { x: right, y: y + 6 }, thickness: 0.6, color: MUTED })
  y -= 10
  ensure(30 + s.taxGroups.length * 26)
  const sum = (k: string, v: string, o: { bold?: boolean } = {}) => {
    text(k, cols.unit + 50, y, { right: true, font: o.bold ? bold : regular })
    text(v, cols.total, y, { right: true, font: o.bold ? bold : regular })
    y -= 13
  }
  for (const g of s.taxGroups) {
    if (g.rate === null) {
      sum('Betrag ohne Umsatzsteuer', money(g.netCents))
      continue
    }
    sum(`Nettobetrag ${rateText(g.rate)}`, money(g.netCents))
    sum(`Umsatzsteuer ${rateText(g.rate)}`, money(g.taxCents))
  }
  sum('Gesamtbetrag', money(s.totals.grossCents), { bold: true })
  if (s.totals.paidCents) {
    // an invoice shows what was paid against it; a cancellation what was given back
    if (s.kind === 'CANCELLATION') sum('Erstattet', money(Math.abs(s.totals.paidCents)))
    else sum('Bereits bezahlt', money(-s.totals.paidCents))
    sum('Offener Betrag', money(s.totals.payableCents), { bold: true })
  }
  y -= 12

  const notes: string[] = []
  const p = s.payment
  if (s.kind === 'CANCELLATION') notes.push(`Diese Stornorechnung hebt die Rechnung ${s.cancels?.number ?? ''} auf.`)
  else if (s.totals.payableCents <= 0) notes.push(p.kind === 'COUPON' ? 'Der Betrag ist durch einen Gutschein vollständig beglichen.' : p.kind === 'LOCATION' ? 'Der Betrag wurde vor Ort bezahlt. Vielen Dank!' : 'Der Betrag ist bezahlt. Vielen Dank!')
  else if (p.kind === 'TRANSFER' || p.kind === 'INVOICE') {
    notes.push(`Bitte überweisen Sie ${money(s.totals.payableCents)}${s.dueDate ? ` bis zum ${ddmmyyyy(s.dueDate)}` : ''} an:`)
    notes.push(`Kontoinhaber: ${p.accountHolder}\nIBAN: ${p.iban}${p.bic ? `\nBIC: ${p.bic}` : ''}\nVerwendungszweck: ${p.reference}`)
  } else if (p.kind === 'LOCATION') notes.push(`Bitte bezahlen Sie ${money(s.totals.payableCents)} vor Ort bei der Veranstaltung.`)
  if (s.taxGroups.some((g) => g.rate === null) && s.seller.taxExemptionReason) notes.push(s.seller.taxExemptionReason)
  if (s.paymentTerms && s.kind === 'INVOICE') notes.push(s.paymentTerms)
  if (s.additionalText) notes.push(s.additionalText)
  for (const n of notes) {
    const noteFont = fontFor(n, regular)
    const ls = wrap(n, noteFont, 9.5, right - M)
    ensure(ls.length * 12 + 6)
    ls.forEach((l) => {
      text(l, M, y, { font: noteFont })
      y -= 12
    })
    y -= 6
  }

  // footer on every page: who issues it and their tax ids
  const footer = [s.seller.name, s.seller.vatId ? `USt-IdNr. ${s.seller.vatId}` : null, s.seller.taxNumber ? `Steuernummer ${s.seller.taxNumber}` : null, s.seller.registrationId].filter(Boolean).join(' · ')
  const pages = doc.getPages()
  pages.forEach((pg, i) => {
    pg.drawText(footer, { x: M, y: 30, size: 7.5, font: fontFor(footer, regular), color: MUTED })
    const n = `Seite ${i + 1} von ${pages.length}`
    pg.drawText(n, { x: right - regular.widthOfTextAtSize(n, 7.5), y: 30, size: 7.5, font: regular, color: MUTED })
  })
  return doc.save()
}
