// Three einlass processes on one Postgres, each started with its own empty data dir, requests spread
// over them (docs/operations.md "Several processes"): what one process made (a guest link in a mail,
// a signed QR code, a login and its two-factor step, an encrypted 2FA seed) works on the others,
// because the install's secrets live in the database (server/install-state.ts), not in a data dir.
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import * as OTPAuth from 'otpauth'
import { eventBody, postgresAvailable } from '../testing/harness'
import { linkIn } from '../testing/smtp-sink'
import { processesOnPostgres } from '../testing/two-processes'
import { RATE_LIMITS } from '../modules/identity/rate-limit'

const totp = (secret: string, at: number) => OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at })
const cookieOf = (r: Response) => r.headers.getSetCookie().find((c) => c.startsWith('einlass_session='))!.split(';')[0]

describe.if(postgresAvailable())('three processes on one Postgres, each with an empty data dir', () => {
  const procs = processesOnPostgres(3, { smtp: true })
  let admin = ''
  let eventId = 0
  const [p1, p2, p3] = [0, 1, 2].map((i) => () => procs().all[i])

  test('the secrets are created once, in the database; no process keeps them in its data dir', async () => {
    admin = await procs().setupAgency('admin@drei-prozesse.example')
    const rows = await procs().query("select name from install_state where name = 'secrets'")
    expect(rows).toHaveLength(1)
    for (const s of procs().all) expect(existsSync(join(s.dataDir, 'secrets.json'))).toBe(false)
  })

  test('a guest link mailed by process 1 opens on process 2; the QR code signed on 1 is accepted at the desk on 3', async () => {
    const { send, smtp } = procs()
    const e = await send(p2(), 'POST', '/proxy/api/events', eventBody({ maxVisitors: 20 }), { cookie: admin })
    expect(e.status).toBe(201)
    eventId = (await e.json()).id
    const email = 'grete@drei-prozesse.example'
    const reg = await send(p1(), 'POST', `/proxy/api/public/events/${eventId}/registrations`, { salutation: 'Frau', firstName: 'Grete', lastName: 'Gast', email })
    expect(reg.status).toBe(201)
    const mail = await smtp!.waitFor((m) => m.to.includes(email), 15_000)
    const link = new URL(linkIn(mail, 'token='))
    expect(link.origin).toBe(p1().url)
    // the same link, opened on process 2
    const opened = await fetch(`${p2().url}${link.pathname}${link.search}`, { redirect: 'manual' })
    expect(opened.status).toBe(302)
    const guest = cookieOf(opened)
    const events = await send(p3(), 'GET', '/proxy/api/guest/events', undefined, { cookie: guest })
    expect(events.status).toBe(200)
    const visitor = (await procs().query('select id from event_visitor where email = $1', [email]))[0].id as number
    const ticket = await send(p1(), 'GET', `/proxy/api/guest/events/visitors/${visitor}/ticket`, undefined, { cookie: guest })
    expect(ticket.status).toBe(200)
    const { qrPayload } = await ticket.json()
    expect(qrPayload).toStartWith('E1-')
    const found = await send(p3(), 'GET', `/proxy/api/events/${eventId}/checkin/lookup?code=${encodeURIComponent(qrPayload)}`, undefined, { cookie: admin })
    expect(found.status).toBe(200)
    expect((await found.json()).items[0]).toMatchObject({ id: visitor, scannedPerson: 0 })
    const checkin = await send(p3(), 'POST', `/proxy/api/events/${eventId}/checkin`, { code: qrPayload, checkinGuests: 'ALL', nonce: `cluster-${Date.now()}` }, { cookie: admin })
    expect(checkin.status).toBe(200)
    // and on process 2 the desk sees it checked in
    const again = await send(p2(), 'POST', `/proxy/api/events/${eventId}/checkin`, { code: qrPayload, checkinGuests: 'ALL', nonce: `cluster-${Date.now()}-2` }, { cookie: admin })
    expect(again.status).toBe(409)
  }, 60_000)

  test('a 2FA seed sealed on 1 is linked on 2; login on 3 asks for the code, the step on 1 completes it, the session works on 2', async () => {
    const { send } = procs()
    const added = await send(p1(), 'POST', '/proxy/api/user-tfa', { twoFactorType: 'OTP', displayName: 'Handy', accountPassword: 'Geheim123!' }, { cookie: admin })
    expect(added.status).toBe(200)
    const { id, secret } = await added.json()
    const now = Date.now()
    const linked = await send(p2(), 'POST', `/proxy/api/user-tfa/${id}/link`, { token: totp(secret, now) }, { cookie: admin })
    expect(linked.status).toBe(200)
    const step1 = await send(p3(), 'POST', '/auth/login', { email: 'admin@drei-prozesse.example', password: 'Geheim123!' })
    expect(step1.status).toBe(200)
    expect(await step1.json()).toMatchObject({ tfaRequired: true })
    const half = cookieOf(step1)
    expect((await send(p2(), 'GET', '/proxy/userDetails', undefined, { cookie: half })).status).toBe(401)
    // the next 30 s step's code (a code is used once; the window accepts one step ahead)
    const step2 = await send(p1(), 'POST', '/auth/login/tfa', { token: totp(secret, now + 30_000) }, { cookie: half })
    expect(step2.status).toBe(200)
    const full = step2.headers.getSetCookie().length ? cookieOf(step2) : half
    expect((await send(p2(), 'GET', '/proxy/userDetails', undefined, { cookie: full })).status).toBe(200)
  }, 30_000)

  // every per-process cache of what organisers change is checked against the database at each use
  // (a counter row raised by triggers, or the event's form version): a change made on one process is
  // in force on the others at their next request, not after a timeout
  const guestBody = (email: string, extra: Record<string, unknown> = {}) => ({ salutation: 'Herr', firstName: 'Max', lastName: 'Muster', email, ...extra })
  const newEvent = async (name: string) => {
    const e = await procs().send(p1(), 'POST', '/proxy/api/events', eventBody({ displayName: name, maxVisitors: 50 }), { cookie: admin })
    expect(e.status).toBe(201)
    return (await e.json()).id as number
  }

  test('cache of form definitions: a required field added on 1 is asked for on 2 at its next registration', async () => {
    const { send } = procs()
    const id = await newEvent('Formular-Fest')
    expect((await send(p2(), 'POST', `/proxy/api/public/events/${id}/registrations`, guestBody('form1@drei-prozesse.example'))).status).toBe(201)
    const field = await send(p1(), 'POST', `/proxy/api/events/${id}/fields`, { type: 'YES_NO', displayName: 'Mit Übernachtung?', appearance: 'REQUIRED' }, { cookie: admin })
    expect(field.status).toBe(201)
    const refused = await send(p2(), 'POST', `/proxy/api/public/events/${id}/registrations`, guestBody('form2@drei-prozesse.example'))
    expect(refused.status).toBe(400)
    expect((await refused.json()).errorFields?.length).toBeGreaterThan(0)
  })

  test("cache of agreements ('setup' counter): a REQUIRED agreement added on 1 stops the desk on 3 at its next scan", async () => {
    const { send } = procs()
    const id = await newEvent('Einwilligungs-Fest')
    const codes: string[] = []
    for (const name of ['Erste', 'Zweite']) {
      const g = await send(p2(), 'POST', `/proxy/api/events/${id}/visitors`, { firstName: name, lastName: 'Gast', status: 'CONFIRMED' }, { cookie: admin })
      expect(g.status).toBe(201)
      codes.push((await (await send(p2(), 'GET', `/proxy/api/events/${id}/visitors/${(await g.json()).id}`, undefined, { cookie: admin })).json()).ticketCode)
    }
    const scan = (code: string) => send(p3(), 'POST', `/proxy/api/events/${id}/checkin`, { code, checkinGuests: 'ALL', nonce: `agr-${code}` }, { cookie: admin })
    expect((await scan(codes[0])).status).toBe(200)
    const a = await send(p1(), 'POST', '/proxy/api/agreements', { displayName: 'Foto-Einwilligung', validity: 'EVENT', eventId: id, appearance: 'REQUIRED' }, { cookie: admin })
    expect(a.status).toBeLessThan(300)
    const refused = await scan(codes[1])
    expect(refused.status).toBe(409)
    expect((await refused.json()).errorType).toBe('AGREEMENTS_MISSING')
  })

  test("cache of notification recipients ('recipients' counter): subscribing on 1 makes 3's next registration mail the organiser", async () => {
    const { send, smtp } = procs()
    const id = await newEvent('Benachrichtigungs-Fest')
    expect((await send(p3(), 'POST', `/proxy/api/public/events/${id}/registrations`, guestBody('note1@drei-prozesse.example'))).status).toBe(201)
    const sub = await send(p1(), 'PATCH', '/proxy/api/notifications?user=true', { notifications: [{ code: 'NEW_REGISTRATION', enabled: true }] }, { cookie: admin })
    expect(sub.status).toBe(200)
    expect((await send(p3(), 'POST', `/proxy/api/public/events/${id}/registrations`, guestBody('note2@drei-prozesse.example', { firstName: 'Zweiter' }))).status).toBe(201)
    const mail = await smtp!.waitFor((m) => m.to.includes('admin@drei-prozesse.example') && m.subject === 'Neue Anmeldung: Benachrichtigungs-Fest', 15_000)
    expect(mail.text).toContain('note2@drei-prozesse.example')
    // the registration before the change mailed nobody
    expect(smtp!.mails.filter((m) => m.subject === 'Neue Anmeldung: Benachrichtigungs-Fest' && m.text.includes('note1@'))).toEqual([])
  }, 30_000)

  test('the login rate limit counts attempts over all three processes together', async () => {
    const { send, at } = procs()
    const email = 'niemand@drei-prozesse.example'
    const max = RATE_LIMITS.LOGIN_ACCOUNT.max
    const statuses: number[] = []
    for (let i = 0; i < max + 3; i++) statuses.push((await send(at(i), 'POST', '/auth/login', { email, password: `Falsch${i}!Aa` })).status)
    expect(statuses.slice(max)).toEqual([429, 429, 429])
    expect(statuses.slice(0, max).every((s) => s !== 429)).toBe(true)
  }, 30_000)
})
