// The guest's documents behind /proxy/api/download/{token}[/{document}]: which token, which
// registration, which document, and the data each builder needs (docs/guest-portal.md "Documents").
import { createHash } from 'node:crypto'
import type { AppContext } from '../../context'
import { formatTime } from '../../i18n/format'
import { formatDateIn, personNameIn } from '../../i18n/locale-format'
import { t as translate } from '../../i18n/catalogue'
import { AppError, notFound } from '../../shared/errors'
import { findAsset, variantBytes } from '../assets/service'
import { ticketsByPosition } from '../checkin/list-checkin'
import { signTicketCode } from '../checkin/signed-code'
import { ensureTicketCode, formatTicketCode } from '../checkin/ticket'
import { BLOCK_ERROR, type TicketBlock, ticketBlock } from '../checkin/ticket-validity'
import { localisedEvent } from '../events/translations'
import type { EventRow } from '../events/events.table'
import { ENTRY_PASS_FEATURE } from '../identity/dto'
import { placesOfVisitor } from '../seating/holds'
import type { EscortPersonRow, EventVisitorRow } from '../visitors/visitors.table'
import type { DocumentSettingsRow } from './documents.table'
import { renderIcs } from './ics'
import type { DocData, Logo } from './pdf'
import { downloadPath, INVITATION_STATUSES, isRegistered, TOKEN_SHAPE } from './tokens'
import type { WalletData } from './wallet'
import { countryNameIn as countryName } from '../forms/country-names'

// loaded on first use (issue 25): pdf-lib, fontkit and qrcode are not evaluated at start
import type * as Pdf from './pdf'
const renderEntryTicketPdf: typeof Pdf.renderEntryTicketPdf = async (...a) => (await import('./pdf')).renderEntryTicketPdf(...(a as Parameters<typeof Pdf.renderEntryTicketPdf>))
const renderInvitationPdf: typeof Pdf.renderInvitationPdf = async (...a) => (await import('./pdf')).renderInvitationPdf(...(a as Parameters<typeof Pdf.renderInvitationPdf>))
const renderNameTagsPdf: typeof Pdf.renderNameTagsPdf = async (...a) => (await import('./pdf')).renderNameTagsPdf(...(a as Parameters<typeof Pdf.renderNameTagsPdf>))
const renderTicketPdf: typeof Pdf.renderTicketPdf = async (...a) => (await import('./pdf')).renderTicketPdf(...(a as Parameters<typeof Pdf.renderTicketPdf>))
// passkit-generator likewise
import type * as Wallet from './wallet'
const applePass: typeof Wallet.applePass = async (...a) => (await import('./wallet')).applePass(...(a as Parameters<typeof Wallet.applePass>))
const googleSaveUrl: typeof Wallet.googleSaveUrl = async (...a) => (await import('./wallet')).googleSaveUrl(...(a as Parameters<typeof Wallet.googleSaveUrl>))

export type TokenKind = 'PDF' | 'ICS' | 'WALLET'
export const PDF_DOCUMENTS = ['ticket', 'entryTicket', 'nameTags', 'invitation'] as const
export type PdfDocument = (typeof PDF_DOCUMENTS)[number]

export interface Download {
  body: Uint8Array | string
  contentType: string
  fileName: string
}

interface Resolved {
  kind: TokenKind
  v: EventVisitorRow
  event: EventRow
  agency: { id: number; display_name: string; logo_asset_id: number | null }
}

/** A token's registration; unknown tokens and those of deleted or declined registrations or events answer 404. */
async function resolve(ctx: AppContext, token: string): Promise<Resolved> {
  if (!TOKEN_SHAPE.test(token)) throw notFound()
  const v = await ctx.db
    .selectFrom('event_visitor')
    .selectAll()
    .where((eb) => eb.or([eb('download_token', '=', token), eb('download_token_ics', '=', token), eb('download_token_wallet', '=', token)]))
    .executeTakeFirst()
  if (!v) throw notFound()
  const event = await ctx.db.selectFrom('event').selectAll().where('id', '=', v.event_id).executeTakeFirst()
  if (!event || event.status === 'DELETED') throw notFound()
  const agency = await ctx.db.selectFrom('agency').select(['id', 'display_name', 'logo_asset_id']).where('id', '=', event.agency_id).executeTakeFirstOrThrow()
  const kind: TokenKind = v.download_token === token ? 'PDF' : v.download_token_ics === token ? 'ICS' : 'WALLET'
  // the event's texts in the guest's language where the organiser translated them
  return { kind, v, event: await localisedEvent(ctx.db, event, v.language), agency }
}

