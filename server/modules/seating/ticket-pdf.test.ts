// The seat on the ticket PDF (issue 14): each person's place (area · row · seat, or a table's label)
// under their name, read back from the PDF with pdftotext.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { createEvent } from '../../testing/organiser'
import { guestWithToken, pdfText } from '../documents/test-helpers'
import { fixChairHolds } from './holds'

forEachDialect('the seat on the ticket PDF', (h) => {
  test('three persons with A 2 and two places at Tisch 1: each name has its place; without a seat nothing is added', async () => {
    const admin = (await h().admin()) as Agent
    const e = await createEvent(admin, { displayName: 'Sitzkonzert' })
    const saved = await admin.put(`/proxy/api/events/${e.id}/seatingplan`, {
      priceCategories: [{ key: 'p', displayName: 'Parkett', color: '#2b8a3e' }],
      areas: [
        {
          displayName: 'Großer Saal',
          chairs: [
            { label: 'A 2', priceCategory: 'p', percentX: 10, percentY: 10, percentWidth: 2, percentHeight: 3 },
            { label: 'Tisch 1', priceCategory: 'p', viewType: 'RECTANGLE', percentX: 40, percentY: 40, percentWidth: 10, percentHeight: 8, places: 6, minAmount: 1, maxAmount: 6 },
          ],
        },
      ],
    })
    expect(saved.status).toBe(200)
    const chair = (label: string) => saved.body.areas[0].chairs.find((c: any) => c.label === label).id as number
    const g = await guestWithToken(h(), admin, e.id, { firstName: 'Grete', lastName: 'Gäßler' })
    const download = async () => {
      const tokens = (await g.guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === g.id).tokens
      const res = await h().app.handle(new Request(`http://localhost/proxy/api/download/${tokens.downloadToken}`))
      expect(res.status).toBe(200)
      return pdfText(new Uint8Array(await res.arrayBuffer()))
    }
    const before = await download()
    expect(before).not.toContain('Großer Saal')

    const visit = 'pdf-visit-0000001'
    const tokens: string[] = []
    for (const [chairId, amount] of [[chair('A 2'), 1], [chair('Tisch 1'), 2]]) {
      const r = await h().request('POST', `/api/public/events/${e.id}/seatingplan/reservation/chair`, { body: { chairId, identification: visit, amount } })
      expect(r.status).toBe(200)
      tokens.push(r.body.reservationToken)
    }
    await h().ctx.db.transaction().execute((trx) => fixChairHolds(trx, h().clock.now(), g.id, e.id, visit, tokens))
    // pdftotext -layout keeps the columns: one person per column, the place under the name
    const lines = (await download()).split('\n').map((l) => l.trim().split(/\s{2,}/))
    const row = (first: string) => lines.find((l) => l[0] === first)
    expect(row('Grete Gäßler')).toEqual(['Grete Gäßler', 'Jörg Müller', 'Zoë Weiß'])
    expect(row('Großer Saal')).toEqual(['Großer Saal', 'Großer Saal', 'Großer Saal'])
    expect(row('Reihe A · Platz 2')).toEqual(['Reihe A · Platz 2', 'Tisch 1', 'Tisch 1'])
  })
})
