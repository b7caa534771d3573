// A guest's cancellation request for a paid order (issue 21, docs/ticketing.md "Cancellation
// requests"): only the guest's own paid order, before the start, with a reason, one open at a time
// (also two at once), rate-limited; the organiser sees open ones (marker, filter), declines with a
// reason (mailed) or grants (refund + credit note path, mailed); another agency gets 404.
import { expect, test } from 'bun:test'
import { forEachDialect } from '../../testing/harness'
import { buy, buyer, guestOf, paidEvent, pay } from './testing'

const DAY = 86400_000

forEachDialect('cancellation requests', (h) => {
  const later = () => {
    const start = h().ctx.clock.now().getTime() + 30 * DAY
    return { startDate: new Date(start).toISOString(), endDate: new Date(start + 4 * 3600_000).toISOString() }
  }
  async function paidOrder(email: string) {
    const admin = await h().admin()
    const { event, categories } = await paidEvent(admin, { event: later(), categories: [{ displayName: 'Steh', grossPrice: 2500, taxCode: 'TAX_19', quota: 10 }] })
    const r = await buy(h(), event.id, buyer([{ categoryId: categories[0].id, amount: 1 }], { email }))
    await pay(h(), r.body.ticketOrderId, 'TRANSFER')
    const o = await h().ctx.db.selectFrom('ticket_order').selectAll().where('public_id', '=', r.body.ticketOrderId).executeTakeFirstOrThrow()
    return { admin, event, category: categories[0], order: o, visitorId: o.visitor_id! }
  }

  test('request, marker and filter, decline with a reason, request again (two at once: one), grant refunds with mail', async () => {
    const { admin, event, category, order, visitorId } = await paidOrder('rita@example.org')
    const guest = await guestOf(h(), visitorId)
    const url = `/proxy/api/guest/events/visitors/${visitorId}/cancellationRequest`
    // not paid yet
    expect((await guest.post(url, { reason: 'Krank' })).body.errorType).toBe('ORDER_NOT_PAID')
    expect((await admin.post(`/proxy/api/events/${event.id}/orders/${order.id}/markPaid`, { amount: 2500, paidAt: h().ctx.clock.now().toISOString() })).status).toBe(200)
    // a reason is required; another guest's registration is not found
    const empty = await guest.post(url, { reason: '  ' })
    expect(empty.status).toBe(400)
    expect(empty.body.errorFields).toEqual([{ field: 'reason', errorType: 'REQUIRED' }])
    const stranger = await paidOrder('sven@example.org')
    const other = await guestOf(h(), stranger.visitorId)
    expect((await other.post(url, { reason: 'Ich will das' })).status).toBe(404)
    expect((await h().agent().post(url, { reason: 'Ich will das' })).status).toBe(401)

    const sent = await guest.post(url, { reason: 'Ich bin leider krank.' })
    expect(sent.status).toBe(200)
    expect(sent.body).toMatchObject({ status: 'OPEN', reason: 'Ich bin leider krank.' })
    expect((await guest.post(url, { reason: 'Nochmal' })).body.errorType).toBe('CANCELLATION_REQUEST_OPEN')
    // the guest's card shows it
    const dash = (await guest.get('/proxy/api/guest/events')).body
    const card = [...(dash.confirmedEvents ?? []), ...(dash.pendingEvents ?? [])].find((e: any) => e.id === visitorId)
    expect(card.ticketOrder.cancellationRequest).toMatchObject({ status: 'OPEN', reason: 'Ich bin leider krank.' })

    // the organiser's list: marker and filter
    const search = (body: Record<string, unknown>) => admin.post(`/proxy/api/events/${event.id}/orders/search`, body)
    const open = (await search({ cancellationRequest: 'OPEN' })).body.items
    expect(open.map((o: any) => o.id)).toEqual([order.id])
    expect(open[0].cancellationRequest).toMatchObject({ status: 'OPEN', reason: 'Ich bin leider krank.' })

    // declined with a reason: mailed; no longer open
    const decl = `/proxy/api/events/${event.id}/orders/${order.id}/cancellationRequest/decline`
    expect((await admin.post(decl, { reason: '' })).status).toBe(400)
    expect((await other.post(decl, { reason: 'x' })).status).toBe(401)
    const outsider = await h().admin()
    expect((await outsider.post(decl, { reason: 'Nein' })).status).toBe(404)
    const declined = await admin.post(decl, { reason: 'Die Frist für Stornierungen ist abgelaufen.' })
    expect(declined.status).toBe(200)
    expect(declined.body.cancellationRequests).toMatchObject([{ status: 'DECLINED', declineReason: 'Die Frist für Stornierungen ist abgelaufen.' }])
    expect(declined.body.history.at(-1)).toMatchObject({ kind: 'CANCELLATION_DECLINED', accountId: admin.accountId })
    expect((await admin.post(decl, { reason: 'Nein' })).body.errorType).toBe('CANCELLATION_REQUEST_NOT_OPEN')
    expect((await search({ cancellationRequest: 'OPEN' })).body.total).toBe(0)
    await h().deliverMail()
    const mail = h().smtp.to('rita@example.org').find((m) => m.subject === `Ihre Stornierungsanfrage zur Bestellung ${order.number}`)!
    expect(mail.text).toContain('Begründung: Die Frist für Stornierungen ist abgelaufen.')
    expect(mail.text).toContain('Ihre Anfrage: Ich bin leider krank.')
    expect((await h().ctx.db.selectFrom('ticket_order').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status).toBe('PAID')

    // asked again, twice at the same moment: one request
    const twice = await Promise.all([guest.post(url, { reason: 'Bitte doch' }), guest.post(url, { reason: 'Bitte doch' })])
    expect(twice.map((r) => r.status).sort()).toEqual([200, 409])
    expect(twice.find((r) => r.status === 409)!.body.errorType).toBe('CANCELLATION_REQUEST_OPEN')

    // granted: refunded through the offline refund path, tickets back, the guest is mailed
    expect(await h().ctx.db.selectFrom('ticket_category').select('sold').where('id', '=', category.id).executeTakeFirstOrThrow()).toEqual({ sold: 1 })
    const grant = `/proxy/api/events/${event.id}/orders/${order.id}/cancellationRequest/grant`
    expect((await outsider.post(grant)).status).toBe(404)
    const granted = await admin.post(grant)
    expect(granted.status).toBe(200)
    expect(granted.body).toMatchObject({ status: 'REFUNDED', step: 902 })
    expect(granted.body.cancellationRequests.map((r: any) => r.status)).toEqual(['DECLINED', 'GRANTED'])
    expect(granted.body.history.slice(-2).map((x: any) => x.kind)).toEqual(['REFUNDED', 'CANCELLATION_GRANTED'])
    expect(await h().ctx.db.selectFrom('ticket_category').select('sold').where('id', '=', category.id).executeTakeFirstOrThrow()).toEqual({ sold: 0 })
    expect((await admin.post(grant)).body.errorType).toBe('CANCELLATION_REQUEST_NOT_OPEN')
    await h().deliverMail()
    expect(h().smtp.to('rita@example.org').map((m) => m.subject)).toContainEqual(expect.stringContaining('erstattet'))
    // a refunded order takes no request (an hour later: the guest used up the hour's five requests)
    h().clock.advance(61 * 60_000)
    expect((await guest.post(url, { reason: 'Und nochmal' })).body.errorType).toBe('ORDER_NOT_PAID')
  })

  test('rate-limited per guest; not once the event has started', async () => {
    const { admin, event, order, visitorId } = await paidOrder('tom@example.org')
    await admin.post(`/proxy/api/events/${event.id}/orders/${order.id}/markPaid`, { amount: 2500, paidAt: h().ctx.clock.now().toISOString() })
    const guest = await guestOf(h(), visitorId)
    const url = `/proxy/api/guest/events/visitors/${visitorId}/cancellationRequest`
    const answers = []
    for (let i = 0; i < 6; i++) answers.push((await guest.post(url, { reason: `Versuch ${i}` })).status)
    expect(answers).toEqual([200, 409, 409, 409, 409, 429])
    const late = await paidOrder('uta@example.org')
    await late.admin.post(`/proxy/api/events/${late.event.id}/orders/${late.order.id}/markPaid`, { amount: 2500, paidAt: h().ctx.clock.now().toISOString() })
    const g = await guestOf(h(), late.visitorId)
    h().clock.advance(31 * DAY)
    try {
      expect((await g.post(`/proxy/api/guest/events/visitors/${late.visitorId}/cancellationRequest`, { reason: 'Zu spät' })).body.errorType).toBe('CANCELLATION_REQUEST_TOO_LATE')
    } finally {
      h().clock.advance(-31 * DAY)
    }
  })
})
