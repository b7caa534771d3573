// At the door (issue 20 A, B): every code einlass prints admits its guest at the desk (signed QR of
// the PDF, the dashboard and the wallet, the short code; typed, scanned by camera or by a hand scanner
// that types), and only a valid ticket admits: an order waiting for its money has no ticket documents,
// self check-in refuses it, the desk shows what is due and admits after recording the payment.
import { expect, test } from 'bun:test'
import { type Agent, forEachDialect } from '../../testing/harness'
import { addGuest, createEvent, licenseWith } from '../../testing/organiser'
import { guestWithToken, pdfQrCodes } from '../documents/test-helpers'
import { buy, buyer, guestOf, paidEvent, pay } from '../ticketing/testing'

forEachDialect('at the door', (h) => {
  let admin: Agent & { agencyId: number; accountId: number }
  test('setup', async () => {
    admin = await h().admin()
  })
  const lookup = (eventId: number, q: string) => admin.get(`/proxy/api/events/${eventId}/checkin/lookup?${q}`)
  const tokensOf = async (visitorId: number) =>
    h().ctx.db.selectFrom('event_visitor').select(['download_token', 'event_token', 'ticket_code']).where('id', '=', visitorId).executeTakeFirstOrThrow()
  const anon = () => h().agent()

  test('A: every printed code finds its guest: the PDF QR of each person, the dashboard QR, the short code, a hand scanner typing on a German layout; a place passed on is refused', async () => {
    const e = await createEvent(admin)
    const g = await addGuest(admin, e.id, { status: 'CONFIRMED', escortPersons: [{ firstName: 'Eva', lastName: 'Eins' }, { firstName: 'Zoe', lastName: 'Zwei' }] })
    const { download_token } = await tokensOf(g.id)
    const pdf = await h().app.handle(new Request(`http://localhost/proxy/api/download/${download_token}`))
    expect(pdf.status).toBe(200)
    const codes = await pdfQrCodes(new Uint8Array(await pdf.arrayBuffer()))
    expect(codes).toHaveLength(3)
    const byPerson = new Map<number, string>()
    for (const code of codes) {
      expect(code).toStartWith('E1-')
      const r = await lookup(e.id, `code=${encodeURIComponent(code)}`)
      expect(r.status).toBe(200)
      expect(r.body.items.map((i: any) => [i.id, i.canCheckin])).toEqual([[g.id, true]])
      byPerson.set(r.body.items[0].scannedPerson, code)
      // a desk that sent the scan as a name search (the old desk, another client) finds it too
      const s = await lookup(e.id, `search=${encodeURIComponent(code)}`)
      expect(s.body.items.map((i: any) => i.id)).toEqual([g.id])
      // typed or scanned in lower case
      expect((await lookup(e.id, `code=${encodeURIComponent(code.toLowerCase())}`)).body.items[0].id).toBe(g.id)
    }
    expect([...byPerson.keys()].sort()).toEqual([0, 1, 2])
    // a hand scanner set to a US layout typing into a German one: '-' arrives as 'ß', Y and Z swapped
    const german = byPerson.get(0)!.replace(/-/g, 'ß').replace(/[YZ]/g, (c) => (c === 'Y' ? 'Z' : 'Y'))
    expect((await lookup(e.id, `code=${encodeURIComponent(german)}`)).body.items[0].id).toBe(g.id)
    const ticket = await admin.get(`/proxy/api/events/${e.id}/visitors/${g.id}`)
    const short = ticket.body.ticketCode as string
    expect(short).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/)
    for (const typed of [short, short.replace('-', ''), short.toLowerCase(), ` ${short} `]) {
      const r = await lookup(e.id, `code=${encodeURIComponent(typed)}`)
      expect(r.status).toBe(200)
      expect(r.body.items[0].id).toBe(g.id)
    }
    // the check-in itself by the scanned code of escort 2
    const inn = await admin.post(`/proxy/api/events/${e.id}/checkin`, { code: byPerson.get(2), checkinGuests: [2] })
    expect(inn.status).toBe(200)
    expect(inn.body.checkedIn).toEqual([2])
    // passed on: a new ticket code retires every QR printed before
    await h().ctx.db.updateTable('event_visitor').set({ ticket_code: 'NEWCODE234' }).where('id', '=', g.id).execute()
    const old = await lookup(e.id, `code=${encodeURIComponent(codes[0])}`)
    expect([old.status, old.body.errorType]).toEqual([404, 'TICKET_NOT_FOUND'])
    const oldIn = await admin.post(`/proxy/api/events/${e.id}/checkin`, { code: codes[0], checkinGuests: [0] })
    expect([oldIn.status, oldIn.body.errorType]).toEqual([404, 'TICKET_NOT_FOUND'])
    expect((await lookup(e.id, `search=${encodeURIComponent(codes[0])}`)).body.items ?? []).toEqual([])
  })

  test('A: the guest dashboard QR and its short code find the main guest at the desk (the wallet pass barcode: documents/wallet.test.ts)', async () => {
    const e = await createEvent(admin)
    const g = await guestWithToken(h(), admin, e.id)
    const t = await g.guest.get(`/proxy/api/guest/events/visitors/${g.id}/ticket`)
    expect(t.status).toBe(200)
    const r = await lookup(e.id, `code=${encodeURIComponent(t.body.qrPayload)}`)
    expect([r.body.items[0].id, r.body.items[0].scannedPerson]).toEqual([g.id, 0])
    const s = await lookup(e.id, `code=${encodeURIComponent(t.body.ticketCode)}`)
    expect(s.body.items[0].id).toBe(g.id)
  })

  async function transferOrder(opts: { event?: Record<string, unknown> } = {}) {
    const { event, categories } = await paidEvent(admin, { event: { allowSelfCheckin: true, ...opts.event } })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 2 }], { escortPersons: [{ firstName: 'Eva', lastName: 'Escort' }] }))
    expect(r.status).toBe(201)
    return { event, categories, visitorId: r.body.visitorId as number, orderId: r.body.ticketOrderId as string }
  }
  const orderRow = (publicId: string) => h().ctx.db.selectFrom('ticket_order').selectAll().where('public_id', '=', publicId).executeTakeFirstOrThrow()

  test('B: a transfer waiting for its money: no ticket documents, self check-in refused with why, the desk shows the amount due and admits after recording the payment', async () => {
    const { event, visitorId, orderId } = await transferOrder()
    expect((await pay(h(), orderId, 'TRANSFER')).step).toBe(100)
    const o = await orderRow(orderId)
    expect(o.status).toBe('OPEN')
    const { download_token, event_token } = await tokensOf(visitorId)
    const guest = await guestOf(h(), visitorId)
    // dashboard: no ticket, calendar only, and the reason
    const dash = await guest.get('/proxy/api/guest/events')
    const entry = dash.body.confirmedEvents.find((x: any) => x.id === visitorId)
    expect(entry.ticketBlocked).toBe('UNPAID')
    expect(entry.tokens.downloadLinkTicket).toBeUndefined()
    expect(entry.tokens.downloadLinkNameTags).toBeUndefined()
    expect(entry.tokens.downloadTokenWallet).toBeUndefined()
    // the server refuses the documents themselves
    const qr = await guest.get(`/proxy/api/guest/events/visitors/${visitorId}/ticket`)
    expect([qr.status, qr.body.errorType]).toEqual([409, 'TICKET_UNPAID'])
    for (const doc of ['', '/ticket', '/nameTags', '/entryTicket']) {
      const d = await anon().get(`/proxy/api/download/${download_token}${doc}`)
      expect(d.status).not.toBe(200)
    }
    const wallet = (await h().ctx.db.selectFrom('event_visitor').select('download_token_wallet').where('id', '=', visitorId).executeTakeFirstOrThrow()).download_token_wallet
    if (wallet) expect((await anon().get(`/proxy/api/download/${wallet}`)).status).not.toBe(200)
    // self check-in: refused with a German reason
    const prep = await anon().post('/proxy/api/guest/prepareCheckin', { token: event_token })
    expect(prep.body).toMatchObject({ canCheckin: false, ticketBlocked: 'UNPAID' })
    const self = await anon().post('/proxy/api/guest/checkInOut', { origin: 'selfcheckin', token: event_token, checkinGuests: [0, 1] })
    expect([self.status, self.body.errorType]).toEqual([409, 'TICKET_UNPAID'])
    expect(self.body.errorMessage).toContain('nicht bezahlt')
    // the desk: amount due, no admission
    const code = (await tokensOf(visitorId)).ticket_code
    const look = await lookup(event.id, `code=${code ?? 'XXXXXXXXXX'}`)
    const reg = code ? look.body.items[0] : (await lookup(event.id, 'search=Käuferin')).body.items[0]
    expect(reg.canCheckin).toBe(false)
    expect(reg.payment).toMatchObject({ number: o.number, method: 'TRANSFER', status: 'OPEN', amountDue: 5000, currency: 'EURO', ticketBlocked: 'UNPAID' })
    const refused = await admin.post(`/proxy/api/events/${event.id}/checkin`, { visitorId, checkinGuests: 'ALL' })
    expect([refused.status, refused.body.errorType]).toEqual([409, 'TICKET_UNPAID'])
    // the desk records the payment (thin call to the organiser's mark-paid service), then admits
    const paid = await admin.post(`/proxy/api/events/${event.id}/orders/${reg.payment.orderId}/deskPayment`)
    expect(paid.status).toBe(200)
    expect((await orderRow(orderId)).status).toBe('PAID')
    expect((await orderRow(orderId)).paid_amount).toBe(5000)
    const again = (await lookup(event.id, `search=Käuferin`)).body.items[0]
    expect(again.canCheckin).toBe(true)
    expect(again.payment).toMatchObject({ status: 'PAID', amountDue: 0, ticketBlocked: null })
    const inn = await admin.post(`/proxy/api/events/${event.id}/checkin`, { visitorId, checkinGuests: 'ALL' })
    expect(inn.status).toBe(200)
    expect(inn.body.checkedIn).toEqual([0, 1])
    // and the documents are there now
    expect((await anon().get(`/proxy/api/download/${download_token}`)).status).toBe(200)
    const dash2 = (await guest.get('/proxy/api/guest/events')).body.confirmedEvents.find((x: any) => x.id === visitorId)
    expect(dash2.ticketBlocked).toBeNull()
    expect(dash2.tokens.downloadLinkTicket).toBeDefined()
    // twice is once: a second desk payment is refused, nothing changes
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${reg.payment.orderId}/deskPayment`)).status).toBe(409)
  })

  test('B: two desks record one payment at once: one wins, the other is refused, the payment is recorded once; an order still in its checkout cannot be recorded at the desk', async () => {
    const { event, visitorId, orderId } = await transferOrder()
    // still in checkout: the registration waits (PENDING), the desk shows it unpaid but cannot take it
    const pending = (await lookup(event.id, 'search=Käuferin')).body.items.find((x: any) => x.id === visitorId)
    expect(pending.payment).toMatchObject({ ticketBlocked: 'UNPAID', canRecord: false })
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${pending.payment.orderId}/deskPayment`)).body.errorType).toBe('ORDER_NOT_OPEN')
    expect((await pay(h(), orderId, 'TRANSFER')).step).toBe(100)
    const o = await orderRow(orderId)
    const reg = (await lookup(event.id, 'search=Käuferin')).body.items.find((x: any) => x.id === visitorId)
    expect(reg.payment).toMatchObject({ ticketBlocked: 'UNPAID', canRecord: true })
    const answers = await Promise.all(Array.from({ length: 6 }, () => admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/deskPayment`)))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409])
    const history = await h().ctx.db.selectFrom('ticket_order_history').select('kind').where('order_id', '=', o.id).where('kind', '=', 'MARKED_PAID').execute()
    expect(history).toHaveLength(1)
    // another agency's desk: 404
    const other = await h().admin({ agency: 'Andere Agentur' })
    expect((await other.post(`/proxy/api/events/${event.id}/orders/${o.id}/deskPayment`)).status).toBe(404)
  })

  test('B: pay by invoice: tickets at once by default; after payment when the event says so (tickets tab setting)', async () => {
    const { event, visitorId, orderId } = await transferOrder()
    expect((await admin.get(`/proxy/api/events/${event.id}/ticketSettings`)).body).toMatchObject({ invoiceTickets: 'AT_ONCE' })
    expect((await pay(h(), orderId, 'INVOICE')).step).toBe(100)
    expect((await orderRow(orderId)).status).toBe('CONFIRMED')
    const { download_token, event_token } = await tokensOf(visitorId)
    expect((await anon().get(`/proxy/api/download/${download_token}`)).status).toBe(200)
    let reg = (await lookup(event.id, 'search=Käuferin')).body.items[0]
    expect(reg.canCheckin).toBe(true)
    expect(reg.payment).toMatchObject({ method: 'INVOICE', amountDue: 5000, ticketBlocked: null })

    const bad = await admin.put(`/proxy/api/events/${event.id}/ticketSettings`, { invoiceTickets: 'SOMETIMES' })
    expect(bad.status).toBe(400)
    const set = await admin.put(`/proxy/api/events/${event.id}/ticketSettings`, { invoiceTickets: 'AFTER_PAYMENT' })
    expect([set.status, set.body.invoiceTickets]).toEqual([200, 'AFTER_PAYMENT'])
    expect((await anon().get(`/proxy/api/download/${download_token}`)).status).toBe(409)
    reg = (await lookup(event.id, 'search=Käuferin')).body.items[0]
    expect(reg.canCheckin).toBe(false)
    expect(reg.payment.ticketBlocked).toBe('UNPAID')
    const self = await anon().post('/proxy/api/guest/checkInOut', { origin: 'selfcheckin', token: event_token, checkinGuests: [0] })
    expect([self.status, self.body.errorType]).toEqual([409, 'TICKET_UNPAID'])
    // another agency's event: 404
    const other = await h().admin({ agency: 'Fremde Agentur' })
    expect((await other.put(`/proxy/api/events/${event.id}/ticketSettings`, { invoiceTickets: 'AT_ONCE' })).status).toBe(404)
    expect((await other.get(`/proxy/api/events/${event.id}/ticketSettings`)).status).toBe(404)
  })

  test('B: pay at the location: admitted, the desk shows what it collects', async () => {
    const { event, visitorId, orderId } = await transferOrder()
    expect((await pay(h(), orderId, 'LOCATION')).step).toBe(100)
    const reg = (await lookup(event.id, 'search=Käuferin')).body.items[0]
    expect(reg.canCheckin).toBe(true)
    expect(reg.payment).toMatchObject({ method: 'LOCATION', status: 'CONFIRMED', amountDue: 5000, ticketBlocked: null })
    const { download_token } = await tokensOf(visitorId)
    expect((await anon().get(`/proxy/api/download/${download_token}`)).status).toBe(200)
    expect((await admin.post(`/proxy/api/events/${event.id}/checkin`, { visitorId, checkinGuests: [0] })).status).toBe(200)
  })

  test('B: refunded and cancelled orders: no tickets, refused at the desk and at self check-in, also when the registration is set back by hand', async () => {
    for (const end of ['refund', 'cancel'] as const) {
      const { event, visitorId, orderId } = await transferOrder()
      expect((await pay(h(), orderId, 'TRANSFER')).step).toBe(100)
      const o = await orderRow(orderId)
      expect((await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/markPaid`, { amount: 5000, paidAt: new Date().toISOString() })).status).toBe(200)
      expect((await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/${end}`)).status).toBe(200)
      const { download_token, event_token } = await tokensOf(visitorId)
      expect((await anon().get(`/proxy/api/download/${download_token}`)).status).not.toBe(200)
      expect((await admin.post(`/proxy/api/events/${event.id}/checkin`, { visitorId, checkinGuests: [0] })).status).toBe(409)
      // a registration set back to CONFIRMED by hand keeps no ticket while its order is refunded or cancelled
      await h().ctx.db.updateTable('event_visitor').set({ status: 'CONFIRMED' }).where('id', '=', visitorId).execute()
      const reg = (await lookup(event.id, 'search=Käuferin')).body.items.find((x: any) => x.id === visitorId)
      expect(reg.canCheckin).toBe(false)
      expect(reg.payment.ticketBlocked).toBe(end === 'refund' ? 'REFUNDED' : 'CANCELED')
      const desk = await admin.post(`/proxy/api/events/${event.id}/checkin`, { visitorId, checkinGuests: [0] })
      expect([desk.status, desk.body.errorType]).toEqual([409, end === 'refund' ? 'TICKET_ORDER_REFUNDED' : 'TICKET_ORDER_CANCELED'])
      const self = await anon().post('/proxy/api/guest/checkInOut', { origin: 'selfcheckin', token: event_token, checkinGuests: [0] })
      expect([self.status, self.body.errorType]).toEqual([409, end === 'refund' ? 'TICKET_ORDER_REFUNDED' : 'TICKET_ORDER_CANCELED'])
      expect((await anon().get(`/proxy/api/download/${download_token}`)).status).toBe(409)
      expect((await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/deskPayment`)).status).toBe(409)
    }
  })
}, { license: licenseWith([], { events: -1 }) })
