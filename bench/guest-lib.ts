// Shared by the guest benchmarks: a guest with registrations for many events (registered through the
// public API, as a guest does), logged in by an access token written straight into the SQLite file
// (the token a confirmation mail's link carries), and download tokens of the ticket PDF's shape.
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { newToken } from '../server/modules/identity/tokens'
import { type Running, createEventVia } from './organiser-lib'

export const GUEST_EMAIL = 'gast.viele@bench.example'

/** Registers one guest for `events` events; answers the guest's user id and an access token (x-guest-token, or ?token= in the dashboard link). */
export async function guestWithEvents(s: Running, events: number): Promise<{ userId: number; token: string; eventIds: number[] }> {
  const eventIds: number[] = []
  for (let i = 0; i < events; i++) {
    const start = new Date(Date.now() + (i + 1) * 86400_000)
    const id = await createEventVia(s, { displayName: `Veranstaltung ${i + 1}`, maxVisitors: null, startDate: start.toISOString(), endDate: new Date(start.getTime() + 4 * 3600_000).toISOString() })
    const r = await fetch(`${s.url}/proxy/api/public/events/${id}/registrations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ salutation: 'Frau', firstName: 'Greta', lastName: 'Vielgast', email: GUEST_EMAIL }) })
    if (r.status !== 201) throw new Error(`registration ${i}: ${r.status} ${await r.text()}`)
    eventIds.push(id)
  }
  const db = new Database(join(s.dataDir, 'einlass.sqlite'))
  db.exec('pragma busy_timeout = 10000')
  const users = db.query('select distinct user_id from event_visitor where email = ?').all(GUEST_EMAIL) as Array<{ user_id: number }>
  if (users.length !== 1) throw new Error(`the guest's registrations belong to ${users.length} users`)
  const userId = users[0].user_id
  const t = newToken()
  const now = new Date()
  db.query("insert into access_token (id, secret_hash, user_id, purpose, data, max_uses, created_at, expires_at) values (?, ?, ?, 'GUEST_ACCESS', null, null, ?, ?)").run(t.id, t.secretHash, userId, now.toISOString(), new Date(now.getTime() + 86400_000).toISOString())
  db.close()
  return { userId, token: t.token, eventIds }
}

const B32 = 'abcdefghijklmnopqrstuvwxyz234567'
/** A download token of the shape documents/tokens.ts accepts ([a-z2-7]{16,64}), distinct per n. */
export function downloadToken(n: number) {
  let s = ''
  do {
    s = B32[n % 32] + s
    n = Math.floor(n / 32)
  } while (n > 0)
  return `bench${s.padStart(16, 'a')}`
}
