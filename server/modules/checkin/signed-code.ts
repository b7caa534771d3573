// Signed ticket QR payloads (issue 11, docs/guest-portal.md "Documents"): the visitor id, the person
// and the event, with an HMAC-SHA256 under a per-event key derived from the data dir's signing key
// (secrets.json). A desk can tell a forged code from a real one without reading the database, which
// is also what an offline scanner that holds the event's key needs.
//
//   E1-<event>-<visitor>-<person>-<generation>-<mac>     e.g. E1-1A-3F9-0-K2M7-8XQ4W0ZJ9R1B5T6C
//
// Numbers in Crockford base32 (upper case and '-' only, so the QR uses the compact alphanumeric mode);
// <generation> is 4 characters of a hash of the registration's ticket code, so a new ticket code
// (a place passed to someone else) retires every QR printed before; <mac> is 80 bits of the HMAC over
// everything before it.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const VALUE: Record<string, number> = Object.fromEntries([...ALPHABET].map((c, i) => [c, i]))
const MAC_CHARS = 16
/** what a signed code looks like; anything else is a plain ticket code (or nothing) */
const SHAPE = /^E1-([0-9A-Z]{1,7})-([0-9A-Z]{1,7})-([0-9A-Z]{1,2})-([0-9A-Z]{4})-([0-9A-Z]{16})$/

export interface SignedCode {
  eventId: number
  visitorId: number
  /** 0 = main guest, n = escort person n */
  person: number
  /** must equal generationOf(ticket_code) of the registration */
  generation: string
}

function encodeNumber(n: number): string {
  let s = ''
  do {
    s = ALPHABET[n % 32] + s
    n = Math.floor(n / 32)
  } while (n > 0)
  return s
}

function decodeNumber(s: string): number | null {
  if (s.length > 1 && s[0] === '0') return null // one spelling per number
  let n = 0
  for (const c of s) {
    const v = VALUE[c]
    if (v === undefined) return null
    n = n * 32 + v
  }
  return Number.isSafeInteger(n) ? n : null
}

function base32(bytes: Uint8Array, chars: number): string {
  let out = ''
  let buffer = 0
  let bits = 0
  for (let i = 0; i < bytes.length && out.length < chars; i++) {
    buffer = ((buffer << 8) | bytes[i]) & 0xfff
    bits += 8
    while (bits >= 5 && out.length < chars) {
      bits -= 5
      out += ALPHABET[(buffer >> bits) & 31]
    }
  }
  return out
}

// Per-event keys, derived once per process (one HMAC each), bounded.
const keys = new Map<string, Buffer>()
function eventKey(signingKey: string, eventId: number): Buffer {
  const id = `${signingKey}:${eventId}`
  let k = keys.get(id)
  if (!k) {
    if (keys.size > 10_000) keys.clear()
    k = createHmac('sha256', Buffer.from(signingKey, 'base64')).update(`einlass:ticket-qr:${eventId}`).digest()
    keys.set(id, k)
  }
  return k
}

/** The event's key as the signature needs it (for an offline scanner holding one event's key). */
export const ticketKeyOfEvent = eventKey

export const generationOf = (ticketCode: string) => base32(createHash('sha256').update(ticketCode).digest(), 4)

const macOf = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest()

export function signTicketCode(signingKey: string, c: { eventId: number; visitorId: number; person: number; ticketCode: string }): string {
  const body = `E1-${encodeNumber(c.eventId)}-${encodeNumber(c.visitorId)}-${encodeNumber(c.person)}-${generationOf(c.ticketCode)}`
  return `${body}-${base32(macOf(eventKey(signingKey, c.eventId), body), MAC_CHARS)}`
}

/** Whether the text has the shape of a signed code (then it is judged only as one). */
export const looksSigned = (raw: string) => raw.trim().toUpperCase().startsWith('E1-')

/** The signed code's content, or null when it is malformed or its signature does not match. Pure: no I/O. */
export function verifyTicketCode(signingKey: string, raw: string): SignedCode | null {
  const m = SHAPE.exec(raw.trim().toUpperCase())
  if (!m) return null
  const eventId = decodeNumber(m[1])
  const visitorId = decodeNumber(m[2])
  const person = decodeNumber(m[3])
  if (eventId == null || visitorId == null || person == null) return null
  const body = `E1-${m[1]}-${m[2]}-${m[3]}-${m[4]}`
  const expected = Buffer.from(base32(macOf(eventKey(signingKey, eventId), body), MAC_CHARS))
  const given = Buffer.from(m[5])
  if (!timingSafeEqual(expected, given)) return null
  return { eventId, visitorId, person, generation: m[4] }
}

/**
 * What a hand scanner may have typed for a code (issue 20 A): scanners type the QR's text as key
 * presses in their own keyboard layout, and one set to US English typing into a German layout sends
 * 'ß' for '-' and swaps Y and Z. The spellings to try, the typed one first; 'ß' is always read as '-'
 * (neither code alphabet has it). The Y/Z swap is tried only when the typed text does not verify
 * (signed) or find a code: an 80-bit MAC or a unique code cannot match by accident.
 */
export function scanSpellings(raw: string): string[] {
  const typed = raw.trim().replace(/ß/g, '-').toUpperCase()
  const swapped = typed.replace(/[YZ]/g, (c) => (c === 'Y' ? 'Z' : 'Y'))
  return swapped === typed ? [typed] : [typed, swapped]
}
