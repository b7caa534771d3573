// The guest's PDFs: ticket, entry ticket (SYSTEM_COVIDOO), name tags, invitation. pdf-lib with DejaVu
// Sans embedded (subset) for German and other scripts; the TTFs are imported as files so the compiled
// binary carries them (STACK.md trap 6). QR codes are drawn as vector squares from the qrcode
// package's module matrix: sharp at any zoom, no image decoding, a few hundred microseconds each.
import { fill, PDFDocument, type PDFFont, type PDFImage, type PDFOperator, type PDFPage, popGraphicsState, pushGraphicsState, rectangle, rgb, setFillingRgbColor } from 'pdf-lib'
import QRCode from 'qrcode'
import { isCjkLanguage, needsCjk, newPdf, wrap } from '../../shared/pdf-kit'

export { wrap }
export interface Logo {
  bytes: Uint8Array
  mime: string
}

export interface DocPerson {
  /** 0 = main guest, n = escort person n */
  person: number
  name: string
  /** the signed QR payload (checkin/signed-code.ts) */
  qr: string
  /** the person's place on the seating plan: area, then row and seat (["Großer Saal", "Reihe A · Platz 12"]), if any */
  seat?: string[] | null
  /** the person's own ticket category when the order has several (a check-in list admits by it) */
  category?: string | null
}

export interface DocData {
  /** resolve a message key in the guest's language */
  t: (key: string, params?: Record<string, string | number>) => string
  eventTitle: string
  subTitle: string | null
  agencyName: string
  /** DD.MM.YYYY (or a range) in the event's time zone */
  dateText: string
  /** HH:mm – HH:mm in the event's time zone, null when the event shows no time */
  timeText: string | null
  timezone: string
  /** address lines, or null for an online event */
  placeLines: string[] | null
  meetingUrl: string | null
  ticketCode: string | null
  persons: DocPerson[]
  logo: Logo | null
  /** the guest's dashboard (invitation) */
  dashboardUrl: string
  /** the guest's language (ja and zh documents embed the CJK font; also the PDF's language tag) */
  language?: string
}

const A4: [number, number] = [595.28, 841.89]
const MARGIN = 50
const INK = rgb(0.1, 0.1, 0.12)
const MUTED = rgb(0.38, 0.4, 0.45)

interface Kit {
  doc: PDFDocument
  regular: PDFFont
  bold: PDFFont
  fontFor: (text: string, font: PDFFont) => PDFFont
  logo: PDFImage | null
}

// text() gets a font, not the kit: each document's fonts lead to its picker (pdf-kit's fontFor)
const fontPickers = new WeakMap<PDFFont, (text: string, font: PDFFont) => PDFFont>()

/** Japanese or Chinese anywhere in the document's own texts (a name, the event's title, a seat). */
function dataNeedsCjk(data: Omit<DocData, 't' | 'logo'> & { guestName?: string }): boolean {
  return needsCjk(data.eventTitle, data.subTitle, data.agencyName, data.dateText, data.timeText, data.guestName, ...(data.placeLines ?? []), ...data.persons.flatMap((p) => [p.name, ...(p.seat ?? [])]))
}

async function start(data: DocData & { guestName?: string }, title: string): Promise<Kit> {
  const { doc, regular, bold, fontFor } = await newPdf({ cjk: isCjkLanguage(data.language) || needsCjk(title) || dataNeedsCjk(data) })
  fontPickers.set(regular, fontFor)
  fontPickers.set(bold, fontFor)
  doc.setTitle(`${title}: ${data.eventTitle}`)
  doc.setAuthor(data.agencyName)
  doc.setCreator('einlass')
  doc.setProducer('einlass')
  doc.setLanguage(data.language ?? 'de')
  let logo: PDFImage | null = null
  if (data.logo) {
    try {
      if (data.logo.mime === 'image/png') logo = await doc.embedPng(data.logo.bytes)
      else if (data.logo.mime === 'image/jpeg') logo = await doc.embedJpg(data.logo.bytes)
    } catch {
      logo = null // a broken logo never costs the guest their ticket
    }
  }
  return { doc, regular, bold, fontFor, logo }
}

// pdf-lib yields to the event loop every 50 objects while saving (setTimeout); a ticket has a few
// dozen, so the pauses only let concurrent downloads interleave and each one wait longer.
const save = (kit: Kit) => kit.doc.save({ objectsPerTick: Number.POSITIVE_INFINITY })

