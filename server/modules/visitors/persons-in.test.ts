// Issue 20 item 29: a booking of 4 with one person at the door is not "Nicht eingecheckt". The guest
// list answers how many of the registration's persons are in now (personsIn) and the guest CSV says
// "1 von 4 eingecheckt"; a single guest, and a group all in or none, keep the plain states.
import { expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import { forEachDialect } from '../../testing/harness'
import { addGuest, createEvent } from '../../testing/organiser'

forEachDialect('persons of a registration at the door', (h) => {
  test('1 of 4 in: the list counts persons, the CSV says "1 von 4 eingecheckt"', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    const escorts = [1, 2, 3].map((i) => ({ firstName: `Begleitung${i}`, lastName: 'Person' }))
    const group = await addGuest(admin, e.id, { status: 'CONFIRMED', lastName: 'Gruppe', escortPersons: escorts })
    const single = await addGuest(admin, e.id, { status: 'CONFIRMED', lastName: 'Einzeln' })
    // an escort of the group comes in first, the main guest not yet
    expect((await admin.post(`/proxy/api/events/${e.id}/checkin`, { visitorId: group.id, checkinGuests: [2] })).status).toBe(200)
    const list = (await admin.get(`/proxy/api/events/${e.id}/visitors`)).body.items as Array<{ id: number; visitorCount: number; personsIn: number; checkState: string }>
    expect(list.find((g) => g.id === group.id)).toMatchObject({ visitorCount: 4, personsIn: 1 })
    expect(list.find((g) => g.id === single.id)).toMatchObject({ visitorCount: 1, personsIn: 0, checkState: 'OPEN' })
    const csv = await admin.get(`/proxy/api/events/${e.id}/visitors/export`)
    const rows = parse(csv.text.replace(/^\uFEFF/, ''), { delimiter: ';', columns: true, relax_column_count: true }) as Array<Record<string, string>>
    const col = Object.keys(rows[0]).find((k) => /check-?in/i.test(k))!
    const byName = (n: string) => rows.find((r) => Object.values(r).includes(n))!
    expect(byName('Gruppe')[col]).toBe('1 von 4 eingecheckt')
    expect(byName('Einzeln')[col]).toBe('Nicht eingecheckt')
    // all four in
    expect((await admin.post(`/proxy/api/events/${e.id}/checkin`, { visitorId: group.id, checkinGuests: 'ALL' })).status).toBe(200)
    const again = (await admin.get(`/proxy/api/events/${e.id}/visitors`)).body.items as Array<{ id: number; personsIn: number; checkState: string }>
    expect(again.find((g) => g.id === group.id)).toMatchObject({ personsIn: 4, checkState: 'CHECKED_IN' })
    const csv2 = parse((await admin.get(`/proxy/api/events/${e.id}/visitors/export`)).text.replace(/^\uFEFF/, ''), { delimiter: ';', columns: true, relax_column_count: true }) as Array<Record<string, string>>
    // all in: the plain state, as for a single guest
    expect(csv2.find((r) => Object.values(r).includes('Gruppe'))![col]).toBe('Eingecheckt')
  })
})