/**
 * Why a registered guest's ticket is not valid (yet), from its latest ticket order and the event's
 * invoice setting (checkin/ticket-validity.ts); null for a valid ticket and for registrations without
 * an order.
 */
export async function ticketBlockOfVisitor(ctx: AppContext, visitorId: number, event: Pick<EventRow, 'invoice_tickets'>): Promise<{ block: TicketBlock; number: string } | null> {
  const o = await ctx.db.selectFrom('ticket_order').select(['status', 'payment_method', 'number']).where('visitor_id', '=', visitorId).orderBy('id', 'desc').limit(1).executeTakeFirst()
  const block = ticketBlock(o, event.invoice_tickets)
  return block ? { block, number: o!.number } : null
}

/** Refuses a ticket document (ticket, entry ticket, name tags, wallet) of a ticket that is not valid, saying why. */
export async function assertTicketValid(ctx: AppContext, visitorId: number, event: Pick<EventRow, 'invoice_tickets'>) {
  const b = await ticketBlockOfVisitor(ctx, visitorId, event)
  if (b) throw new AppError(409, BLOCK_ERROR[b.block], { params: { number: b.number } })
}

export async function download(ctx: AppContext, token: string, document?: string): Promise<Download | { redirect: string }> {
  const r = await resolve(ctx, token)
  const { kind, v } = r
  const registered = isRegistered(v.status)
  // the ticket documents exist only for a valid ticket (an order waiting for its money has none);
  // the calendar entry and the invitation are no tickets
  const ticketDocument = kind === 'WALLET' || (kind === 'PDF' && (document === undefined ? registered : document !== 'invitation'))
  if (registered && ticketDocument) await assertTicketValid(ctx, v.id, r.event)
  if (kind === 'ICS') {
    if (document || !registered) throw notFound()
    return icsDownload(ctx, r)
  }
  if (kind === 'WALLET') {
    if (!registered || ctx.license.features.includes(ENTRY_PASS_FEATURE)) throw notFound()
    const settings = await settingsOf(ctx, r.event.agency_id)
    if (!settings) throw notFound()
    if (document === 'google') {
      const url = await googleSaveUrl(ctx, settings, await walletData(ctx, r))
      if (!url) throw notFound()
      return { redirect: url }
    }
    if (document) throw notFound()
    const pass = await applePass(ctx, settings, await walletData(ctx, r))
    if (!pass) throw notFound()
    return { body: pass, contentType: 'application/vnd.apple.pkpass', fileName: translate(v.language, 'documents.file.pkpass', { event: r.event.display_name }) }
  }
  const entryPass = ctx.license.features.includes(ENTRY_PASS_FEATURE)
  const doc: PdfDocument | undefined = document === undefined ? (registered ? (entryPass ? 'entryTicket' : 'ticket') : 'invitation') : (PDF_DOCUMENTS as readonly string[]).includes(document) ? (document as PdfDocument) : undefined
  if (!doc) throw notFound()
  if (doc === 'invitation' ? !(INVITATION_STATUSES as readonly string[]).includes(v.status) : !registered) throw notFound()
  if (doc === 'ticket' && entryPass) throw notFound()
  return pdfDownload(ctx, r, doc)
}

/**
 * The ticket PDF of a registration, for the ticket order's mail (docs/ticketing.md, "Mails"): the
 * same document as the guest's download; null unless the registration is registered.
 */
