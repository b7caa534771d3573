// Check-in lists per person (docs/ticketing.md "Check-in lists"): an order with tickets of two
// categories admits each person only on the lists of their own ticket's category (one ticket is one
// person: the order's lines in order, main guest first), in the check-in, the desk's lookup and the
// counts; and a list deleted while a check-in on it races never answers 500.
import { expect, test } from 'bun:test'
import { isoNow } from '../../db/types'
import { type Agent, forEachDialect } from '../../testing/harness'
import { licenseWith } from '../../testing/organiser'
import { buy, buyer, paidEvent, pay } from '../ticketing/testing'
import { pdfText } from '../documents/test-helpers'
import { ensureTicketCode } from './ticket'

forEachDialect('check-in lists per person', (h, dialect) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin()
  })
  const cats = [
    { displayName: 'Normal', grossPrice: 2500, taxCode: 'TAX_19', quota: 20 },
    { displayName: 'VIP', grossPrice: 9000, taxCode: 'TAX_19', quota: 20 },
  ]
  async function setup() {
    const { event, categories } = await paidEvent(admin, { categories: cats })
    const [normal, vip] = categories
    const base = `/proxy/api/events/${event.id}/checkin/lists`
    const vipList = (await admin.post(base, { name: 'VIP', categoryIds: [vip.id] })).body
    const normalList = (await admin.post(base, { name: 'Saal', categoryIds: [normal.id] })).body
    const door = (await admin.post(base, { name: 'Abendkasse' })).body
    // one normal and one VIP ticket: the main guest holds the first line's ticket, the escort the second
    const r = await buy(h(), event.id, buyer([{ categoryId: normal.id, amount: 1 }, { categoryId: vip.id, amount: 1 }], { escortPersons: [{ firstName: 'Vera', lastName: 'Vip' }] }))
    expect(r.status).toBe(201)
    expect((await pay(h(), r.body.ticketOrderId, 'LOCATION')).step).toBe(100)
    return { event, base, vipList, normalList, door, visitorId: r.body.visitorId as number }
  }
  const checkin = (eventId: number, body: Record<string, unknown>) => admin.post(`/proxy/api/events/${eventId}/checkin`, body)
  const counts = async (eventId: number, listId: number) => (await admin.get(`/proxy/api/events/${eventId}/checkin/counts?listId=${listId}`)).body

  test("the ticket PDF names each person's own category under their code (a mixed order)", async () => {
    const { visitorId } = await setup()
    await ensureTicketCode(h().ctx.db, visitorId)
    const v = await h().ctx.db.selectFrom('event_visitor').select(['download_token']).where('id', '=', visitorId).executeTakeFirstOrThrow()
    const pdf = await h().app.handle(new Request(`http://localhost/proxy/api/download/${v.download_token}`))
    expect(pdf.status).toBe(200)
    const text = (await pdfText(new Uint8Array(await pdf.arrayBuffer()))).replace(/\s+/g, ' ')
    expect(text).toContain('Gast · Normal')
    expect(text).toContain('Begleitperson 1 · VIP')
  })

  test("a mixed order: each person only on the list of their own ticket's category", async () => {
    const { event, vipList, normalList, door, visitorId } = await setup()
    // the normal ticket's holder (main guest) is refused on the VIP list, with the reason
    const refused = await checkin(event.id, { visitorId, checkinGuests: [0], listId: vipList.id })
    expect(refused.status).toBe(409)
    expect(refused.body.errorType).toBe('CHECKIN_LIST_CATEGORY')
    expect(refused.body.errorMessage).toBe('Dieses Ticket (Kategorie „Normal“) gilt nicht für „VIP“.')
    // a request naming both is refused as a whole, nothing written
    expect((await checkin(event.id, { visitorId, checkinGuests: [0, 1], listId: vipList.id })).body.errorType).toBe('CHECKIN_LIST_CATEGORY')
    expect((await h().ctx.db.selectFrom('checkin_list_entry').selectAll().where('visitor_id', '=', visitorId).execute()).length).toBe(0)
    // "all" on the VIP list admits the VIP ticket's holder only
    const all = await checkin(event.id, { visitorId, checkinGuests: 'ALL', listId: vipList.id })
    expect(all.status).toBe(200)
    expect(all.body.checkedIn).toEqual([1])
    // and once they are in, "all" has nobody left the list admits: the main guest's reason
    const again = await checkin(event.id, { visitorId, checkinGuests: 'ALL', listId: vipList.id })
    expect(again.status).toBe(409)
    expect(again.body.errorType).toBe('CHECKIN_LIST_CATEGORY')
    // the hall admits the main guest only; the list without categories everyone
    expect((await checkin(event.id, { visitorId, checkinGuests: [1], listId: normalList.id })).body.errorMessage).toBe('Dieses Ticket (Kategorie „VIP“) gilt nicht für „Saal“.')
    expect((await checkin(event.id, { visitorId, checkinGuests: 'ALL', listId: normalList.id })).body.checkedIn).toEqual([0])
    expect((await checkin(event.id, { visitorId, checkinGuests: 'ALL', listId: door.id })).body.checkedIn).toEqual([0, 1])

    // counts: one person per category list, both on the list without categories
    expect(await counts(event.id, vipList.id)).toEqual({ registered: 1, checkedIn: 1, checkedOut: 0 })
    expect(await counts(event.id, normalList.id)).toEqual({ registered: 1, checkedIn: 1, checkedOut: 0 })
    expect(await counts(event.id, door.id)).toEqual({ registered: 2, checkedIn: 2, checkedOut: 0 })
  })

  test("the desk's lookup on a list says per person why the list does not admit them", async () => {
    const { event, vipList, door, visitorId } = await setup()
    const code = await ensureTicketCode(h().ctx.db, visitorId)
    const look = async (listId: number) => (await admin.get(`/proxy/api/events/${event.id}/checkin/lookup?code=${code}&listId=${listId}`)).body.items[0].persons.map((p: { listRefusal: unknown }) => p.listRefusal)
    expect(await look(vipList.id)).toEqual([{ errorType: 'CHECKIN_LIST_CATEGORY', params: { category: 'Normal', list: 'VIP' } }, null])
    expect(await look(door.id)).toEqual([null, null])
  })

  test('counts: several tickets of one line, in the order of the lines', async () => {
    const { event, vipList, normalList, door } = await setup()
    const [normal, vip] = (await admin.get(`/proxy/api/events/${event.id}/ticketCategories`)).body.items
    // two VIP and one normal ticket: VIP is the order's second line, so the escorts hold VIP tickets
    const r = await buy(h(), event.id, buyer([{ categoryId: normal.id, amount: 1 }, { categoryId: vip.id, amount: 2 }], { escortPersons: [{ firstName: 'A', lastName: 'Eins' }, { firstName: 'B', lastName: 'Zwei' }] }))
    expect(r.status).toBe(201)
    expect((await pay(h(), r.body.ticketOrderId, 'LOCATION')).step).toBe(100)
    expect(await counts(event.id, vipList.id)).toMatchObject({ registered: 3 })
    expect(await counts(event.id, normalList.id)).toMatchObject({ registered: 2 })
    expect(await counts(event.id, door.id)).toMatchObject({ registered: 5 })
    const done = await checkin(event.id, { visitorId: r.body.visitorId, checkinGuests: 'ALL', listId: vipList.id })
    expect(done.body.checkedIn).toEqual([1, 2])
    // a person named by the desk whose ticket the list admits: in (the others' tickets do not matter)
    expect((await checkin(event.id, { visitorId: r.body.visitorId, checkinGuests: [0], listId: normalList.id })).body.checkedIn).toEqual([0])
  })

  test('an escort added free of charge holds no ticket: refused by a category list, admitted by one without, not counted', async () => {
    const { event, vipList, door } = await setup()
    const [, vip] = (await admin.get(`/proxy/api/events/${event.id}/ticketCategories`)).body.items
    const r = await buy(h(), event.id, buyer([{ categoryId: vip.id, amount: 1 }]))
    expect((await pay(h(), r.body.ticketOrderId, 'LOCATION')).step).toBe(100)
    const id = r.body.visitorId as number
    const v = await h().ctx.db.selectFrom('event_visitor').select(['first_name', 'last_name', 'email']).where('id', '=', id).executeTakeFirstOrThrow()
    const put = await admin.put(`/proxy/api/events/${event.id}/visitors/${id}`, { salutation: 'Frau', firstName: v.first_name, lastName: v.last_name, email: v.email, escortPersons: [{ firstName: 'Fritz', lastName: 'Frei' }], escortsFreeOfCharge: true })
    expect(put.status).toBe(200)
    const refused = await checkin(event.id, { visitorId: id, checkinGuests: [1], listId: vipList.id })
    expect(refused.status).toBe(409)
    expect(refused.body.errorMessage).toBe('Gäste ohne Ticket gelten nicht für „VIP“.')
    expect((await checkin(event.id, { visitorId: id, checkinGuests: 'ALL', listId: vipList.id })).body.checkedIn).toEqual([0])
    expect((await checkin(event.id, { visitorId: id, checkinGuests: [1], listId: door.id })).body.checkedIn).toEqual([1])
    // the VIP list: the mixed order's escort and this buyer; the list without categories: all four
    expect(await counts(event.id, vipList.id)).toMatchObject({ registered: 2, checkedIn: 1 })
    expect(await counts(event.id, door.id)).toMatchObject({ registered: 4, checkedIn: 1 })
  })

  test('deleting a list while a check-in on it races: 409 in use or deleted, never 500; the check-in 200 or 404', async () => {
    const { event, base, visitorId } = await setup()
    for (let i = 0; i < 6; i++) {
      const list = (await admin.post(base, { name: `Rennen ${i}` })).body
      const [ci, del] = await Promise.all([checkin(event.id, { visitorId, checkinGuests: [0], listId: list.id }), admin.delete(`${base}/${list.id}`)])
      expect([200, 404]).toContain(ci.status)
      expect([200, 409]).toContain(del.status)
      const entries = await h().ctx.db.selectFrom('checkin_list_entry').select('id').where('list_id', '=', list.id).execute()
      if (del.status === 200) {
        expect(ci.status).toBe(404)
        expect(entries.length).toBe(0)
      } else {
        expect(del.body.errorType).toBe('CHECKIN_LIST_IN_USE')
        expect(ci.status).toBe(200)
        expect(entries.length).toBe(1)
      }
    }
  })

  if (dialect === 'postgres')
    test('a delete waiting for a check-in that commits its entry answers 409 CHECKIN_LIST_IN_USE', async () => {
      admin = await h().admin() // a fresh agency: the test licence's event limit
      const { base, visitorId } = await setup()
      const list = (await admin.post(base, { name: 'Wartet' })).body
      let release!: () => void
      const held = new Promise<void>((r) => (release = r))
      let inserted!: () => void
      const didInsert = new Promise<void>((r) => (inserted = r))
      // a check-in's write, not yet committed while the delete starts (its NOT EXISTS cannot see it)
      const trx = h().ctx.db.transaction().execute(async (t) => {
        await t.insertInto('checkin_list_entry').values({ list_id: list.id, visitor_id: visitorId, person: 0, checkin_at: isoNow(new Date()), checkout_at: null, checkin_account_id: null }).execute()
        inserted()
        await held
      })
      await didInsert
      const del = admin.delete(`${base}/${list.id}`)
      await new Promise((r) => setTimeout(r, 300))
      release()
      await trx
      const r = await del
      expect(r.status).toBe(409)
      expect(r.body.errorType).toBe('CHECKIN_LIST_IN_USE')
      expect((await admin.get(base)).body.items.some((l: { id: number }) => l.id === list.id)).toBe(true)
    })
}, { license: licenseWith([], { events: -1 }) })