/** Draws text lines from the top y down; returns the y below them. */
function text(page: PDFPage, lines: string | string[], x: number, y: number, base: PDFFont, size: number, opts: { color?: ReturnType<typeof rgb>; width?: number; center?: boolean } = {}): number {
  const width = opts.width ?? page.getWidth() - x - MARGIN
  const fontFor = fontPickers.get(base) ?? ((_t: string, f: PDFFont) => f)
  const all = (Array.isArray(lines) ? lines : [lines]).flatMap((l) => {
    const font = fontFor(l, base)
    return wrap(l, font, size, width).map((line) => ({ line, font }))
  })
  for (const { line: l, font } of all) {
    y -= size * 1.25
    const lx = opts.center ? x + (width - font.widthOfTextAtSize(l, size)) / 2 : x
    page.drawText(l, { x: lx, y, size, font, color: opts.color ?? INK })
  }
  return y
}

/** A QR code as dark squares, its top left corner at (x, top): one path of rectangles, filled once. */
export function drawQr(page: PDFPage, payload: string, x: number, top: number, size: number) {
  const qr = QRCode.create(payload, { errorCorrectionLevel: 'M' })
  const n = qr.modules.size
  const quiet = 4
  const cell = size / (n + 2 * quiet)
  page.drawRectangle({ x, y: top - size, width: size, height: size, color: rgb(1, 1, 1) })
  const data = qr.modules.data
  const ops: PDFOperator[] = [pushGraphicsState(), setFillingRgbColor(0, 0, 0)]
  for (let r = 0; r < n; r++) {
    // runs of dark modules in a row become one rectangle
    let c = 0
    while (c < n) {
      if (!data[r * n + c]) {
        c++
        continue
      }
      let end = c
      while (end < n && data[r * n + end]) end++
      ops.push(rectangle(x + (quiet + c) * cell, top - (quiet + r + 1) * cell, (end - c) * cell, cell * 1.02))
      c = end
    }
  }
  ops.push(fill(), popGraphicsState())
  page.pushOperators(...ops)
}

function header(kit: Kit, page: PDFPage, data: DocData, title: string): number {
  const [w, h] = [page.getWidth(), page.getHeight()]
  let y = h - MARGIN
  if (kit.logo) {
    const scale = Math.min(160 / kit.logo.width, 50 / kit.logo.height, 1)
    page.drawImage(kit.logo, { x: w - MARGIN - kit.logo.width * scale, y: y - kit.logo.height * scale, width: kit.logo.width * scale, height: kit.logo.height * scale })
  }
  y = text(page, title.toUpperCase(), MARGIN, y, kit.bold, 11, { color: MUTED, width: w - 2 * MARGIN - 170 })
  y = text(page, data.eventTitle, MARGIN, y - 6, kit.bold, 22, { width: w - 2 * MARGIN - (kit.logo ? 170 : 0) })
  if (data.subTitle) y = text(page, data.subTitle, MARGIN, y - 2, kit.regular, 13, { color: MUTED })
  return Math.min(y, h - MARGIN - 60) - 14
}

function facts(kit: Kit, page: PDFPage, data: DocData, y: number): number {
  const { t } = data
  const label = (s: string, yy: number) => text(page, s, MARGIN, yy, kit.bold, 10, { color: MUTED })
  y = label(t('documents.date'), y)
  y = text(page, data.dateText, MARGIN, y, kit.regular, 13)
  if (data.timeText) {
    y = label(t('documents.time'), y - 8)
    y = text(page, [data.timeText, t('documents.timezone', { tz: data.timezone })], MARGIN, y, kit.regular, 13)
  }
  y = label(t('documents.place'), y - 8)
  if (data.placeLines) y = text(page, data.placeLines, MARGIN, y, kit.regular, 13)
  else {
    y = text(page, t('documents.online'), MARGIN, y, kit.bold, 13)
    if (data.meetingUrl) y = text(page, t('documents.meetingUrl', { url: data.meetingUrl }), MARGIN, y, kit.regular, 11)
  }
  y = label(t('documents.organiser'), y - 8)
  return text(page, data.agencyName, MARGIN, y, kit.regular, 13) - 16
}

const personLabel = (t: DocData['t'], p: DocPerson) => (p.person === 0 ? t('documents.guest') : t('documents.escort', { n: p.person }))

