// Wallet passes, offered only when the agency set them up (document settings):
// - Apple Wallet: an eventTicket .pkpass made with passkit-generator, signed with the agency's Pass
//   Type ID certificate and key and Apple's WWDR intermediate.
// - Google Wallet: a "save to wallet" link holding a JWT (RS256, the service account's key) with the
//   event ticket class and the guest's object, so no call to Google is needed.
// Both carry the main guest's signed QR payload (checkin/signed-code.ts), which the desk accepts.
import { deflateSync } from 'node:zlib'
import { importPKCS8, SignJWT } from 'jose'
import { PKPass } from 'passkit-generator'
import type { AppContext } from '../../context'
import { open } from '../identity/secret-box'
import type { DocumentSettingsRow } from './documents.table'
import { walletOf } from './tokens'

/** What a ticket's wallet pass shows (documents/service.ts fills it from the guest and event). */
export interface WalletData {
  serial: string
  eventId: number
  eventTitle: string
  agencyName: string
  start: Date
  end: Date
  dateText: string
  timeText: string
  place: string
  guestName: string
  persons: number
  /** the main guest's signed QR payload */
  qr: string
  color: string | null
  dashboardUrl: string
  t: (key: string, params?: Record<string, string | number>) => string
}

// ---------------------------------------------------------------------------------------------
// Apple

/** The pass, or null when Apple Wallet is not set up for the agency. */
export async function applePass(ctx: AppContext, s: DocumentSettingsRow, d: WalletData): Promise<Buffer | null> {
  if (!walletOf(s).apple) return null
  const color = hexToRgb(d.color) ?? [31, 41, 55]
  const icon = solidPng(29, color)
  const icon2x = solidPng(58, color)
  const pass = new PKPass(
    { 'icon.png': icon, 'icon@2x.png': icon2x },
    {
      wwdr: s.apple_wwdr!,
      signerCert: s.apple_certificate!,
      signerKey: open(ctx.secrets, s.apple_key_sealed!),
      signerKeyPassphrase: s.apple_key_passphrase_sealed ? open(ctx.secrets, s.apple_key_passphrase_sealed) : undefined,
    },
    {
      serialNumber: d.serial,
      description: d.eventTitle,
      organizationName: d.agencyName,
      passTypeIdentifier: s.apple_pass_type_id!,
      teamIdentifier: s.apple_team_id!,
      backgroundColor: `rgb(${color.join(',')})`,
      foregroundColor: 'rgb(255,255,255)',
      labelColor: 'rgb(229,231,235)',
    },
  )
  pass.type = 'eventTicket'
  pass.primaryFields.push({ key: 'event', label: d.t('documents.wallet.event'), value: d.eventTitle })
  pass.secondaryFields.push({ key: 'date', label: d.t('documents.wallet.date'), value: `${d.dateText}, ${d.timeText}` }, { key: 'place', label: d.t('documents.wallet.place'), value: d.place })
  pass.auxiliaryFields.push({ key: 'guest', label: d.t('documents.wallet.guest'), value: d.guestName }, { key: 'persons', label: d.t('documents.wallet.persons'), value: d.persons })
  pass.backFields.push({ key: 'link', label: d.agencyName, value: d.dashboardUrl })
  pass.setBarcodes({ message: d.qr, format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1', altText: d.guestName })
  pass.setRelevantDate(d.start)
  pass.setExpirationDate(new Date(d.end.getTime() + 24 * 3600_000))
  return pass.getAsBuffer()
}

function hexToRgb(hex: string | null): [number, number, number] | null {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex ?? '')
  if (!m) return null
  const n = Number.parseInt(m[1], 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(buf: Buffer): number {
  let c = 0xffffffff
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(td))
  return Buffer.concat([len, td, crc])
}
/** A square PNG of one colour: the pass icon Apple requires (no image library needed). */
export function solidPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(size, 0)
  ihdr.writeUInt32BE(size, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  const row = Buffer.alloc(1 + size * 3)
  for (let x = 0; x < size; x++) row.set([r, g, b], 1 + x * 3)
  const raw = Buffer.concat(Array.from({ length: size }, () => row))
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))])
}

// ---------------------------------------------------------------------------------------------
// Google

/** Ids Google accepts: <issuer>.<suffix> with letters, digits, '.', '_' and '-'. */
const googleId = (issuer: string, suffix: string) => `${issuer}.${suffix.replace(/[^\w.-]/g, '_')}`

/** The save link, or null when Google Wallet is not set up for the agency. */
export async function googleSaveUrl(ctx: AppContext, s: DocumentSettingsRow, d: WalletData): Promise<string | null> {
  if (!walletOf(s).google) return null
  const issuer = s.google_issuer_id!
  const classId = googleId(issuer, `einlass-event-${d.eventId}`)
  const ticketClass = {
    id: classId,
    issuerName: d.agencyName,
    reviewStatus: 'UNDER_REVIEW',
    eventName: { defaultValue: { language: 'de', value: d.eventTitle } },
    venue: { name: { defaultValue: { language: 'de', value: d.place } }, address: { defaultValue: { language: 'de', value: d.place } } },
    dateTime: { start: d.start.toISOString(), end: d.end.toISOString() },
    ...(d.color ? { hexBackgroundColor: d.color } : {}),
  }
  const ticketObject = {
    id: googleId(issuer, d.serial),
    classId,
    state: 'ACTIVE',
    ticketHolderName: d.guestName,
    barcode: { type: 'QR_CODE', value: d.qr, alternateText: d.guestName },
    linksModuleData: { uris: [{ uri: d.dashboardUrl, description: d.agencyName }] },
  }
  const key = await importPKCS8(open(ctx.secrets, s.google_key_sealed!), 'RS256')
  const jwt = await new SignJWT({ origins: [ctx.config.baseUrl], typ: 'savetowallet', payload: { eventTicketClasses: [ticketClass], eventTicketObjects: [ticketObject] } })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(s.google_service_account!)
    .setAudience('google')
    .setIssuedAt(Math.floor(ctx.clock.now().getTime() / 1000))
    .sign(key)
  return `https://pay.google.com/gp/v/save/${jwt}`
}