export async function ticketPdfOfVisitor(ctx: AppContext, visitorId: number): Promise<Download | null> {
  const v = await ctx.db.selectFrom('event_visitor').selectAll().where('id', '=', visitorId).executeTakeFirst()
  if (!v || !isRegistered(v.status)) return null
  const event = await ctx.db.selectFrom('event').selectAll().where('id', '=', v.event_id).executeTakeFirst()
  if (!event || event.status === 'DELETED') return null
  // no ticket before it is valid (a transfer's money, an invoice paid first when the event says so)
  if (await ticketBlockOfVisitor(ctx, v.id, event)) return null
  const agency = await ctx.db.selectFrom('agency').select(['id', 'display_name', 'logo_asset_id']).where('id', '=', event.agency_id).executeTakeFirstOrThrow()
  return pdfDownload(ctx, { kind: 'PDF', v, event: await localisedEvent(ctx.db, event, v.language), agency }, ctx.license.features.includes(ENTRY_PASS_FEATURE) ? 'entryTicket' : 'ticket')
}

const personName = (p: { title: string | null; first_name: string | null; last_name: string | null }, lang = 'de') => personNameIn(lang, { title: p.title, first: p.first_name, last: p.last_name })

function placeLines(e: EventRow, language: string): string[] | null {
  if (e.event_type === 'ONLINE') return null
  const street = [e.street, e.street_number].filter(Boolean).join(' ')
  const city = [e.post_code, e.city].filter(Boolean).join(' ')
  // the country's name in the reader's language, never the stored code ("Deutschland", not "DEU")
  return [e.location_name, street, city, e.country ? countryName(e.country, language) : null].filter((x): x is string => Boolean(x))
}

async function settingsOf(ctx: AppContext, agencyId: number): Promise<DocumentSettingsRow | undefined> {
  return ctx.db.selectFrom('document_settings').selectAll().where('agency_id', '=', agencyId).executeTakeFirst()
}

/** The documents' own logo (document settings), else the agency's logo (agency/branding.ts). */
const logoAssetOf = (settings: DocumentSettingsRow | undefined, r: Resolved) => settings?.logo_asset_id ?? r.agency.logo_asset_id ?? null

async function logoOf(ctx: AppContext, assetId: number | null, agencyId: number): Promise<Logo | null> {
  if (!assetId) return null
  try {
    const a = await findAsset(ctx.db, assetId)
    if (a.agency_id !== agencyId) return null
    const { data, mime } = await variantBytes(ctx, a, 'Regular_400')
    return { bytes: data, mime }
  } catch {
    return null
  }
}

async function escortsOf(ctx: AppContext, v: EventVisitorRow): Promise<EscortPersonRow[]> {
  return ctx.db.selectFrom('escort_person').selectAll().where('visitor_id', '=', v.id).orderBy('number').execute()
}

function eventTexts(ctx: AppContext, r: Resolved) {
  const e = r.event
  const lang = r.v.language
  const tz = e.timezone
  const startDay = formatDateIn(lang, e.start_date, tz)
  const endDay = formatDateIn(lang, e.end_date, tz)
  return {
    t: (key: string, params?: Record<string, string | number>) => translate(lang, key, params),
    eventTitle: e.display_name,
    subTitle: e.sub_title,
    agencyName: r.agency.display_name,
    dateText: startDay === endDay ? startDay : `${startDay} – ${endDay}`,
    timeText: translate(lang, 'documents.timeRange', { start: formatTime(e.start_date, tz), end: formatTime(e.end_date, tz) }),
    timezone: tz,
    placeLines: placeLines(e, lang),
    meetingUrl: e.meeting_url,
    dashboardUrl: `${ctx.config.baseUrl}/guest/dashboard`,
    language: lang,
  }
}

/** ["Großer Saal", "Reihe A · Platz 12"] from a label of row and number ("A 12"); other labels as they are (["Großer Saal", "Tisch 3"]). */
export function seatText(language: string, p: { area: string; label: string }): string[] {
  const m = /^(\S+)\s+(\d+\S*)$/.exec(p.label.trim())
  const place = m && !/^(tisch|table|loge|box)$/i.test(m[1]) ? translate(language, 'documents.seat.rowSeat', { row: m[1], seat: m[2] }) : p.label
  return [p.area, place]
}

