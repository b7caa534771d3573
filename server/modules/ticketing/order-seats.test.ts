// Issue 20 item 23: the pay page and the order mails name the seats (area · row and number), for
// seat-bound tickets (a plan's price categories are linked to ticket categories, or nothing is sold:
// SEATING_NOT_LINKED, issue 20 C).
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { address, buyer, paidEvent } from './testing'

forEachDialect('orders name their seats', (h) => {
  test('the ticket info lists "Saal · A 1, Saal · Loge 1 (2)" and the received mail names them', async () => {
    const admin = (await h().admin()) as Agent
    const { event, categories } = await paidEvent(admin, { methods: [{ method: 'INVOICE' }], categories: [{ displayName: 'Parkett', grossPrice: 4000, taxCode: 'TAX_7', quota: 100 }, { displayName: 'Stehplatz', grossPrice: 1500, taxCode: 'TAX_19', quota: 10 }] })
    const saved = await admin.put(`/proxy/api/events/${event.id}/seatingplan`, {
      priceCategories: [
        { key: 'p', displayName: 'Parkett', color: '#2b8a3e', ticketCategoryId: categories[0].id },
        { key: 'l', displayName: 'Loge', color: '#d9480f', ticketCategoryId: categories[1].id },
      ],
      areas: [
        {
          displayName: 'Saal',
          chairs: [
            { label: 'A 1', priceCategory: 'p', percentX: 10, percentY: 10, percentWidth: 2, percentHeight: 3 },
            { label: 'Loge 1', priceCategory: 'l', viewType: 'RECTANGLE', percentX: 40, percentY: 40, percentWidth: 10, percentHeight: 8, places: 4, minAmount: 1, maxAmount: 4 },
          ],
        },
      ],
    })
    expect(saved.status).toBe(200)
    const chair = (label: string) => saved.body.areas[0].chairs.find((c: any) => c.label === label).id as number
    const me = 'seats-visit-0001'
    const hold = async (chairId: number, amount = 1) => (await h().request('POST', `/api/public/events/${event.id}/seatingplan/reservation/chair`, { body: { chairId, identification: me, amount } })).body.reservationToken as string
    const tokens = [await hold(chair('A 1')), await hold(chair('Loge 1'), 2)]
    const email = 'sitze@example.org'
    const r = await h().request('POST', `/proxy/api/public/events/${event.id}/registrations`, { body: { ...buyer([{ categoryId: categories[1].id, amount: 2 }], { email }), identification: me, chairReservations: tokens } })
    expect(r.status).toBe(201)
    const o = `/proxy/api/guest/ticketOrder/${r.body.ticketOrderId}`
    expect((await h().request('GET', o)).body.seats).toEqual(['Saal · A 1', 'Saal · Loge 1 (2)'])
    let step = (await h().request('POST', `${o}/proceed/invoiceAddress`, { body: { invoiceAddress: address } })).body.step
    if (step === 5) step = (await h().request('POST', `${o}/proceed/additionalInformations`, { body: { escortPersons: [{ firstName: 'A', lastName: 'B' }, { firstName: 'C', lastName: 'D' }] } })).body.step
    expect(step).toBe(40)
    expect((await h().request('POST', `${o}/proceed/paymentPay`, { body: { paymentMethod: 'INVOICE' } })).body.step).toBe(100)
    for (let i = 0; i < 5; i++) await h().deliverMail()
    expect(h().smtp.to(email)[0].text).toContain('Ihre Plätze: Saal · A 1, Saal · Loge 1 (2)')
  })
})
