// The per-process caches behind a generation counter (db/generation-cache.ts): an event's payment
// methods, its seat-bound categories and the agreements are cached until the database's triggers
// raise the 'setup' counter — also for writes that bypass the application (another process, an
// import), and a transaction that changes and reads and then rolls back leaves nothing stale behind.
import { expect, test } from 'bun:test'
import { sql } from 'kysely'
import { effectiveAgreements } from '../modules/agreements/repository'
import { seatTickets } from '../modules/seating/orders'
import { eventPaymentMethods } from '../modules/ticketing/payment-methods'
import { paidEvent } from '../modules/ticketing/testing'
import { forEachDialect } from '../testing/harness'

forEachDialect('generation caches', (h) => {
  test('payment methods: direct writes are seen at once; a rolled-back change leaves nothing stale', async () => {
    const admin = await h().admin()
    const { event } = await paidEvent(admin)
    const db = h().ctx.db
    const ev = { id: event.id, agency_id: admin.agencyId, currency: 'EURO' }
    const methods = async () => (await eventPaymentMethods(db, ev)).map((m) => `${m.method}:${m.account_holder ?? ''}`)
    expect(await methods()).toEqual(['TRANSFER:Agentur GmbH', 'INVOICE:', 'LOCATION:'])
    expect(await methods()).toEqual(['TRANSFER:Agentur GmbH', 'INVOICE:', 'LOCATION:'])
    const invoice = (await eventPaymentMethods(db, ev)).find((m) => m.method === 'INVOICE')!.id
    // another process removes INVOICE from the event
    await db.deleteFrom('event_payment_method').where('event_id', '=', event.id).where('payment_method_id', '=', invoice).execute()
    expect(await methods()).toEqual(['TRANSFER:Agentur GmbH', 'LOCATION:'])
    await db.updateTable('payment_method').set({ account_holder: 'Neue GmbH' }).where('method', '=', 'TRANSFER').where('agency_id', '=', admin.agencyId).execute()
    expect(await methods()).toEqual(['TRANSFER:Neue GmbH', 'LOCATION:'])

    // a transaction removes a method (one row: the counter rises by one on both dialects), reads,
    // and rolls back; then another change of one row commits and raises the counter to the same value
    const location = (await eventPaymentMethods(db, ev)).find((m) => m.method === 'LOCATION')!.id
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.deleteFrom('event_payment_method').where('event_id', '=', event.id).where('payment_method_id', '=', location).execute()
        expect((await eventPaymentMethods(trx, ev)).map((m) => m.method)).toEqual(['TRANSFER'])
        throw new Error('rollback')
      })
      .catch((e) => expect((e as Error).message).toBe('rollback'))
    await db.updateTable('payment_method').set({ account_holder: 'Dritte GmbH' }).where('method', '=', 'TRANSFER').where('agency_id', '=', admin.agencyId).execute()
    expect(await methods()).toEqual(['TRANSFER:Dritte GmbH', 'LOCATION:'])
  })

  test('seat-bound categories and agreements follow the plan and the agreements', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin)
    const db = h().ctx.db
    const bound = async () => [...(await seatTickets(db, event.id, undefined, [], new Date())).bound]
    expect(await bound()).toEqual([])
    const plan = { areas: [{ displayName: 'Saal', chairs: [{ label: 'A 1', priceCategory: 'p', percentX: 10, percentY: 10, percentWidth: 2, percentHeight: 3 }] }] }
    expect((await admin.put(`/proxy/api/events/${event.id}/seatingplan`, { ...plan, priceCategories: [{ key: 'p', displayName: 'Parkett', color: '#2b8a3e', ticketCategoryId: categories[0].id }] })).status).toBe(200)
    expect(await bound()).toEqual([categories[0].id])
    // unlinked again: the plan no longer says what its chair is sold as, so nothing is sold (issue 20 C)
    expect((await admin.put(`/proxy/api/events/${event.id}/seatingplan`, { ...plan, priceCategories: [{ key: 'p', displayName: 'Parkett', color: '#2b8a3e' }] })).status).toBe(200)
    await expect(bound()).rejects.toMatchObject({ errorType: 'SEATING_NOT_LINKED' })
    expect((await admin.put(`/proxy/api/events/${event.id}/seatingplan`, { ...plan, priceCategories: [], areas: [{ ...plan.areas[0], chairs: [{ ...plan.areas[0].chairs[0], priceCategory: null }] }] })).status).toBe(200)
    expect(await bound()).toEqual([])

    const names = async () => (await effectiveAgreements(db, { id: event.id, agency_id: admin.agencyId })).map((a) => a.display_name)
    expect(await names()).toEqual([])
    const a = await admin.post('/proxy/api/agreements', { displayName: 'Fotoerlaubnis', validity: 'EVENT', eventId: event.id, appearance: 'VISIBLE' })
    expect(a.status).toBe(201)
    expect(await names()).toEqual(['Fotoerlaubnis'])
    await db.updateTable('agreement').set({ active: false as never }).where('id', '=', a.body.id).execute()
    expect(await names()).toEqual([])
    await sql`update agreement set active = ${true} where id = ${a.body.id}`.execute(db)
    expect(await names()).toEqual(['Fotoerlaubnis'])
  })
})