/** Main guest and escorts, each with a signed QR payload (checkin/signed-code.ts). */
async function persons(ctx: AppContext, r: Resolved) {
  const code = await ensureTicketCode(ctx.db, r.v.id)
  const sign = (person: number) => signTicketCode(ctx.secrets.signingKey, { eventId: r.event.id, visitorId: r.v.id, person, ticketCode: code })
  const [escorts, places, tickets] = await Promise.all([r.v.visitor_count > 1 ? escortsOf(ctx, r.v) : Promise.resolve([]), placesOfVisitor(ctx.db, r.v.id), ticketsOfVisitor(ctx, r.v)])
  // the seating plan's places in seat order, one per person (main guest first)
  const seat = (i: number) => (places[i] ? seatText(r.v.language, places[i]) : null)
  // an order of several ticket categories names each person's own (the one a check-in list admits by)
  const mixed = new Set(tickets.map((x) => x.categoryId)).size > 1
  const category = (i: number) => (mixed ? (tickets[i]?.name ?? null) : null)
  return {
    code,
    list: [
      { person: 0, name: personName(r.v, r.v.language), qr: sign(0), seat: seat(0), category: category(0) },
      ...escorts.map((e, i) => ({ person: e.number, name: personName(e, r.v.language) || translate(r.v.language, 'documents.escort', { n: e.number }), qr: sign(e.number), seat: seat(i + 1), category: category(i + 1) })),
    ],
  }
}

/** The tickets of the registration's latest order by person position (checkin/list-checkin.ts ticketsByPosition). */
async function ticketsOfVisitor(ctx: AppContext, v: EventVisitorRow) {
  if (v.visitor_count < 2) return []
  const o = await ctx.db.selectFrom('ticket_order').select('id').where('visitor_id', '=', v.id).orderBy('id', 'desc').limit(1).executeTakeFirst()
  return o ? ticketsByPosition(ctx.db, o.id) : []
}

// Rendered PDFs by everything that goes into them (the key is a hash of the builder's input, so a
// changed name, event or logo is a new key and nothing stale can be served): a guest opening their
// ticket again, or a burst after a reminder mail, costs a few queries instead of a render (~15 ms of
// CPU). Bounded by bytes.
const RENDER_CACHE_BYTES = 32 * 1024 * 1024
const rendered = new Map<string, Uint8Array>()
let renderedBytes = 0
function remember(key: string, body: Uint8Array) {
  if (body.byteLength > RENDER_CACHE_BYTES / 8) return
  while (renderedBytes + body.byteLength > RENDER_CACHE_BYTES && rendered.size) {
    const [oldest, b] = rendered.entries().next().value as [string, Uint8Array]
    rendered.delete(oldest)
    renderedBytes -= b.byteLength
  }
  rendered.set(key, body)
  renderedBytes += body.byteLength
}

async function pdfDownload(ctx: AppContext, r: Resolved, doc: PdfDocument): Promise<Download> {
  const settings = await settingsOf(ctx, r.event.agency_id)
  const people = doc === 'invitation' ? null : await persons(ctx, r)
  const base = { ...eventTexts(ctx, r), ticketCode: people ? formatTicketCode(people.code) : null, persons: people?.list ?? [] }
  const fileName = translate(r.v.language, `documents.file.${doc}`, { event: r.event.display_name })
  const key = createHash('sha256')
    .update(JSON.stringify([doc, r.v.language, personName(r.v), logoAssetOf(settings, r), settings?.updated_at ?? null, { ...base, t: undefined }]))
    .digest('base64')
  const hit = rendered.get(key)
  if (hit) {
    // most recently used last
    rendered.delete(key)
    rendered.set(key, hit)
    return { body: hit, contentType: 'application/pdf', fileName }
  }
  const data: DocData = { ...base, logo: await logoOf(ctx, logoAssetOf(settings, r), r.event.agency_id) }
  const body =
    doc === 'ticket'
      ? await renderTicketPdf(data)
      : doc === 'entryTicket'
        ? await renderEntryTicketPdf(data)
        : doc === 'nameTags'
          ? await renderNameTagsPdf(data)
          : await renderInvitationPdf({ ...data, guestName: personName(r.v) })
  remember(key, body)
  return { body, contentType: 'application/pdf', fileName }
}

