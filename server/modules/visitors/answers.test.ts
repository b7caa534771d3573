// Issue 10 items 4 and 17: the organiser reads the answers to their own questions (guest detail, a
// CSV column per field, counts per answer in the statistics), and the CSV export reads as German:
// status texts, times in the event's zone, the link's sort, a ticket code for every confirmed guest.
import { expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import { eventBody, forEachDialect, uniqueEmail } from '../../testing/harness'
import { addGuest } from '../../testing/organiser'
import { GUEST_ACCESS, issueAccessToken } from '../identity/access-tokens'

forEachDialect('answers for the organiser and the CSV export', (h) => {
  async function setup() {
    const admin = await h().admin()
    const ev = (await admin.post('/proxy/api/events', eventBody({ maxVisitors: 100 }))).body
    const add = async (f: Record<string, unknown>) => {
      const r = await admin.post(`/proxy/api/events/${ev.id}/fields`, f)
      expect(r.status).toBe(201)
      return r.body
    }
    const diet = await add({ type: 'LIST', displayName: 'Essen', values: ['Fleisch', 'Vegan'] })
    const hotel = await add({ type: 'YES_NO', displayName: 'Hotel benötigt' })
    const born = await add({ type: 'DATE', displayName: 'Anreisetag' })
    const meal = await add({ type: 'SMARTLIST', displayName: 'Menü', amountSelection: true, definedValues: [{ displayName: 'Vegane Bowl', capacity: 50 }, { displayName: 'Braten', capacity: 50 }] })
    return { admin, ev, diet, hotel, born, meal }
  }
  const register = (eventId: number, body: Record<string, unknown>) => h().request('POST', `/proxy/api/public/events/${eventId}/registrations`, { body })
  const csv = (text: string) => parse(text.replace(/^\uFEFF/, ''), { delimiter: ';', columns: true }) as Record<string, string>[]

  test('the guest detail shows every answer as the guest saw it', async () => {
    const { admin, ev, diet, hotel, born, meal } = await setup()
    const r = await register(ev.id, {
      salutation: 'Frau',
      firstName: 'Vera',
      lastName: 'Veganerin',
      email: uniqueEmail('vera'),
      fields: { [diet.id]: { selected: ['Vegan'], custom: null }, [hotel.id]: true, [born.id]: '2026-12-24', [meal.id]: [{ fieldValueId: meal.definedValues[0].id, amount: 2 }] },
    })
    expect(r.status).toBe(201)
    const d = await admin.get(`/proxy/api/events/${ev.id}/visitors/${r.body.visitorId}`)
    expect(d.status).toBe(200)
    expect(d.body.answers.map((a: any) => [a.label, a.value])).toEqual([
      ['Essen', 'Vegan'],
      ['Hotel benötigt', 'Ja'],
      ['Anreisetag', '24.12.2026'],
      ['Menü', '2 × Vegane Bowl'],
    ])
  })

  test('the export has a column per field, German statuses and times, the link’s sort and ticket codes', async () => {
    const { admin, ev, diet, hotel, born } = await setup()
    const a = await register(ev.id, { salutation: 'Frau', firstName: 'Anna', lastName: 'Zander', email: uniqueEmail('anna'), fields: { [diet.id]: { selected: ['Vegan'], custom: null }, [hotel.id]: false, [born.id]: '2026-12-24' } })
    expect(a.status).toBe(201)
    const b = await register(ev.id, { salutation: 'Herr', firstName: 'Bert', lastName: 'Adler', email: uniqueEmail('bert'), fields: { [diet.id]: { selected: ['Fleisch'], custom: null } } })
    expect(b.status).toBe(201)
    const invited = await addGuest(admin, ev.id, { firstName: 'Ina', lastName: 'Mitte' })
    expect((await admin.post(`/proxy/api/events/${ev.id}/visitors/${invited.id}/invite`, {})).status).toBe(200)
    // a registration at a known instant: 10:05 UTC is 11:05 in Berlin in winter
    await h().ctx.db.updateTable('event_visitor').set({ registered_at: '2026-01-15T10:05:00.000Z' }).where('id', '=', a.body.visitorId).execute()

    const byName = await admin.get(`/proxy/api/events/${ev.id}/visitors/export?sort=lastName&direction=asc`)
    expect(byName.status).toBe(200)
    const rows = csv(byName.text)
    expect(rows.map((x) => x.Nachname)).toEqual(['Adler', 'Mitte', 'Zander'])
    const desc = csv((await admin.get(`/proxy/api/events/${ev.id}/visitors/export?sort=lastName&direction=desc`)).text)
    expect(desc.map((x) => x.Nachname)).toEqual(['Zander', 'Mitte', 'Adler'])

    const anna = rows.find((x) => x.Nachname === 'Zander')!
    expect(anna.Status).toBe('Angemeldet')
    expect(anna['Angemeldet am']).toBe('15.01.2026 11:05')
    expect(anna['Check-in']).toBe('Nicht eingecheckt')
    expect(anna.Essen).toBe('Vegan')
    expect(anna['Hotel benötigt']).toBe('Nein')
    expect(anna.Anreisetag).toBe('24.12.2026')
    expect(anna['Ticket-Code']).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/)
    const ina = rows.find((x) => x.Nachname === 'Mitte')!
    expect(ina.Status).toBe('Eingeladen')
    expect(ina['Ticket-Code']).toBe('')
    expect(byName.text).not.toContain('INVITED')
    expect(byName.text).not.toContain('CONFIRMED')
  })

  test('a guest who confirmed through the invitation has a ticket code in the export and at the desk', async () => {
    const { admin, ev } = await setup()
    const g = await addGuest(admin, ev.id, { firstName: 'Ines', lastName: 'Invited' })
    expect((await admin.post(`/proxy/api/events/${ev.id}/visitors/${g.id}/invite`, {})).status).toBe(200)
    const v = await h().ctx.db.selectFrom('event_visitor').select('user_id').where('id', '=', g.id).executeTakeFirstOrThrow()
    const guest = h().agent()
    guest.headers['x-guest-token'] = await h().ctx.db.transaction().execute((trx) => issueAccessToken(h().ctx, trx, v.user_id!, GUEST_ACCESS))
    const ok = await guest.post(`/proxy/api/guest/events/${ev.id}/activate`, { visitor: g.id })
    expect(ok.status).toBe(200)
    expect(ok.body.status).toBe('CONFIRMED')
    const stored = await h().ctx.db.selectFrom('event_visitor').select('ticket_code').where('id', '=', g.id).executeTakeFirstOrThrow()
    expect(stored.ticket_code).toMatch(/^[0-9A-Z]{10}$/)
    const desk = await admin.get(`/proxy/api/events/${ev.id}/checkin/lookup?search=Invited`)
    expect(desk.body.items[0].ticketCode).toBe(`${stored.ticket_code!.slice(0, 5)}-${stored.ticket_code!.slice(5)}`)
    const rows = csv((await admin.get(`/proxy/api/events/${ev.id}/visitors/export`)).text)
    expect(rows[0]['Ticket-Code']).toBe(desk.body.items[0].ticketCode)
  })

  test('statistics count per answer: options with 0, amounts as persons', async () => {
    const { admin, ev, diet, hotel, meal } = await setup()
    const reg = (first: string, fields: Record<string, unknown>) => register(ev.id, { salutation: 'Frau', firstName: first, lastName: 'Gast', email: uniqueEmail(first), fields })
    expect((await reg('a', { [diet.id]: { selected: ['Vegan'], custom: null }, [hotel.id]: true, [meal.id]: [{ fieldValueId: meal.definedValues[0].id, amount: 3 }] })).status).toBe(201)
    expect((await reg('b', { [diet.id]: { selected: ['Vegan'], custom: null }, [hotel.id]: false, [meal.id]: [{ fieldValueId: meal.definedValues[0].id, amount: 1 }] })).status).toBe(201)
    expect((await reg('c', { [hotel.id]: true })).status).toBe(201)
    const s = await admin.get(`/proxy/api/events/${ev.id}/statistics`)
    expect(s.status).toBe(200)
    const of = (label: string) => Object.fromEntries(s.body.answers.find((x: any) => x.label === label).options.map((o: any) => [o.label, [o.registrations, o.persons]]))
    expect(of('Essen')).toEqual({ Fleisch: [0, 0], Vegan: [2, 2] })
    expect(of('Hotel benötigt')).toEqual({ Ja: [2, 2], Nein: [1, 1] })
    expect(of('Menü')).toEqual({ 'Vegane Bowl': [2, 4], Braten: [0, 0] })
  })
})
