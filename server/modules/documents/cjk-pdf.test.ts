// Japanese and Chinese in the guest's PDFs: the CJK font (Noto Sans SC) is embedded as a subset only
// when the document's language or its texts need it, strings with ideographs or kana are drawn with
// it, and lines break between ideographs. Read back with poppler (pdftotext, pdffonts).
import { describe, expect, test } from 'bun:test'
import { t } from '../../i18n/catalogue'
import { newPdf } from '../../shared/pdf-kit'
import { renderInvoicePdf } from '../invoices/pdf'
import { buildSnapshot } from '../invoices/snapshot'
import { BUYER, draft } from '../invoices/testing'
import { type DocData, renderInvitationPdf, renderNameTagsPdf, renderTicketPdf, wrap } from './pdf'
import { pdfText, tempFile } from './test-helpers'

const LONG_JA = '東京国際フォーラムで開催される第二十五回日本イベント管理協会年次総会および記念祝賀会へようこそ。ご来場の際は、このチケットを入口でご提示ください。'

const data = (lang: string, over: Partial<DocData> = {}): DocData => ({
  t: (k, p) => t(lang, k, p),
  eventTitle: '年次総会 2026',
  subTitle: null,
  agencyName: '株式会社イベント',
  dateText: '2026/12/07',
  timeText: '18:00 – 22:00',
  timezone: 'Asia/Tokyo',
  placeLines: ['東京国際フォーラム', '東京都千代田区丸の内3-5-1'],
  meetingUrl: null,
  ticketCode: 'ABCDE-12345',
  persons: [
    { person: 0, name: '山田 太郎', qr: 'E1-1-1-0-AAAA-0000000000000000' },
    { person: 1, name: '王小明', qr: 'E1-1-1-1-AAAA-0000000000000001' },
  ],
  logo: null,
  dashboardUrl: 'https://einlass.example/guest/dashboard',
  language: lang,
  ...over,
})

/** The fonts poppler finds in the PDF (pdffonts: name, type, …). */
async function pdfFonts(pdf: Uint8Array): Promise<string[]> {
  const p = Bun.spawn(['pdffonts', tempFile('doc.pdf', pdf)], { stdout: 'pipe', stderr: 'pipe' })
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited])
  if (code !== 0) throw new Error(`pdffonts failed (${code})`)
  return out.split('\n').slice(2).filter(Boolean).map((l) => l.split(/\s+/)[0]!)
}
const squeeze = (s: string) => s.replace(/\s+/g, '')

describe('CJK in the PDFs', () => {
  test('a Japanese ticket prints its labels, event, place and names (Japanese and Chinese) and embeds the CJK font as a small subset', async () => {
    const pdf = await renderTicketPdf(data('ja'))
    const text = await pdfText(pdf)
    for (const s of ['年次総会 2026', '東京国際フォーラム', '山田 太郎', '王小明', '株式会社イベント', t('ja', 'documents.ticket.title').toUpperCase(), t('ja', 'documents.qrHint')]) expect(squeeze(text)).toContain(squeeze(s))
    expect(text).toContain('ABCDE-12345')
    const fonts = await pdfFonts(pdf)
    expect(fonts.some((f) => f.includes('NotoSansSC'))).toBe(true)
    expect(pdf.byteLength).toBeLessThan(2 * 1024 * 1024)
  }, 30_000)

  test('a Chinese invitation and name tags print their Chinese text', async () => {
    const inv = await pdfText(await renderInvitationPdf({ ...data('zh', { eventTitle: '年度客户答谢会', persons: [{ person: 0, name: '李华', qr: 'E1-1-1-0-AAAA-0000000000000000' }] }), guestName: '李华' }))
    for (const s of ['年度客户答谢会', '李华', t('zh', 'documents.invitation.greeting')]) expect(squeeze(inv)).toContain(squeeze(s))
    const tags = await pdfText(await renderNameTagsPdf(data('zh', { eventTitle: '年度客户答谢会' })))
    for (const s of ['年度客户答谢会', '山田 太郎', '王小明']) expect(squeeze(tags)).toContain(squeeze(s))
  }, 30_000)

  test('a long Japanese title breaks between ideographs and stays within the page', async () => {
    const kit = await newPdf({ cjk: true })
    const font = kit.fontFor(LONG_JA, kit.bold)
    expect(font).not.toBe(kit.bold)
    const lines = wrap(LONG_JA, font, 22, 300)
    expect(lines.length).toBeGreaterThan(3)
    expect(lines.join('')).toBe(LONG_JA)
    for (const l of lines) expect(font.widthOfTextAtSize(l, 22)).toBeLessThanOrEqual(300)
    // closing punctuation never begins a line
    for (const l of lines.slice(1)) expect(l).not.toMatch(/^[、。]/)
    // on the ticket: every character comes back, on more than one line
    const text = await pdfText(await renderTicketPdf(data('ja', { eventTitle: LONG_JA })))
    expect(squeeze(text)).toContain(LONG_JA)
    expect(text).not.toContain(LONG_JA)
  }, 30_000)

  test('a German ticket does not embed the CJK font; a German ticket for a Japanese guest name does', async () => {
    const de = await renderTicketPdf(data('de', { eventTitle: 'Jahrestagung', agencyName: 'Agentur', placeLines: ['Halle 7'], persons: [{ person: 0, name: 'Jörg Müller', qr: 'E1-1-1-0-AAAA-0000000000000000' }] }))
    expect((await pdfFonts(de)).some((f) => f.includes('NotoSansSC'))).toBe(false)
    expect((await pdfFonts(de)).some((f) => f.includes('DejaVuSans'))).toBe(true)
    const mixed = await renderTicketPdf(data('de', { eventTitle: 'Jahrestagung', placeLines: ['Halle 7'] }))
    expect((await pdfFonts(mixed)).some((f) => f.includes('NotoSansSC'))).toBe(true)
    const text = await pdfText(mixed)
    expect(text).toContain('山田 太郎')
    expect(text).toContain(t('de', 'documents.qrHint'))
  }, 30_000)

  test('an invoice to a Japanese buyer prints the name; a German one has no CJK font', async () => {
    const ja = await renderInvoicePdf(buildSnapshot(draft({ buyer: { ...BUYER, name: '山田 太郎', city: '東京' }, lines: [{ name: '年次総会 – 一般席', quantity: 1, unitGrossCents: 5000, taxRate: 19 }] }), 'RE-JA-1'))
    const text = await pdfText(ja)
    for (const s of ['山田 太郎', '年次総会 – 一般席', 'Rechnung RE-JA-1']) expect(text).toContain(s)
    expect((await pdfFonts(ja)).some((f) => f.includes('NotoSansSC'))).toBe(true)
    const de = await renderInvoicePdf(buildSnapshot(draft(), 'RE-DE-1'))
    expect((await pdfFonts(de)).some((f) => f.includes('NotoSansSC'))).toBe(false)
  }, 30_000)
})
