// Ticket codes (docs/organiser.md, "Check-in"): 10 characters of Crockford's base32, random per
// registration, unique, shown as XXXXX-XXXXX and put into the QR code. Created on first use so
// registrations made by any module get one without knowing about it.
import type { Db } from '../../db/database'

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

export function newTicketCode(): string {
  const bytes = new Uint8Array(10)
  crypto.getRandomValues(bytes)
  let s = ''
  for (const b of bytes) s += ALPHABET[b & 31]
  return s
}

export const formatTicketCode = (code: string) => `${code.slice(0, 5)}-${code.slice(5)}`

export async function ensureTicketCode(db: Db, visitorId: number): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await db.selectFrom('event_visitor').select('ticket_code').where('id', '=', visitorId).executeTakeFirstOrThrow()
    if (current.ticket_code) return current.ticket_code
    try {
      // only fills an empty code: two callers at once end with the same, first code
      await db.updateTable('event_visitor').set({ ticket_code: newTicketCode() }).where('id', '=', visitorId).where('ticket_code', 'is', null).execute()
    } catch {
      // unique clash with another registration's code (1 in 2^50): try a new one
    }
  }
  throw new Error('could not create a ticket code')
}
