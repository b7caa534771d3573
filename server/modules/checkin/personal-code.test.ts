// One QR code per person (issue 20, follow-up of A): the signed code on the ticket names its person
// (0 = main guest, n = escort n). The lookup says which (`scannedPerson`; null for the short code and a
// name search), and a check-in by that code admits that person only: "ALL" means them, another person
// of the booking is refused. The desk admits the others by registration id, as a tap on them does.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent } from '../../testing/organiser'
import { pdfQrCodes } from '../documents/test-helpers'

forEachDialect('a personal QR code admits its person', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin()
  })

  test('scannedPerson in the lookup; a check-in by the main guest code admits the main guest only, again says already in; the companion code admits the companion', async () => {
    const e = await createEvent(admin)
    const g = await addGuest(admin, e.id, { status: 'CONFIRMED', escortPersons: [{ firstName: 'Pia', lastName: 'Begleiterin' }] })
    const v = await h().ctx.db.selectFrom('event_visitor').select(['download_token']).where('id', '=', g.id).executeTakeFirstOrThrow()
    const pdf = await h().app.handle(new Request(`http://localhost/proxy/api/download/${v.download_token}`))
    const codes = await pdfQrCodes(new Uint8Array(await pdf.arrayBuffer()))
    expect(codes).toHaveLength(2)
    const lookup = (q: string) => admin.get(`/proxy/api/events/${e.id}/checkin/lookup?${q}`)
    const byPerson = new Map<number, string>()
    for (const c of codes) byPerson.set((await lookup(`code=${encodeURIComponent(c)}`)).body.items[0].scannedPerson, c)
    expect([...byPerson.keys()].sort()).toEqual([0, 1])
    const main = byPerson.get(0)!
    const companion = byPerson.get(1)!
    // the short code and a name search name nobody in particular
    const short = (await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)).body.ticketCode as string
    expect((await lookup(`code=${encodeURIComponent(short)}`)).body.items[0].scannedPerson).toBeNull()
    expect((await lookup('search=Begleiterin')).body.items[0]?.scannedPerson).toBeUndefined()

    const checkin = (body: Record<string, unknown>) => admin.post(`/proxy/api/events/${e.id}/checkin`, body)
    // "ALL" with the main guest's code: the main guest only
    const first = await checkin({ code: main, checkinGuests: 'ALL' })
    expect([first.status, first.body.checkedIn]).toEqual([200, [0]])
    // the companion through the main guest's code: refused, with a German reason
    const other = await checkin({ code: main, checkinGuests: [1] })
    expect([other.status, other.body.errorType]).toEqual([409, 'CODE_OTHER_PERSON'])
    expect(other.body.errorMessage).toContain('eigene Codes')
    const again = await checkin({ code: main, checkinGuests: 'ALL' })
    expect([again.status, again.body.errorType]).toEqual([409, 'ALREADY_CHECKED_IN'])
    // the lookup of the main code: the main guest is in, the companion is not
    const look = (await lookup(`code=${encodeURIComponent(main)}`)).body.items[0]
    expect(look.scannedPerson).toBe(0)
    expect(look.persons.map((p: any) => [p.person, p.checkState])).toEqual([
      [0, 'CHECKED_IN'],
      [1, 'OPEN'],
    ])
    expect((await admin.get(`/proxy/api/events/${e.id}/checkin/counts`)).body.checkedIn).toBe(1)
    // the companion's own code admits the companion
    const second = await checkin({ code: companion, checkinGuests: 'ALL' })
    expect([second.status, second.body.checkedIn]).toEqual([200, [1]])
    expect((await admin.get(`/proxy/api/events/${e.id}/checkin/counts`)).body.checkedIn).toBe(2)
    // a tap at the desk (by registration id) checks out and in whoever it names
    expect((await checkin({ visitorId: g.id, checkoutGuests: 'ALL' })).body.checkedOut.sort()).toEqual([0, 1])
    expect((await checkin({ visitorId: g.id, checkinGuests: [1] })).body.checkedIn).toEqual([1])
  })
})
