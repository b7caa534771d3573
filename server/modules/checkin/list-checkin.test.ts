// The desk on a check-in list (docs/ticketing.md "Check-in lists"): "already checked in" per list,
// a category the list does not admit refused with the reason, counts per list, concurrent scans on
// one list counted once, a list with check-ins not deletable; an event without lists as before.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent } from '../../testing/organiser'
import { buy, buyer, paidEvent, pay } from '../ticketing/testing'
import { ensureTicketCode } from './ticket'

forEachDialect('desk on a check-in list', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin()
  })
  const cats = [
    { displayName: 'Kategorie A', grossPrice: 2500, taxCode: 'TAX_19', quota: 20 },
    { displayName: 'Kategorie B', grossPrice: 1000, taxCode: 'TAX_19', quota: 20 },
  ]
  async function setup() {
    const { event, categories } = await paidEvent(admin, { categories: cats })
    const [a, b] = categories
    const base = `/proxy/api/events/${event.id}/checkin/lists`
    const main = (await admin.post(base, { name: 'Haupteingang', categoryIds: [a.id] })).body
    const workshop = (await admin.post(base, { name: 'Workshop', categoryIds: [b.id] })).body
    const everyone = (await admin.post(base, { name: 'Garderobe' })).body
    const bought = async (categoryId: number, amount = 1) => {
      const r = await buy(h(), event.id, buyer([{ categoryId, amount }], amount > 1 ? { escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] } : {}))
      expect(r.status).toBe(201)
      expect((await pay(h(), r.body.ticketOrderId, 'LOCATION')).step).toBe(100)
      return r.body.visitorId as number
    }
    return { event, a, b, main, workshop, everyone, bought, base }
  }
  const checkin = (eventId: number, body: Record<string, unknown>) => admin.post(`/proxy/api/events/${eventId}/checkin`, body)
  const counts = async (eventId: number, listId?: number) => (await admin.get(`/proxy/api/events/${eventId}/checkin/counts${listId ? `?listId=${listId}` : ''}`)).body

  test('a category the list does not admit is refused with its name and the list, never checked in', async () => {
    const { event, workshop, bought } = await setup()
    const guestA = await bought((await admin.get(`/proxy/api/events/${event.id}/ticketCategories`)).body.items[0].id)
    const r = await checkin(event.id, { visitorId: guestA, checkinGuests: 'ALL', listId: workshop.id })
    expect(r.status).toBe(409)
    expect(r.body.errorType).toBe('CHECKIN_LIST_CATEGORY')
    expect(r.body.errorMessage).toBe('Dieses Ticket (Kategorie „Kategorie A“) gilt nicht für „Workshop“.')
    expect((await h().ctx.db.selectFrom('checkin_list_entry').selectAll().where('visitor_id', '=', guestA).execute()).length).toBe(0)
    const v = await h().ctx.db.selectFrom('event_visitor').select(['status', 'main_guest_checked_in']).where('id', '=', guestA).executeTakeFirstOrThrow()
    expect(v.status).toBe('CONFIRMED')
    expect(Boolean(v.main_guest_checked_in)).toBe(false)
    // a guest without ticket order: refused by a list with categories, admitted by one without
    const free = await addGuest(admin, event.id, { status: 'CONFIRMED' })
    const nt = await checkin(event.id, { visitorId: free.id, checkinGuests: [0], listId: workshop.id })
    expect(nt.status).toBe(409)
    expect(nt.body.errorMessage).toBe('Gäste ohne Ticket gelten nicht für „Workshop“.')
  })

  test('already checked in is per list: main entrance and workshop; again on one list refused; out and in again', async () => {
    const { event, a, b, main, workshop, everyone, bought, base } = await setup()
    // an order with tickets of A and B: the main guest holds A (the first line), the escort B
    const r = await buy(h(), event.id, buyer([{ categoryId: a.id, amount: 1 }, { categoryId: b.id, amount: 1 }], { escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] }))
    expect((await pay(h(), r.body.ticketOrderId, 'LOCATION')).step).toBe(100)
    const both = r.body.visitorId as number
    const onMain = await checkin(event.id, { visitorId: both, checkinGuests: [0], listId: main.id })
    expect(onMain.status).toBe(200)
    expect(onMain.body).toMatchObject({ listId: main.id, checkedIn: [0], status: 'APPEARED' })
    // the desk's lookup on a list shows the list's states: in on the main entrance, open on the workshop
    const code = await ensureTicketCode(h().ctx.db, both)
    const look = async (listId: number) => (await admin.get(`/proxy/api/events/${event.id}/checkin/lookup?code=${code}&listId=${listId}`)).body.items[0].persons.map((p: { checkState: string }) => p.checkState)
    expect(await look(main.id)).toEqual(['CHECKED_IN', 'OPEN'])
    expect(await look(workshop.id)).toEqual(['OPEN', 'OPEN'])
    expect((await admin.get(`/proxy/api/events/${event.id}/checkin/lookup?search=K%C3%A4uferin&listId=${workshop.id}`)).status).toBe(200)
    expect((await admin.get(`/proxy/api/events/${event.id}/checkin/lookup?code=${code}&listId=999999`)).status).toBe(404)
    const again = await checkin(event.id, { visitorId: both, checkinGuests: [0], listId: main.id })
    expect(again.status).toBe(409)
    expect(again.body.errorType).toBe('ALREADY_CHECKED_IN')
    const onWorkshop = await checkin(event.id, { visitorId: both, checkinGuests: 'ALL', listId: workshop.id })
    expect(onWorkshop.status).toBe(200)
    expect(onWorkshop.body.checkedIn).toEqual([1])
    // the event as a whole: both persons in (entering a list marks presence once)
    expect(await counts(event.id)).toMatchObject({ checkedIn: 2 })
    expect((await h().ctx.db.selectFrom('presence').selectAll().where('visitor_id', '=', both).execute()).length).toBe(2)
    // leaving the workshop leaves the main entrance state alone; re-entry works
    expect((await checkin(event.id, { visitorId: both, checkoutGuests: [1], listId: workshop.id })).status).toBe(200)
    expect((await checkin(event.id, { visitorId: both, checkoutGuests: [1], listId: workshop.id })).body.errorType).toBe('NOT_CHECKED_IN')
    expect((await checkin(event.id, { visitorId: both, checkinGuests: [0], listId: main.id })).body.errorType).toBe('ALREADY_CHECKED_IN')
    expect((await checkin(event.id, { visitorId: both, checkinGuests: [1], listId: workshop.id })).status).toBe(200)
    expect(await counts(event.id, workshop.id)).toEqual({ registered: 1, checkedIn: 1, checkedOut: 0 })
    expect(await counts(event.id, main.id)).toEqual({ registered: 1, checkedIn: 1, checkedOut: 0 })

    // counts per list: the admitted persons of each category, everyone on a list without categories
    const onlyB = await bought(b.id, 2)
    expect((await checkin(event.id, { visitorId: onlyB, checkinGuests: 'ALL', listId: workshop.id })).status).toBe(200)
    expect((await checkin(event.id, { visitorId: onlyB, checkoutGuests: [1], listId: workshop.id })).status).toBe(200)
    await addGuest(admin, event.id, { status: 'CONFIRMED' })
    expect(await counts(event.id, workshop.id)).toEqual({ registered: 3, checkedIn: 2, checkedOut: 1 })
    expect(await counts(event.id, main.id)).toEqual({ registered: 1, checkedIn: 1, checkedOut: 0 })
    expect(await counts(event.id, everyone.id)).toEqual({ registered: 5, checkedIn: 0, checkedOut: 0 })
    const listed = (await admin.get(base)).body.items
    expect(listed.map((l: { name: string; counts: unknown }) => [l.name, l.counts])).toEqual([
      ['Haupteingang', { registered: 1, checkedIn: 1, checkedOut: 0 }],
      ['Workshop', { registered: 3, checkedIn: 2, checkedOut: 1 }],
      ['Garderobe', { registered: 5, checkedIn: 0, checkedOut: 0 }],
    ])

    // a list with check-ins cannot be deleted; an unused one can
    const del = await admin.delete(`${base}/${workshop.id}`)
    expect(del.status).toBe(409)
    expect(del.body.errorMessage).toBe('Auf dieser Check-in-Liste wurde bereits eingecheckt, deshalb kann sie nicht gelöscht werden.')
    expect((await admin.delete(`${base}/${everyone.id}`)).status).toBe(200)
  })

  test("another event's or agency's list id is 404 at the desk and in the counts", async () => {
    const { event, workshop, bought, b } = await setup()
    const other = (await paidEvent(admin, { categories: [cats[0]] })).event
    const guest = await bought(b.id)
    const foreign = (await admin.post(`/proxy/api/events/${other.id}/checkin/lists`, { name: 'Fremd' })).body
    expect((await checkin(event.id, { visitorId: guest, checkinGuests: 'ALL', listId: foreign.id })).status).toBe(404)
    expect((await admin.get(`/proxy/api/events/${event.id}/checkin/counts?listId=${foreign.id}`)).status).toBe(404)
    const stranger = await h().admin()
    expect((await stranger.get(`/proxy/api/events/${event.id}/checkin/counts?listId=${workshop.id}`)).status).toBe(404)
    expect((await checkin(event.id, { visitorId: guest, checkinGuests: 'ALL', listId: workshop.id })).status).toBe(200)
  })

  test('concurrent scans of one ticket on one list: checked in once, counted once', async () => {
    const { event, workshop, bought, b } = await setup()
    const guests = await Promise.all([1, 2, 3].map(() => bought(b.id)))
    const answers = await Promise.all(guests.flatMap((g, i) => [0, 1, 2, 3].map((k) => checkin(event.id, { visitorId: g, checkinGuests: 'ALL', listId: workshop.id, nonce: `list-${k}-${i}-${event.id}-${workshop.id}` }))))
    expect(answers.filter((r) => r.status === 200).length).toBe(3)
    expect(answers.filter((r) => r.status !== 200).every((r) => r.body.errorType === 'ALREADY_CHECKED_IN')).toBe(true)
    expect(await counts(event.id, workshop.id)).toEqual({ registered: 3, checkedIn: 3, checkedOut: 0 })
    expect(await counts(event.id)).toMatchObject({ checkedIn: 3 })
  })

  test('an event without lists: the desk as before (no listId, one state for the event)', async () => {
    const admin = await h().admin()
    const e = await createEvent(admin)
    expect((await admin.get(`/proxy/api/events/${e.id}/checkin/lists`)).body).toEqual({ items: [] })
    const g = await addGuest(admin, e.id, { status: 'CONFIRMED' })
    const r = await admin.post(`/proxy/api/events/${e.id}/checkin`, { visitorId: g.id, checkinGuests: 'ALL' })
    expect(r.status).toBe(200)
    expect(r.body.listId).toBeUndefined()
    expect((await admin.post(`/proxy/api/events/${e.id}/checkin`, { visitorId: g.id, checkinGuests: 'ALL' })).body.errorType).toBe('ALL_CHECKED_IN')
    expect((await admin.get(`/proxy/api/events/${e.id}/checkin/counts`)).body).toEqual({ registered: 1, checkedIn: 1, checkedOut: 0 })
  })
})