function icsDownload(ctx: AppContext, r: Resolved): Download {
  const texts = eventTexts(ctx, r)
  const host = new URL(ctx.config.baseUrl).hostname
  const location = texts.placeLines ? texts.placeLines.join(', ') : [translate(r.v.language, 'documents.online'), r.event.meeting_url].filter(Boolean).join(' ')
  const body = renderIcs({
    uid: `einlass-${r.v.id}-${r.event.id}@${host}`,
    sequence: r.event.calendar_sequence,
    stamp: ctx.clock.now(),
    start: new Date(r.event.start_date),
    end: new Date(r.event.end_date),
    timezone: r.event.timezone,
    summary: r.event.display_name,
    description: [r.event.sub_title, translate(r.v.language, 'documents.ics.link', { url: texts.dashboardUrl })].filter(Boolean).join('\n'),
    location,
    url: texts.dashboardUrl,
    organiser: r.agency.display_name,
  })
  return { body, contentType: 'text/calendar; charset=utf-8', fileName: translate(r.v.language, 'documents.file.ics', { event: r.event.display_name }) }
}

async function walletData(ctx: AppContext, r: Resolved): Promise<WalletData> {
  const texts = eventTexts(ctx, r)
  const code = await ensureTicketCode(ctx.db, r.v.id)
  return {
    serial: `einlass-${r.v.id}`,
    eventId: r.event.id,
    eventTitle: r.event.display_name,
    agencyName: r.agency.display_name,
    start: new Date(r.event.start_date),
    end: new Date(r.event.end_date),
    dateText: texts.dateText,
    timeText: texts.timeText,
    place: texts.placeLines ? texts.placeLines.join(', ') : translate(r.v.language, 'documents.online'),
    guestName: personName(r.v),
    persons: r.v.visitor_count,
    qr: signTicketCode(ctx.secrets.signingKey, { eventId: r.event.id, visitorId: r.v.id, person: 0, ticketCode: code }),
    color: r.event.primary_color,
    dashboardUrl: texts.dashboardUrl,
    t: texts.t,
  }
}

/** Who asks for an invitation: the registration's guest, or an organiser of the event's agency. */
export interface InvitationCaller {
  guestUserId: number | null
  organiserAgencyId: number | null
}

/**
 * prepareDownloadInvitation (the download dialog: pending, then a download button): renders the
 * invitation PDF into the render cache while the dialog shows its pending state, then answers DONE
 * with the link its button opens (which then serves the rendered file). The registration's guest or
 * an organiser of its agency (the guest detail); anyone else, declined or deleted registrations and
 * deleted events: 404.
 */
export async function prepareInvitation(ctx: AppContext, caller: InvitationCaller, visitorId: number) {
  const v = await ctx.db.selectFrom('event_visitor').selectAll().where('id', '=', visitorId).executeTakeFirst()
  if (!v || !(INVITATION_STATUSES as readonly string[]).includes(v.status)) throw notFound()
  const event = await ctx.db.selectFrom('event').selectAll().where('id', '=', v.event_id).executeTakeFirst()
  if (!event || event.status === 'DELETED') throw notFound()
  const own = caller.guestUserId != null && v.user_id === caller.guestUserId
  if (!own && caller.organiserAgencyId !== event.agency_id) throw notFound()
  const agency = await ctx.db.selectFrom('agency').select(['id', 'display_name', 'logo_asset_id']).where('id', '=', event.agency_id).executeTakeFirstOrThrow()
  await pdfDownload(ctx, { kind: 'PDF', v, event: await localisedEvent(ctx.db, event, v.language), agency }, 'invitation')
  return { status: 'DONE' as const, pending: false, downloadToken: v.download_token, downloadLink: downloadPath(v.download_token, 'invitation') }
}