/** The ticket: event, date and time in its zone, place or ONLINE, then one QR per person. */
export async function renderTicketPdf(data: DocData): Promise<Uint8Array> {
  const kit = await start(data, data.t('documents.ticket.title'))
  const { t } = data
  let page = kit.doc.addPage(A4)
  let y = header(kit, page, data, t('documents.ticket.title'))
  y = facts(kit, page, data, y)
  // French sets a (no-break) space before the colon
  if (data.ticketCode) y = text(page, `${t('documents.ticketCode')}${data.language === 'fr' ? '\u00a0' : ''}: ${data.ticketCode}`, MARGIN, y, kit.regular, 11, { color: MUTED }) - 6
  y = text(page, t('documents.qrHint'), MARGIN, y, kit.regular, 11, { color: MUTED }) - 10
  const QR = 150
  // a seat takes one more line under the name
  const slot = QR + (data.persons.some((p) => p.seat) ? 72 : 46)
  const perRow = 3
  for (let i = 0; i < data.persons.length; i++) {
    const col = i % perRow
    if (col === 0 && i > 0) y -= slot
    if (col === 0 && y - slot < MARGIN) {
      page = kit.doc.addPage(A4)
      y = header(kit, page, data, t('documents.ticket.title'))
    }
    const p = data.persons[i]
    const x = MARGIN + col * (QR + 22)
    drawQr(page, p.qr, x, y, QR)
    const below = text(page, p.category ? `${personLabel(t, p)} · ${p.category}` : personLabel(t, p), x, y - QR - 2, kit.regular, 9, { color: MUTED, width: QR })
    const under = text(page, p.name, x, below, kit.bold, 11, { width: QR })
    if (p.seat) text(page, p.seat, x, under, kit.regular, 9, { width: QR })
  }
  return save(kit)
}

/** Entry tickets (SYSTEM_COVIDOO): one page per person with a large QR. */
export async function renderEntryTicketPdf(data: DocData): Promise<Uint8Array> {
  const kit = await start(data, data.t('documents.entryTicket.title'))
  const { t } = data
  for (const p of data.persons) {
    const page = kit.doc.addPage(A4)
    let y = header(kit, page, data, t('documents.entryTicket.title'))
    y = facts(kit, page, data, y)
    const QR = 240
    drawQr(page, p.qr, (page.getWidth() - QR) / 2, y, QR)
    y = text(page, p.category ? `${personLabel(t, p)} · ${p.category}` : personLabel(t, p), MARGIN, y - QR - 6, kit.regular, 11, { color: MUTED, center: true })
    y = text(page, p.name, MARGIN, y, kit.bold, 18, { center: true })
    if (p.seat) y = text(page, p.seat.join(' · '), MARGIN, y, kit.bold, 14, { center: true })
    text(page, t('documents.entryHint'), MARGIN, y - 8, kit.regular, 11, { color: MUTED, center: true })
  }
  return save(kit)
}

/** Name tags: A4 with eight tags (2 × 4, 90 × 55 mm cut lines), one per person. */
export async function renderNameTagsPdf(data: DocData): Promise<Uint8Array> {
  const kit = await start(data, data.t('documents.nameTags.title'))
  const mm = 72 / 25.4
  const [tw, th] = [90 * mm, 55 * mm]
  const [cols, rows] = [2, 4]
  const x0 = (A4[0] - cols * tw) / 2
  const y0 = A4[1] - (A4[1] - rows * th) / 2
  let page: PDFPage | null = null
  data.persons.forEach((p, i) => {
    const slot = i % (cols * rows)
    if (slot === 0) page = kit.doc.addPage(A4)
    const pg = page!
    const x = x0 + (slot % cols) * tw
    const top = y0 - Math.floor(slot / cols) * th
    pg.drawRectangle({ x, y: top - th, width: tw, height: th, borderColor: rgb(0.75, 0.75, 0.78), borderWidth: 0.5, borderDashArray: [3, 3] })
    const QR = 84
    const inner = tw - 24 - QR
    let y = text(pg, data.eventTitle, x + 10, top - 6, kit.regular, 8, { color: MUTED, width: inner })
    y = text(pg, p.name, x + 10, y - 8, kit.bold, 16, { width: inner })
    text(pg, personLabel(data.t, p), x + 10, y - 2, kit.regular, 9, { color: MUTED, width: inner })
    drawQr(pg, p.qr, x + tw - QR - 6, top - (th - QR) / 2, QR)
  })
  return save(kit)
}

/** The invitation: the event and a link to answer in the guest's dashboard. */
export async function renderInvitationPdf(data: DocData & { guestName: string }): Promise<Uint8Array> {
  const kit = await start(data, data.t('documents.invitation.title'))
  const { t } = data
  const page = kit.doc.addPage(A4)
  let y = header(kit, page, data, t('documents.invitation.title'))
  y = text(page, data.guestName, MARGIN, y, kit.bold, 14)
  y = text(page, t('documents.invitation.greeting'), MARGIN, y - 4, kit.regular, 13) - 16
  y = facts(kit, page, data, y)
  text(page, t('documents.invitation.respond', { url: data.dashboardUrl }), MARGIN, y, kit.regular, 11)
  return save(kit)
}
