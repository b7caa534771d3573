// Hostile: extra persons for free on a paid event (issue 20, item 1), by every door a guest has —
// the portal's escort edit (also claiming the organiser's free-of-charge flag), the pay page's
// step 5 (more escorts than tickets, another registration's escort numbers) — and escort races
// that must never answer 500.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../testing/harness'
import { address, buy, buyer, guestOf, paidEvent } from '../modules/ticketing/testing'

const people = (n: number) => Array.from({ length: n }, (_, i) => ({ firstName: `Gratis${i}`, lastName: 'Gast' }))

forEachDialect('hostile: persons without tickets', (h) => {
  let admin: Agent
  test('setup', async () => {
    admin = await h().admin()
  })
  const persons = async (visitorId: number) => {
    const v = await h().ctx.db.selectFrom('event_visitor').select(['visitor_count', 'free_persons']).where('id', '=', visitorId).executeTakeFirstOrThrow()
    const escorts = await h().ctx.db.selectFrom('escort_person').select('id').where('visitor_id', '=', visitorId).execute()
    return { count: v.visitor_count, free: v.free_persons, escorts: escorts.length }
  }

  test('one ticket, four escorts through the portal: refused, also when the guest sends the organiser\'s free-of-charge flag', async () => {
    const { event, categories } = await paidEvent(admin)
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    const guest = await guestOf(h(), r.body.visitorId)
    for (const body of [{ escortPersons: people(4) }, { escortPersons: people(4), escortsFreeOfCharge: true }, { escortPersons: people(1), freePersons: 9 }]) {
      const x = await guest.patch(`/proxy/api/guest/events/visitors/${r.body.visitorId}`, body)
      expect(x.status).toBe(409)
      expect(x.body.errorType).toBe('ESCORTS_NEED_TICKETS')
    }
    // twenty tries at once change nothing either, and none answers 500
    const many = await Promise.all(Array.from({ length: 20 }, () => guest.patch(`/proxy/api/guest/events/visitors/${r.body.visitorId}`, { escortPersons: people(2) })))
    expect(many.every((x) => x.status === 409)).toBe(true)
    expect(await persons(r.body.visitorId)).toEqual({ count: 1, free: 0, escorts: 0 })
  })

  test('step 5 of the pay page: more escorts than tickets, or another registration\'s escort numbers, are refused', async () => {
    const { event, categories } = await paidEvent(admin)
    const mine = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 2 }]))
    const other = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 2 }], { escortPersons: [{ firstName: 'Fremd', lastName: 'Person' }] }))
    const o = `/proxy/api/guest/ticketOrder/${mine.body.ticketOrderId}`
    expect((await h().request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step).toBe(5)
    const tooMany = await h().request('POST', `${o}/proceed/additionalInformations`, { body: { escortPersons: people(4) } })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.errorFields).toContainEqual({ field: 'escortPersons', errorType: 'TOO_BIG' })
    // escort number 1 belongs to the other registration only: naming it here changes nothing there
    const stolen = await h().request('POST', `${o}/proceed/additionalInformations`, { body: { escortPersons: [{ number: 1, firstName: 'X', lastName: 'Y' }] } })
    expect(stolen.status).toBe(400)
    expect(await persons(mine.body.visitorId)).toEqual({ count: 2, free: 0, escorts: 0 })
    const theirs = await h().ctx.db.selectFrom('escort_person').select(['first_name']).where('visitor_id', '=', other.body.visitorId).execute()
    expect(theirs).toEqual([{ first_name: 'Fremd' }])
  })
})
