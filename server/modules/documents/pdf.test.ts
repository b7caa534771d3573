import { describe, expect, test } from 'bun:test'
import { t } from '../../i18n/catalogue'
import { type DocData, renderNameTagsPdf, renderTicketPdf } from './pdf'
import { pageCount, pdfQrCodes, pdfText } from './test-helpers'

const data = (persons: number, over: Partial<DocData> = {}): DocData => ({
  t: (k, p) => t('de', k, p),
  eventTitle: 'Jahrestagung der Gesellschaft für außergewöhnlich lange Veranstaltungsnamen und Überschriften e. V.',
  subTitle: null,
  agencyName: 'Agentur',
  dateText: '07.12.2026',
  timeText: '18:00 – 22:00 Uhr',
  timezone: 'Europe/Berlin',
  placeLines: ['Halle 7', 'Berlin'],
  meetingUrl: null,
  ticketCode: 'ABCDE-12345',
  persons: Array.from({ length: persons }, (_, i) => ({ person: i, name: i === 3 ? 'Ζωή Παπαδοπούλου' : i === 4 ? 'Пётр Иванов' : `Person Nummer ${i}`, qr: `E1-1-1-${i}-AAAA-${String(i).padStart(16, '0')}` })),
  logo: null,
  dashboardUrl: 'https://einlass.example/guest/dashboard',
  ...over,
})

describe('PDF builders', () => {
  test('a ticket with many escorts goes on over pages, every QR readable; Greek and Cyrillic names', async () => {
    const pdf = await renderTicketPdf(data(14))
    // the long title takes three lines: one row of three on the first page, three rows on the next
    expect(await pageCount(pdf)).toBe(3)
    expect((await pdfQrCodes(pdf)).sort()).toEqual(data(14).persons.map((p) => p.qr).sort())
    const text = await pdfText(pdf)
    expect(text).toContain('Ζωή Παπαδοπούλου')
    expect(text).toContain('Пётр Иванов')
    // the long title wraps instead of running off the page
    expect(text).toContain('Überschriften e. V.')
  })

  test('tickets one after another share the cached font file only when their glyphs match: each prints its own names', async () => {
    const one = (name: string) => renderTicketPdf(data(1, { persons: [{ person: 0, name, qr: `E1-${name.length}-AAAA` }] }))
    // common letters, then rare ones (glyphs appended to the subset), then common again (the cached file)
    const names = ['Hans Meier', 'Łukasz Żółć Ñandú', 'Greta Müller', 'Ζωή Παπαδοπούλου', 'Anna Schmidt']
    const pdfs = []
    for (const n of names) pdfs.push(await one(n))
    for (let i = 0; i < names.length; i++) expect(await pdfText(pdfs[i]!)).toContain(names[i]!)
    // same glyph list: byte-identical font file, so the two common-letter tickets differ only in their texts
    expect(Math.abs(pdfs[0]!.byteLength - pdfs[4]!.byteLength)).toBeLessThan(200)
  })

  test('name tags: eight a page', async () => {
    const pdf = await renderNameTagsPdf(data(9))
    expect(await pageCount(pdf)).toBe(2)
    expect((await pdfQrCodes(pdf)).length).toBe(9)
  })

  test('a broken logo is left out instead of failing the ticket', async () => {
    const pdf = await renderTicketPdf(data(1, { logo: { bytes: new Uint8Array([137, 80, 78, 71, 1, 2, 3]), mime: 'image/png' } }))
    expect(await pageCount(pdf)).toBe(1)
  })
})
