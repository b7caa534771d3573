// The payment deadline of unpaid transfers and invoices (issue 21, docs/ticketing.md "Payment
// deadline"): the event's setting, the deadline capped at the start, the reminder, the cancellation
// at the deadline giving every place back (once, also when run twice or against a late payment),
// the "overdue" list when the event does not cancel, the organiser's extension.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { runDeadline } from './orders/deadline'
import { buy, buyer, paidEvent, pay } from './testing'

const DAY = 86400_000

forEachDialect('payment deadline', (h) => {
  const sold = async (categoryId: number) => (await h().ctx.db.selectFrom('ticket_category').select('sold').where('id', '=', categoryId).executeTakeFirstOrThrow()).sold
  const seatsTaken = async (eventId: number) => (await h().ctx.db.selectFrom('event').select('seats_taken').where('id', '=', eventId).executeTakeFirstOrThrow()).seats_taken
  const orderRow = (publicId: string) => h().ctx.db.selectFrom('ticket_order').selectAll().where('public_id', '=', publicId).executeTakeFirstOrThrow()
  /** an event a month ahead of the test clock (the clock moves on from test to test) */
  const later = () => {
    const start = h().ctx.clock.now().getTime() + 30 * DAY
    return { startDate: new Date(start).toISOString(), endDate: new Date(start + 4 * 3600_000).toISOString() }
  }
  /** runs every task that is due now (the runner's lanes until idle) */
  const runTasks = async () => {
    while ((await h().tasks.runOnce()) > 0) {}
  }

  test('settings: defaults, change, validation, another agency', async () => {
    const admin = await h().admin()
    const { event } = await paidEvent(admin, { event: later() })
    const url = `/proxy/api/events/${event.id}/ticketSettings`
    expect((await admin.get(url)).body).toEqual({ invoiceTickets: 'AT_ONCE', paymentDeadlineDays: null, agencyPaymentTermsDays: 14, cancelOverdue: true })
    // a field left out keeps its value
    expect((await admin.put(url, { paymentDeadlineDays: 5, cancelOverdue: false })).body).toMatchObject({ invoiceTickets: 'AT_ONCE', paymentDeadlineDays: 5, cancelOverdue: false })
    expect((await admin.put(url, { invoiceTickets: 'AFTER_PAYMENT' })).body).toMatchObject({ invoiceTickets: 'AFTER_PAYMENT', paymentDeadlineDays: 5, cancelOverdue: false })
    expect((await admin.put(url, { paymentDeadlineDays: null })).body.paymentDeadlineDays).toBeNull()
    for (const bad of [0, 366, 2.5]) {
      const r = await admin.put(url, { paymentDeadlineDays: bad })
      expect(r.status).toBe(400)
      expect(r.body.errorFields).toEqual([{ field: 'paymentDeadlineDays', errorType: 'INVALID' }])
    }
    const other = await h().admin()
    expect((await other.put(url, { paymentDeadlineDays: 3 })).status).toBe(404)
    expect((await other.get(url)).status).toBe(404)
  })

  test('the deadline: days after the order, never after the start; a reminder two days before; the transfer cancelled at it gives every place back, once', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: later(), categories: [{ displayName: 'Steh', grossPrice: 2500, taxCode: 'TAX_19', quota: 5 }] })
    await admin.post(`/proxy/api/events/${event.id}/coupons`, { code: 'FRUEH', valueType: 'FIXED', reduction: 500, maxUses: 1 })
    expect((await admin.put(`/proxy/api/events/${event.id}/ticketSettings`, { paymentDeadlineDays: 7 })).status).toBe(200)
    const cat = categories[0].id
    const before = await seatsTaken(event.id)
    const b = buyer([{ categoryId: cat, amount: 1 }], { couponCode: 'FRUEH' })
    const r = await buy(h(), event.id, b)
    expect(r.status).toBe(201)
    const id = r.body.ticketOrderId
    const ordered = h().ctx.clock.now().getTime()
    expect(await pay(h(), id, 'TRANSFER')).toMatchObject({ step: 100, status: 'OPEN' })
    const o = await orderRow(id)
    expect(Math.abs(Date.parse(o.payment_due_at!) - (ordered + 7 * DAY))).toBeLessThan(60_000)
    expect(await sold(cat)).toBe(1)
    const taken = await seatsTaken(event.id)
    expect(taken).toBeGreaterThan(before)
    await h().deliverMail()
    h().smtp.mails.length = 0

    // before the reminder: nothing
    h().clock.advance(4 * DAY)
    await runTasks()
    await h().deliverMail()
    expect(h().smtp.to(b.email as string)).toEqual([])
    // two days before: the reminder, with the transfer details, once
    h().clock.advance(1 * DAY + 60_000)
    await runTasks()
    expect(await runDeadline(h().ctx, o.id)).toBe('NOTHING')
    await h().deliverMail()
    const reminders = h().smtp.to(b.email as string)
    expect(reminders.map((m) => m.subject)).toEqual([`Zahlungserinnerung: Bestellung ${o.number}`])
    expect(reminders[0].text).toContain(`Verwendungszweck SF-${o.number}`)
    expect(reminders[0].text).toContain('wird die Bestellung storniert')
    // still open and not overdue
    const list = async () => (await admin.post(`/proxy/api/events/${event.id}/orders/search`, {})).body.items[0]
    expect(await list()).toMatchObject({ status: 'OPEN', overdue: false })

    // the deadline passes: the task cancels the order and gives back tickets, places and the coupon
    h().clock.advance(2 * DAY)
    await runTasks()
    const after = await orderRow(id)
    expect(after).toMatchObject({ status: 'CANCELED', step: 900, tickets_held: 0 })
    expect(await sold(cat)).toBe(0)
    expect(await seatsTaken(event.id)).toBe(before)
    expect((await h().ctx.db.selectFrom('coupon').select('used').where('event_id', '=', event.id).executeTakeFirstOrThrow()).used).toBe(0)
    expect((await h().ctx.db.selectFrom('event_visitor').select('status').where('id', '=', after.visitor_id!).executeTakeFirstOrThrow()).status).toBe('DELETED')
    // run again (a second process, a retried task): nothing more is given back, no second mail
    expect(await runDeadline(h().ctx, o.id)).toBe('NOTHING')
    expect(await sold(cat)).toBe(0)
    expect(await seatsTaken(event.id)).toBe(before)
    await h().deliverMail()
    const mails = h().smtp.to(b.email as string).map((m) => m.subject)
    expect(mails).toEqual([`Zahlungserinnerung: Bestellung ${o.number}`, `Bestellung storniert: ${o.number} (Zahlungsfrist abgelaufen)`])
    const detail = (await admin.get(`/proxy/api/events/${event.id}/orders/${o.id}`)).body
    expect(detail.history.map((x: any) => x.kind).slice(-2)).toEqual(['PAYMENT_REMINDER', 'PAYMENT_DEADLINE_EXPIRED'])
    expect(detail.overdue).toBe(false)
    // a payment arriving now does not revive the order (the bank import lists it for a person)
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/markPaid`, { amount: 2000, paidAt: h().ctx.clock.now().toISOString() })).body.errorType).toBe('ORDER_NOT_OPEN')
    expect(await sold(cat)).toBe(0)
    // the guest's pay page shows the cancelled order; it cannot be continued
    expect((await h().request('GET', `/proxy/api/guest/ticketOrder/${id}`)).body.ticketOrder).toMatchObject({ status: 'CANCELED', step: 900 })
    // the audit log names the system's cancellation
    const log = (await admin.get('/proxy/api/agency/audit?action=order.cancel')).body
    expect(log.items.some((e: any) => e.entityId === o.number && e.detail?.reason === 'PAYMENT_DEADLINE')).toBe(true)
  })

  test('the deadline is the start when that comes first; no reminder for a short term', async () => {
    const admin = await h().admin()
    const start = new Date(h().ctx.clock.now().getTime() + 2 * DAY)
    const { event, categories } = await paidEvent(admin, { event: { startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600_000).toISOString() } })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    await pay(h(), r.body.ticketOrderId, 'TRANSFER')
    const o = await orderRow(r.body.ticketOrderId)
    expect(Date.parse(o.payment_due_at!)).toBe(Date.parse((await h().ctx.db.selectFrom('event').select('start_date').where('id', '=', event.id).executeTakeFirstOrThrow()).start_date))
    await h().deliverMail()
    h().smtp.mails.length = 0
    h().clock.advance(1 * DAY)
    await runTasks()
    await h().deliverMail()
    expect(h().smtp.mails.filter((m) => m.subject.startsWith('Zahlungserinnerung'))).toEqual([])
    h().clock.advance(1 * DAY + 60_000)
    await runTasks()
    expect((await orderRow(r.body.ticketOrderId)).status).toBe('CANCELED')
  })

  test('an event that does not cancel: overdue in the list and its filter; the organiser extends it (history, audit, new reminder); invoices are reminded, never cancelled', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: later() })
    await admin.put(`/proxy/api/events/${event.id}/ticketSettings`, { paymentDeadlineDays: 4, cancelOverdue: false })
    const t = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email: 'toni@example.org' }))
    await pay(h(), t.body.ticketOrderId, 'TRANSFER')
    const inv = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email: 'ines@example.org' }))
    await pay(h(), inv.body.ticketOrderId, 'INVOICE')
    const transfer = await orderRow(t.body.ticketOrderId)
    await h().deliverMail()
    h().smtp.mails.length = 0

    h().clock.advance(2 * DAY + 60_000)
    await runTasks()
    await h().deliverMail()
    // both reminded; the transfer's reminder does not threaten a cancellation here
    expect(h().smtp.to('toni@example.org').map((m) => m.subject)).toEqual([`Zahlungserinnerung: Bestellung ${transfer.number}`])
    expect(h().smtp.to('toni@example.org')[0].text).not.toContain('storniert')
    expect(h().smtp.to('ines@example.org').map((m) => m.subject)).toEqual([expect.stringContaining('Zahlungserinnerung')])

    h().clock.advance(3 * DAY)
    await runTasks()
    expect((await orderRow(t.body.ticketOrderId)).status).toBe('OPEN')
    expect((await orderRow(inv.body.ticketOrderId)).status).toBe('CONFIRMED')
    const search = (body: Record<string, unknown>) => admin.post(`/proxy/api/events/${event.id}/orders/search`, body)
    const overdue = (await search({ payment: 'OVERDUE' })).body.items
    expect(overdue.map((o: any) => o.email).sort()).toEqual(['ines@example.org', 'toni@example.org'])
    expect(overdue.every((o: any) => o.overdue)).toBe(true)

    // extension: in the future, not after the event's end, only of this event's open orders
    const url = `/proxy/api/events/${event.id}/orders/${transfer.id}/extendDeadline`
    const past = await admin.post(url, { paymentDueAt: new Date(h().ctx.clock.now().getTime() - 60_000).toISOString() })
    expect(past.status).toBe(400)
    expect(past.body.errorFields).toEqual([{ field: 'paymentDueAt', errorType: 'PAYMENT_DEADLINE_IN_PAST' }])
    const late = await admin.post(url, { paymentDueAt: new Date(Date.parse(event.endDate) + 60_000).toISOString() })
    expect(late.body.errorFields).toEqual([{ field: 'paymentDueAt', errorType: 'PAYMENT_DEADLINE_AFTER_EVENT' }])
    expect((await admin.post(url, { paymentDueAt: 'morgen' })).status).toBe(400)
    const other = await h().admin()
    expect((await other.post(url, { paymentDueAt: new Date(h().ctx.clock.now().getTime() + 4 * DAY).toISOString() })).status).toBe(404)
    const { event: otherEvent } = await paidEvent(admin, { event: later() })
    expect((await admin.post(`/proxy/api/events/${otherEvent.id}/orders/${transfer.id}/extendDeadline`, { paymentDueAt: new Date(h().ctx.clock.now().getTime() + 4 * DAY).toISOString() })).status).toBe(404)

    const to = new Date(h().ctx.clock.now().getTime() + 4 * DAY)
    const ext = await admin.post(url, { paymentDueAt: to.toISOString() })
    expect(ext.status).toBe(200)
    expect(ext.body).toMatchObject({ overdue: false, paymentDueAt: to.toISOString() })
    const entry = ext.body.history.at(-1)
    expect(entry).toMatchObject({ kind: 'DEADLINE_EXTENDED', accountId: admin.accountId, data: { from: transfer.payment_due_at, to: to.toISOString() } })
    expect((await search({ payment: 'OVERDUE' })).body.items.map((o: any) => o.email)).toEqual(['ines@example.org'])
    const log = (await admin.get('/proxy/api/agency/audit?action=order.extendDeadline')).body
    expect(log.items[0]).toMatchObject({ entityId: transfer.number, changes: { paymentDueAt: [transfer.payment_due_at, to.toISOString()] } })

    // a new reminder before the new deadline
    h().smtp.mails.length = 0
    h().clock.advance(2 * DAY + 60_000)
    await runTasks()
    await h().deliverMail()
    expect(h().smtp.to('toni@example.org').map((m) => m.subject)).toEqual([`Zahlungserinnerung: Bestellung ${transfer.number}`])
    // a paid order has no deadline to extend
    await admin.post(`/proxy/api/events/${event.id}/orders/${transfer.id}/markPaid`, { amount: 2500, paidAt: h().ctx.clock.now().toISOString() })
    expect((await admin.post(url, { paymentDueAt: new Date(h().ctx.clock.now().getTime() + DAY).toISOString() })).body.errorType).toBe('ORDER_NOT_OPEN')
  })

  test('an extension before the deadline keeps the order: the old deadline task does nothing', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: later() })
    await admin.put(`/proxy/api/events/${event.id}/ticketSettings`, { paymentDeadlineDays: 2 })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    await pay(h(), r.body.ticketOrderId, 'TRANSFER')
    const o = await orderRow(r.body.ticketOrderId)
    h().clock.advance(DAY)
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/extendDeadline`, { paymentDueAt: new Date(h().ctx.clock.now().getTime() + 5 * DAY).toISOString() })).status).toBe(200)
    h().clock.advance(DAY + 60_000)
    await runTasks()
    expect((await orderRow(r.body.ticketOrderId)).status).toBe('OPEN')
    h().clock.advance(4 * DAY)
    await runTasks()
    expect((await orderRow(r.body.ticketOrderId)).status).toBe('CANCELED')
  })

  test('the sweep racing a late payment or itself: exactly one wins, places given back at most once', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: later(), categories: [{ displayName: 'Steh', grossPrice: 2500, taxCode: 'TAX_19', quota: 20 }] })
    await admin.put(`/proxy/api/events/${event.id}/ticketSettings`, { paymentDeadlineDays: 1 })
    const cat = categories[0].id
    const orders = []
    for (let i = 0; i < 6; i++) {
      const r = await buy(h(), event.id, buyer([{ categoryId: cat, amount: 1 }]))
      await pay(h(), r.body.ticketOrderId, 'TRANSFER')
      orders.push(await orderRow(r.body.ticketOrderId))
    }
    expect(await sold(cat)).toBe(6)
    const taken = await seatsTaken(event.id)
    h().clock.advance(DAY + 60_000)
    let paid = 0
    for (const [i, o] of orders.entries()) {
      if (i % 2 === 0) {
        // the sweep and a payment recorded at the same moment
        const [swept, marked] = await Promise.all([runDeadline(h().ctx, o.id), admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/markPaid`, { amount: 2500, paidAt: h().ctx.clock.now().toISOString() })])
        expect((swept === 'CANCELED') !== (marked.status === 200)).toBe(true)
        if (marked.status !== 200) expect(marked.body.errorType).toBe('ORDER_NOT_OPEN')
        else paid++
      } else {
        // two sweeps (two processes) at once
        const results = await Promise.all([runDeadline(h().ctx, o.id), runDeadline(h().ctx, o.id), runDeadline(h().ctx, o.id)])
        expect(results.filter((x) => x === 'CANCELED').length).toBe(1)
      }
    }
    expect(await sold(cat)).toBe(paid)
    expect(await seatsTaken(event.id)).toBe(taken - (6 - paid))
    const rows = await h().ctx.db.selectFrom('ticket_order').select(['status']).where('event_id', '=', event.id).execute()
    expect(rows.filter((x) => x.status === 'PAID').length).toBe(paid)
    expect(rows.filter((x) => x.status === 'CANCELED').length).toBe(6 - paid)
  })

  test('an undone "mark paid" after the deadline: the deadline moves a day on, then the sweep cancels', async () => {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: later() })
    await admin.put(`/proxy/api/events/${event.id}/ticketSettings`, { paymentDeadlineDays: 1 })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }]))
    await pay(h(), r.body.ticketOrderId, 'TRANSFER')
    const o = await orderRow(r.body.ticketOrderId)
    // past the deadline, before the sweep ran: the payment is recorded, and undone (a typing error)
    h().clock.advance(DAY + 60_000)
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/markPaid`, { amount: 2500, paidAt: h().ctx.clock.now().toISOString() })).status).toBe(200)
    const undone = await admin.post(`/proxy/api/events/${event.id}/orders/${o.id}/undoPaid`)
    expect(undone.status).toBe(200)
    expect(undone.body.history.at(-1)).toMatchObject({ kind: 'DEADLINE_MOVED', data: { reason: 'MARKED_PAID_UNDONE' } })
    await runTasks()
    expect((await orderRow(r.body.ticketOrderId)).status).toBe('OPEN')
    h().clock.advance(DAY + 60_000)
    await runTasks()
    expect((await orderRow(r.body.ticketOrderId)).status).toBe('CANCELED')
  })
})
